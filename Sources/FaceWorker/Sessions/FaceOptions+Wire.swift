import FaceDetection
import FaceWorkerProtocol

extension FaceOptions {
    /// The pipeline options a client's `SessionOptions` ask for.
    ///
    /// Unset optional fields take the library's defaults, so the worker and
    /// the library never disagree about them. Every value is checked against
    /// the range faceworker.proto documents; the error names the field as the
    /// .proto spells it, and the allowed range.
    init(wire: Faceworker_V1_SessionOptions) throws(FaceError) {
        self.init()
        switch wire.runningMode {
        case .image: runningMode = .image
        case .video: runningMode = .video
        case .liveStream: runningMode = .liveStream
        case .UNRECOGNIZED(let value): throw .invalidArgument("running_mode \(value) is not a RunningMode")
        }
        switch wire.performanceMode {
        case .fast: performanceMode = .fast
        case .accurate: performanceMode = .accurate
        case .UNRECOGNIZED(let value): throw .invalidArgument("performance_mode \(value) is not a PerformanceMode")
        }
        landmarks = try Self.all(wire.landmarkMode.rawValue, "landmark_mode", "LandmarkMode")
        contours = try Self.all(wire.contourMode.rawValue, "contour_mode", "ContourMode")
        classification = try Self.all(wire.classificationMode.rawValue, "classification_mode", "ClassificationMode")
        faceMesh = wire.outputFaceMesh
        transformationMatrix = wire.outputTransformationMatrix

        trackingEnabled = wire.trackingEnabled
        if trackingEnabled && runningMode == .image {
            throw .invalidArgument("tracking_enabled needs running_mode VIDEO or LIVE_STREAM: frames in IMAGE mode are unrelated")
        }

        if wire.optionalMinFaceSize != nil { minFaceSize = try Self.unit(wire.minFaceSize, "min_face_size") }
        if wire.optionalMinDetectionConfidence != nil {
            minDetectionConfidence = try Self.unit(wire.minDetectionConfidence, "min_detection_confidence")
        }
        if wire.optionalMinSuppressionThreshold != nil {
            minSuppressionThreshold = try Self.unit(wire.minSuppressionThreshold, "min_suppression_threshold")
        }
        if wire.optionalMinFacePresenceConfidence != nil {
            minFacePresenceConfidence = try Self.unit(wire.minFacePresenceConfidence, "min_face_presence_confidence")
        }
        if wire.optionalMinTrackingConfidence != nil {
            minTrackingConfidence = try Self.unit(wire.minTrackingConfidence, "min_tracking_confidence")
        }
        if wire.optionalNumFaces != nil {
            numFaces = try Self.count(wire.numFaces, "num_faces", Self.numFacesRange)
        }
        if wire.detectorIntervalFrames != 0 {
            detectorIntervalFrames = try Self.count(wire.detectorIntervalFrames, "detector_interval_frames", Self.detectorIntervalRange)
        }
        if wire.optionalMaxMissedFrames != nil {
            maxMissedFrames = try Self.count(wire.maxMissedFrames, "max_missed_frames", Self.maxMissedFramesRange)
        }
        try validate()
    }

    /// The values `FaceOptions.validate()` accepts for the counted options.
    static let numFacesRange = 1...64
    static let detectorIntervalRange = 1...1000
    static let maxMissedFramesRange = 0...1000

    private static func unit(_ value: Float, _ field: String) throws(FaceError) -> Float {
        guard value >= 0, value <= 1 else {
            throw .invalidArgument("\(field) must be between 0 and 1, got \(value)")
        }
        return value
    }

    private static func count(_ value: UInt32, _ field: String, _ range: ClosedRange<Int>) throws(FaceError) -> Int {
        guard range.contains(Int(value)) else {
            throw .invalidArgument("\(field) must be between \(range.lowerBound) and \(range.upperBound), got \(value)")
        }
        return Int(value)
    }

    private static func all(_ rawValue: Int, _ field: String, _ type: String) throws(FaceError) -> Bool {
        switch rawValue {
        case 0: return false
        case 1: return true
        default: throw .invalidArgument("\(field) \(rawValue) is not a \(type)")
        }
    }
}

extension Faceworker_V1_SessionOptions {
    /// The options in effect for a session, every field set explicitly, as
    /// OpenSessionResponse echoes them.
    init(effective options: FaceOptions) {
        self.init()
        switch options.runningMode {
        case .image: runningMode = .image
        case .video: runningMode = .video
        case .liveStream: runningMode = .liveStream
        }
        performanceMode = options.performanceMode == .fast ? .fast : .accurate
        landmarkMode = options.landmarks ? .all : .none
        contourMode = options.contours ? .all : .none
        classificationMode = options.classification ? .all : .none
        minFaceSize = options.minFaceSize
        trackingEnabled = options.trackingEnabled
        minDetectionConfidence = options.minDetectionConfidence
        minSuppressionThreshold = options.minSuppressionThreshold
        numFaces = UInt32(options.numFaces)
        minFacePresenceConfidence = options.minFacePresenceConfidence
        minTrackingConfidence = options.minTrackingConfidence
        outputFaceMesh = options.faceMesh
        outputTransformationMatrix = options.transformationMatrix
        detectorIntervalFrames = UInt32(options.detectorIntervalFrames)
        maxMissedFrames = UInt32(options.maxMissedFrames)
    }
}
