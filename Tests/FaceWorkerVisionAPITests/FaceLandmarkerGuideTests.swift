import FaceWorkerTasksVision
import Foundation
import XCTest

/// The Swift of MediaPipe's Face Landmarker guide for iOS, as written there
/// except where its images come from (files instead of UIKit), in each
/// running mode; the results are the Python client's on the same images.
final class FaceLandmarkerGuideTests: WorkerTestCase {
    private let goldens = ClientGoldens.shared
    // The guide's variables, at MediaPipe's defaults; two faces for the two-face fixture.
    private let minFaceDetectionConfidence: Float = 0.5
    private let minFacePresenceConfidence: Float = 0.5
    private let minTrackingConfidence: Float = 0.5
    private let numFaces = 2

    func testImageMode() throws {
        let modelPath = Bundle.main.path(
          forResource: "face_landmarker",
          ofType: "task")

        let options = FaceLandmarkerOptions()
        options.baseOptions.modelAssetPath = modelPath
        options.runningMode = .image
        options.minFaceDetectionConfidence = minFaceDetectionConfidence
        options.minFacePresenceConfidence = minFacePresenceConfidence
        options.minTrackingConfidence = minTrackingConfidence
        options.numFaces = numFaces
        options.outputFaceBlendshapes = true
        options.outputFacialTransformationMatrixes = true

        let faceLandmarker = try FaceLandmarker(options: options)

        for (name, expected) in goldens.landmarkerImage.sorted(by: { $0.key < $1.key }) {
            let image = try MPImage(contentsOf: TestPaths.fixture(name))
            let result = try faceLandmarker.detect(image: image)
            assertEqual(result, expected, name)
        }
    }

    func testVideoMode() throws {
        let modelPath = Bundle.main.path(
          forResource: "face_landmarker",
          ofType: "task")

        let options = FaceLandmarkerOptions()
        options.baseOptions.modelAssetPath = modelPath
        options.runningMode = .video
        options.minFaceDetectionConfidence = minFaceDetectionConfidence
        options.minFacePresenceConfidence = minFacePresenceConfidence
        options.minTrackingConfidence = minTrackingConfidence
        options.numFaces = numFaces
        options.outputFaceBlendshapes = true
        options.outputFacialTransformationMatrixes = true

        let faceLandmarker = try FaceLandmarker(options: options)

        for (index, expected) in goldens.landmarkerVideo.enumerated() {
            let image = try MPImage(contentsOf: try TestPaths.frames(of: "video")[index])
            let timestamp = index * goldens.frameMs
            let result = try faceLandmarker.detect(
              videoFrame: image,
              timestampInMilliseconds: timestamp)
            assertEqual(result, expected, "frame \(index)")
            XCTAssertEqual(result.timestampInMilliseconds, timestamp)
        }
    }

    func testLiveStreamMode() throws {
        // Class that conforms to the `FaceLandmarkerLiveStreamDelegate` protocol and
        // implements the method that the face landmarker calls once it finishes
        // performing face landmark detection in each input frame.
        class FaceLandmarkerResultProcessor: NSObject, FaceLandmarkerLiveStreamDelegate {
          let outcomes = Outcomes<FaceLandmarkerResult>()

          func faceLandmarker(
            _ faceLandmarker: FaceLandmarker,
            didFinishDetection result: FaceLandmarkerResult?,
            timestampInMilliseconds: Int,
            error: Error?) {

            // Process the face landmarker result or errors here.
            outcomes.add(result, timestampInMilliseconds, error)
          }
        }

        let modelPath = Bundle.main.path(
          forResource: "face_landmarker",
          ofType: "task")

        let options = FaceLandmarkerOptions()
        options.baseOptions.modelAssetPath = modelPath
        options.runningMode = .liveStream
        options.minFaceDetectionConfidence = minFaceDetectionConfidence
        options.minFacePresenceConfidence = minFacePresenceConfidence
        options.minTrackingConfidence = minTrackingConfidence
        options.numFaces = numFaces
        options.outputFaceBlendshapes = true
        options.outputFacialTransformationMatrixes = true

        // Assign an object of the class to the `faceLandmarkerLiveStreamDelegate`
        // property.
        let processor = FaceLandmarkerResultProcessor()
        options.faceLandmarkerLiveStreamDelegate = processor

        let faceLandmarker = try FaceLandmarker(options: options)

        // One frame at a time, each sent once the previous one's result is in: none is replaced.
        for (index, expected) in goldens.landmarkerVideo.enumerated() {
            let image = try MPImage(contentsOf: try TestPaths.frames(of: "video")[index])
            let timestamp = index * goldens.frameMs
            try faceLandmarker.detectAsync(
              image: image,
              timestampInMilliseconds: timestamp)
            let outcome = try processor.outcomes.next()
            XCTAssertNil(outcome.error)
            XCTAssertEqual(outcome.timestamp, timestamp)
            guard let result = outcome.result else { return XCTFail("frame \(index) has no result") }
            assertEqual(result, expected, "frame \(index)")
        }
    }

    func testTheDefaultInitializerRunsTheBundleInImageMode() throws {
        let faceLandmarker = try FaceLandmarker(modelPath: "face_landmarker.task")
        let result = try faceLandmarker.detect(image: MPImage(contentsOf: TestPaths.fixture("astronaut.jpg")))
        XCTAssertEqual(result.faceLandmarks.map(\.count), [478])
        // Blendshapes and matrices are off by default.
        XCTAssertEqual(result.faceBlendshapes, [])
        XCTAssertEqual(result.facialTransformationMatrixes, [])
    }
}
