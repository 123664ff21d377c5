import FaceWorkerClient
import FaceWorkerProtocol
import Foundation

/// What opening a task's session needs, copied out of its options when the
/// task is created (the options object stays the caller's to change).
struct SessionRequest: Sendable {
    var options: Faceworker_V1_SessionOptions
    var runningMode: RunningMode
    var socketPath: String?
    var reconnect: ReconnectPolicy?
    /// `baseOptions.modelAssetPath`.
    var modelAssetPath: String?
    /// The models the task may run, by file name, and what each sets.
    var models: [String: @Sendable (inout Faceworker_V1_SessionOptions) -> Void]
    /// The task's type, for errors.
    var task: String
    /// The task's Swift name of each option, by the name the worker's
    /// errors give it.
    var optionNames: [String: String]

    /// Checks MediaPipe's rule that a delegate is set exactly in live-stream
    /// mode.
    static func checkDelegate(_ isSet: Bool, runningMode: RunningMode) throws(TasksError) {
        if runningMode == .liveStream && !isSet {
            throw TasksError(code: .invalidArgumentError, message: "The vision task is in live stream mode. An object must be set as the delegate of the task in its options to ensure asynchronous delivery of results.")
        }
        if runningMode != .liveStream && isSet {
            throw TasksError(code: .invalidArgumentError, message: "The vision task is in image or video mode. The delegate must not be set in the task's options.")
        }
    }

    /// The session options with the model `modelAssetPath` names.
    ///
    /// - Throws: `TasksError` naming `baseOptions.modelAssetPath` when the
    ///   worker does not serve the file, or the task does not run it.
    func resolvedOptions(served: () async throws -> [String]) async throws -> Faceworker_V1_SessionOptions {
        guard let path = modelAssetPath, !path.isEmpty else { return options }
        let name = URL(fileURLWithPath: path).lastPathComponent
        let servedNames = try await served()
        guard servedNames.contains(name) else {
            throw TasksError(
                code: .invalidArgumentError,
                message: "the worker does not serve \(name); it serves \(servedNames.sorted().joined(separator: ", "))",
                option: "baseOptions.modelAssetPath")
        }
        guard let apply = models[name] else {
            throw TasksError(
                code: .invalidArgumentError,
                message: "\(name) is not a model a \(task) runs: it runs \(models.keys.sorted().joined(separator: " or "))",
                option: "baseOptions.modelAssetPath")
        }
        var options = options
        apply(&options)
        return options
    }

    /// The error the worker's refusal of the session describes, naming the
    /// option at fault by its Swift name.
    func refusal(_ error: FaceWorkerError) -> TasksError {
        let option = error.code == .invalidArgument
            ? optionNames.first { field, _ in error.message.hasPrefix(field + " ") }?.value
            : nil
        return TasksError(error, option: option)
    }
}
