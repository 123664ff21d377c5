/// The Face Landmarker's stages for one session: the blendshape stage only
/// when the options ask for blendshapes, so other sessions never create its
/// runtime.
struct LandmarkerStages: Sendable {
    /// The bundle's short-range detector, as MediaPipe's graph runs it; or,
    /// when the session asks for ML Kit's accurate mode, the full-range one,
    /// which finds the far and small faces the short-range detector misses.
    let detector: FaceDetector
    let mesh: LandmarkerMesh
    let blendshapes: LandmarkerBlendshapes?
    /// The geometry from the bundle's own metadata.
    let geometry: FaceGeometry

    /// MediaPipe's detector graph keeps its non-maximum suppression at the
    /// proto default; the landmarker never sets it.
    static let suppressionThreshold: Float = 0.5

    init(models: FaceLandmarkerModels, options: FaceOptions, fullRangeDetector: FaceDetector) throws(FaceError) {
        detector = options.performanceMode == .accurate ? fullRangeDetector : FaceDetector(landmarkerDetector: models.detector)
        mesh = LandmarkerMesh(models: models)
        if options.faceBlendshapes {
            guard let model = models.blendshapes else {
                throw .failedPrecondition("output_face_blendshapes: the Face Landmarker bundle's blendshape model cannot run: \(models.blendshapesProblem ?? "unknown reason")")
            }
            blendshapes = LandmarkerBlendshapes(model: model)
        } else {
            blendshapes = nil
        }
        geometry = FaceGeometry(metadata: models.geometry)
    }
}
