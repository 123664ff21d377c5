import FaceDetection
import Foundation
import Imaging

/// The committed fixtures and MediaPipe goldens, and the models `make models` fetched.
enum TestData {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    /// The fixtures every language's tests share, beside the test targets.
    static let fixtures = directory.deletingLastPathComponent().appendingPathComponent("Fixtures")
    /// A group photo's ten far faces, each about 6 % of the frame wide: the
    /// full-range detector finds most, the short-range detector none.
    static let farFaces = "group_small_faces.jpg"

    static let models: FaceModels = {
        let root = directory.deletingLastPathComponent().deletingLastPathComponent()
        // A missing model is a set-up failure every test should report loudly.
        return try! FaceModels(directory: root.appendingPathComponent("models").path)
    }()

    static let goldens: PipelineGoldens = {
        let data = try! Data(contentsOf: directory.appendingPathComponent("Goldens/pipeline.json"))
        return try! JSONDecoder().decode(PipelineGoldens.self, from: data)
    }()

    /// A fixture's JPEG bytes.
    static func jpeg(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: fixtures.appendingPathComponent(name)))
    }

    /// A fixture JPEG decoded to RGB by our decoder.
    static func image(_ name: String) throws -> RGBImage {
        try JPEGDecoder().decode(jpeg(name), maxPixels: 1 << 24)
    }

    /// Options with the given running mode and changes applied.
    /// `body` run on an upright image as the pipeline's stages read it.
    static func upright<Result>(_ image: RGBImage, _ body: (OrientedFrame) throws -> Result) throws -> Result {
        try image.withView { view in try body(OrientedFrame(view, orientation: .topLeft)) }
    }

    static func options(_ mode: FaceOptions.RunningMode = .image, _ change: (inout FaceOptions) -> Void = { _ in }) -> FaceOptions {
        var options = FaceOptions()
        options.runningMode = mode
        change(&options)
        return options
    }
}

/// MediaPipe 0.10.14's results on the fixtures (tools/goldens/make_pipeline_goldens.py).
struct PipelineGoldens: Decodable {
    struct GoldenDetection: Decodable {
        /// xmin, ymin, width, height, normalized.
        var box: [Float]
        var score: Float
        var keypoints: [[Float]]
    }

    struct GoldenImage: Decodable {
        var width: Int
        var height: Int
        var detection_short: [GoldenDetection]
        var detection_full: [GoldenDetection]
        var mesh: [[[Float]]]
    }

    struct GoldenMeshFace: Decodable {
        /// xmin, ymin, xmax, ymax of the landmarks, normalized.
        var bbox: [Float]
        var p1: [Float]
        var p33: [Float]
        var p263: [Float]
    }

    struct GoldenFrame: Decodable {
        var file: String
        var detection_short: [GoldenDetection]
        var mesh_faces: [GoldenMeshFace]
    }

    var images: [String: GoldenImage]
    var videos: [String: [GoldenFrame]]
}
