import FaceWorkerTasksVision
import Foundation
import XCTest

/// The Swift of MediaPipe's Face Detector guide for iOS, as written there
/// except where its images come from (files instead of UIKit), in each
/// running mode; the results are the Python client's on the same images.
final class FaceDetectorGuideTests: WorkerTestCase {
    private let goldens = ClientGoldens.shared

    func testImageMode() throws {
        let modelPath = Bundle.main.path(forResource: "model",
                                              ofType: "tflite")

        let options = FaceDetectorOptions()
        options.baseOptions.modelAssetPath = modelPath
        options.runningMode = .image

        let faceDetector = try FaceDetector(options: options)

        for (name, expected) in goldens.detectorImage.sorted(by: { $0.key < $1.key }) {
            let image = try MPImage(contentsOf: TestPaths.fixture(name))
            let result = try faceDetector.detect(image: image)
            assertEqual(result.detections, expected, name)
            XCTAssertEqual(result.timestampInMilliseconds, 0)
        }
    }

    func testVideoMode() throws {
        let modelPath = Bundle.main.path(forResource: "model",
                                              ofType: "tflite")

        let options = FaceDetectorOptions()
        options.baseOptions.modelAssetPath = modelPath
        options.runningMode = .video

        let faceDetector = try FaceDetector(options: options)

        for (index, frame) in try TestPaths.frames(of: "video").enumerated() {
            let image = try MPImage(contentsOf: frame)
            let timestamp = index * goldens.frameMs
            let result = try faceDetector.detect(
              videoFrame: image,
              timestampInMilliseconds: timestamp)
            assertEqual(result.detections, goldens.detectorVideo[index], "frame \(index)")
            XCTAssertEqual(result.timestampInMilliseconds, timestamp)
        }
    }

    func testLiveStreamMode() throws {
        // Class that conforms to the `FaceDetectorLiveStreamDelegate` protocol and
        // implements the method that the face detector calls once it finishes
        // detecting faces in each input frame.
        class FaceDetectorResultProcessor: NSObject, FaceDetectorLiveStreamDelegate {
          let outcomes = Outcomes<FaceDetectorResult>()

          func faceDetector(
            _ faceDetector: FaceDetector,
            didFinishDetection result: FaceDetectorResult?,
            timestampInMilliseconds: Int,
            error: Error?) {

            // Process the face detection result or errors here.
            outcomes.add(result, timestampInMilliseconds, error)
          }
        }

        let modelPath = Bundle.main.path(
          forResource: "model",
          ofType: "tflite")

        let options = FaceDetectorOptions()
        options.baseOptions.modelAssetPath = modelPath
        options.runningMode = .liveStream

        // Assign an object of the class to the `faceDetectorLiveStreamDelegate`
        // property.
        let processor = FaceDetectorResultProcessor()
        options.faceDetectorLiveStreamDelegate = processor

        let faceDetector = try FaceDetector(options: options)

        // One frame at a time, each sent once the previous one's result is in: none is replaced.
        for (index, frame) in try TestPaths.frames(of: "video").enumerated() {
            let image = try MPImage(contentsOf: frame)
            let timestamp = index * goldens.frameMs
            try faceDetector.detectAsync(
              image: image,
              timestampInMilliseconds: timestamp)
            let outcome = try processor.outcomes.next()
            XCTAssertNil(outcome.error)
            XCTAssertEqual(outcome.timestamp, timestamp)
            assertEqual(outcome.result?.detections ?? [], goldens.detectorVideo[index], "frame \(index)")
        }
    }

    func testAsyncFormsGiveTheSameResults() async throws {
        let options = FaceDetectorOptions()
        let faceDetector = try await FaceDetector(options: options)
        for (name, expected) in goldens.detectorImage {
            let result = try await faceDetector.detect(image: MPImage(contentsOf: TestPaths.fixture(name)))
            assertEqual(result.detections, expected, name)
        }
        await faceDetector.close()
    }
}
