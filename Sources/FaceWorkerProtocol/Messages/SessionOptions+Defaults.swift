extension Faceworker_V1_SessionOptions {
    /// The defaults faceworker.proto documents for the optional options; the
    /// other options default to their zero value.
    ///
    /// The generated getters return 0 for an unset optional field, so code
    /// that reads options must go through ``withDefaults()`` to see these values.
    public enum Defaults {
        /// ML Kit's minFaceSize: a tenth of the image width.
        public static let minFaceSize: Float = 0.1
        /// MediaPipe's min_detection_confidence.
        public static let minDetectionConfidence: Float = 0.5
        /// MediaPipe Face Detector's min_suppression_threshold.
        public static let minSuppressionThreshold: Float = 0.3
        /// MediaPipe Face Landmarker's num_faces.
        public static let numFaces: UInt32 = 1
        /// MediaPipe's min_face_presence_confidence.
        public static let minFacePresenceConfidence: Float = 0.5
        /// MediaPipe's min_tracking_confidence.
        public static let minTrackingConfidence: Float = 0.5
        /// Frames a lost face keeps its tracking ID for.
        public static let maxMissedFrames: UInt32 = 3
    }

    /// These options with every unset optional field (see PRESENCE in
    /// faceworker.proto) set to its documented default, as the worker applies
    /// them and echoes them in `OpenSessionResponse.options`. Fields that are
    /// set, even to 0, are kept.
    ///
    /// - Returns: Options in which every `optional…` oneof is set.
    public func withDefaults() -> Self {
        var options = self
        if optionalMinFaceSize == nil { options.minFaceSize = Defaults.minFaceSize }
        if optionalMinDetectionConfidence == nil { options.minDetectionConfidence = Defaults.minDetectionConfidence }
        if optionalMinSuppressionThreshold == nil { options.minSuppressionThreshold = Defaults.minSuppressionThreshold }
        if optionalNumFaces == nil { options.numFaces = Defaults.numFaces }
        if optionalMinFacePresenceConfidence == nil {
            options.minFacePresenceConfidence = Defaults.minFacePresenceConfidence
        }
        if optionalMinTrackingConfidence == nil { options.minTrackingConfidence = Defaults.minTrackingConfidence }
        if optionalMaxMissedFrames == nil { options.maxMissedFrames = Defaults.maxMissedFrames }
        return options
    }
}
