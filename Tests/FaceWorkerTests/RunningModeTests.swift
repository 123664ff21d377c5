import FaceWorkerClient
import FaceWorkerProtocol
import Foundation
import Imaging
import WorkerCoreTesting
import XCTest

/// Each running mode end to end, on real images, through the lean socket's
/// handler into the core on the real models, in-process.
final class RunningModeTests: InProcessModelTestCase {
    func testImageModeFindsTheAstronautAndTheCameraman() async throws {
        let client = try await startInProcessWorker().connect()
        let session = try await client.open(Expect.options(.image))
        Expect.astronaut(try await client.process(.jpeg(try TestPaths.jpeg("astronaut.jpg")), in: session))
        let camera = try await client.process(.jpeg(try TestPaths.jpeg("camera.jpg")), in: session)
        Expect.oneFace(camera, centre: (223, 164), size: 85)
        XCTAssertEqual(camera.faces.first?.keypoints.map(\.type), [.rightEye, .leftEye, .noseTip, .mouthCenter, .rightEarTragion, .leftEarTragion])
        XCTAssertNil(camera.faces.first?.optionalTrackingID, "image mode never tracks")
    }

    func testImageModeFindsNoFaceWhereThereIsNone() async throws {
        let client = try await startInProcessWorker().connect()
        let session = try await client.open(Expect.options(.image))
        for (name, width, height) in [("chelsea.jpg", 451, 300), ("coffee.jpg", 600, 400), ("rocket.jpg", 640, 427)] {
            let result = try await client.process(.jpeg(try TestPaths.jpeg(name), timestampMs: 7), in: session)
            XCTAssertEqual(result.faces.count, 0, name)
            XCTAssertEqual(result.imageWidth, UInt32(width), name)
            XCTAssertEqual(result.imageHeight, UInt32(height), name)
            XCTAssertEqual(result.timestampMs, 7, "the timestamp is echoed")
            XCTAssertTrue(result.detectorRan)
        }
    }

    func testImageModeWithLandmarksReportsTheMesh() async throws {
        let client = try await startInProcessWorker().connect()
        let session = try await client.open(Expect.options(.image) { $0.outputFaceMesh = true })
        let result = try await client.process(.jpeg(try TestPaths.jpeg("astronaut.jpg")), in: session)
        Expect.astronaut(result)
        let face = try XCTUnwrap(result.faces.first)
        XCTAssertEqual(face.meshXyz.count, 478 * 3, "x, y, z packed for each of 478 points")
        let mesh = face.meshPoints
        XCTAssertEqual(mesh.count, 478)
        XCTAssertGreaterThan(face.presenceScore, 0.5)
        XCTAssertTrue(mesh.allSatisfy { (0...1).contains($0.x) && (0...1).contains($0.y) && abs($0.z) < 0.2 })
        // Points 468 and 473 are the iris centres: they sit on the detector's eye keypoints.
        for (iris, eye) in [(468, Faceworker_V1_KeypointType.rightEye), (473, .leftEye)] {
            let keypoint = try XCTUnwrap(face.keypoints.first { $0.type == eye }).normalized
            XCTAssertEqual(mesh[iris].x, keypoint.x, accuracy: 0.02, "iris \(iris) x")
            XCTAssertEqual(mesh[iris].y, keypoint.y, accuracy: 0.02, "iris \(iris) y")
        }
        XCTAssertGreaterThan(result.timings.landmarksUs, 0)
    }

