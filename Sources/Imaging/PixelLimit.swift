/// The checks every image source runs on its dimensions before touching a
/// pixel: both sides positive, and no more pixels than the caller allows.
package enum PixelLimit {
    /// Throws unless `width` and `height` are positive and `width * height <= maxPixels`.
    package static func check(width: Int, height: Int, maxPixels: Int) throws(ImagingError) {
        guard width > 0, height > 0 else {
            throw .emptyImage(width: width, height: height)
        }
        let pixels = width.multipliedReportingOverflow(by: height)
        guard !pixels.overflow, pixels.partialValue <= maxPixels else {
            throw .tooManyPixels(width: width, height: height, limit: maxPixels)
        }
    }
}
