import ArgumentParser

/// The pipeline's benchmarks, for `make bench-pipeline`: whole frames through
/// the face pipeline, and the crop of a camera frame into a model's input tensor.
@main
struct PipelineBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pipeline-bench",
        abstract: "Time FaceWorker's face pipeline and print one JSON line.",
        subcommands: [FramesCommand.self, SamplingCommand.self, DecodeCommand.self]
    )
}
