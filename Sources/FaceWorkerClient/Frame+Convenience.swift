import FaceWorkerProtocol
import Foundation

extension Faceworker_V1_Frame {
    /// A frame holding a JPEG file's bytes.
    package static func jpeg(_ bytes: Data, timestampMs: Int64 = 0, orientation: Faceworker_V1_Orientation = .topLeft) -> Self {
        var frame = Self()
        frame.jpeg = bytes
        frame.timestampMs = timestampMs
        frame.orientation = orientation
        return frame
    }

    /// A frame holding uncompressed pixels; `rowStride` 0 means rows are
    /// tightly packed.
    package static func raw(
        _ bytes: Data, format: Faceworker_V1_PixelFormat, width: Int, height: Int, rowStride: Int = 0,
        timestampMs: Int64 = 0, orientation: Faceworker_V1_Orientation = .topLeft
    ) -> Self {
        var raw = Faceworker_V1_RawImage()
        raw.data = bytes
        raw.format = format
        raw.width = UInt32(clamping: width)
        raw.height = UInt32(clamping: height)
        raw.rowStride = UInt32(clamping: rowStride)
        var frame = Self()
        frame.raw = raw
        frame.timestampMs = timestampMs
        frame.orientation = orientation
        return frame
    }
}
