import Imaging
import ImagingTesting
import SeededRandom
import Testing

/// The sampler reads raw frames in place, in every format and orientation,
/// and must give the tensors of converting the frame whole to RGB, turning it
/// upright and sampling that, bit for bit: the goldens rest on those tensors.
@Suite("sampling stored pixels in place")
struct DirectSamplingParityTests {
    static let sizes = [(7, 5), (8, 6), (33, 20)]
    static let paddings = [0, 3]

    /// Each transform the pipeline uses: a letterbox with zero border, and a
    /// tilted, partly outside crop with the edge replicated.
    static func crops(width: Int, height: Int) -> [(AffineTransform, BorderMode, ClosedRange<Float>)] {
        [
            (.letterbox(sourceWidth: width, sourceHeight: height, outputWidth: 16, outputHeight: 16), .zero, -1...1),
            (.rotatedRect(centerX: Double(width) * 0.6, centerY: Double(height) * 0.4, width: Double(width) * 0.9,
                          height: Double(width) * 0.9, rotation: 0.4, outputWidth: 16, outputHeight: 16), .replicate, 0...1),
        ]
    }

    static func noiseFrame(_ format: PixelFormat, width: Int, height: Int, padding: Int, seed: UInt64) throws -> RawFrame {
        let stride = format.minimumRowStride(width: width) + padding
        let chromaRows = (height + 1) / 2
        let count: Int
        switch format {
        case .nv12, .nv21: count = stride * (height + chromaRows)
        case .i420: count = stride * height + 2 * ((stride + 1) / 2) * chromaRows
        default: count = stride * height
        }
        var generator = SplitMix64(seed: seed)
        let bytes = (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        return RawFrame(format: format, width: width, height: height, rowStride: stride, bytes: bytes)
    }

    @Test("every format, orientation, odd and even size and padded stride", arguments: PixelFormat.allCases)
    func parity(format: PixelFormat) throws {
        var seed: UInt64 = 1
        for (width, height) in Self.sizes {
            for padding in Self.paddings {
                seed += 1
                let frame = try Self.noiseFrame(format, width: width, height: height, padding: padding, seed: seed)
                let stored = try frame.rgbImage(maxPixels: width * height)
                for orientation in ImageOrientation.allCases {
                    let upright = stored.upright(from: orientation)
                    for (transform, border, range) in Self.crops(width: upright.width, height: upright.height) {
                        var expected = [Float](repeating: .nan, count: 16 * 16 * 3)
                        upright.sampleTensor(width: 16, height: 16, transform: transform, border: border, valueRange: range, into: &expected)
                        var direct = [Float](repeating: .nan, count: 16 * 16 * 3)
                        try frame.bytes.withUnsafeBytes { bytes in
                            let view = try RawFrameView(format: format, width: width, height: height, rowStride: frame.rowStride,
                                                        bytes: bytes, maxPixels: width * height)
                            let oriented = OrientedFrame(view, orientation: orientation)
                            #expect(oriented.size == upright.size)
                            direct.withUnsafeMutableBufferPointer { output in
                                oriented.sampleTensor(width: 16, height: 16, transform: transform, border: border, valueRange: range, into: output)
                            }
                        }
                        #expect(direct == expected, "\(format) \(width)x\(height) +\(padding) \(orientation) \(border)")
                    }
                }
            }
        }
    }

    @Test("a view refuses a buffer that does not match its geometry")
    func viewChecksGeometry() throws {
        let bytes = [UInt8](repeating: 0, count: 10)
        bytes.withUnsafeBytes { buffer in
            #expect(throws: ImagingError.bufferSizeMismatch(format: .rgb, width: 2, height: 2, rowStride: 6, expected: 12, actual: 10)) {
                _ = try RawFrameView(format: .rgb, width: 2, height: 2, rowStride: 6, bytes: buffer, maxPixels: 100)
            }
            #expect(throws: ImagingError.rowStrideTooSmall(format: .rgb, width: 2, minimum: 6, actual: 5)) {
                _ = try RawFrameView(format: .rgb, width: 2, height: 2, rowStride: 5, bytes: buffer, maxPixels: 100)
            }
        }
    }
}
