// Generated from proto/faceworker/v1/defaults.json by scripts/gen-conformance.py (make conformance). Do not edit.

extension FaceOptions {
    /// The default and the allowed range of every numeric option, by the
    /// name the wire gives it.
    package enum Specs {
        /// `min_face_size`.
        package static let minFaceSize = OptionSpec<Float>(field: "min_face_size", defaultValue: 0.1, range: 0.0...1.0)
        /// `min_detection_confidence`.
        package static let minDetectionConfidence = OptionSpec<Float>(field: "min_detection_confidence", defaultValue: 0.5, range: 0.0...1.0)
        /// `min_suppression_threshold`.
        package static let minSuppressionThreshold = OptionSpec<Float>(field: "min_suppression_threshold", defaultValue: 0.3, range: 0.0...1.0)
        /// `num_faces`.
        package static let numFaces = OptionSpec<Int>(field: "num_faces", defaultValue: 1, range: 1...64)
        /// `min_face_presence_confidence`.
        package static let minFacePresenceConfidence = OptionSpec<Float>(field: "min_face_presence_confidence", defaultValue: 0.5, range: 0.0...1.0)
        /// `min_tracking_confidence`.
        package static let minTrackingConfidence = OptionSpec<Float>(field: "min_tracking_confidence", defaultValue: 0.5, range: 0.0...1.0)
        /// `detector_interval_frames`.
        package static let detectorIntervalFrames = OptionSpec<Int>(field: "detector_interval_frames", defaultValue: 5, range: 1...1000)
        /// `max_missed_frames`.
        package static let maxMissedFrames = OptionSpec<Int>(field: "max_missed_frames", defaultValue: 3, range: 0...1000)
    }
}
