import FaceWorkerProtocol
import Foundation

/// The pixels of one frame, in any form the worker takes: a JPEG file's
/// bytes, uncompressed pixels with their layout, or either of them in a
/// region of a registered ``SharedFrameBuffer``.
///
/// The ML Kit and MediaPipe Tasks images (`VisionImage`, `MPImage`) wrap one,
/// with an orientation.
public struct FrameImage: Sendable {
    /// The layout of uncompressed pixels.
    struct Layout: Sendable {
        var format: Format
        var width: Int
        var height: Int
        var rowStride: Int
    }

    enum Pixels: Sendable {
        case jpeg(Data)
        case raw(Data, Layout)
        /// A region of a shared buffer, read when the frame is sent: after a
        /// reconnect the buffer has a new ID.
        case shared(BufferRecord, offset: Int, length: Int, Layout?)
    }

    let pixels: Pixels

    /// A JPEG file's bytes (baseline or progressive; any EXIF orientation
    /// inside is ignored).
    public init(jpeg: Data) {
        pixels = .jpeg(jpeg)
    }

    /// The JPEG file at `url`.
    ///
    /// - Throws: what reading the file throws.
    public init(contentsOf url: URL) throws {
        pixels = .jpeg(try Data(contentsOf: url))
    }

    /// Uncompressed pixels: `height` rows of `rowStride` bytes (for planar
    /// formats, the luma plane's rows, then the chroma planes as the
    /// format lays them out); `rowStride` 0 means rows tightly packed.
    public init(pixels: Data, format: Format, width: Int, height: Int, rowStride: Int = 0) {
        self.pixels = .raw(pixels, Layout(format: format, width: width, height: height, rowStride: rowStride))
    }

    init(shared record: BufferRecord, offset: Int, length: Int, layout: Layout?) {
        pixels = .shared(record, offset: offset, length: length, layout)
    }

    /// The stored width and height (before the orientation): the layout's
    /// for uncompressed pixels, the frame header's for a JPEG file's bytes;
    /// nil for a JPEG in a shared buffer, or bytes that are not a JPEG file.
    public var pixelSize: (width: Int, height: Int)? {
        switch pixels {
        case .raw(_, let layout), .shared(_, _, _, let layout?): (layout.width, layout.height)
        case .jpeg(let data): JPEGFrameHeader.size(of: data)
        case .shared: nil
        }
    }

    /// The wire frame carrying these pixels.
    package func frame(timestampMs: Int64, orientation: Orientation) -> Faceworker_V1_Frame {
        var frame = Faceworker_V1_Frame()
        frame.timestampMs = timestampMs
        frame.orientation = orientation.wire
        switch pixels {
        case .jpeg(let data):
            frame.jpeg = data
        case .raw(let data, let layout):
            var raw = layout.wire
            raw.data = data
            frame.raw = raw
        case .shared(let record, let offset, let length, let layout):
            var region = Faceworker_V1_BufferRegion()
            region.bufferID = record.id
            region.offset = UInt64(offset)
            region.length = UInt64(length)
            if let layout {
                var raw = layout.wire
                raw.region = region
                frame.raw = raw
            } else {
                frame.sharedJpeg = region
            }
        }
        return frame
    }
}

extension FrameImage.Layout {
    var wire: Faceworker_V1_RawImage {
        var raw = Faceworker_V1_RawImage()
        raw.format = format.wire
        raw.width = UInt32(clamping: width)
        raw.height = UInt32(clamping: height)
        raw.rowStride = UInt32(clamping: rowStride)
        return raw
    }
}

extension SharedFrameBuffer {
    /// The JPEG file in the `length` bytes at `offset`, as an image.
    ///
    /// - Throws: `FaceWorkerError` OUT_OF_RANGE when the region does not lie
    ///   inside the buffer.
    public func image(offset: Int = 0, length: Int) throws -> FrameImage {
        _ = try region(offset: offset, length: length)
        return FrameImage(shared: record, offset: offset, length: length, layout: nil)
    }

    /// Uncompressed pixels laid out from `offset` as
    /// ``FrameImage/init(pixels:format:width:height:rowStride:)`` describes.
    ///
    /// - Throws: `FaceWorkerError` INVALID_ARGUMENT for a size below 1 or a
    ///   negative stride, OUT_OF_RANGE when the pixels do not lie inside the
    ///   buffer.
    public func image(offset: Int = 0, format: FrameImage.Format, width: Int, height: Int, rowStride: Int = 0) throws -> FrameImage {
        guard let length = RawLayout.byteCount(format: format.wire, width: width, height: height, rowStride: rowStride) else {
            throw FaceWorkerError(code: .invalidArgument, message: "an image needs a width and a height of at least 1, and a row stride of at least 0")
        }
        _ = try region(offset: offset, length: length)
        let layout = FrameImage.Layout(format: format, width: width, height: height, rowStride: rowStride)
        return FrameImage(shared: record, offset: offset, length: length, layout: layout)
    }
}
