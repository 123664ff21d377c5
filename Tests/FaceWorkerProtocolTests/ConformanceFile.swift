import Foundation

/// The parts of the conformance file, `proto/faceworker/v1/defaults.json`,
/// that the wire module takes from it: where a client finds the worker and
/// the longest answer a client accepts. Read from the file itself, so these
/// tests check the generated constants against their one definition.
struct ConformanceFile: Decodable {
    struct Socket: Decodable {
        let environmentVariable: String
        let runtimeDirectoryVariable: String
        let runtimeDirectoryFile: String
        let fallback: String
    }

    struct Client: Decodable {
        let maxAnswerBytes: Int
    }

    let socket: Socket
    let client: Client

    static let url = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("proto/faceworker/v1/defaults.json")

    static func load() throws -> ConformanceFile {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(ConformanceFile.self, from: Data(contentsOf: url))
    }
}
