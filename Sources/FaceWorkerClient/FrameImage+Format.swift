import FaceWorkerProtocol

extension FrameImage {
    /// The memory layout of uncompressed 8-bit pixels. Channel names are in
    /// memory order; YUV formats are BT.601 limited range, as cameras give them.
    public enum Format: Sendable, CaseIterable {
        /// 3 bytes per pixel: red, green, blue.
        case rgb
        /// 4 bytes per pixel: red, green, blue, alpha (ignored).
        case rgba
        /// 4 bytes per pixel: blue, green, red, alpha (ignored).
        case bgra
        /// 3 bytes per pixel: blue, green, red.
        case bgr
        /// 1 byte per pixel: luminance.
        case gray8
        /// A Y plane, then one plane of interleaved U, V pairs (4:2:0).
        case nv12
        /// A Y plane, then one plane of interleaved V, U pairs (4:2:0).
        case nv21
        /// A Y plane, then a U plane, then a V plane (4:2:0).
        case i420

        package var wire: Faceworker_V1_PixelFormat {
            switch self {
            case .rgb: .rgb
            case .rgba: .rgba
            case .bgra: .bgra
            case .bgr: .bgr
            case .gray8: .gray8
            case .nv12: .nv12
            case .nv21: .nv21
            case .i420: .i420
            }
        }
    }
}
