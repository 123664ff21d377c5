import ArgumentParser
import Foundation
import Inference
import Logging

/// The `face-worker` executable: argument parsing only; the work is in the libraries.
@main
struct FaceWorkerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "face-worker",
        abstract: "FaceWorker: face detection, landmarks and tracking as a local service.",
        discussion: """
            Loads MediaPipe's face models (BlazeFace short and full range, face mesh, iris) \
            once, runs them on XNNPACK and reports each model with its load and invoke time.
            """
    )

    @Option(help: "Directory holding the four .tflite model files (`make models` fetches them).")
    var models = "models"

    @Option(help: "Inference threads per model runtime.")
    var threads = 1

    @Option(help: "Log level: trace, debug, info, notice, warning, error or critical.")
    var logLevel: Logger.Level = .info

    static let modelFiles = [
        "face_detection_short_range.tflite",
        "face_detection_full_range_sparse.tflite",
        "face_landmark.tflite",
        "iris_landmark.tflite",
    ]

    func validate() throws {
        guard threads >= 1 else { throw ValidationError("--threads must be at least 1") }
    }

    func run() throws {
        var logger = Logger(label: "face-worker")
        logger.logLevel = logLevel
        let clock = ContinuousClock()
        for file in Self.modelFiles {
            let start = clock.now
            let model = try CompiledModel(path: "\(models)/\(file)")
            let loaded = clock.now - start
            let runtime = try Runtime(model: model, threads: threads)
            let invoke = try clock.measure { try runtime.invoke() }
            logger.info("model loaded", metadata: [
                "model": "\(model.name)",
                "input": "\(model.inputShapes[0])",
                "outputs": "\(model.outputShapes)",
                "operators": "\(model.graph.operators.count)",
                "load_ms": "\(loaded.milliseconds)",
                "first_invoke_ms": "\(invoke.milliseconds)",
            ])
        }
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}

extension Duration {
    /// Milliseconds with microsecond resolution, for log lines.
    var milliseconds: Double {
        Double(components.seconds) * 1e3 + Double(components.attoseconds / 1_000_000_000_000) / 1e3
    }
}
