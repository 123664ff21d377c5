import Foundation
import Imaging

/// A rotated rectangle in normalized image coordinates: MediaPipe's
/// `NormalizedRect` (centre, size as fractions of the image's width and height,
/// rotation in radians, clockwise positive).
struct RegionOfInterest: Sendable, Equatable {
    var centerX: Float
    var centerY: Float
    var width: Float
    var height: Float
    var rotation: Float

    /// A rectangle given by its parts, as MediaPipe's graphs report it.
    init(centerX: Float, centerY: Float, width: Float, height: Float, rotation: Float) {
        self.centerX = centerX
        self.centerY = centerY
        self.width = width
        self.height = height
        self.rotation = rotation
    }

    /// How much larger than the face's extent the landmark model's crop is,
    /// in MediaPipe's detection-to-ROI and landmarks-to-ROI calculators alike.
    static let landmarkCropScale: Float = 1.5
    /// The mesh points whose line sets the next frame's rotation: the outer
    /// corners of the subject's right and left eyes.
    static let meshRotationPoints = (from: 33, to: 263)

    /// The rectangle around a detection, turned so the line from keypoint 0
    /// (the image-left eye) to keypoint 1 is horizontal, scaled into a pixel
    /// square: MediaPipe's detection-to-face-landmark ROI.
    /// Without `squareLong` the box keeps its own proportions, as the Face
    /// Landmarker's detector graph does.
    init(detection: Detection, imageWidth: Int, imageHeight: Int, squareLong: Bool = true) {
        self.init(
            xMin: detection.xMin, yMin: detection.yMin, xMax: detection.xMax, yMax: detection.yMax,
            from: detection.keypoints[0], to: detection.keypoints[1],
            imageWidth: imageWidth, imageHeight: imageHeight, scale: Self.landmarkCropScale, squareLong: squareLong)
    }

    /// The next frame's rectangle for a face whose mesh was found: around every
    /// point the model gave (irises included, as MediaPipe does), turned so the
    /// eye corners' line is horizontal.
    init(mesh: [NormalizedLandmark], imageWidth: Int, imageHeight: Int) {
        self.init(points: mesh, from: mesh[Self.meshRotationPoints.from], to: mesh[Self.meshRotationPoints.to],
                  imageWidth: imageWidth, imageHeight: imageHeight, scale: Self.landmarkCropScale)
    }

    /// The rectangle around a set of points, turned so the line `from -> to` is
    /// horizontal, then scaled by `scale` into a pixel square.
    init(points: some Collection<NormalizedLandmark>, from: NormalizedLandmark, to: NormalizedLandmark,
         imageWidth: Int, imageHeight: Int, scale: Float) {
        var xMin = Float.infinity, yMin = Float.infinity, xMax = -Float.infinity, yMax = -Float.infinity
        for point in points {
            xMin = min(xMin, point.x); xMax = max(xMax, point.x)
            yMin = min(yMin, point.y); yMax = max(yMax, point.y)
        }
        self.init(xMin: xMin, yMin: yMin, xMax: xMax, yMax: yMax, from: from, to: to,
                  imageWidth: imageWidth, imageHeight: imageHeight, scale: scale, squareLong: true)
    }

    private init(xMin: Float, yMin: Float, xMax: Float, yMax: Float, from: NormalizedLandmark, to: NormalizedLandmark,
                 imageWidth: Int, imageHeight: Int, scale: Float, squareLong: Bool) {
        let w = Float(imageWidth), h = Float(imageHeight)
        // The angle is measured in pixels (y up), so non-square images turn correctly.
        let angle = -atan2(-(to.y - from.y) * h, (to.x - from.x) * w)
        centerX = (xMin + xMax) / 2
        centerY = (yMin + yMax) / 2
        if squareLong {
            let long = max((xMax - xMin) * w, (yMax - yMin) * h)
            width = long / w * scale
            height = long / h * scale
        } else {
            width = (xMax - xMin) * scale
            height = (yMax - yMin) * scale
        }
        rotation = Self.normalize(angle)
    }

    /// An angle folded into [-pi, pi).
    static func normalize(_ angle: Float) -> Float {
        angle - 2 * .pi * ((angle + .pi) / (2 * .pi)).rounded(.down)
    }

    /// The crop transform onto a `size x size` tensor (output pixels to image pixels).
    func transform(imageWidth: Int, imageHeight: Int, size: Int, flipHorizontally: Bool = false) -> Imaging.AffineTransform {
        let w = Double(imageWidth), h = Double(imageHeight)
        let centerX = Double(self.centerX) * w, centerY = Double(self.centerY) * h
        return Imaging.AffineTransform.rotatedRect(
            centerX: centerX, centerY: centerY, width: Double(width) * w, height: Double(height) * h,
            rotation: Double(rotation), flipHorizontally: flipHorizontally,
            outputWidth: size, outputHeight: size)
    }

    /// Axis-aligned intersection over union, ignoring rotation, as MediaPipe's
    /// rect association does.
    func intersectionOverUnion(with other: RegionOfInterest) -> Float {
        let overlapW = min(centerX + width / 2, other.centerX + other.width / 2) - max(centerX - width / 2, other.centerX - other.width / 2)
        let overlapH = min(centerY + height / 2, other.centerY + other.height / 2) - max(centerY - height / 2, other.centerY - other.height / 2)
        guard overlapW > 0, overlapH > 0 else { return 0 }
        let intersection = overlapW * overlapH
        let union = width * height + other.width * other.height - intersection
        return union > 0 ? intersection / union : 0
    }
}