    func testImageModeReportsEveryMLKitOutputAskedFor() async throws {
        let client = try await startInProcessWorker().connect()
        let session = try await client.open(Expect.options(.image) {
            $0.landmarkMode = .all
            $0.contourMode = .all
            $0.classificationMode = .all
            $0.outputTransformationMatrix = true
        })
        let result = try await client.process(.jpeg(try TestPaths.jpeg("astronaut.jpg")), in: session)
        Expect.astronaut(result)
        let face = try XCTUnwrap(result.faces.first)
        XCTAssertEqual(Set(face.landmarks.map(\.type)).count, 10)
        XCTAssertFalse(face.landmarks.contains { $0.type == .unspecified })
        let contourPoints = Dictionary(uniqueKeysWithValues: face.contours.map { ($0.type, $0.points.count) })
        XCTAssertEqual(contourPoints.count, 15)
        XCTAssertEqual(contourPoints[.face], 36)
        XCTAssertEqual(contourPoints[.upperLipTop], 11)
        XCTAssertEqual(contourPoints[.noseBridge], 2)
        let faceOval = try XCTUnwrap(face.contours.first { $0.type == .face })
        XCTAssertEqual(faceOval.pointsXy.count, 36 * 2, "x, y packed for each of 36 points")
        // The oval runs around the face: every point near the box, some near each of its edges.
        let bounds = face.boundingBox
        let (left, top, right, bottom) = (bounds.x, bounds.y, bounds.x + bounds.width, bounds.y + bounds.height)
        let slack = max(bounds.width, bounds.height) / 10
        XCTAssertTrue(faceOval.points.allSatisfy { (left - slack...right + slack).contains($0.x) && (top - slack...bottom + slack).contains($0.y) })
        XCTAssertTrue(faceOval.points.contains { abs($0.x - left) < slack } && faceOval.points.contains { abs($0.x - right) < slack })
        XCTAssertTrue(faceOval.points.contains { abs($0.y - top) < slack } && faceOval.points.contains { abs($0.y - bottom) < slack })
        // The astronaut smiles with her eyes open.
        XCTAssertGreaterThan(face.smilingProbability, 0.5)
        XCTAssertGreaterThan(face.leftEyeOpenProbability, 0.5)
        XCTAssertGreaterThan(face.rightEyeOpenProbability, 0.5)
        XCTAssertEqual(face.transformationMatrix.count, 16)
        XCTAssertNotNil(face.optionalHeadEulerAngleX)
        XCTAssertNotNil(face.optionalHeadEulerAngleY)
        // The ML Kit landmarks lie on the face.
        let box = face.boundingBox
        for landmark in face.landmarks where ![.leftEar, .rightEar].contains(landmark.type) {
            XCTAssertTrue((box.x...(box.x + box.width)).contains(landmark.position.x), "\(landmark.type)")
            XCTAssertTrue((box.y...(box.y + box.height)).contains(landmark.position.y), "\(landmark.type)")
        }
        XCTAssertTrue(face.meshXyz.isEmpty, "the mesh was not asked for")
    }

    func testARawFrameInAnyOrientationIsAnsweredInUprightCoordinates() async throws {
        let client = try await startInProcessWorker().connect()
        let session = try await client.open(Expect.options(.image))
        let decoded = try JPEGDecoder().decode([UInt8](try TestPaths.jpeg("astronaut.jpg")), maxPixels: 1 << 20)
        // Store the upright picture rotated 90 degrees counter-clockwise, as a
        // sensor would: RIGHT_TOP says to turn it clockwise to make it upright.
        let stored = decoded.upright(from: .leftBottom)
        let frame = Faceworker_V1_Frame.raw(Data(stored.pixels), format: .rgb, width: stored.width, height: stored.height, orientation: .rightTop)
        let result = try await client.process(frame, in: session)
        Expect.astronaut(result)
    }

    func testVideoModeKeepsOneTrackingIDThroughTheVideo() async throws {
        let client = try await startInProcessWorker().connect()
        let session = try await client.open(Expect.options(.video) {
            $0.trackingEnabled = true
            $0.landmarkMode = .all
        })
        var ids = Set<Int32>()
        var detectorRuns = 0
        for (index, jpeg) in try TestPaths.videoFrames().enumerated() {
            let result = try await client.process(.jpeg(jpeg, timestampMs: Int64(index) * 33), in: session)
            XCTAssertEqual(result.timestampMs, Int64(index) * 33)
            XCTAssertEqual(result.faces.count, 1, "frame \(index)")
            ids.formUnion(result.faces.map(\.trackingID))
            if result.detectorRan { detectorRuns += 1 }
        }
        XCTAssertEqual(ids.count, 1, "tracking IDs seen: \(ids)")
        XCTAssertLessThan(detectorRuns, 24, "followed faces spare the detector")
    }

