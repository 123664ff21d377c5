import FaceDetection
import Imaging
import WorkerCore

/// A face pipeline without models, for the core's own tests: it validates
/// options as the real one does and answers every frame with one face whose
/// box is the whole frame and whose score is the frame's timestamp, so a
/// result names the frame it answers.
package struct FakeAnalyzer: FaceAnalyzer {
    package var threads: Int
    package var faceLandmarkerProblem: String? = nil

    /// A fake that runs `threads` frames at once.
    package init(threads: Int = 2) {
        self.threads = threads
    }

    package func warm(thread: Int) throws {}

    package func pipeline(for options: FaceOptions) throws(FaceError) -> any SessionPipeline {
        try options.validate()
        return FakePipeline(options: options)
    }
}

private struct FakePipeline: SessionPipeline {
    let options: FaceOptions

    func process(_ pixels: FramePixels, orientation: ImageOrientation, timestampMs: Int64?, maxPixels: Int,
                 tracker: inout FaceTracker, thread: Int, runsAlone: Bool) throws(FaceError) -> FaceResult {
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
