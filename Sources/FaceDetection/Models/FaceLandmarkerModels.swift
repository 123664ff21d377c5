import Inference

/// The models of MediaPipe Tasks' Face Landmarker, from its bundle
/// `face_landmarker.task`: its own face detector, the 478-point mesh, the
/// blendshape model and the face geometry metadata.
package struct FaceLandmarkerModels: Sendable {
    /// BlazeFace short range as the bundle ships it (128x128, 896 anchors).
    package let detector: CompiledModel
    /// The 478-point mesh with irises (256x256 input).
    package let landmarks: CompiledModel
    /// The 52-score blendshape model; nil when it could not be prepared, with
    /// `blendshapesProblem` saying why (the mesh does not need it).
    package let blendshapes: CompiledModel?
    /// Why `blendshapes` is nil.
    package let blendshapesProblem: String?
    /// The canonical face and Procrustes weights of the facial transformation matrix.
    package let geometry: GeometryPipelineMetadata
    /// Where the mesh model's 1434 point values and its presence logit are among its outputs.
    let pointsOutput: Int
    let presenceOutput: Int

    /// The mesh's output tensor names, as the bundle's model declares them.
    private static let pointsName = "Identity", presenceName = "Identity_1"
    /// The blendshape model's input: the 146-point subset, x and y each.
    static let blendshapeInputShape = [1, LandmarkerBlendshapes.subset.count, 2]

    /// Checks every model's tensors, so a member in the wrong place fails at
    /// load, naming its file, rather than being misread at run time.
    init(detector: CompiledModel, landmarks: CompiledModel, blendshapes: Result<CompiledModel, any Error>,
         geometry: GeometryPipelineMetadata) throws {
        let detectorInput = DetectorModel.shortRange.inputSize
        guard detector.inputShapes == [[1, detectorInput, detectorInput, 3]],
              detector.outputShapes.map({ $0.reduce(1, *) }) == [896 * 16, 896] else {
            throw InferenceError(file: detector.graph.file, problem: "is not the Face Landmarker's detector: expected input [1, 128, 128, 3] and outputs of 896 x 16 and 896 values, found input \(detector.inputShapes) and outputs \(detector.outputShapes)")
        }
        let names = landmarks.graph.outputs.map { landmarks.graph.tensors[$0].name }
        let size = LandmarkerMesh.inputSize
        guard landmarks.inputShapes == [[1, size, size, 3]],
              let points = names.firstIndex(of: Self.pointsName), let presence = names.firstIndex(of: Self.presenceName),
              landmarks.outputShapes[points].reduce(1, *) == 478 * 3, landmarks.outputShapes[presence].reduce(1, *) == 1 else {
            throw InferenceError(file: landmarks.graph.file, problem: "is not the Face Landmarker's mesh: expected input [1, 256, 256, 3] and outputs \(Self.pointsName) of 1434 values and \(Self.presenceName) of 1, found input \(landmarks.inputShapes) and outputs \(names) shaped \(landmarks.outputShapes)")
        }
        guard geometry.vertexCount >= MeshLayout.faceCount else {
            throw InferenceError(file: "geometry_pipeline_metadata_landmarks.binarypb", problem: "has \(geometry.vertexCount) canonical vertices, the mesh needs \(MeshLayout.faceCount)")
        }
        switch blendshapes {
        case .success(let model) where model.inputShapes == [Self.blendshapeInputShape] && model.outputShapes.map({ $0.reduce(1, *) }) == [52]:
            self.blendshapes = model
            blendshapesProblem = nil
        case .success(let model):
            self.blendshapes = nil
            blendshapesProblem = "\(model.graph.file): is not the blendshape model: expected input \(Self.blendshapeInputShape) and one output of 52 values, found input \(model.inputShapes) and outputs \(model.outputShapes)"
        case .failure(let error):
            self.blendshapes = nil
            blendshapesProblem = "\(error)"
        }
        self.detector = detector
        self.landmarks = landmarks
        self.geometry = geometry
        pointsOutput = points
        presenceOutput = presence
    }
}
