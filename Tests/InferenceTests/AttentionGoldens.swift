import Foundation

/// The attention mesh's golden files, written by tools/goldens/make_attention_goldens.py
/// from MediaPipe's own runtime: each custom operator alone (`ops/`) and the
/// whole model's raw outputs on face crops (`model/`).
enum AttentionGoldens {
    static let directory = GoldenManifest.directory.appendingPathComponent("attention")

    /// `ops/manifest.json`: cases of one custom operator each.
    struct Operators: Decodable {
        struct Instance: Decodable {
            var opIndex: Int
            var customCode: String
            var options: Options?
        }

        /// The options MediaPipe's parser read, for Landmarks2TransformMatrix.
        struct Options: Decodable {
            var leftRotationIdx: Int?
            var rightRotationIdx: Int?
            var subsetIdxs: [Int]?
            var outputWidth: Int?
            var outputHeight: Int?
            var scaleX: Float?
            var scaleY: Float?
            var targetRotationRadians: Float?
        }

        struct Operand: Decodable {
            var role: String?
            var file: String
            var shape: [Int]
        }

        struct Case: Decodable {
            var name: String
            var op: String
            var optionsFromOpIndex: Int
            var inputs: [Operand]
            var output: Operand
            var outOfBoundsPixels: Int?
        }

        var customOperators: [Instance]
        var cases: [Case]
    }

    /// `model/manifest.json`: 192x192 crops and the model's seven outputs on each.
    struct Model: Decodable {
        struct Output: Decodable {
            var name: String
            var file: String
            var shape: [Int]
        }

        struct Case: Decodable {
            var name: String
            var crop: String
            var outputs: [Output]
        }

        var cases: [Case]
    }

    static func operators() throws -> Operators { try decode("ops/manifest.json") }
    static func model() throws -> Model { try decode("model/manifest.json") }

    private static func decode<T: Decodable>(_ path: String) throws -> T {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(T.self, from: Data(contentsOf: directory.appendingPathComponent(path)))
    }

    static func floats(_ path: String) throws -> [Float] {
        try GoldenManifest.floats("attention/\(path)")
    }

    static func bytes(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: directory.appendingPathComponent(path)))
    }
}
