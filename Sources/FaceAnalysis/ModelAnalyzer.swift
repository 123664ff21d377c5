import FaceDetection
import Imaging
import WorkerCore

/// The worker's face pipeline: MediaPipe's models, loaded once, run on one
/// XNNPACK engine per inference thread.
package struct ModelAnalyzer: FaceAnalyzer {
    /// The loaded models.
    package let models: FaceModels
    private let engines: EnginePool

    /// An analyzer over `models` running `threads` frames at once.
    package init(models: FaceModels, threads: Int) throws {
        self.models = models
        engines = try EnginePool(models: models, threads: threads)
    }

    package var threads: Int { engines.count }

    package var faceLandmarkerProblem: String? { models.faceLandmarkerProblem }

    /// Builds thread `thread`'s runtime of every model, runs each once, then
    /// warms the thread on `WarmFrame`.
    package func warm(thread: Int) throws {
        try engines.warm(thread)
        try warmOnFrame(thread: thread)
    }

    /// Runs `WarmFrame` through each of its pipelines on thread `thread`'s
    /// engine; thread 0 also runs it over every core, as a lone frame does.
    private func warmOnFrame(thread: Int) throws {
        let jpeg = WarmFrame.jpeg
        let size = try JPEGDecoder().header(of: jpeg)
        for options in WarmFrame.options(for: models) {
            let warmed = try pipeline(for: options)
            for runsAlone in thread == 0 ? [false, true] : [false] {
                var tracker = FaceTracker()
                _ = try jpeg.withUnsafeBytes { bytes in
                    try warmed.process(.jpeg(bytes, size: size), orientation: .topLeft, timestampMs: 0,
                                       maxPixels: size.width * size.height, tracker: &tracker, thread: thread,
                                       runsAlone: runsAlone)
                }
            }
        }
    }

    package func pipeline(for options: FaceOptions) throws(FaceError) -> any SessionPipeline {
        ModelPipeline(pipeline: try FacePipeline(models: models, options: options), engines: engines)
    }
}

/// A session's `FacePipeline`, run on whichever engine the frame's thread gets.
private struct ModelPipeline: SessionPipeline {
    let pipeline: FacePipeline
    let engines: EnginePool

    var options: FaceOptions { pipeline.options }

    func process(_ pixels: FramePixels, orientation: ImageOrientation, timestampMs: Int64?, maxPixels: Int,
                 tracker: inout FaceTracker, thread: Int, runsAlone: Bool) throws(FaceError) -> FaceResult {
        try engines.withEngine(home: thread, runsAlone: runsAlone) { engine in
            Result { () throws(FaceError) in
                try pipeline.process(pixels, orientation: orientation, timestampMs: timestampMs, maxPixels: maxPixels,
                                     tracker: &tracker, engine: engine)
            }
        }.get()
    }
}
