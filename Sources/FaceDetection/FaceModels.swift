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
    private let threads: Int
    private var runtimes: [ObjectIdentifier: Runtime] = [:]
    private var decoder: JPEGDecoder?

    /// Creates an engine whose runtimes use `threads` threads each.
    public init(models: FaceModels, threads: Int = 1) {
        self.models = models
        self.threads = threads
    }

    /// This thread's JPEG decoder, created on first use.
    func jpegDecoder() throws(ImagingError) -> JPEGDecoder {
        if let decoder { return decoder }
        let created = try JPEGDecoder()
        decoder = created
        return created
    }

    /// The runtime for `model`, created on first use.
    func runtime(for model: CompiledModel) throws -> Runtime {
        let key = ObjectIdentifier(model)
        if let runtime = runtimes[key] { return runtime }
        let runtime = try Runtime(model: model, threads: threads)
        runtimes[key] = runtime
        return runtime
    }
}
