import FaceDetection
import FaceWorkerProtocol

extension FaceOptions {
    /// The pipeline options a client's `SessionOptions` ask for.
    ///
    /// Unset optional fields take the library's defaults, so the worker and
    /// the library never disagree about them. Every value is checked against
    /// the range of the conformance file (`FaceOptions.Specs`); the error
    /// names the field as the .proto spells it, and the allowed range.
    package init(wire: Faceworker_V1_SessionOptions) throws(FaceError) {
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
        switch wire.meshModel {
        case .unspecified, .attentionMesh: meshModel = .attentionMesh
        case .faceLandmarker: meshModel = .faceLandmarker
        case .faceMesh: meshModel = .faceMesh
        case .UNRECOGNIZED(let value): throw .invalidArgument("mesh_model \(value) is not a MeshModel")
        }
        faceBlendshapes = wire.outputFaceBlendshapes

        trackingEnabled = wire.trackingEnabled
        if trackingEnabled && runningMode == .image {
            throw .invalidArgument("tracking_enabled needs running_mode VIDEO or LIVE_STREAM: frames in IMAGE mode are unrelated")
        }
        // An unset optional field keeps the default; a set one is taken as sent
        // and checked, with every other value, by validate().
        if wire.optionalMinFaceSize != nil { minFaceSize = wire.minFaceSize }
        if wire.optionalMinDetectionConfidence != nil { minDetectionConfidence = wire.minDetectionConfidence }
        if wire.optionalMinSuppressionThreshold != nil { minSuppressionThreshold = wire.minSuppressionThreshold }
        if wire.optionalMinFacePresenceConfidence != nil { minFacePresenceConfidence = wire.minFacePresenceConfidence }
        if wire.optionalMinTrackingConfidence != nil { minTrackingConfidence = wire.minTrackingConfidence }
        if wire.optionalNumFaces != nil { numFaces = Int(wire.numFaces) }
        // 0 is proto3's unset for this plain field, and means the default.
        if wire.detectorIntervalFrames != 0 { detectorIntervalFrames = Int(wire.detectorIntervalFrames) }
        if wire.optionalMaxMissedFrames != nil { maxMissedFrames = Int(wire.maxMissedFrames) }
        refuseDamagedJPEG = wire.refuseDamagedJpeg
        try validate()
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
    package init(effective options: FaceOptions) {
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
        switch options.meshModel {
        case .attentionMesh: meshModel = .attentionMesh
        case .faceLandmarker: meshModel = .faceLandmarker
        case .faceMesh: meshModel = .faceMesh
        }
        outputFaceBlendshapes = options.faceBlendshapes
        detectorIntervalFrames = UInt32(options.detectorIntervalFrames)
        maxMissedFrames = UInt32(options.maxMissedFrames)
        refuseDamagedJpeg = options.refuseDamagedJPEG
    }
}

extension Faceworker_V1_SessionOptions {
    /// The names of `Face.blendshapes`' scores for a session with these
    /// options in effect, sent once when the session opens and to each
    /// subscriber rather than with every face.
    package var blendshapeNames: [String] {
        outputFaceBlendshapes ? FaceBlendshapes.categoryNames : []
    }
}
