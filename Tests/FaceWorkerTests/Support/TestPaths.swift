import Foundation

/// Where the package, its fixtures, its models and the built worker are.
enum TestPaths {
    /// The package root, found from this file's place in it.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The models `make models` fetched.
    static let models = packageRoot.appendingPathComponent("models").path

    /// The face pipeline's fixture images.
    static let fixtures = packageRoot.appendingPathComponent("Tests/Fixtures")

    /// The face-worker executable `swift build --build-tests` put beside this
    /// test bundle (or, failing that, in the package's debug build folder).
    static let workerBinary: String = {
        let besideTests = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("face-worker").path
        if FileManager.default.isExecutableFile(atPath: besideTests) { return besideTests }
        return packageRoot.appendingPathComponent(".build/debug/face-worker").path
    }()

    /// A fixture JPEG's bytes.
    static func jpeg(_ name: String) throws -> Data {
        try Data(contentsOf: fixtures.appendingPathComponent(name))
    }

    /// The frames of the one-face synthetic video, in order.
    static func videoFrames() throws -> [Data] {
        let directory = fixtures.appendingPathComponent("video")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".jpg") }.sorted()
        return try names.map { try Data(contentsOf: directory.appendingPathComponent($0)) }
    }
}
