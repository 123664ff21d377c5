@testable import FaceDetection
import Foundation
import XCTest

/// One legacy mesh model against MediaPipe's FaceMesh on every fixture image
/// and video frame: each point within `bound` of MediaPipe's and the median
/// within 0.1 %, both in units of `scale`. The landmark stage is also checked
/// alone, from the very regions MediaPipe cropped, so a miss says whether the
/// detector or the landmarks drifted.
struct MeshParity {
    /// What the errors are measured in.
    enum Scale: String {
        /// The distance between MediaPipe's iris centres (points 468 and 473).
        case interOcular = "the inter-ocular distance"
        /// The x extent of MediaPipe's points: the plain mesh has no irises.
        case faceWidth = "the face width"
    }

    let goldens: MeshGoldens
    let meshModel: FaceOptions.MeshModel
    let pointCount: Int
    let bound: Float
    let scale: Scale

    /// Each point's distance from MediaPipe's, in units of `scale`.
    func errors(_ ours: [NormalizedLandmark], _ theirs: [[Float]], width: Int, height: Int) -> [Float] {
        let w = Float(width), h = Float(height)
        let unit: Float
        switch scale {
        case .interOcular:
            unit = hypot((theirs[468][0] - theirs[473][0]) * w, (theirs[468][1] - theirs[473][1]) * h)
        case .faceWidth:
            let xs = theirs.map { $0[0] * w }
            unit = xs.max()! - xs.min()!
        }
        return zip(ours, theirs).map { hypot(($0.x - $1[0]) * w, ($0.y - $1[1]) * h) / unit }
    }

    /// Checks one frame's faces, pairing each of MediaPipe's with our nearest by the nose tip.
    private func check(_ faces: [[NormalizedLandmark]], against golden: [MeshGoldens.Face], width: Int, height: Int, _ label: String,
                       into all: inout [Float]) {
        XCTAssertEqual(faces.count, golden.count, "\(label): faces")
        for (number, face) in golden.enumerated() {
            guard let ours = faces.min(by: { hypot($0[1].x - face.points[1][0], $0[1].y - face.points[1][1]) < hypot($1[1].x - face.points[1][0], $1[1].y - face.points[1][1]) }) else { continue }
            XCTAssertEqual(ours.count, pointCount, label)
            let frameErrors = errors(ours, face.points, width: width, height: height)
            let worst = frameErrors.enumerated().max { $0.element < $1.element }!
            XCTAssertLessThanOrEqual(worst.element, bound, "\(label) face \(number): point \(worst.offset) is off by \(worst.element * 100) % of \(scale.rawValue)")
            all += frameErrors
        }
    }

    private func assertMedian(_ errors: [Float], _ label: String) {
        guard !errors.isEmpty else { return XCTFail("\(label): no points compared") }
        let median = errors.sorted()[errors.count / 2]
        XCTAssertLessThanOrEqual(median, 0.001, "\(label): median error \(median * 100) % of \(scale.rawValue)")
        print("\(label): \(errors.count) points, median \(median * 100) %, max \(errors.max()! * 100) % of \(scale.rawValue)")
    }

    /// The landmark model alone, on MediaPipe's own crop regions.
    func checkLandmarkStage() throws {
        let engine = FaceEngine(models: TestData.models)
        let meshStage = LegacyMeshStage(models: TestData.models)
        var all: [Float] = []
        for (name, entry) in goldens.images.sorted(by: { $0.key < $1.key }) {
            let image = try TestData.image(name)
            let faces = try TestData.upright(image) { frame in
                try entry.faces.compactMap { face in
                    let roi = RegionOfInterest(centerX: face.roi.xCenter, centerY: face.roi.yCenter, width: face.roi.width, height: face.roi.height, rotation: face.roi.rotation)
                    return try meshStage.landmarks(in: frame, roi: roi, engine: engine, minPresence: 0.5, refined: meshModel == .attentionMesh)?.mesh
                }
            }
            check(faces, against: entry.faces, width: image.width, height: image.height, name, into: &all)
        }
        assertMedian(all, "landmark stage")
    }

    /// The whole pipeline in image mode on every still.
    func checkStillImages() throws {
        let session = try FaceSession(models: TestData.models, options: TestData.options {
            $0.faceMesh = true
            $0.meshModel = meshModel
            $0.numFaces = 4
            $0.minFaceSize = 0
        })
        var all: [Float] = []
        for (name, entry) in goldens.images.sorted(by: { $0.key < $1.key }) {
            let image = try TestData.image(name)
            let faces = try session.detect(image).faces.compactMap(\.mesh)
            check(faces, against: entry.faces, width: image.width, height: image.height, name, into: &all)
        }
        assertMedian(all, "still images")
    }

    /// The whole pipeline in video mode, frame by frame through each video.
    func checkVideos() throws {
        for (name, video) in goldens.videos.sorted(by: { $0.key < $1.key }) {
            // MediaPipe's FaceMesh runs its detector on every frame that follows fewer faces than it may.
            let session = try FaceSession(models: TestData.models, options: TestData.options(.video) {
                $0.faceMesh = true
                $0.meshModel = meshModel
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
