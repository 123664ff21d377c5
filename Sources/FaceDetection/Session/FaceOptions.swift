/// Everything a session can be configured with: ML Kit's face detector options
/// and MediaPipe's Face Detector and Face Landmarker options, in one value.
///
/// Defaults follow the sources: ML Kit (fast, nothing extra, minFaceSize 0.1,
/// no tracking) and MediaPipe (image mode, confidences 0.5, suppression 0.3,
/// one face); the numeric ones come from the conformance file through `Specs`.
package struct FaceOptions: Sendable, Equatable {
    /// MediaPipe's running modes.
    package enum RunningMode: Sendable, Equatable {
        /// Independent images; no state between calls.
        case image
        /// Frames of one video, timestamps strictly increasing, answered in order.
        case video
        /// Frames from a live source; frames arriving while busy replace the waiting one.
        case liveStream
    }

    /// ML Kit's performance modes, which pick the detector model.
    package enum PerformanceMode: Sendable, Equatable {
        /// BlazeFace short range: faces within about 2 m, fastest.
        case fast
        /// BlazeFace full range: small and distant faces too.
        case accurate
    }

    /// The landmark models that give the mesh points.
    package enum MeshModel: Sendable, Equatable {
        /// MediaPipe's legacy refined FaceMesh (`face_landmark_with_attention.tflite`,
        /// 192x192, or the 468-point mesh when the 478 points are not asked
        /// for): about two and a half times cheaper per frame, no blendshapes.
        case attentionMesh
        /// MediaPipe Tasks' Face Landmarker (`face_landmarker.task`): its own
        /// detector, the 256x256 V2 mesh and the blendshape model, run by the
        /// Tasks graph's rules, so points and scores equal MediaPipe Tasks'.
        case faceLandmarker
        /// MediaPipe's legacy unrefined FaceMesh: the 468-point mesh
        /// (`face_landmark.tflite`, 192x192) even when the mesh is asked for,
        /// whose points are MediaPipe's and not the attention mesh's first 468.
        case faceMesh
    }

    package var runningMode: RunningMode = .image
    package var performanceMode: PerformanceMode = .fast
    /// ML Kit's landmark mode "all": the 10 landmark types.
    package var landmarks = false
    /// ML Kit's contour mode "all": the 15 contour types, for every face.
    package var contours = false
    /// ML Kit's classification mode "all": smiling and eyes-open probabilities.
    package var classification = false
    /// Smallest face to report, as its width over the image width (ML Kit).
    package var minFaceSize = Specs.minFaceSize.defaultValue
    /// Whether faces keep a tracking ID across frames (video and live stream only).
    package var trackingEnabled = false
    /// Detector score threshold (MediaPipe).
    package var minDetectionConfidence = Specs.minDetectionConfidence.defaultValue
    /// Overlap above which detections are merged (MediaPipe).
    package var minSuppressionThreshold = Specs.minSuppressionThreshold.defaultValue
    /// Most faces reported per frame (MediaPipe Face Landmarker's numFaces).
    package var numFaces = Specs.numFaces.defaultValue
    /// Landmark model presence score below which a face counts as lost.
    package var minFacePresenceConfidence = Specs.minFacePresenceConfidence.defaultValue
    /// Overlap (IoU) above which a new detection is the same face as a tracked one.
    package var minTrackingConfidence = Specs.minTrackingConfidence.defaultValue
    /// Return MediaPipe's 478 normalized 3-D landmarks (468 with `meshModel` `.faceMesh`).
    package var faceMesh = false
    /// Return MediaPipe's 4x4 facial transformation matrix.
    package var transformationMatrix = false
    /// Which landmark models run when any output needs the mesh.
    package var meshModel = MeshModel.attentionMesh
    /// Return the Face Landmarker's 52 blendshape scores (needs `meshModel`
    /// `.faceLandmarker`).
    package var faceBlendshapes = false
    /// While fewer than `numFaces` faces are followed by their landmarks, the
    /// detector runs on at most one frame in this many, so a one-face scene does
    /// not pay for the detector on every frame.
    package var detectorIntervalFrames = Specs.detectorIntervalFrames.defaultValue
    /// Frames a face may go unseen and still keep its tracking ID.
    package var maxMissedFrames = Specs.maxMissedFrames.defaultValue
    /// Refuse a JPEG whose compressed data is damaged or cut short, instead of
    /// decoding it as libjpeg does (the missing part grey) with a warning.
    package var refuseDamagedJPEG = false

    /// Options with every default.
    package init() {}

    /// Whether any requested output needs the face mesh (and so the landmark models).
    package var needsMesh: Bool {
        landmarks || contours || classification || faceMesh || transformationMatrix || faceBlendshapes
    }

    /// Checks every value against its allowed range (`Specs`); the error
    /// names the option as faceworker.proto does.
    package func validate() throws(FaceError) {
        _ = try Specs.minFaceSize.check(minFaceSize)
        _ = try Specs.minDetectionConfidence.check(minDetectionConfidence)
        _ = try Specs.minSuppressionThreshold.check(minSuppressionThreshold)
        _ = try Specs.minFacePresenceConfidence.check(minFacePresenceConfidence)
        _ = try Specs.minTrackingConfidence.check(minTrackingConfidence)
        _ = try Specs.numFaces.check(numFaces)
        _ = try Specs.detectorIntervalFrames.check(detectorIntervalFrames)
        _ = try Specs.maxMissedFrames.check(maxMissedFrames)
        if faceBlendshapes && meshModel != .faceLandmarker {
            throw .invalidArgument("output_face_blendshapes needs mesh_model FACE_LANDMARKER: only the Face Landmarker's bundle has a blendshape model")
        }
    }
}
