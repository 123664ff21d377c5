import Foundation
import SeededRandom

/// The golden files written by tools/goldens/make_inference_goldens.py from LiteRT's
/// interpreter: per model, fixed inputs and the outputs LiteRT computed.
struct GoldenManifest: Decodable {
    struct ModelEntry: Decodable {
        var model: String
        var inputShape: [Int]
        var valueRange: [Double]
        var cases: [Case]
    }

    struct Case: Decodable {
        var name: String
        var input: Input
        var outputs: [Output]
    }

    struct Input: Decodable {
        var kind: String
        var file: String?
        var seed: UInt64?
    }

    struct Output: Decodable {
        var name: String
        var shape: [Int]
        var file: String
    }

    var runtime: String
    var models: [ModelEntry]

    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Goldens")

    static func load() throws -> GoldenManifest {
        let data = try Data(contentsOf: directory.appendingPathComponent("manifest.json"))
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(GoldenManifest.self, from: data)
    }

    /// The float input of a case, built exactly as the generator built it.
    static func input(_ input: Input, count: Int, range: [Double]) throws -> [Float] {
        let (lower, upper) = (range[0], range[1])
        switch input.kind {
        case "image":
            let bytes = try Data(contentsOf: directory.appendingPathComponent(input.file ?? ""))
            return bytes.map { Float(Double($0) * (upper - lower) / 255.0 + lower) }
        case "random":
            return SplitMix64.floats(count: count, seed: input.seed ?? 0, lower: lower, upper: upper)
        default:
            throw CocoaError(.coderInvalidValue, userInfo: [NSDebugDescriptionErrorKey: "unknown input kind \(input.kind)"])
        }
    }

    /// Elements outside 1e-4 absolute and 1e-3 relative, with the worst one for the message.
    static func mismatches(_ ours: [Float], _ reference: [Float]) -> (count: Int, worst: String) {
        var count = ours.count == reference.count ? 0 : max(ours.count, reference.count)
        var worst = (index: 0, error: Float(0))
        for (index, (a, b)) in zip(ours, reference).enumerated() {
            let error = abs(a - b)
            if !(error <= 1e-4 || error <= 1e-3 * abs(b)) { count += 1 }
            if !(error <= worst.error) { worst = (index, error) }
        }
        let shown = worst.index < min(ours.count, reference.count) ? "ours \(ours[worst.index]) vs \(reference[worst.index])" : "sizes \(ours.count) vs \(reference.count)"
        return (count, "worst at \(worst.index): \(shown)")
    }

    static func floats(_ file: String) throws -> [Float] {
        let data = try Data(contentsOf: directory.appendingPathComponent(file))
        return data.withUnsafeBytes { raw in
            (0..<data.count / 4).map { Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self))) }
        }
    }
}

/// Where `make models` puts the model files: `models/` at the repository root.
let modelsDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("models")
