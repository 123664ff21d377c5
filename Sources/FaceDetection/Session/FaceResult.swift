/// One face in a frame's result, with every output the session asked for.
///
/// Positions are in the upright image: `boundingBox` and ML Kit outputs in
/// pixels, `keypoints` and `mesh` normalized (fractions of width and height).
public struct Face: Sendable {
    /// The face's box in pixels: the mesh's extent when landmarks were computed,
    /// otherwise the detector's box.
    public var boundingBox: PixelRect
    /// The detector's confidence when it last saw this face.
    public var score: Float
    /// MediaPipe's six detector keypoints, normalized (right eye, left eye, nose
    /// tip, mouth centre, right ear tragion, left ear tragion; subject-relative).
    public var keypoints: [NormalizedLandmark]
    /// The session-unique tracking ID, when tracking is enabled.
    public var trackingID: Int?
    /// The landmark model's presence score, when landmarks were computed.
    public var presence: Float?
    /// MediaPipe's 478 landmarks, when asked for.
    public var mesh: [NormalizedLandmark]?
    /// The Face Landmarker's 52 blendshape scores in [0, 1], in the order of
    /// `FaceBlendshapes.categoryNames`, when asked for.
    public var blendshapes: [Float]?
    /// Head pitch in degrees, positive when the face turns upward (ML Kit's
    /// headEulerAngleX); needs landmarks.
    public var headEulerAngleX: Float?
    /// Head yaw in degrees, positive toward the image's right side (ML Kit's
    /// headEulerAngleY); needs landmarks.
    public var headEulerAngleY: Float?
    /// Head roll in degrees, positive counter-clockwise in the image (ML Kit's
    /// headEulerAngleZ); from the eye keypoints when there are no landmarks.
    public var headEulerAngleZ: Float?
    /// ML Kit's landmarks, contours, probabilities and MediaPipe's
    /// transformation matrix, as the session asked; nil without landmarks.
    public var features: MLKitFaceFeatures?
}

/// What a session returns for one frame.
public struct FaceResult: Sendable {
    /// The frame's timestamp in milliseconds, as given (nil in image mode).
    public var timestampMs: Int64?
    /// Size of the upright image the coordinates refer to.
    public var imageWidth: Int
    public var imageHeight: Int
    /// Faces found, best first; empty when there is none.
    public var faces: [Face]
    /// Whether the detector ran on this frame (it is skipped while tracked faces suffice).
    public var detectorRan: Bool
    /// What was wrong with the frame that did not stop it being processed,
    /// for people: libjpeg's warning for a damaged JPEG decoded anyway.
    public var warnings: [String] = []
    /// Time spent decoding a JPEG (zero for raw pixels, which are read in place).
    public var decodeTime: Duration = .zero
    /// Time spent in the detector stage.
    public var detectTime: Duration
    /// Time spent in the landmark stage (landmark model, ML Kit outputs).
    public var landmarksTime: Duration
}
