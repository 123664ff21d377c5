import FaceDetection
import Imaging
import WorkerCore

/// Any face pipeline, the real one included, whose frames wait at `gate`
/// on their inference thread before they run: a test can have the frames it
/// sends wait behind one that is running, however fast the pipeline is.
package struct GatedAnalyzer<Analyzer: FaceAnalyzer>: FaceAnalyzer {
    package let analyzer: Analyzer
    package let gate: FrameGate

    /// `analyzer`, each of its frames held at `gate` first.
    package init(_ analyzer: Analyzer, gate: FrameGate) {
        self.analyzer = analyzer
        self.gate = gate
    }

    package var threads: Int { analyzer.threads }

    package var faceLandmarkerProblem: String? { analyzer.faceLandmarkerProblem }

    package func warm(thread: Int) throws {
        try analyzer.warm(thread: thread)
    }

    package func pipeline(for options: FaceOptions) throws(FaceError) -> any SessionPipeline {
        GatedPipeline(pipeline: try analyzer.pipeline(for: options), gate: gate)
    }
}

private struct GatedPipeline: SessionPipeline {
    let pipeline: any SessionPipeline
    let gate: FrameGate

    var options: FaceOptions { pipeline.options }

    func process(_ pixels: FramePixels, orientation: ImageOrientation, timestampMs: Int64?, maxPixels: Int,
                 tracker: inout FaceTracker, thread: Int, runsAlone: Bool) throws(FaceError) -> FaceResult {
        gate.enter()
        return try pipeline.process(pixels, orientation: orientation, timestampMs: timestampMs, maxPixels: maxPixels,
                                    tracker: &tracker, thread: thread, runsAlone: runsAlone)
    }
}
