import ArgumentParser
import FaceDetection
import Imaging

/// Camera-sized raw frames made from the benchmark's JPEG frames, so the
/// pipeline can be timed on the frames a camera hands over (large, raw)
/// rather than on small JPEGs alone.
enum RawFrames {
    /// The formats the frames command can send.
    enum Format: String, CaseIterable, ExpressibleByArgument {
        case rgb, nv12
    }

    /// Each JPEG decoded, enlarged `scale` times by pixel repetition and
    /// stored in `format`, tightly packed. NV12 takes the luma as
    /// (R + 2G + B) / 4 and neutral chroma: the detector's cost does not
    /// depend on the pixels' values, and the faces stay where they were.
    static func make(_ jpegs: [[UInt8]], format: Format, scale: Int) throws -> [RawFrame] {
        let decoder = JPEGDecoder()
        return try jpegs.map { jpeg in
            let image = try decoder.decode(jpeg, maxPixels: .max)
            let width = image.width * scale, height = image.height * scale
            switch format {
            case .rgb:
                var bytes = [UInt8](repeating: 0, count: width * height * 3)
                for y in 0..<height {
                    for x in 0..<width {
                        let source = ((y / scale) * image.width + x / scale) * 3
                        for channel in 0..<3 { bytes[(y * width + x) * 3 + channel] = image.pixels[source + channel] }
                    }
                }
                return RawFrame(format: .rgb, width: width, height: height, rowStride: width * 3, bytes: bytes)
            case .nv12:
                var bytes = [UInt8](repeating: 128, count: width * (height + height / 2))
                for y in 0..<height {
                    for x in 0..<width {
                        let source = ((y / scale) * image.width + x / scale) * 3
                        let sum = Int(image.pixels[source]) + 2 * Int(image.pixels[source + 1]) + Int(image.pixels[source + 2])
                        bytes[y * width + x] = UInt8(sum / 4)
                    }
                }
                return RawFrame(format: .nv12, width: width, height: height, rowStride: width, bytes: bytes)
            }
        }
    }
}
