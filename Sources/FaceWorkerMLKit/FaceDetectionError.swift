import FaceWorkerClient
import Foundation

/// Why a ``FaceDetector`` could not process an image.
public struct FaceDetectionError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// The worker's status: `.invalidArgument` for a bad option or image,
    /// `.unavailable` for no worker, and so on.
    public let code: StatusCode
    /// What went wrong, for people. For an option out of range, the words
    /// every FaceWorker client gives: the option's wire name and its range.
    public let message: String
    /// The option at fault, by its Swift name (such as `minFaceSize`); nil
    /// for an error about no single option.
    public let option: String?

    /// An error.
    public init(code: StatusCode, message: String, option: String? = nil) {
        self.code = code
        self.message = message
        self.option = option
    }

    init(_ error: FaceWorkerError) {
        let option = error.code == .invalidArgument ? Self.optionNames.first { error.message.hasPrefix($0.key + " ") }?.value : nil
        self.init(code: error.status, message: error.message, option: option)
    }

    public var description: String {
        option.map { "\($0): \(message)" } ?? message
    }

    public var errorDescription: String? { description }

    /// The Swift name of each option, by the name the worker's errors give it.
    private static let optionNames = [
        "min_face_size": "minFaceSize",
        "performance_mode": "performanceMode",
        "landmark_mode": "landmarkMode",
        "contour_mode": "contourMode",
        "classification_mode": "classificationMode",
        "tracking_enabled": "isTrackingEnabled",
    ]
}
