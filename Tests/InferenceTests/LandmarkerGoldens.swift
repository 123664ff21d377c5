import Foundation
import SeededRandom

/// The Face Landmarker golden files, written by tools/goldens/make_landmarker_model_goldens.py
/// from LiteRT's interpreter: per member model of face_landmarker.task, fixed
/// inputs and the outputs LiteRT computed.
struct LandmarkerGoldens: Decodable {
    struct ModelEntry: Decodable {
        var bundle: String
        var member: String
        var sha256: String
        var inputShape: [Int]
        var cases: [Case]
    }

    struct Case: Decodable {
        var name: String
        var input: Input
        var outputs: [GoldenManifest.Output]
    }

    struct Input: Decodable {
        var kind: String
        var file: String?
        var seed: UInt64?
        var valueRange: [Double]
    }

    var runtime: String
    var models: [ModelEntry]

    static let folder = "landmarker"

    static func load() throws -> LandmarkerGoldens {
        let data = try Data(contentsOf: GoldenManifest.directory.appendingPathComponent("\(folder)/manifest.json"))
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(LandmarkerGoldens.self, from: data)
    }

    /// The float input of a case, built exactly as the generator built it.
    static func input(_ input: Input, count: Int) throws -> [Float] {
        try GoldenManifest.input(GoldenManifest.Input(kind: input.kind, file: input.file.map { "\(folder)/\($0)" }, seed: input.seed),
                                 count: count, range: input.valueRange)
    }

    static func floats(_ file: String) throws -> [Float] {
        try GoldenManifest.floats("\(folder)/\(file)")
    }
}
