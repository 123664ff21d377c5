import FaceWorkerProtocol

/// The byte length of a raw image's layout, as RawImage documents it and
/// `raw_image_layout` in the conformance file defines it for every client.
enum RawLayout {
    /// The bytes `format` at this size and stride takes (stride 0: rows
    /// tightly packed); nil for an unspecified format or a size of 0.
    static func byteCount(format: Faceworker_V1_PixelFormat, width: Int, height: Int, rowStride: Int) -> Int? {
        guard width > 0, height > 0, rowStride >= 0 else { return nil }
        let chromaWidth = (width + 1) / 2, chromaHeight = (height + 1) / 2
        switch format {
        case .rgb, .bgr: return (rowStride == 0 ? width * 3 : rowStride) * height
        case .rgba, .bgra: return (rowStride == 0 ? width * 4 : rowStride) * height
        case .gray8: return (rowStride == 0 ? width : rowStride) * height
        case .nv12, .nv21:
            let stride = rowStride == 0 ? 2 * chromaWidth : rowStride
            return stride * (height + chromaHeight)
        case .i420:
            let stride = rowStride == 0 ? width : rowStride
            return stride * height + 2 * ((stride + 1) / 2) * chromaHeight
        case .unspecified, .UNRECOGNIZED: return nil
        }
    }
}
