import FaceDetection
import Foundation

/// The frame every inference thread runs through the face pipelines before
/// the worker says it is ready.
///
/// Running each model once on whatever its input holds packs the weights, but
/// leaves the rest of a frame's path cold: the JPEG decoder's tables, the
/// sampling and decoding around each model, the tracker, the blendshape and
/// matrix stages, and the allocator's large blocks for a 1280x720 frame. A
/// fresh worker's first frame paid for all of that. This frame has one face,
/// so every stage after the detector runs on it too.
package enum WarmFrame {
    /// The frame's JPEG bytes (`WarmFrameJPEG.swift`, generated).
    package static var jpeg: [UInt8] {
        guard let data = Data(base64Encoded: base64, options: .ignoreUnknownCharacters) else {
            preconditionFailure("the generated warm frame is not base64; run make warm-frame")
        }
        return [UInt8](data)
    }

    /// The pipelines a warm-up runs, in video mode so the tracker runs too:
    /// the ML Kit-style one over the attention mesh with every feature, and
    /// the Face Landmarker's with blendshapes and the matrix when its bundle
    /// loaded.
    package static func options(for models: FaceModels) -> [FaceOptions] {
        var mlKit = FaceOptions()
        mlKit.runningMode = .video
        mlKit.trackingEnabled = true
        mlKit.landmarks = true
        mlKit.contours = true
        mlKit.classification = true
        mlKit.faceMesh = true
        guard models.faceLandmarkerProblem == nil else { return [mlKit] }
        var landmarker = mlKit
        landmarker.meshModel = .faceLandmarker
        landmarker.faceBlendshapes = true
        landmarker.transformationMatrix = true
        return [mlKit, landmarker]
    }
}
