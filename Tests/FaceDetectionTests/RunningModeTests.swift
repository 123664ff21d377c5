import FaceDetection
import XCTest

/// MediaPipe's running modes: image, video (timestamps strictly increasing,
/// blocking, in order) and live stream (asynchronous, newest frame wins).
final class RunningModeTests: XCTestCase {
    func testVideoRefusesNonIncreasingTimestampsAndStaysUsable() throws {
        let session = try FaceSession(models: TestData.models, options: TestData.options(.video))
        let image = try TestData.image("astronaut.jpg")
        XCTAssertEqual(try session.detectForVideo(image, timestampMs: 100).faces.count, 1)
        for stale: Int64 in [100, 99, -5] {
            XCTAssertThrowsError(try session.detectForVideo(image, timestampMs: stale)) { error in
                guard case FaceError.invalidArgument(let message) = error else { return XCTFail("\(error)") }
                XCTAssertTrue(message.contains("monotonically increasing"), message)
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
            ("minDetectionConfidence", { $0.minDetectionConfidence = 1.5 }),
            ("minSuppressionThreshold", { $0.minSuppressionThreshold = -0.1 }),
            ("minFacePresenceConfidence", { $0.minFacePresenceConfidence = .nan }),
            ("minTrackingConfidence", { $0.minTrackingConfidence = 2 }),
            ("minFaceSize", { $0.minFaceSize = -1 }),
            ("numFaces", { $0.numFaces = 0 }),
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

    func testLiveStreamDeliversEveryFrameAsResultOrDrop() async throws {
        let session = try LiveStreamFaceSession(models: TestData.models, options: TestData.options(.liveStream) {
            $0.landmarks = true
            $0.trackingEnabled = true
        })
        let frames = try TestData.goldens.videos["video"]!.map { try TestData.image($0.file) }
        // Sent as fast as possible, faster than they are processed, so some must wait and be replaced.
        for (index, frame) in frames.enumerated() {
            try session.send(frame, timestampMs: Int64(index + 1) * 10)
        }
        XCTAssertThrowsError(try session.send(frames[0], timestampMs: 5)) { error in
            guard case FaceError.invalidArgument = error else { return XCTFail("\(error)") }
        }
        session.close()
        var answered: [Int64] = [], dropped: [Int64] = []
        for await event in session.events {
            switch event {
            case .result(let result):
                answered.append(result.timestampMs ?? -1)
                XCTAssertEqual(result.faces.count, 1)
            case .dropped(let timestamp):
                dropped.append(timestamp)
            case .failed(let timestamp, let error):
                XCTFail("frame \(timestamp) failed: \(error)")
            }
        }
        XCTAssertEqual(Set(answered + dropped), Set((1...frames.count).map { Int64($0) * 10 }), "every frame is answered or dropped, once")
        XCTAssertEqual(answered.count + dropped.count, frames.count)
        XCTAssertEqual(answered, answered.sorted(), "results come in timestamp order")
        XCTAssertFalse(dropped.isEmpty, "frames sent faster than processed are dropped")
        XCTAssertEqual(answered.last, Int64(frames.count) * 10, "the newest frame is never dropped")
    }
}
