import Imaging
import Inference

/// The MediaPipe face models, loaded once per process and shared by every
/// inference thread and session.
package struct FaceModels: Sendable {
    /// BlazeFace short range (128x128): ML Kit's `fast` performance mode.
    package let shortRangeDetector: CompiledModel
    /// BlazeFace full range, sparse (192x192): ML Kit's `accurate` performance mode.
    package let fullRangeDetector: CompiledModel
    /// The 468-point face mesh (192x192), for the ML Kit outputs when the 478
    /// points are not asked for: it costs about three quarters of the attention mesh.
    package let faceMesh: CompiledModel
    /// The attention mesh (192x192): 468 points refined at the lips and eyes
    /// plus both irises, 478 points in one run, as MediaPipe's refined FaceMesh.
    package let attentionMesh: CompiledModel

    /// The Face Landmarker's models, from its bundle; nil when the bundle is
    /// absent or unusable (`faceLandmarkerProblem` says why): the bundle is
    /// optional, and only sessions that ask for it need it.
    package let faceLandmarker: FaceLandmarkerModels?
    /// Why `faceLandmarker` is nil, naming the file (and member) and what is
    /// wrong with it, for the worker's start line.
    package let faceLandmarkerProblem: String?
    /// Every model file loaded, in the manifest's order (the bundle only when
    /// usable).
    package let files: [ModelFileEntry]

    /// A model file that was loaded.
    package struct ModelFileEntry: Sendable, Equatable {
        /// The file name, as the manifest lists it.
        package var name: String
        /// Its role in the manifest (short_range_detector, face_landmarker, ...).
        package var role: String
        /// Where it was read from.
        package var path: String
    }

    /// The roles of the files every worker needs, in `all`'s order.
    static let requiredRoles = ["short_range_detector", "full_range_detector", "face_mesh", "attention_mesh"]
    /// The roles whose models see whole frames letterboxed into their input.
    static let detectorRoles: Set = ["short_range_detector", "full_range_detector"]
    /// The optional Face Landmarker bundle's role.
    static let landmarkerRole = "face_landmarker"

    /// Loads the models `<directory>/manifest.json` lists, each by its role.
    /// A missing manifest or required file throws; a missing, damaged or
    /// altered Face Landmarker bundle leaves `faceLandmarker` nil and says why
    /// in `faceLandmarkerProblem`.
    package init(directory: String) throws {
        let manifest = try ModelManifest.load(directory: directory)
        let manifestPath = "\(directory)/\(ModelManifest.fileName)"
        var files: [ModelFileEntry] = []
        var models: [CompiledModel] = []
        for role in Self.requiredRoles {
            let file = try manifest.file(role: role, manifest: manifestPath)
            let path = "\(directory)/\(file.name)"
            models.append(try CompiledModel(path: path, letterboxedInput: Self.detectorRoles.contains(role)))
            files.append(ModelFileEntry(name: file.name, role: role, path: path))
        }
        var landmarker: FaceLandmarkerModels?
        var problem: String?
        do {
            let file = try manifest.file(role: Self.landmarkerRole, manifest: manifestPath)
            let path = "\(directory)/\(file.name)"
            landmarker = try FaceLandmarkerBundle.load(path: path, file: file)
            files.append(ModelFileEntry(name: file.name, role: Self.landmarkerRole, path: path))
        } catch {
            problem = "\(error)"
        }
        try self.init(shortRangeDetector: models[0], fullRangeDetector: models[1], faceMesh: models[2], attentionMesh: models[3],
                      faceLandmarker: landmarker, faceLandmarkerProblem: problem, files: files)
    }

    /// Models given one by one, checked as the directory's are.
    init(shortRangeDetector: CompiledModel, fullRangeDetector: CompiledModel, faceMesh: CompiledModel, attentionMesh: CompiledModel,
         faceLandmarker: FaceLandmarkerModels? = nil, faceLandmarkerProblem: String? = "no Face Landmarker bundle was given",
         files: [ModelFileEntry] = []) throws {
        self.shortRangeDetector = shortRangeDetector
        self.fullRangeDetector = fullRangeDetector
        self.faceMesh = faceMesh
        self.attentionMesh = attentionMesh
        self.faceLandmarker = faceLandmarker
        self.faceLandmarkerProblem = faceLandmarker == nil ? faceLandmarkerProblem : nil
        self.files = files
        try Self.check(attentionMesh, outputs: [1404, 160, 142, 142, 10, 10, 1], role: "the attention mesh")
        try Self.check(faceMesh, outputs: [1404, 1], role: "the face mesh")
    }

    /// Every model, for reporting.
    package var all: [CompiledModel] {
        var models = [shortRangeDetector, fullRangeDetector, faceMesh, attentionMesh]
        if let faceLandmarker {
            models += [faceLandmarker.detector, faceLandmarker.landmarks]
            if let blendshapes = faceLandmarker.blendshapes { models.append(blendshapes) }
        }
        return models
    }

    /// A model file in the wrong place (or another version) must fail at load,
    /// naming the file, rather than be read past its outputs at run time.
    private static func check(_ model: CompiledModel, outputs: [Int], role: String) throws {
        let found = model.outputShapes.map { $0.reduce(1, *) }
        guard model.inputShapes == [[1, LegacyMeshStage.inputSize, LegacyMeshStage.inputSize, 3]], found == outputs else {
            throw InferenceError(file: model.graph.file, problem: "is not \(role): expected input [1, 192, 192, 3] and outputs of \(outputs) values, found input \(model.inputShapes) and outputs of \(found) values")
        }
    }
}

