import Foundation
import Imaging
import Inference

/// The landmark stage of MediaPipe's legacy Face Mesh solution, not of the
/// Tasks Face Landmarker (`TasksLandmarker/`): from a region of interest,
/// either the 468-point face mesh or, when the 478 points are asked for, the
/// attention mesh, which refines the lips and eyes and adds both irises in the
/// same run. Its crop, plausibility check and projection are the Tasks
/// graph's too.
struct LegacyMeshStage {
    let models: FaceModels

    /// Both landmark models take a 192x192 crop.
    static let inputSize = 192

    /// The landmarks of one face and how sure the model is it is a face.
    struct Result {
        /// 478 points (the refined mesh, then 5 + 5 iris points) or the 468
        /// points of the plain mesh, normalized to the image.
        var mesh: [NormalizedLandmark]
        /// Sigmoid of the model's face flag, in [0, 1].
        var presence: Float
    }

    /// Runs the attention mesh (`refined`) or the plain face mesh on `roi`.
    /// Returns nil when the face flag is not above `minPresence`, or when the
    /// model's points are not finite or lie far outside the crop: a face the
    /// model cannot place is dropped for this frame rather than reported wrong.
    func landmarks(in frame: OrientedFrame, roi: RegionOfInterest, engine: FaceEngine, minPresence: Float, refined: Bool) throws -> Result? {
        let runtime = try engine.runtime(for: refined ? models.attentionMesh : models.faceMesh)
        let size = Self.inputSize
        let transform = Self.crop(frame, roi: roi, size: size, into: runtime, engine: engine)
        try runtime.invoke()
        let flag = runtime.output(refined ? AttentionMeshOutputs.faceFlag : 1)[0]
        let presence = 1 / (1 + exp(-flag))
        // MediaPipe's thresholding keeps a face only when strictly above the threshold.
        guard presence > minPresence else { return nil }
        let points: [Float]
        if refined {
            points = AttentionMeshOutputs(runtime: runtime).assembled()
        } else {
            points = Array(runtime.output(0))
        }
        guard Self.plausible(points, cropSize: Float(size)) else { return nil }
        return Result(mesh: Self.project(points, transform: transform, roiWidth: roi.width, cropSize: size, image: frame.size),
                      presence: presence)
    }

    /// Samples `roi` into the runtime's `size x size` input in [0, 1], the
    /// border replicated, as MediaPipe's landmark graphs crop; returns the
    /// crop's transform (crop pixels to image pixels).
    static func crop(_ frame: OrientedFrame, roi: RegionOfInterest, size: Int, into runtime: Runtime, engine: FaceEngine) -> Imaging.AffineTransform {
        let transform = roi.transform(imageWidth: frame.size.width, imageHeight: frame.size.height, size: size)
        engine.sample(frame, size: size, transform: transform, border: .replicate, valueRange: 0...1, into: runtime.input())
        return transform
    }

    /// Whether every value is finite and every point within one crop's width
    /// of the crop: a working model never strays further, even for a face
    /// half out of the image.
    static func plausible(_ points: [Float], cropSize: Float) -> Bool {
        let range = -cropSize...(2 * cropSize)
        var index = 0
        while index + 2 < points.count {
            guard range.contains(points[index]), range.contains(points[index + 1]), points[index + 2].isFinite else { return false }
            index += 3
        }
        return true
    }

    /// Crop-pixel landmarks (x, y, z triples) to normalized image landmarks.
    /// z is scaled like x and then by the crop's normalized width, as
    /// MediaPipe's landmark projection does.
    static func project(_ raw: [Float], transform: Imaging.AffineTransform, roiWidth: Float, cropSize: Int, image: PixelSize) -> [NormalizedLandmark] {
        let width = Double(image.width), height = Double(image.height)
        let zScale = roiWidth / Float(cropSize)
        return (0..<raw.count / 3).map { i in
            let point = transform.apply(x: Double(raw[3 * i]), y: Double(raw[3 * i + 1]))
            return NormalizedLandmark(x: Float(point.x / width), y: Float(point.y / height), z: raw[3 * i + 2] * zScale)
        }
    }
}

/// The attention mesh's seven output tensors, read from a runtime that has
/// just run it, and assembled into 478 points by MediaPipe's refinement rules.
struct AttentionMeshOutputs {
    /// Output positions, in the order of the model's output list.
    static let mesh = 0, lips = 1, imageLeftEye = 2, imageRightEye = 3, imageLeftIris = 4, imageRightIris = 5, faceFlag = 6

    let runtime: Runtime

    /// 478 (x, y, z) triples in the crop's pixels: the mesh with the lips and
    /// eyes overwritten in x and y, then the two irises at their eye's mean depth.
    func assembled() -> [Float] {
        var points = [Float](repeating: 0, count: 478 * 3)
        let mesh = runtime.output(Self.mesh)
        for index in 0..<(468 * 3) { points[index] = mesh[index] }
        overwrite(&points, from: runtime.output(Self.lips), at: MeshRefinement.lips)
        overwrite(&points, from: runtime.output(Self.imageLeftEye), at: MeshRefinement.imageLeftEye)
        overwrite(&points, from: runtime.output(Self.imageRightEye), at: MeshRefinement.imageRightEye)
        iris(&points, from: runtime.output(Self.imageLeftIris), first: MeshRefinement.imageLeftIris, depthFrom: MeshRefinement.imageLeftIrisDepth)
        iris(&points, from: runtime.output(Self.imageRightIris), first: MeshRefinement.imageRightIris, depthFrom: MeshRefinement.imageRightIrisDepth)
        return points
    }

    private func overwrite(_ points: inout [Float], from xy: UnsafeBufferPointer<Float>, at indices: [Int]) {
        for (source, target) in indices.enumerated() {
            points[3 * target] = xy[2 * source]
            points[3 * target + 1] = xy[2 * source + 1]
        }
    }

    private func iris(_ points: inout [Float], from xy: UnsafeBufferPointer<Float>, first: Int, depthFrom contour: [Int]) {
        // MediaPipe sums the depths in double.
        let depth = Float(contour.reduce(0.0) { $0 + Double(points[3 * $1 + 2]) } / Double(contour.count))
        for point in 0..<5 {
            points[3 * (first + point)] = xy[2 * point]
            points[3 * (first + point) + 1] = xy[2 * point + 1]
            points[3 * (first + point) + 2] = depth
        }
    }
}
