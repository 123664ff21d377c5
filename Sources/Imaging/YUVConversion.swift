/// NV12, NV21 and I420 planes to tightly packed RGB (BT.601 limited range,
/// chroma upsampled by nearest neighbour; see ``RawFrame``).
enum YUVConversion {
    /// Converts a validated YUV frame; `destination` holds `width * height * 3` bytes.
    static func convert(
        _ source: UnsafeBufferPointer<UInt8>, _ geometry: FrameGeometry,
        into destination: UnsafeMutableBufferPointer<UInt8>
    ) {
        guard let base = source.baseAddress, let output = destination.baseAddress else { return }
        let colour = BT601()
        // Where the U and V samples of chroma row 0 start, and the distance
        // between neighbouring samples (2 where U and V are interleaved).
        let uPlane: UnsafePointer<UInt8>, vPlane: UnsafePointer<UInt8>, step: Int
        switch geometry.format {
        case .nv12:
            (uPlane, vPlane, step) = (base + geometry.chromaOffset, base + geometry.chromaOffset + 1, 2)
        case .nv21:
            (uPlane, vPlane, step) = (base + geometry.chromaOffset + 1, base + geometry.chromaOffset, 2)
        case .i420:
            (uPlane, vPlane, step) = (base + geometry.chromaOffset, base + geometry.secondChromaOffset, 1)
        case .rgb, .rgba, .bgra, .bgr, .gray8:
            preconditionFailure("\(geometry.format) is not a YUV format")
        }
        let width = geometry.width
        for row in 0..<geometry.height {
            let lumaRow = base + row * geometry.rowStride
            let chromaRowOffset = (row / 2) * geometry.chromaStride
            let uRow = uPlane + chromaRowOffset
            let vRow = vPlane + chromaRowOffset
            let outputRow = output + row * width * 3
            // Each chroma sample serves two pixels; an odd width's last one serves one.
            for column in 0..<geometry.chromaWidth {
                let x = 2 * column
                let chroma = colour.chroma(u: uRow[column * step], v: vRow[column * step])
                colour.convert(y: lumaRow[x], chroma: chroma, into: outputRow + 3 * x)
                if x + 1 < width {
                    colour.convert(y: lumaRow[x + 1], chroma: chroma, into: outputRow + 3 * x + 3)
                }
            }
        }
    }
}
