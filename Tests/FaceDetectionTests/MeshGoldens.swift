import Foundation

/// MediaPipe's legacy FaceMesh on the fixtures, as the golden generators write
/// it: each face's crop region and points, for every still image and every
/// frame of the videos.
struct MeshGoldens: Decodable {
    struct Region: Decodable {
        var xCenter: Float
        var yCenter: Float
        var width: Float
        var height: Float
        var rotation: Float
    }

    struct Face: Decodable {
        var roi: Region
        var points: [[Float]]
    }

    struct Image: Decodable {
        var faces: [Face]
    }

    struct Frame: Decodable {
        var file: String
        var faces: [Face]
    }

    struct Video: Decodable {
        var maxNumFaces: Int
        var frames: [Frame]
    }

    var images: [String: Image]
    var videos: [String: Video]

    /// The golden file `name` under the test target's `Goldens/`.
    static func load(_ name: String) -> MeshGoldens {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let data = try! Data(contentsOf: TestData.directory.appendingPathComponent("Goldens/\(name)"))
        return try! decoder.decode(MeshGoldens.self, from: data)
    }
}