/// Runtimes over the shared `FaceModels`, for one thread at a time.
///
/// Not thread-safe and not `Sendable`: an inference thread keeps one for
/// every session it serves, and an engine that is handed between threads must
/// be guarded so only one uses it at once. The runtimes are built on first
/// use, or all at once by `warm()`.
package final class FaceEngine {
    /// The shared models.
    package let models: FaceModels
    private let threadPool: ThreadPool?
    private var runtimes: [ObjectIdentifier: Runtime] = [:]
    /// The inner tensors of every runtime here: they run one at a time.
    private var workspace: Workspace?
    private let weightsCache: WeightsCache?
    /// Set when a frame holding part of its image was asked for a tensor
    /// outside that part: the tensor was left as it was, and the frame must be
    /// processed again from the whole image.
    private var missedPart = false

    /// Creates an engine whose runtimes split every model run over `threadPool`,
    /// or run on the calling thread only when it is nil, and keep their packed
    /// weights in `weightsCache`, shared with other engines over the same
    /// models (nil: weights of their own).
    package init(models: FaceModels, threadPool: ThreadPool? = nil, weightsCache: WeightsCache? = nil) {
        self.models = models
        self.threadPool = threadPool
        self.weightsCache = weightsCache
    }

    /// Samples `frame` into a model's input tensor, the rows split over the
    /// engine's pool when it has one: the crop is the largest part of a frame
    /// that runs outside XNNPACK.
    func sample(_ frame: OrientedFrame, size: Int, transform: Imaging.AffineTransform, border: BorderMode,
                valueRange: ClosedRange<Float>, into tensor: UnsafeMutableBufferPointer<Float>) {
        guard frame.holdsPixels(sampledBy: transform, width: size, height: size) else {
            missedPart = true
            return
        }
        guard let threadPool else {
            frame.sampleTensor(width: size, height: size, transform: transform, border: border, valueRange: valueRange, into: tensor)
            return
        }
        let parts = threadPool.threads
        threadPool.parallelize(parts) { part in
            frame.sampleTensor(width: size, height: size, transform: transform, border: border, valueRange: valueRange,
                               into: tensor, rows: size * part / parts..<size * (part + 1) / parts)
        }
    }

    /// Decodes a whole JPEG, split over the pool's threads while the pool is
    /// this engine's alone.
    func decode(_ jpeg: UnsafeRawBufferPointer, size: PixelSize, refuseDamaged: Bool) throws(ImagingError) -> JPEGDecoder.Decoded {
        let decoder = JPEGDecoder()
        guard let split = decodeSplit else {
            return try decoder.decode(jpeg, size: size, refuseDamaged: refuseDamaged)
        }
        return try decoder.decode(jpeg, size: size, refuseDamaged: refuseDamaged, parallelize: split)
    }

    /// Decodes the stored pixels of `region` of a JPEG (see
    /// `JPEGDecoder.decodePart`), split over the pool's threads while the pool
    /// is this engine's alone.
    func decodePart(_ jpeg: UnsafeRawBufferPointer, size: PixelSize, region: PixelRegion) -> DecodedPart? {
        JPEGDecoder.decodePart(jpeg, size: size, region: region, parallelize: decodeSplit)
    }

    /// The pool's threads for a decode's two parts; nil while the pool runs on
    /// one thread (it is shared with another frame's run, or there is none).
    private var decodeSplit: JPEGDecoder.Parallelize? {
        guard let threadPool, threadPool.width > 1 else { return nil }
        return { count, body in threadPool.parallelize(count, body) }
    }

    /// Whether a frame missed its part since the last call, which clears it.
    func takeMissedPart() -> Bool {
        defer { missedPart = false }
        return missedPart
    }

    /// Creates the runtime of every model, and runs
    /// each runtime once (on whatever its input buffer holds), so that the
    /// first frame that needs a model finds its weights packed and its
    /// buffers in memory.
    /// Runtimes built by `build()` into a weights cache that was open are
    /// set up here, so the cache must be finalized first.
    package func warm() throws {
        try build()
        for runtime in runtimes.values { try runtime.rebind() }
        for model in models.all {
            try runtime(for: model).invoke()
        }
    }

    /// Builds the runtime of every model without running any: with a shared
    /// weights cache still open, this packs each model's weights into it.
    package func build() throws {
        for model in models.all { _ = try runtime(for: model) }
    }

    /// The runtime for `model`, created on first use.
    func runtime(for model: CompiledModel) throws -> Runtime {
        let key = ObjectIdentifier(model)
        if let runtime = runtimes[key] { return runtime }
        let shared = try workspace ?? Workspace()
        workspace = shared
        let runtime = try Runtime(model: model, threadPool: threadPool, workspace: shared, weightsCache: weightsCache)
        if weightsCache?.isFinalized ?? true {
            for earlier in runtimes.values { try earlier.rebind() }
        }
        runtimes[key] = runtime
        return runtime
    }
}
