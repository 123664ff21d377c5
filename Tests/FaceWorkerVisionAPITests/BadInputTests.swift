import FaceWorkerMLKit
import FaceWorkerTasksVision
import Foundation
import XCTest

/// Options out of range get the worker's words for every client, as Swift
/// errors naming the option; methods of another running mode and delegates
/// in the wrong mode get MediaPipe's errors before anything is sent; a model
/// the worker does not serve is refused.
final class BadInputTests: WorkerTestCase {
    private let conformance = ConformanceFile.shared

    func testEveryRangedTasksOptionIsTakenExactlyAndRefusedOutsideNamingTheOption() async throws {
        let detectorOptions: [(wire: String, swift: String, set: (FaceWorkerTasksVision.FaceDetectorOptions, Double) -> Void)] = [
            ("min_detection_confidence", "minDetectionConfidence", { $0.minDetectionConfidence = Float($1) }),
            ("min_suppression_threshold", "minSuppressionThreshold", { $0.minSuppressionThreshold = Float($1) }),
        ]
        for option in detectorOptions {
            for (value, accepted) in conformance.cases(option.wire) {
                let options = FaceWorkerTasksVision.FaceDetectorOptions()
                option.set(options, value)
                await assertOutcome(option.wire, option.swift, value, accepted) { try await FaceWorkerTasksVision.FaceDetector(options: options).close() }
            }
        }
        let landmarkerOptions: [(wire: String, swift: String, set: (FaceLandmarkerOptions, Double) -> Void)] = [
            ("num_faces", "numFaces", { $0.numFaces = Int($1) }),
            ("min_detection_confidence", "minFaceDetectionConfidence", { $0.minFaceDetectionConfidence = Float($1) }),
            ("min_face_presence_confidence", "minFacePresenceConfidence", { $0.minFacePresenceConfidence = Float($1) }),
            ("min_tracking_confidence", "minTrackingConfidence", { $0.minTrackingConfidence = Float($1) }),
        ]
        for option in landmarkerOptions {
            for (value, accepted) in conformance.cases(option.wire) {
                let options = FaceLandmarkerOptions()
                option.set(options, value)
                await assertOutcome(option.wire, option.swift, value, accepted) { try await FaceLandmarker(options: options).close() }
            }
        }
    }

    func testMinFaceSizeIsTakenExactlyAndRefusedOutsideNamingTheOption() async throws {
        let image = try VisionImage(contentsOf: TestPaths.fixture("astronaut.jpg"))
        for (value, accepted) in conformance.cases("min_face_size") {
            let options = FaceWorkerMLKit.FaceDetectorOptions()
            options.minFaceSize = CGFloat(Float(value))
            let faceDetector = FaceWorkerMLKit.FaceDetector.faceDetector(options: options)
            do {
                _ = try await faceDetector.results(in: image)
                XCTAssertTrue(accepted, "minFaceSize \(value) was accepted")
            } catch let error as FaceDetectionError {
                XCTAssertFalse(accepted, "minFaceSize \(value) was refused: \(error)")
                XCTAssertEqual(error.code, .invalidArgument)
                XCTAssertEqual(error.option, "minFaceSize")
                assertNamesTheRange(error.message, "min_face_size")
            }
            await faceDetector.close()
        }
    }

    func testAMethodOfAnotherRunningModeFailsWithMediaPipesError() throws {
        let faceDetector = try FaceWorkerTasksVision.FaceDetector(options: FaceWorkerTasksVision.FaceDetectorOptions())
        let image = try MPImage(contentsOf: TestPaths.fixture("astronaut.jpg"))
        XCTAssertThrowsError(try faceDetector.detect(videoFrame: image, timestampInMilliseconds: 1)) { error in
            XCTAssertEqual(error as? TasksError, TasksError(code: .invalidArgumentError, message: "The vision task is not initialized with video mode. Current Running Mode: Image"))
        }
        // A task without a delegate is not a live-stream task.
        XCTAssertThrowsError(try faceDetector.detectAsync(image: image, timestampInMilliseconds: 1)) { error in
            XCTAssertEqual(error as? TasksError, TasksError(code: .invalidArgumentError, message: "The vision task is not initialized with live stream mode. Current Running Mode: Image"))
        }
        let options = FaceLandmarkerOptions()
        options.runningMode = .video
        let faceLandmarker = try FaceLandmarker(options: options)
        XCTAssertThrowsError(try faceLandmarker.detect(image: image)) { error in
            XCTAssertEqual(error as? TasksError, TasksError(code: .invalidArgumentError, message: "The vision task is not initialized with image mode. Current Running Mode: Video"))
        }
        // The task stays usable.
        XCTAssertEqual(try faceLandmarker.detect(videoFrame: image, timestampInMilliseconds: 1).faceLandmarks.count, 1)
    }

