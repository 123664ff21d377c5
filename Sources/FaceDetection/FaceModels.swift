import Imaging
import Inference

/// The four MediaPipe face models, loaded once per process and shared by every
/// inference thread and session.
public struct FaceModels: Sendable {
    /// BlazeFace short range (128x128): ML Kit's `fast` performance mode.
    public let shortRangeDetector: CompiledModel
    /// BlazeFace full range, sparse (192x192): ML Kit's `accurate` performance mode.
    public let fullRangeDetector: CompiledModel
    /// The 468-point face mesh (192x192).
    public let faceMesh: CompiledModel
    /// The iris and eye-contour model (64x64), run once per eye.
    public let iris: CompiledModel

    /// The model files, as `make models` names them.
    public static let fileNames = [
        "face_detection_short_range.tflite",
        "face_detection_full_range_sparse.tflite",
        "face_landmark.tflite",
        "iris_landmark.tflite",
    ]

    /// Loads the four models from `directory`.
    public init(directory: String) throws {
        let paths = Self.fileNames.map { "\(directory)/\($0)" }
        shortRangeDetector = try CompiledModel(path: paths[0])
        fullRangeDetector = try CompiledModel(path: paths[1])
        faceMesh = try CompiledModel(path: paths[2])
        iris = try CompiledModel(path: paths[3])
    }

    /// Every model, for reporting.
    public var all: [CompiledModel] { [shortRangeDetector, fullRangeDetector, faceMesh, iris] }
}

/// One thread's runtimes over the shared `FaceModels`.
///
/// Not thread-safe and not `Sendable`: create one per inference thread, where
/// it is used for every session that thread serves. The runtimes are built
/// lazily so a thread that only ever detects never pays for the landmark models.
public final class FaceEngine {
    /// The shared models.
    public let models: FaceModels
    private let pool: ThreadPool?
    /// Whether model runs are split over the pool (when there is one). A
    /// caller whose other threads may be busy turns it off: a split run waits
    /// for its slowest part, and a part whose thread lost its core to other
    /// work stalls the whole run.
    public var splitsModelRuns: Bool
    private var runtimes: [ObjectIdentifier: Runtime] = [:]
    private var splitRuntimes: [ObjectIdentifier: Runtime] = [:]
    private var decoder: JPEGDecoder?

    /// Creates an engine whose runtimes split each model run over `threads`
    /// threads of one pool of its own (1: the calling thread only).
    public convenience init(models: FaceModels, threads: Int = 1) {
        self.init(models: models, pool: ThreadPool(threads: threads))
    }

    /// Creates an engine whose runtimes split each model run over `pool`, which
    /// engines on other threads may share; nil runs on the calling thread only.
    public init(models: FaceModels, pool: ThreadPool?) {
        self.models = models
        self.pool = pool
        splitsModelRuns = pool != nil
    }

    /// This thread's JPEG decoder, created on first use.
    func jpegDecoder() throws(ImagingError) -> JPEGDecoder {
        if let decoder { return decoder }
        let created = try JPEGDecoder()
        decoder = created
        return created
    }

    /// The runtime for `model`, split over the pool or not as
    /// `splitsModelRuns` says, created on first use.
    func runtime(for model: CompiledModel) throws -> Runtime {
        let key = ObjectIdentifier(model)
        let split = splitsModelRuns ? pool : nil
        if let runtime = split == nil ? runtimes[key] : splitRuntimes[key] { return runtime }
        let runtime = try Runtime(model: model, pool: split)
        if split == nil { runtimes[key] = runtime } else { splitRuntimes[key] = runtime }
        return runtime
    }
}
