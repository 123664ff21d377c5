import Foundation

/// MediaPipe Tasks 0.10.14's FaceLandmarker on the fixtures (tools/goldens/make_landmarker_goldens.py).
struct LandmarkerGoldens: Decodable {
    struct GoldenFace: Decodable {
        /// 478 [x, y, z], normalized.
        var points: [[Float]]
        /// 52 scores in model order.
        var blendshapes: [Float]
        /// 4x4, row by row.
        var matrix: [[Float]]
    }

    struct GoldenImage: Decodable {
        var width: Int
        var height: Int
        var num_faces: Int
        var faces: [GoldenFace]
    }

    struct GoldenFrame: Decodable {
        var file: String
        var timestamp_ms: Int64
        var faces: [GoldenFace]
    }

    struct GoldenVideo: Decodable {
        var num_faces: Int
        var frames: [GoldenFrame]
    }

    var images: [String: GoldenImage]
    var videos: [String: GoldenVideo]

    static let shared: LandmarkerGoldens = {
        let data = try! Data(contentsOf: TestData.directory.appendingPathComponent("Goldens/face_landmarker.json"))
        return try! JSONDecoder().decode(LandmarkerGoldens.self, from: data)
    }()
}
