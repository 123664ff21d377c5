import Imaging

/// The reference the sampler is checked against: a raw frame converted whole
/// to RGB and then turned upright, as the pipeline once did before sampling.
/// The sampler reads the stored pixels in place instead, and must give the
/// same tensors bit for bit.
extension RawFrame {
    /// The frame converted to packed RGB, in its stored orientation: packed
    /// formats by their channel order (GRAY8 copied to all three), YUV by
    /// BT.601 limited range with each 2x2 block sharing its chroma sample.
    package func rgbImage(maxPixels: Int) throws(ImagingError) -> RGBImage {
        try RawFrame.check(format: format, width: width, height: height, rowStride: rowStride, byteCount: bytes.count,
                           maxPixels: maxPixels)
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        let colour = BT601()
        let chromaHeight = (height + 1) / 2
        let chromaStride = format == .i420 ? (rowStride + 1) / 2 : rowStride
        let chromaOffset = rowStride * height
        for y in 0..<height {
            for x in 0..<width {
                let rgb: (UInt8, UInt8, UInt8)
                let pixel = y * rowStride
                switch format {
                case .rgb: rgb = (bytes[pixel + 3 * x], bytes[pixel + 3 * x + 1], bytes[pixel + 3 * x + 2])
                case .bgr: rgb = (bytes[pixel + 3 * x + 2], bytes[pixel + 3 * x + 1], bytes[pixel + 3 * x])
                case .rgba: rgb = (bytes[pixel + 4 * x], bytes[pixel + 4 * x + 1], bytes[pixel + 4 * x + 2])
                case .bgra: rgb = (bytes[pixel + 4 * x + 2], bytes[pixel + 4 * x + 1], bytes[pixel + 4 * x])
                case .gray8: rgb = (bytes[pixel + x], bytes[pixel + x], bytes[pixel + x])
                case .nv12, .nv21, .i420:
                    let u: UInt8, v: UInt8
                    let chromaRow = chromaOffset + (y / 2) * chromaStride
                    switch format {
                    case .nv12: (u, v) = (bytes[chromaRow + 2 * (x / 2)], bytes[chromaRow + 2 * (x / 2) + 1])
                    case .nv21: (u, v) = (bytes[chromaRow + 2 * (x / 2) + 1], bytes[chromaRow + 2 * (x / 2)])
                    default: (u, v) = (bytes[chromaRow + x / 2], bytes[chromaRow + chromaStride * chromaHeight + x / 2])
                    }
                    rgb = colour.rgb(y: bytes[pixel + x], chroma: colour.chroma(u: u, v: v))
                }
                pixels[3 * (y * width + x)] = rgb.0
                pixels[3 * (y * width + x) + 1] = rgb.1
                pixels[3 * (y * width + x) + 2] = rgb.2
            }
        }
        return try RGBImage(width: width, height: height, pixels: pixels)
    }
}

extension RGBImage {
    /// The upright image, for a stored image (`self`) tagged with
    /// `orientation`: upright pixel `(x, y)` is the stored pixel the table of
    /// ``ImageOrientation`` names (`w x h` the stored size):
    ///
    /// | orientation | stored column, row |
    /// | --- | --- |
    /// | topLeft | `x, y` |
    /// | topRight | `w-1-x, y` |
    /// | bottomRight | `w-1-x, h-1-y` |
    /// | bottomLeft | `x, h-1-y` |
    /// | leftTop | `y, x` |
    /// | rightTop | `y, h-1-x` |
    /// | rightBottom | `w-1-y, h-1-x` |
    /// | leftBottom | `w-1-y, x` |
    package func upright(from orientation: ImageOrientation) -> RGBImage {
        let (w, h) = (width, height)
        let upright = orientation.uprightSize(of: size)
        var output = [UInt8](repeating: 0, count: pixels.count)
        for y in 0..<upright.height {
            for x in 0..<upright.width {
                let (column, row): (Int, Int)
                switch orientation {
                case .topLeft: (column, row) = (x, y)
                case .topRight: (column, row) = (w - 1 - x, y)
                case .bottomRight: (column, row) = (w - 1 - x, h - 1 - y)
                case .bottomLeft: (column, row) = (x, h - 1 - y)
                case .leftTop: (column, row) = (y, x)
                case .rightTop: (column, row) = (y, h - 1 - x)
                case .rightBottom: (column, row) = (w - 1 - y, h - 1 - x)
                case .leftBottom: (column, row) = (w - 1 - y, x)
                }
                for channel in 0..<3 {
                    output[3 * (y * upright.width + x) + channel] = pixels[3 * (row * w + column) + channel]
                }
            }
        }
        // The size and count are this image's own, turned.
        return try! RGBImage(width: upright.width, height: upright.height, pixels: output)
    }
}
