import Imaging

/// One face in a frame's result, with every output the session asked for.
///
/// Positions are in the upright image: `boundingBox` and ML Kit outputs in
/// pixels, `keypoints` and `mesh` normalized (fractions of width and height).
package struct Face: Sendable {
    /// The face's box in pixels: the mesh's extent when landmarks were computed,
    /// otherwise the detector's box.
    package var boundingBox: PixelRect
    /// The detector's confidence when it last saw this face.
    package var score: Float
    /// MediaPipe's six detector keypoints, normalized (right eye, left eye, nose
    /// tip, mouth centre, right ear tragion, left ear tragion; subject-relative).
    package var keypoints: [NormalizedLandmark]
    /// The session-unique tracking ID, when tracking is enabled.
    package var trackingID: Int?
    /// The landmark model's presence score, when landmarks were computed.
    package var presence: Float?
    /// MediaPipe's 478 landmarks, when asked for.
    package var mesh: [NormalizedLandmark]?
    /// The Face Landmarker's 52 blendshape scores in [0, 1], in the order of
    /// `FaceBlendshapes.categoryNames`, when asked for.
    package var blendshapes: [Float]?
    /// Head pitch in degrees, positive when the face turns upward (ML Kit's
    /// headEulerAngleX); needs landmarks.
    package var headEulerAngleX: Float?
    /// Head yaw in degrees, positive toward the image's right side (ML Kit's
    /// headEulerAngleY); needs landmarks.
    package var headEulerAngleY: Float?
    /// Head roll in degrees, positive counter-clockwise in the image (ML Kit's
    /// headEulerAngleZ); from the eye keypoints when there are no landmarks.
    package var headEulerAngleZ: Float?
    /// ML Kit's landmarks, contours, probabilities and MediaPipe's
    /// transformation matrix, as the session asked; nil without landmarks.
    package var features: MLKitFaceFeatures?
}

/// What a session returns for one frame.
package struct FaceResult: Sendable {
    /// The frame's timestamp in milliseconds, as given (nil in image mode).
    package var timestampMs: Int64?
    /// Size of the upright image the coordinates refer to.
    package var imageWidth: Int
    package var imageHeight: Int
    /// Faces found, best first; empty when there is none.
    package var faces: [Face]
    /// Whether the detector ran on this frame (it is skipped while tracked faces suffice).
    package var detectorRan: Bool
    /// What was wrong with the frame that did not stop it being processed,
    /// for people: libjpeg's warning for a damaged JPEG decoded anyway.
    package var warnings: [String] = []
    /// Time spent decoding a JPEG (zero for raw pixels, which are read in place).
    package var decodeTime: Duration = .zero
    /// The stored pixels decoded when only part of a JPEG was: nil for a whole decode or raw pixels.
    package var decodedPart: PixelRegion?
    /// Time spent in the detector stage.
    package var detectTime: Duration
    /// Time spent in the landmark stage (landmark model, ML Kit outputs).
    package var landmarksTime: Duration
}

extension Face {
    /// A face with only its box, score and keypoints, as a pipeline that
    /// computes nothing more reports it.
    package init(boundingBox: PixelRect, score: Float, keypoints: [NormalizedLandmark]) {
        self.boundingBox = boundingBox
        self.score = score
        self.keypoints = keypoints
    }
}

extension FaceResult {
    /// A frame's result, for pipelines other than `FacePipeline` (such as a
    /// test's fake one) that the worker runs the same way.
    package init(timestampMs: Int64?, imageWidth: Int, imageHeight: Int, faces: [Face], detectorRan: Bool,
                 detectTime: Duration, landmarksTime: Duration) {
        self.timestampMs = timestampMs
        self.imageWidth = imageWidth
        self.imageHeight = imageHeight
        self.faces = faces
        self.detectorRan = detectorRan
        self.detectTime = detectTime
        self.landmarksTime = landmarksTime
    }
}
