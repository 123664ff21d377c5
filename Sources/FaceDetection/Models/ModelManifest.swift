import Foundation

/// The model manifest installed beside the models as `manifest.json` (a copy
/// of the repository's models.json): every file's name, role and SHA-256, and
/// for the Face Landmarker bundle its members'.
struct ModelManifest: Decodable, Sendable {
    /// One model file.
    struct File: Decodable, Sendable {
        var name: String
        var role: String
        var required: Bool
        var sha256: String
        /// The files packed inside a bundle, by role.
        var members: [Member]?
    }

    /// One file inside a bundle.
    struct Member: Decodable, Sendable {
        var name: String
        var role: String
        var sha256: String
    }

    var files: [File]

    /// The manifest's name in a models directory.
    static let fileName = "manifest.json"

    /// Reads `<directory>/manifest.json`; the error names the file.
    static func load(directory: String) throws -> ModelManifest {
        let path = "\(directory)/\(fileName)"
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ModelManifestError(file: path, problem: "cannot be read (missing, or not a readable file); `make models` installs it beside the models")
        }
        do {
            return try JSONDecoder().decode(ModelManifest.self, from: data)
        } catch {
            throw ModelManifestError(file: path, problem: "is not a model manifest: \(error)")
        }
    }

    /// The file with `role`, which the manifest must list.
    func file(role: String, manifest path: String) throws -> File {
        guard let file = files.first(where: { $0.role == role }) else {
            throw ModelManifestError(file: path, problem: "lists no file with role \(role)")
        }
        return file
    }
}

/// Why the models could not be found or trusted: names the file (and the
/// member of a bundle) and what is wrong with it.
package struct ModelManifestError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The file concerned, with the bundle member after a colon when a member is.
    package var file: String
    /// What is wrong.
    package var problem: String

    package var description: String { "\(file): \(problem)" }
}
