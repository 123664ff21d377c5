import FaceWorkerMLKit
import Foundation
import XCTest

/// The Swift of ML Kit's face detection guide for iOS, as written there
/// except where its images come from (files instead of UIKit): its options,
/// `process` with a completion, `results(in:)`, and every `Face` property it
/// reads, on stills and, with tracking, on a video's frames; the faces are
/// the Python client's on the same images with the same options.
final class MLKitGuideTests: WorkerTestCase {
    private let goldens = ClientGoldens.shared

    func testProcessWithACompletion() throws {
        // High-accuracy landmark detection and face classification, with contours
        let options = FaceDetectorOptions()
        options.performanceMode = .accurate
        options.landmarkMode = .all
        options.classificationMode = .all
        options.contourMode = .all

        let faceDetector = FaceDetector.faceDetector(options: options)

        for (name, expected) in goldens.mlkitImage.sorted(by: { $0.key < $1.key }) {
            let visionImage = VisionImage(image: try FrameImage(contentsOf: TestPaths.fixture(name)))
            visionImage.orientation = .up
            let outcomes = Outcomes<[Face]>()

            faceDetector.process(visionImage) { faces, error in
              guard error == nil, let faces = faces, !faces.isEmpty else {
                // ...
                outcomes.add(faces, 0, error)
                return
              }

              // Faces detected
              outcomes.add(faces, 0, nil)
            }

            let outcome = try outcomes.next()
            XCTAssertNil(outcome.error, name)
            assertEqual(GuideReading.read(outcome.result ?? []), expected, name)
        }
    }

    func testResultsIn() throws {
        let options = FaceDetectorOptions()
        options.performanceMode = .accurate
        options.landmarkMode = .all
        options.classificationMode = .all
        options.contourMode = .all
        let faceDetector = FaceDetector.faceDetector(options: options)

        for (name, expected) in goldens.mlkitImage {
            let image = try VisionImage(contentsOf: TestPaths.fixture(name))
            let faces = try faceDetector.results(in: image)
            assertEqual(GuideReading.read(faces), expected, name)
        }
    }

    func testTrackingFollowsFacesAcrossAVideosFrames() throws {
        let options = FaceDetectorOptions()
        options.performanceMode = .accurate
        options.landmarkMode = .all
        options.classificationMode = .all
        options.contourMode = .all
        options.isTrackingEnabled = true
        let faceDetector = FaceDetector.faceDetector(options: options)

        for (index, frame) in try TestPaths.frames(of: "two_faces_video").enumerated() {
            let faces = try faceDetector.results(in: VisionImage(contentsOf: frame))
            assertEqual(GuideReading.read(faces), goldens.mlkitTracking[index], "frame \(index)")
        }
    }

    func testTheFirebaseNames() throws {
        // High-accuracy landmark detection and face classification
        let options = VisionFaceDetectorOptions()
        options.performanceMode = .accurate
        options.landmarkMode = .all
        options.classificationMode = .all
        options.contourMode = .all

        lazy var vision = Vision.vision()

        let faceDetector = vision.faceDetector(options: options)

        let image = VisionImage(buffer: try FrameImage(contentsOf: TestPaths.fixture("two_faces.jpg")))
        let metadata = VisionImageMetadata()
        metadata.orientation = .topLeft
        image.metadata = metadata

        let outcomes = Outcomes<[VisionFace]>()
        faceDetector.process(image) { faces, error in
          guard error == nil, let faces = faces, !faces.isEmpty else {
            outcomes.add(nil, 0, error)
            return
          }
          outcomes.add(faces, 0, nil)
        }
        let outcome = try outcomes.next()
        XCTAssertNil(outcome.error)
        assertEqual(GuideReading.read(outcome.result ?? []), goldens.mlkitImage["two_faces.jpg"] ?? [], "two_faces.jpg")
    }

    func testTheDefaultOptionsFindFacesWithoutLandmarksOrClassification() async throws {
        let faceDetector = FaceDetector.faceDetector()
        let faces = try await faceDetector.results(in: VisionImage(contentsOf: TestPaths.fixture("astronaut.jpg")))
        XCTAssertEqual(faces.count, 1)
        XCTAssertEqual(faces.first?.landmarks, [])
        XCTAssertEqual(faces.first?.contours, [])
        XCTAssertEqual(faces.first?.hasSmilingProbability, false)
        XCTAssertEqual(faces.first?.hasTrackingID, false)
        await faceDetector.close()
    }
}
