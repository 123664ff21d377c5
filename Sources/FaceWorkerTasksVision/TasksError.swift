import FaceWorkerClient
import Foundation

/// Why a task could not be created or could not process an image (the
/// errors MediaPipe Tasks throws, under its codes and, for its own checks,
/// its words).
public struct TasksError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// The kind of failure.
    public let code: TasksErrorCode
    /// What went wrong, for people. For an option out of range, the words
    /// every FaceWorker client gives: the option's wire name and its range.
    public let message: String
    /// The option at fault, by its Swift name (such as
    /// `minFaceDetectionConfidence` or `baseOptions.modelAssetPath`); nil
    /// for an error about no single option.
    public let option: String?

    /// An error of the given kind.
    public init(code: TasksErrorCode, message: String, option: String? = nil) {
        self.code = code
        self.message = message
        self.option = option
    }

    public var description: String {
        option.map { "\($0): \(message)" } ?? message
    }

    public var errorDescription: String? { description }

    /// The error a worker's answer or a lost connection describes.
    init(_ error: FaceWorkerError, option: String? = nil) {
        self.init(code: TasksErrorCode(rawValue: error.code.rawValue) ?? .unknownError, message: error.message, option: option)
    }

    /// A task's method called in a running mode it does not serve.
    static func wrongRunningMode(wanted: RunningMode, current: RunningMode) -> TasksError {
        TasksError(code: .invalidArgumentError, message: "The vision task is not initialized with \(wanted.taskName). Current Running Mode: \(current.displayName)")
    }
}

/// MediaPipe Tasks' error codes, numbered as gRPC's status codes (which the
/// worker's statuses share).
public enum TasksErrorCode: Int, Sendable {
    case cancelledError = 1
    case unknownError = 2
    case invalidArgumentError = 3
    case deadlineExceededError = 4
    case notFoundError = 5
    case alreadyExistsError = 6
    case permissionDeniedError = 7
    case resourceExhaustedError = 8
    case failedPreconditionError = 9
    case abortedError = 10
    case outOfRangeError = 11
    case unimplementedError = 12
    case internalError = 13
    case unavailableError = 14
    case dataLossError = 15
    case unauthenticatedError = 16
}
