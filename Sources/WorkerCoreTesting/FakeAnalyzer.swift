import FaceDetection
import Imaging
import Synchronization
import WorkerCore

/// A face pipeline without models, for the core's own tests: it validates
/// options as the real one does and answers every frame with one face whose
/// box is the whole frame and whose score is the frame's timestamp, so a
/// result names the frame it answers.
package struct FakeAnalyzer: FaceAnalyzer {
    package var threads: Int
    package var faceLandmarkerProblem: String? = nil
    /// Where every frame waits before it is processed; nil to process at once.
    package var gate: FrameGate?

    /// A fake that runs `threads` frames at once, each held at `gate` first
    /// when there is one.
    package init(threads: Int = 2, gate: FrameGate? = nil) {
        self.threads = threads
        self.gate = gate
    }

    package func warm(thread: Int) throws {}

    package func pipeline(for options: FaceOptions) throws(FaceError) -> any SessionPipeline {
        try options.validate()
        return FakePipeline(options: options, gate: gate)
    }
}

private struct FakePipeline: SessionPipeline {
    let options: FaceOptions
    let gate: FrameGate?
    /// Whether one of the session's frames is running. The real pipeline
    /// relies on the core running a session's frames one at a time (its
    /// tracker is lent to one thread), so the fake fails a frame that
    /// overlaps another rather than answering it.
    private let running = RunningFrame()

    init(options: FaceOptions, gate: FrameGate?) {
        self.options = options
        self.gate = gate
    }

    func process(_ pixels: FramePixels, orientation: ImageOrientation, timestampMs: Int64?, maxPixels: Int,
                 tracker: inout FaceTracker, thread: Int, runsAlone: Bool) throws(FaceError) -> FaceResult {
        guard running.start() else { throw .internalError("two frames of one session ran at once") }
        defer { running.finish() }
        gate?.enter()
        let width: Int, height: Int
        switch pixels {
        case .jpeg(_, let size):
            (width, height) = (size.width, size.height)
        case .raw(let view):
            (width, height) = (view.width, view.height)
        }
        let face = Face(boundingBox: PixelRect(x: 0, y: 0, width: Float(width), height: Float(height)),
                        score: Float(timestampMs ?? 0), keypoints: [])
        return FaceResult(timestampMs: timestampMs, imageWidth: width, imageHeight: height, faces: [face], detectorRan: true,
                          detectTime: .zero, landmarksTime: .zero)
    }
}

/// One session's running frame, shared by the copies of its pipeline.
private final class RunningFrame: Sendable {
    private let isRunning = Atomic(false)

    /// False when a frame of the session is already running.
    func start() -> Bool {
        isRunning.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
    }

    func finish() {
        isRunning.store(false, ordering: .releasing)
    }
}