    func testVideoFramesSentAtOnceAreAnsweredInOrder() async throws {
        let client = try await startInProcessWorker().connect()
        let sessionID = try await client.open(Expect.options(.video) { $0.trackingEnabled = true })
        // Eight frames in one read, so they all wait while two threads could
        // take them: the session still runs them one at a time, in order.
        try await client.send(all: try TestPaths.videoFrames().prefix(8).enumerated().map { index, jpeg in
            .processFrame(callID: UInt64(10 + index), session: sessionID, .jpeg(jpeg, timestampMs: Int64(index)))
        })
        var answered: [Int64] = []
        for _ in 0..<8 {
            let answer = try await client.receive()
            XCTAssertEqual(answer.frameResult.faces.count, 1)
            answered.append(answer.frameResult.timestampMs)
        }
        XCTAssertEqual(answered, Array(0..<8))
    }

    func testRefusedVideoFramesAreAnsweredInTheirTurn() async throws {
        let client = try await startInProcessWorker().connect()
        let sessionID = try await client.open(Expect.options(.video) { $0.trackingEnabled = true })
        // In one read, so that the refused frames arrive while earlier ones
        // still wait: a timestamp that does not increase, and bytes that are no
        // JPEG, each between frames the worker accepts.
        let jpegs = try TestPaths.videoFrames()
        let frames: [(timestampMs: Int64, jpeg: Data)] = [
            (0, jpegs[0]), (1, jpegs[1]), (2, jpegs[2]), (3, jpegs[3]), (2, jpegs[4]),
            (4, jpegs[4]), (5, Data("not a JPEG".utf8)), (6, jpegs[6]),
        ]
        try await client.send(all: frames.enumerated().map { index, frame in
            .processFrame(callID: UInt64(10 + index), session: sessionID, .jpeg(frame.jpeg, timestampMs: frame.timestampMs))
        })
        var order: [UInt64] = []
        for _ in frames {
            let answer = try await client.receive()
            order.append(answer.callID)
            if answer.callID == 14 || answer.callID == 16 {
                XCTAssertEqual(answer.error.code, .invalidArgument, "\(answer)")
                XCTAssertEqual(answer.error.sessionID, sessionID)
            } else {
                XCTAssertEqual(answer.frameResult.faces.count, 1, "\(answer)")
            }
        }
        XCTAssertEqual(order, Array(10..<18), "answers keep the order of the frames, errors included")
    }

    func testLiveStreamDropsReplacedFramesAndAnswersEveryFrameOnce() async throws {
        let gate = FrameGate()
        let client = try await startInProcessWorker(gate: gate).connect()
        let sessionID = try await client.open(Expect.options(.liveStream) { $0.trackingEnabled = true })
        let frames = try TestPaths.videoFrames()
        // The first frame runs (held at the gate) while the others arrive:
        // each replaces the one waiting before it.
        try await client.send { .processFrame(callID: $0, session: sessionID, .jpeg(frames[0], timestampMs: 0)) }
        await gate.waitForArrivals(1)
        for (index, jpeg) in frames.enumerated().dropFirst() {
            try await client.send { .processFrame(callID: $0, session: sessionID, .jpeg(jpeg, timestampMs: Int64(index) * 33)) }
        }
        gate.open()
        var results: [Int64] = []
        var dropped: [Int64] = []
        while results.count + dropped.count < frames.count {
            let answer = try await client.receive()
            switch answer.kind {
            case .frameResult(let result):
                XCTAssertEqual(result.faces.count, 1)
                results.append(result.timestampMs)
            case .frameDropped(let notice):
                XCTAssertEqual(notice.reason, .replaced)
                dropped.append(notice.timestampMs)
            default:
                XCTFail("\(answer)")
            }
        }
        let last = Int64(frames.count - 1) * 33
        XCTAssertEqual(results, [0, last], "the running frame and the newest are answered, in timestamp order")
        XCTAssertEqual(Set(results + dropped), Set(frames.indices.map { Int64($0) * 33 }), "every frame is answered once")
        XCTAssertEqual(dropped.count, frames.count - 2, "each waiting frame was replaced")
        let stats = try await client.stats()
        XCTAssertEqual(stats.framesDropped, UInt64(dropped.count))
    }
}
