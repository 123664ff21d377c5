import Foundation

/// Where the package's fixtures, models, conformance file and built worker
/// are.
enum TestPaths {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The models `make models` fetched.
    static let models = packageRoot.appendingPathComponent("models").path

    /// The face pipeline's fixture images.
    static let fixtures = packageRoot.appendingPathComponent("Tests/Fixtures")

    /// Every option's default and range.
    static let conformance = packageRoot.appendingPathComponent("proto/faceworker/v1/defaults.json")

    /// What the Python client answers on the fixtures.
    static let goldens = packageRoot.appendingPathComponent("Tests/FaceWorkerVisionAPITests/Goldens/python_client.json")

    /// The face-worker executable built beside this test bundle.
    static let workerBinary: String = {
        let besideTests = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("face-worker").path
        if FileManager.default.isExecutableFile(atPath: besideTests) { return besideTests }
        return packageRoot.appendingPathComponent(".build/debug/face-worker").path
    }()

    /// A fixture's URL.
    static func fixture(_ name: String) -> URL {
        fixtures.appendingPathComponent(name)
    }

    /// A video's frames, in order.
    static func frames(of video: String) throws -> [URL] {
        let directory = fixtures.appendingPathComponent(video)
        return try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".jpg") }.sorted()
            .map { directory.appendingPathComponent($0) }
    }
}