    func testADelegateIsNeededInLiveStreamModeAndRefusedInTheOthers() throws {
        let options = FaceLandmarkerOptions()
        options.runningMode = .liveStream
        XCTAssertThrowsError(try FaceLandmarker(options: options)) { error in
            XCTAssertEqual((error as? TasksError)?.message, "The vision task is in live stream mode. An object must be set as the delegate of the task in its options to ensure asynchronous delivery of results.")
        }
        final class Ignoring: FaceLandmarkerLiveStreamDelegate {
            func faceLandmarker(_ faceLandmarker: FaceLandmarker, didFinishDetection result: FaceLandmarkerResult?, timestampInMilliseconds: Int, error: (any Error)?) {}
        }
        let delegate = Ignoring()
        options.faceLandmarkerLiveStreamDelegate = delegate
        options.runningMode = .video
        XCTAssertThrowsError(try FaceLandmarker(options: options)) { error in
            XCTAssertEqual((error as? TasksError)?.message, "The vision task is in image or video mode. The delegate must not be set in the task's options.")
        }
    }

    func testTimestampsMustIncrease() throws {
        let options = FaceWorkerTasksVision.FaceDetectorOptions()
        options.runningMode = .video
        let faceDetector = try FaceWorkerTasksVision.FaceDetector(options: options)
        let image = try MPImage(contentsOf: TestPaths.fixture("astronaut.jpg"))
        _ = try faceDetector.detect(videoFrame: image, timestampInMilliseconds: 10)
        XCTAssertThrowsError(try faceDetector.detect(videoFrame: image, timestampInMilliseconds: 10)) { error in
            XCTAssertEqual(error as? TasksError, TasksError(code: .invalidArgumentError, message: "Input timestamp must be monotonically increasing."))
        }
        XCTAssertEqual(try faceDetector.detect(videoFrame: image, timestampInMilliseconds: 11).detections.count, 1)
    }

    func testTheModelAssetPathNamesAModelTheWorkerServes() throws {
        let options = FaceWorkerTasksVision.FaceDetectorOptions()
        options.baseOptions.modelAssetPath = "/opt/app/models/face_detection_full_range_sparse.tflite"
        let accurate = try FaceWorkerTasksVision.FaceDetector(options: options)
        XCTAssertEqual(try accurate.detect(image: MPImage(contentsOf: TestPaths.fixture("astronaut.jpg"))).detections.count, 1)

        options.baseOptions.modelAssetPath = "model.tflite"
        XCTAssertThrowsError(try FaceWorkerTasksVision.FaceDetector(options: options)) { error in
            let error = error as? TasksError
            XCTAssertEqual(error?.code, .invalidArgumentError)
            XCTAssertEqual(error?.option, "baseOptions.modelAssetPath")
            XCTAssertTrue(error?.message.hasPrefix("the worker does not serve model.tflite; it serves ") == true, error?.message ?? "")
        }
        // Served, but not a face detector.
        options.baseOptions.modelAssetPath = "face_landmarker.task"
        XCTAssertThrowsError(try FaceWorkerTasksVision.FaceDetector(options: options)) { error in
            XCTAssertEqual((error as? TasksError)?.option, "baseOptions.modelAssetPath")
        }
    }

    private func assertOutcome(_ wire: String, _ swift: String, _ value: Double, _ accepted: Bool, open: () async throws -> Void,
                               file: StaticString = #filePath, line: UInt = #line) async {
        do {
            try await open()
            XCTAssertTrue(accepted, "\(swift) \(value) was accepted", file: file, line: line)
        } catch let error as TasksError {
            XCTAssertFalse(accepted, "\(swift) \(value) was refused: \(error)", file: file, line: line)
            XCTAssertEqual(error.code, .invalidArgumentError, file: file, line: line)
            XCTAssertEqual(error.option, swift, file: file, line: line)
            assertNamesTheRange(error.message, wire, file: file, line: line)
        } catch {
            XCTFail("\(swift) \(value): \(error)", file: file, line: line)
        }
    }

    /// The message names the option as the wire does, and both ends of its range.
    private func assertNamesTheRange(_ message: String, _ wire: String, file: StaticString = #filePath, line: UInt = #line) {
        guard let range = conformance.ranges[wire] else { return XCTFail("no range for \(wire)", file: file, line: line) }
        XCTAssertTrue(message.contains(wire), message, file: file, line: line)
        let numbers = message.split(whereSeparator: { $0 == " " || $0 == "," }).compactMap { Double($0) }
        XCTAssertTrue(numbers.contains(range.min) && numbers.contains(range.max), message, file: file, line: line)
    }
}
