@testable import FaceDetection
import Foundation
import XCTest

/// Our 478 points against MediaPipe's `FaceMesh(refine_landmarks=True)` on
/// every fixture image and video frame (tools/goldens/make_attention_goldens.py):
/// every point within 0.5 % of the inter-ocular distance, the median within
/// 0.1 %. The landmark stage is also checked alone, from the very regions
/// MediaPipe cropped, so a miss says whether the detector or the landmarks drifted.
final class AttentionMeshParityTests: XCTestCase {
    private typealias Goldens = MeshGoldens

    private static let goldens = MeshGoldens.load("attention_mesh.json")

    /// Each point's distance from MediaPipe's, in units of the distance between MediaPipe's iris centres.
    private func errors(_ ours: [NormalizedLandmark], _ theirs: [[Float]], width: Int, height: Int) -> [Float] {
        let w = Float(width), h = Float(height)
        let interOcular = hypot((theirs[468][0] - theirs[473][0]) * w, (theirs[468][1] - theirs[473][1]) * h)
        return zip(ours, theirs).map { hypot(($0.x - $1[0]) * w, ($0.y - $1[1]) * h) / interOcular }
    }

    /// Checks one frame's faces, pairing each of MediaPipe's with our nearest by the nose tip.
    private func check(_ faces: [[NormalizedLandmark]], against golden: [Goldens.Face], width: Int, height: Int, _ label: String,
                       into all: inout [Float]) {
        XCTAssertEqual(faces.count, golden.count, "\(label): faces")
        for (number, face) in golden.enumerated() {
            guard let ours = faces.min(by: { hypot($0[1].x - face.points[1][0], $0[1].y - face.points[1][1]) < hypot($1[1].x - face.points[1][0], $1[1].y - face.points[1][1]) }) else { continue }
            XCTAssertEqual(ours.count, 478, label)
            let frameErrors = errors(ours, face.points, width: width, height: height)
            let worst = frameErrors.enumerated().max { $0.element < $1.element }!
            XCTAssertLessThanOrEqual(worst.element, 0.005, "\(label) face \(number): point \(worst.offset) is off by \(worst.element * 100) % of the inter-ocular distance")
            all += frameErrors
        }
    }

    private func assertMedian(_ errors: [Float], _ label: String) {
        guard !errors.isEmpty else { return XCTFail("\(label): no points compared") }
        let median = errors.sorted()[errors.count / 2]
        XCTAssertLessThanOrEqual(median, 0.001, "\(label): median error \(median * 100) % of the inter-ocular distance")
        print("\(label): \(errors.count) points, median \(median * 100) %, max \(errors.max()! * 100) % of the inter-ocular distance")
    }

    func testLandmarkStageFromMediaPipesRegions() throws {
        let engine = FaceEngine(models: TestData.models)
        let meshStage = LegacyMeshStage(models: TestData.models)
        var all: [Float] = []
        for (name, entry) in Self.goldens.images.sorted(by: { $0.key < $1.key }) {
            let image = try TestData.image(name)
            let faces = try TestData.upright(image) { frame in
                try entry.faces.compactMap { face in
                    let roi = RegionOfInterest(centerX: face.roi.xCenter, centerY: face.roi.yCenter, width: face.roi.width, height: face.roi.height, rotation: face.roi.rotation)
                    return try meshStage.landmarks(in: frame, roi: roi, engine: engine, minPresence: 0.5, refined: true)?.mesh
                }
            }
            check(faces, against: entry.faces, width: image.width, height: image.height, name, into: &all)
        }
        assertMedian(all, "landmark stage")
    }

    func testStillImages() throws {
        let session = try FaceSession(models: TestData.models, options: TestData.options {
            $0.faceMesh = true
            $0.numFaces = 4
            $0.minFaceSize = 0
        })
        var all: [Float] = []
        for (name, entry) in Self.goldens.images.sorted(by: { $0.key < $1.key }) {
            let image = try TestData.image(name)
            let faces = try session.detect(image).faces.compactMap(\.mesh)
            check(faces, against: entry.faces, width: image.width, height: image.height, name, into: &all)
        }
        assertMedian(all, "still images")
    }

    func testVideos() throws {
        for (name, video) in Self.goldens.videos.sorted(by: { $0.key < $1.key }) {
            // MediaPipe's FaceMesh runs its detector on every frame that follows fewer faces than it may.
            let session = try FaceSession(models: TestData.models, options: TestData.options(.video) {
                $0.faceMesh = true
                $0.numFaces = video.maxNumFaces
                $0.minFaceSize = 0
                $0.detectorIntervalFrames = 1
            })
            var all: [Float] = []
            for (index, frame) in video.frames.enumerated() {
                let image = try TestData.image(frame.file)
                let faces = try session.detectForVideo(image, timestampMs: Int64(index) * 33).faces.compactMap(\.mesh)
                check(faces, against: frame.faces, width: image.width, height: image.height, frame.file, into: &all)
            }
            assertMedian(all, name)
        }
    }
}
