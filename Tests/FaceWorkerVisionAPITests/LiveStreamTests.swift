import FaceWorkerTasksVision
import Foundation
import XCTest

/// Live-stream outcomes: the delegate and the asynchronous sequence get the
/// same ones, a delegate that blocks holds up no other session, and a lost
/// worker is heard once, as an error.
final class LiveStreamTests: WorkerTestCase {
    private let goldens = ClientGoldens.shared

    func testABlockedDelegateStallsNoOtherSessionNorItsOwnSequence() throws {
        final class Stuck: NSObject, FaceDetectorLiveStreamDelegate {
            let entered = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            func faceDetector(_ faceDetector: FaceDetector, didFinishDetection result: FaceDetectorResult?, timestampInMilliseconds: Int, error: Error?) {
                entered.signal()
                release.wait()
            }
        }
        final class Recorder: NSObject, FaceDetectorLiveStreamDelegate {
            let outcomes = Outcomes<FaceDetectorResult>()
            func faceDetector(_ faceDetector: FaceDetector, didFinishDetection result: FaceDetectorResult?, timestampInMilliseconds: Int, error: Error?) {
                outcomes.add(result, timestampInMilliseconds, error)
            }
        }
        let frames = try TestPaths.frames(of: "video").map { try MPImage(contentsOf: $0) }
        let stuck = Stuck(), recorder = Recorder()
        let stuckOptions = FaceDetectorOptions(), options = FaceDetectorOptions()
        stuckOptions.runningMode = .liveStream
        stuckOptions.faceDetectorLiveStreamDelegate = stuck
        options.runningMode = .liveStream
        options.faceDetectorLiveStreamDelegate = recorder
        let stuckDetector = try FaceDetector(options: stuckOptions)
        let detector = try FaceDetector(options: options)
        defer {
            stuck.release.signal()
            stuck.release.signal()
        }

        let stuckSequence = Outcomes<FaceDetectorResult>()
        let results = stuckDetector.liveStreamResults
        Task {
            for await detection in results { stuckSequence.add(detection.result, detection.timestampInMilliseconds, detection.error) }
        }
        try stuckDetector.detectAsync(image: frames[0], timestampInMilliseconds: 0)
        XCTAssertEqual(stuck.entered.wait(timeout: .now() + 120), .success)

        for index in 0..<5 {
            try detector.detectAsync(image: frames[index], timestampInMilliseconds: index * goldens.frameMs)
            let outcome = try recorder.outcomes.next()
            assertEqual(outcome.result?.detections ?? [], goldens.detectorVideo[index], "frame \(index)")
        }
        try stuckDetector.detectAsync(image: frames[1], timestampInMilliseconds: goldens.frameMs)
        XCTAssertEqual(try stuckSequence.next().timestamp, 0)
        XCTAssertEqual(try stuckSequence.next().timestamp, goldens.frameMs)
    }

    func testTheDelegateHearsALostWorkerOnceAsAnError() throws {
        final class Recorder: NSObject, FaceLandmarkerLiveStreamDelegate {
            let outcomes = Outcomes<FaceLandmarkerResult>()
            func faceLandmarker(_ faceLandmarker: FaceLandmarker, didFinishDetection result: FaceLandmarkerResult?, timestampInMilliseconds: Int, error: Error?) {
                outcomes.add(result, timestampInMilliseconds, error)
            }
        }
        let image = try MPImage(contentsOf: TestPaths.fixture("astronaut.jpg"))
        let recorder = Recorder()
        let options = FaceLandmarkerOptions()
        options.runningMode = .liveStream
        options.faceLandmarkerLiveStreamDelegate = recorder
        let faceLandmarker = try FaceLandmarker(options: options)

        try faceLandmarker.detectAsync(image: image, timestampInMilliseconds: 1)
        XCTAssertEqual(try recorder.outcomes.next().result?.faceLandmarks.count, 1)

        try restartWorker()
        let outage = try recorder.outcomes.next()
        XCTAssertNil(outage.result)
        XCTAssertEqual((outage.error as? TasksError)?.code, .unavailableError)
        XCTAssertEqual(outage.timestamp, 1)

        // Back on the new worker: the next frame gets its result, and no second error comes first.
        try faceLandmarker.detectAsync(image: image, timestampInMilliseconds: 2)
        let next = try recorder.outcomes.next()
        XCTAssertNil(next.error)
        XCTAssertEqual(next.timestamp, 2)
        XCTAssertEqual(next.result?.faceLandmarks.count, 1)
    }

    func testCloseWaitsForTheLastFramesResult() async throws {
        final class Ignoring: FaceDetectorLiveStreamDelegate {
            func faceDetector(_ faceDetector: FaceDetector, didFinishDetection result: FaceDetectorResult?, timestampInMilliseconds: Int, error: Error?) {}
        }
        let delegate = Ignoring()
        let options = FaceDetectorOptions()
        options.runningMode = .liveStream
        options.faceDetectorLiveStreamDelegate = delegate
        let faceDetector = try await FaceDetector(options: options)
        let results = faceDetector.liveStreamResults
        let frames = try TestPaths.frames(of: "video")
        // As fast as they can be sent: frames that wait are replaced by newer ones, but never the last.
        for (index, frame) in frames.enumerated() {
            try await faceDetector.detectAsync(image: MPImage(contentsOf: frame), timestampInMilliseconds: index)
        }
        await faceDetector.close()
        var heard: [Int] = []
        for await detection in results {
            XCTAssertNil(detection.error)
            heard.append(detection.timestampInMilliseconds)
        }
        XCTAssertEqual(heard.last, frames.count - 1)
        XCTAssertEqual(heard, heard.sorted())
    }

    func testLiveStreamResultsCanBeReadAsAnAsyncSequence() async throws {
        final class Ignoring: FaceDetectorLiveStreamDelegate {
            func faceDetector(_ faceDetector: FaceDetector, didFinishDetection result: FaceDetectorResult?, timestampInMilliseconds: Int, error: Error?) {}
        }
        let delegate = Ignoring()
        let options = FaceDetectorOptions()
        options.runningMode = .liveStream
        options.faceDetectorLiveStreamDelegate = delegate
        let faceDetector = try await FaceDetector(options: options)
        var results = faceDetector.liveStreamResults.makeAsyncIterator()

        for (index, frame) in try TestPaths.frames(of: "video").prefix(4).enumerated() {
            let timestamp = index * goldens.frameMs
            try await faceDetector.detectAsync(image: MPImage(contentsOf: frame), timestampInMilliseconds: timestamp)
            let detection = await results.next()
            XCTAssertEqual(detection?.timestampInMilliseconds, timestamp)
            XCTAssertNil(detection?.error)
            assertEqual(detection?.result?.detections ?? [], goldens.detectorVideo[index], "frame \(index)")
        }
        await faceDetector.close()
        let afterClose = await results.next()
        XCTAssertNil(afterClose)
    }
}
