import Foundation

/// Where `make models` puts the model files: `models/` at the repository root.
func modelPath(_ name: String) -> String {
    URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("models").appendingPathComponent(name).path
}

/// The repository's model manifest (models.json), the part these tests read.
struct ModelManifestFile: Decodable {
    struct Entry: Decodable {
        var name: String
        var sha256: String
        var members: [Member]?
    }

    struct Member: Decodable {
        var name: String
        var sha256: String
    }

    var files: [Entry]

    static let repository: ModelManifestFile = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return try! JSONDecoder().decode(ModelManifestFile.self, from: Data(contentsOf: root.appendingPathComponent("models.json")))
    }()
}

/// Every plain `.tflite` file the manifest lists.
let allModelNames = ModelManifestFile.repository.files.map(\.name).filter { $0.hasSuffix(".tflite") }

/// The Face Landmarker bundle's members with their SHA-256, as the manifest lists them.
let landmarkerMembers: [(name: String, sha256: String)] = ModelManifestFile.repository.files
    .first { $0.name == "face_landmarker.task" }!.members!.map { ($0.name, $0.sha256) }
