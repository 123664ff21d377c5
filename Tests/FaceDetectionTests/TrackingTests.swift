import FaceDetection
import XCTest

/// Tracking IDs and landmark tracking over the synthetic videos.
final class TrackingTests: XCTestCase {
    private func frames(_ video: String) -> [PipelineGoldens.GoldenFrame] {
        TestData.goldens.videos[video] ?? []
    }

    private func trackingOptions(_ mode: FaceOptions.RunningMode = .video, landmarks: Bool = true, numFaces: Int = 1) -> FaceOptions {
        TestData.options(mode) {
            $0.trackingEnabled = true
            $0.landmarks = landmarks
            $0.numFaces = numFaces
        }
    }

    func testOneFaceKeepsOneIDThroughTheVideoAndFollowsMediaPipe() throws {
        let session = try FaceSession(models: TestData.models, options: trackingOptions())
        var ids = Set<Int>()
        var detectorRuns = 0
        for (index, frame) in frames("video").enumerated() {
            let result = try session.detectForVideo(try TestData.image(frame.file), timestampMs: Int64(index) * 33)
            XCTAssertEqual(result.faces.count, 1, frame.file)
            guard let face = result.faces.first, let golden = frame.mesh_faces.first else { continue }
            ids.insert(face.trackingID ?? -1)
            if result.detectorRan { detectorRuns += 1 }
            let reference = PixelRect(x: golden.bbox[0] * 640, y: golden.bbox[1] * 360,
                                      width: (golden.bbox[2] - golden.bbox[0]) * 640, height: (golden.bbox[3] - golden.bbox[1]) * 360)
            XCTAssertGreaterThanOrEqual(iou(face.boundingBox, reference), 0.8, "\(frame.file): tracked box strays from MediaPipe's")
        }
        XCTAssertEqual(ids.count, 1, "tracking IDs seen: \(ids)")
        XCTAssertFalse(ids.contains(-1))
        // With one face wanted and followed, only the first frame needs the detector.
        XCTAssertEqual(detectorRuns, 1)
    }

    func testDetectionOnlyTrackingKeepsOneID() throws {
        let session = try FaceSession(models: TestData.models, options: trackingOptions(landmarks: false))
        var ids = Set<Int?>()
        for (index, frame) in frames("video").enumerated() {
            let result = try session.detectForVideo(try TestData.image(frame.file), timestampMs: Int64(index) * 33)
            XCTAssertTrue(result.detectorRan)
            ids.formUnion(result.faces.map(\.trackingID))
        }
        XCTAssertEqual(ids.count, 1, "tracking IDs seen: \(ids)")
        XCTAssertNotNil(ids.first ?? nil)
    }

    func testTwoFacesKeepTheirIDsWhileTheyMoveApart() throws {
        for landmarks in [true, false] {
            let session = try FaceSession(models: TestData.models, options: trackingOptions(landmarks: landmarks, numFaces: 2))
            var idByPosition: [Int: Int] = [:]
            for (index, frame) in frames("two_faces_video").enumerated() {
                let faces = try session.detectForVideo(try TestData.image(frame.file), timestampMs: Int64(index) * 40).faces
                XCTAssertEqual(faces.count, 2, "\(frame.file), landmarks \(landmarks)")
                // The faces move apart horizontally: the left one stays left.
                let sorted = faces.sorted { $0.boundingBox.x < $1.boundingBox.x }
                for (position, face) in sorted.enumerated() {
                    guard let id = face.trackingID else { XCTFail("no tracking ID"); continue }
                    XCTAssertEqual(idByPosition[position, default: id], id, "\(frame.file): face \(position) changed ID, landmarks \(landmarks)")
                    idByPosition[position] = id
                }
            }
            XCTAssertEqual(Set(idByPosition.values).count, 2)
        }
    }

    func testAShortGapKeepsTheIDALongOneRetiresIt() throws {
        var options = trackingOptions(landmarks: false)
        options.maxMissedFrames = 2
        let session = try FaceSession(models: TestData.models, options: options)
        let face = try TestData.image("astronaut.jpg"), empty = try TestData.image("coffee.jpg")
        var time: Int64 = 0
        func next(_ image: RGBImageFixture) throws -> [Int] {
            time += 33
            return try session.detectForVideo(image == .face ? face : empty, timestampMs: time).faces.compactMap(\.trackingID)
        }
        let first = try next(.face)
        XCTAssertEqual(first.count, 1)
        XCTAssertEqual(try next(.empty), [])
        XCTAssertEqual(try next(.empty), [])
        XCTAssertEqual(try next(.face), first, "a face missing for maxMissedFrames keeps its ID")
        for _ in 0..<3 { XCTAssertEqual(try next(.empty), []) }
        let later = try next(.face)
        XCTAssertEqual(later.count, 1)
        XCTAssertNotEqual(later, first, "a face missing for longer gets a new ID")
        XCTAssertGreaterThan(later[0], first[0], "IDs are never reused")
    }

    func testImageModeHasNoTrackingState() throws {
        let session = try FaceSession(models: TestData.models, options: trackingOptions(.image))
        let image = try TestData.image("astronaut.jpg")
        for _ in 0..<2 {
            let result = try session.detect(image)
            XCTAssertEqual(result.faces.count, 1)
            XCTAssertNil(result.faces[0].trackingID)
            XCTAssertTrue(result.detectorRan)
        }
    }

    func testDetectorRunsAtMostEveryIntervalWhileFewerFacesThanWanted() throws {
        var options = trackingOptions(numFaces: 2)
        options.detectorIntervalFrames = 4
        let session = try FaceSession(models: TestData.models, options: options)
        var runs: [Bool] = []
        for (index, frame) in frames("video").prefix(12).enumerated() {
            runs.append(try session.detectForVideo(try TestData.image(frame.file), timestampMs: Int64(index) * 33).detectorRan)
        }
        XCTAssertEqual(runs, (0..<12).map { $0 % 4 == 0 }, "one face of two wanted: the detector runs every 4th frame")
    }
}

/// Which fixture a gap test feeds.
private enum RGBImageFixture { case face, empty }
