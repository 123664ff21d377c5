#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension AffineTransform {
    /// The transform that crops a rotated rectangle of the source onto an
    /// `outputWidth x outputHeight` grid, the way MediaPipe's
    /// `ImageToTensorCalculator` does with OpenCV.
    ///
    /// MediaPipe takes the rectangle's four corners (`cv::boxPoints`) and maps
    /// them onto the output corners `(0, 0)`, `(W, 0)`, `(W, H)` and `(0, H)`.
    /// So output point `(u, v)` lands at
    ///
    ///     centre + R(rotation) * ((u / W - 1/2) * width, (v / H - 1/2) * height)
    ///
    /// where `R` rotates clockwise on screen (y grows downwards), matching
    /// `NormalizedRect.rotation`. A MediaPipe normalized rect converts by
    /// multiplying x and width by the image width and y and height by its height.
    ///
    /// - Parameters:
    ///   - centerX: centre of the rectangle, source pixels.
    ///   - centerY: centre of the rectangle, source pixels.
    ///   - width: size of the rectangle before rotation, source pixels.
    ///   - height: size of the rectangle before rotation, source pixels.
    ///   - rotation: radians, positive = clockwise.
    ///   - flipHorizontally: mirror the output left-right, exactly as flipping
    ///     the unflipped output's pixel columns would (output column `i` is the
    ///     unflipped column `W - 1 - i`), which is what MediaPipe's iris graph
    ///     does to the right eye's crop.
    ///   - outputWidth: columns of the output grid.
    ///   - outputHeight: rows of the output grid.
    package static func rotatedRect(
        centerX: Double, centerY: Double, width: Double, height: Double, rotation: Double,
        flipHorizontally: Bool = false, outputWidth: Int, outputHeight: Int
    ) -> AffineTransform {
        let cosine = cos(rotation), sine = sin(rotation)
        let scaleX = width / Double(outputWidth), scaleY = height / Double(outputHeight)
        // Rectangle-local x of output column u is stepX * u + originX.
        let stepX = flipHorizontally ? -scaleX : scaleX
        let originX = flipHorizontally ? width / 2 - scaleX : -width / 2
        let originY = -height / 2
        return AffineTransform(
            m00: cosine * stepX, m01: -sine * scaleY, m02: centerX + cosine * originX - sine * originY,
            m10: sine * stepX, m11: cosine * scaleY, m12: centerY + sine * originX + cosine * originY
        )
    }

    /// The transform that fits the whole source image into the output without
    /// distortion, centred, with equal padding on the two short sides: what
    /// MediaPipe's face detectors use (`keep_aspect_ratio: true`, `PadRoi`).
    ///
    /// The region of interest is the whole image (centre `(W/2, H/2)`, size
    /// `W x H`), enlarged along one axis to the output's aspect ratio, then
    /// cropped with ``rotatedRect(centerX:centerY:width:height:rotation:flipHorizontally:outputWidth:outputHeight:)``.
    /// Applying the transform to a tensor point `(x * outputWidth, y * outputHeight)`
    /// therefore gives MediaPipe's image position of the normalized tensor point
    /// `(x, y)` after letterbox removal.
    package static func letterbox(
        sourceWidth: Int, sourceHeight: Int, outputWidth: Int, outputHeight: Int
    ) -> AffineTransform {
        let outputAspect = Double(outputHeight) / Double(outputWidth)
        let sourceAspect = Double(sourceHeight) / Double(sourceWidth)
        var width = Double(sourceWidth), height = Double(sourceHeight)
        if outputAspect > sourceAspect {
            height = width * outputAspect
        } else {
            width = height / outputAspect
        }
        return rotatedRect(
            centerX: Double(sourceWidth) / 2, centerY: Double(sourceHeight) / 2,
            width: width, height: height, rotation: 0,
            outputWidth: outputWidth, outputHeight: outputHeight
        )
    }
}
