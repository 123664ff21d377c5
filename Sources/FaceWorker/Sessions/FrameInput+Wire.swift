import FaceDetection
import FaceWorkerProtocol
import Imaging

extension FrameInput {
    /// The pipeline's view of a frame a client sent (already admitted, see
    /// `FrameAdmission`). The pixel bytes are copied once, into the array the
    /// pipeline reads.
    init(wire: Faceworker_V1_Frame) {
        let pixels: Pixels
        switch wire.image {
        case .jpeg(let jpeg):
            pixels = .jpeg([UInt8](jpeg))
        case .raw(let raw):
            let format = PixelFormat(wire: raw.format)
            let stride = raw.rowStride == 0 ? format.minimumRowStride(width: Int(raw.width)) : Int(raw.rowStride)
            pixels = .raw(RawFrame(format: format, width: Int(raw.width), height: Int(raw.height), rowStride: stride, bytes: [UInt8](raw.data)))
        case nil:
            pixels = .jpeg([])
        }
        self.init(pixels: pixels, orientation: ImageOrientation(wire: wire.orientation), timestampMs: wire.timestampMs)
    }
}

extension PixelFormat {
    /// The format a wire value names; admission has refused the values that name none.
    init(wire: Faceworker_V1_PixelFormat) {
        switch wire {
        case .rgba: self = .rgba
        case .bgra: self = .bgra
        case .bgr: self = .bgr
        case .gray8: self = .gray8
        case .nv12: self = .nv12
        case .nv21: self = .nv21
        case .i420: self = .i420
        case .rgb, .unspecified, .UNRECOGNIZED: self = .rgb
        }
    }
}

extension ImageOrientation {
    /// The orientation a wire value names (the EXIF value is the wire value
    /// plus one); admission has refused the values that name none.
    init(wire: Faceworker_V1_Orientation) {
        self = ImageOrientation(rawValue: wire.rawValue + 1) ?? .topLeft
    }
}
