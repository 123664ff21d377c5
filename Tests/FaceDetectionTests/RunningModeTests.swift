import FaceDetection
import XCTest

/// MediaPipe's running modes in a library session: image and video
/// (timestamps strictly increasing, blocking, in order); live stream is the
/// worker's, tested there.
final class RunningModeTests: XCTestCase {
    func testVideoRefusesNonIncreasingTimestampsAndStaysUsable() throws {
        let session = try FaceSession(models: TestData.models, options: TestData.options(.video))
        let image = try TestData.image("astronaut.jpg")
        XCTAssertEqual(try session.detectForVideo(image, timestampMs: 100).faces.count, 1)
        for stale: Int64 in [100, 99, -5] {
            XCTAssertThrowsError(try session.detectForVideo(image, timestampMs: stale)) { error in
                guard case FaceError.invalidArgument(let message) = error else { return XCTFail("\(error)") }
                XCTAssertTrue(message.contains("must increase"), message)
                XCTAssertTrue(message.contains("100"), message)
            }
        }
        let result = try session.detectForVideo(image, timestampMs: 101)
        XCTAssertEqual(result.timestampMs, 101)
        XCTAssertEqual(result.faces.count, 1)
    }

    func testResetForgetsTimestampsAndFacesButNotIDs() throws {
        let session = try FaceSession(models: TestData.models, options: TestData.options(.video) {
            $0.trackingEnabled = true
            $0.landmarks = true
        })
        let image = try TestData.image("astronaut.jpg")
        let first = try session.detectForVideo(image, timestampMs: 1000)
        XCTAssertFalse(try session.detectForVideo(image, timestampMs: 1033).detectorRan)
        session.reset()
        let again = try session.detectForVideo(image, timestampMs: 0)
        XCTAssertTrue(again.detectorRan, "after a reset the face is found afresh")
        XCTAssertNotEqual(again.faces.first?.trackingID, first.faces.first?.trackingID)
    }

    func testCallsThatDoNotFitTheModeAreRefused() throws {
        let image = try TestData.image("astronaut.jpg")
        let imageSession = try FaceSession(models: TestData.models, options: TestData.options(.image))
        XCTAssertThrowsError(try imageSession.detectForVideo(image, timestampMs: 1))
        let videoSession = try FaceSession(models: TestData.models, options: TestData.options(.video))
        XCTAssertThrowsError(try videoSession.detect(image))
        XCTAssertThrowsError(try FaceSession(models: TestData.models, options: TestData.options(.liveStream)))
    }

    func testOptionsOutOfRangeAreRefusedByName() {
        let cases: [(String, (inout FaceOptions) -> Void)] = [
            ("min_detection_confidence", { $0.minDetectionConfidence = 1.5 }),
            ("min_suppression_threshold", { $0.minSuppressionThreshold = -0.1 }),
            ("min_face_presence_confidence", { $0.minFacePresenceConfidence = .nan }),
            ("min_tracking_confidence", { $0.minTrackingConfidence = 2 }),
            ("min_face_size", { $0.minFaceSize = -1 }),
            ("num_faces", { $0.numFaces = 0 }),
        ]
        for (name, change) in cases {
            XCTAssertThrowsError(try FaceSession(models: TestData.models, options: TestData.options(.image, change))) { error in
                guard case FaceError.invalidArgument(let message) = error else { return XCTFail("\(error)") }
                XCTAssertTrue(message.hasPrefix(name), message)
            }
        }
    }

    func testNoFaceImagesGiveEmptyResultsNotErrors() throws {
        let session = try FaceSession(models: TestData.models, options: TestData.options {
            $0.landmarks = true
            $0.contours = true
            $0.numFaces = 4
        })
        for name in ["chelsea.jpg", "coffee.jpg", "rocket.jpg"] {
            XCTAssertEqual(try session.detect(TestData.image(name)).faces.count, 0, name)
        }
    }
}
