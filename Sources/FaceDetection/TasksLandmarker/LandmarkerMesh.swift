import Foundation
import Imaging
import Inference

/// The Face Landmarker's mesh stage: the bundle's 478-point model on a
/// 256x256 crop of a region of interest, decoded as MediaPipe Tasks'
/// face landmarks detector graph does (crop pixels over 256, projected through
/// the rotated rect, z times the rect's width; presence is the sigmoid of the
/// model's presence logit). Crop and projection are the legacy landmark
/// stage's, with the crop size as their parameter.
struct LandmarkerMesh {
    let models: FaceLandmarkerModels

    /// The model's input side.
    static let inputSize = 256

    /// The face's 478 points, or nil when its presence is not strictly above
    /// `minPresence` (MediaPipe's thresholding) or the model's points are not
    /// finite or lie far outside the crop.
    func landmarks(in frame: OrientedFrame, roi: RegionOfInterest, engine: FaceEngine, minPresence: Float) throws -> LegacyMeshStage.Result? {
        let runtime = try engine.runtime(for: models.landmarks)
        let size = Self.inputSize
        let transform = LegacyMeshStage.crop(frame, roi: roi, size: size, into: runtime, engine: engine)
        try runtime.invoke()
        let presence = 1 / (1 + exp(-runtime.output(models.presenceOutput)[0]))
        guard presence > minPresence else { return nil }
        let points = Array(runtime.output(models.pointsOutput))
        guard LegacyMeshStage.plausible(points, cropSize: Float(size)) else { return nil }
        return LegacyMeshStage.Result(
            mesh: LegacyMeshStage.project(points, transform: transform, roiWidth: roi.width, cropSize: size, image: frame.size),
            presence: presence)
    }
}
