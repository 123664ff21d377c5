import Foundation
import Imaging
import Inference

/// MediaPipe's face landmark stage: from a region of interest, the 468-point
/// face mesh with its presence score, refined by the iris model into the 478
/// points of MediaPipe's attention mesh layout.
struct FaceLandmarker {
    let models: FaceModels

    static let meshInput = 192
    static let irisInput = 64

    /// The landmarks of one face and how sure the model is it is a face.
    struct Result {
        /// 478 points (468 refined mesh points, then 5 + 5 iris points), or the
        /// 468 points of the face mesh alone, normalized.
        var mesh: [NormalizedLandmark]
        /// Sigmoid of the model's face flag, in [0, 1].
        var presence: Float
    }

    /// Runs the face mesh on `roi`; when the face is present (score above
    /// `minPresence`) and `refineIris` is set, refines the eyes with the iris
    /// model, which more than doubles the cost.
    func landmarks(in image: RGBImage, roi: RegionOfInterest, engine: FaceEngine, minPresence: Float, refineIris: Bool) throws -> Result? {
        let runtime = try engine.runtime(for: models.faceMesh)
        let size = Self.meshInput
        let transform = roi.transform(imageWidth: image.width, imageHeight: image.height, size: size)
        image.sampleTensor(width: size, height: size, transform: transform, border: .replicate, valueRange: 0...1, into: runtime.input())
        try runtime.invoke()
        let flag = runtime.output(1)[0]
        let presence = 1 / (1 + exp(-flag))
        // MediaPipe's thresholding keeps a face only when strictly above the threshold.
        guard presence > minPresence else { return nil }

        var mesh = project(runtime.output(0), count: 468, transform: transform, tensorSize: size, roiWidth: roi.width, image: image, flipped: false)
        guard refineIris else { return Result(mesh: mesh, presence: presence) }
        mesh.reserveCapacity(478)
        let leftIris = try refineEye(image: image, mesh: &mesh, corners: (33, 133), indices: IrisRefinement.imageLeftEye, flipped: false, engine: engine)
        let rightIris = try refineEye(image: image, mesh: &mesh, corners: (362, 263), indices: IrisRefinement.imageRightEye, flipped: true, engine: engine)
        mesh += IrisRefinement.unflippedIrisOrder.map { leftIris[$0] }
        mesh += IrisRefinement.flippedIrisOrder.map { rightIris[$0] }
        return Result(mesh: mesh, presence: presence)
    }

    /// Runs the iris model on one eye, overwrites that eye's mesh points with
    /// its 71 contour points and returns its 5 iris points.
    private func refineEye(image: RGBImage, mesh: inout [NormalizedLandmark], corners: (Int, Int), indices: [Int],
                           flipped: Bool, engine: FaceEngine) throws -> [NormalizedLandmark] {
        let runtime = try engine.runtime(for: models.iris)
        let from = mesh[corners.0], to = mesh[corners.1]
        let roi = RegionOfInterest(points: [from, to], from: from, to: to, imageWidth: image.width, imageHeight: image.height, scale: 2.3)
        let size = Self.irisInput
        // The model knows only one eye; the other is mirrored to look like it.
        let sampling = roi.transform(imageWidth: image.width, imageHeight: image.height, size: size, flipHorizontally: flipped)
        image.sampleTensor(width: size, height: size, transform: sampling, border: .replicate, valueRange: 0...1, into: runtime.input())
        try runtime.invoke()
        // Points of the mirrored crop are un-mirrored as MediaPipe does (x -> size - x)
        // and then projected through the unmirrored crop.
        let projection = flipped ? roi.transform(imageWidth: image.width, imageHeight: image.height, size: size) : sampling
        let contour = project(runtime.output(0), count: 71, transform: projection, tensorSize: size, roiWidth: roi.width, image: image, flipped: flipped)
        for (point, index) in zip(contour, indices) { mesh[index] = point }
        return project(runtime.output(1), count: 5, transform: projection, tensorSize: size, roiWidth: roi.width, image: image, flipped: flipped)
    }

    /// Crop-pixel landmarks (x, y, z triples) to normalized image landmarks.
    /// z is scaled like x and then by the crop's normalized width, as
    /// MediaPipe's landmark projection does.
    private func project(_ raw: UnsafeBufferPointer<Float>, count: Int, transform: Imaging.AffineTransform, tensorSize: Int,
                         roiWidth: Float, image: RGBImage, flipped: Bool) -> [NormalizedLandmark] {
        let width = Double(image.width), height = Double(image.height)
        let zScale = roiWidth / Float(tensorSize)
        return (0..<count).map { i in
            let rawX = Double(raw[3 * i])
            let x = flipped ? Double(tensorSize) - rawX : rawX
            let point = transform.apply(x: x, y: Double(raw[3 * i + 1]))
            return NormalizedLandmark(x: Float(point.x / width), y: Float(point.y / height), z: raw[3 * i + 2] * zScale)
        }
    }
}
