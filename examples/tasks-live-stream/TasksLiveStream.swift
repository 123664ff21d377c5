// Streams JPEG frames, as a 30 fps camera would, to MediaPipe Tasks' Face
// Landmarker in live-stream mode; a delegate prints each frame's faces:
//
//     swift run tasks-live-stream frame_000.jpg frame_001.jpg ...
//
// The worker must be running (`make run`); FACEWORKER_SOCKET picks another one.
// A frame that arrives while the previous one still waits replaces it, as in
// MediaPipe: the delegate hears nothing of the replaced one.

import FaceWorkerTasksVision
import Foundation

final class FacePrinter: NSObject, FaceLandmarkerLiveStreamDelegate {
    func faceLandmarker(_ faceLandmarker: FaceLandmarker, didFinishDetection result: FaceLandmarkerResult?,
                        timestampInMilliseconds: Int, error: Error?) {
        guard let result else {
            print("\(timestampInMilliseconds) ms: \(error.map { "\($0)" } ?? "no result")")
            return
        }
        let faces = result.faceLandmarks.enumerated().map { index, landmarks in
            let noseTip = landmarks[1]
            let smile = result.faceBlendshapes[index].categories.first { $0.categoryName == "mouthSmileLeft" }?.score ?? 0
            return String(format: "nose tip (%.3f, %.3f), smile %.2f", noseTip.x, noseTip.y, smile)
        }
        print("\(timestampInMilliseconds) ms: \(faces.isEmpty ? "no face" : faces.joined(separator: "; "))")
    }
}

@main
struct TasksLiveStream {
    static func main() async throws {
        let frames = CommandLine.arguments.dropFirst()
        guard !frames.isEmpty else {
            print("usage: tasks-live-stream frame.jpg [frame.jpg ...]")
            return
        }

        let options = FaceLandmarkerOptions()
        options.runningMode = .liveStream
        options.outputFaceBlendshapes = true
        let printer = FacePrinter()
        options.faceLandmarkerLiveStreamDelegate = printer
        let faceLandmarker = try await FaceLandmarker(options: options)

        let frameInterval = Duration.milliseconds(33)
        for (index, frame) in frames.enumerated() {
            let image = try MPImage(contentsOf: URL(fileURLWithPath: frame))
            try await faceLandmarker.detectAsync(image: image, timestampInMilliseconds: index * 33)
            try await Task.sleep(for: frameInterval)
        }
        // Returns once the last frame is answered and the delegate has heard it.
        await faceLandmarker.close()
    }
}
