import Imaging
import SeededRandom

/// One measurement of `pipeline-bench sampling`: a source, a crop and a tensor size.
struct SamplingCase {
    /// Where the pixels come from.
    enum Source {
        /// Already RGB, as a decoded JPEG is.
        case image(RGBImage)
        /// A raw frame as a client sends it, sampled in place.
        case frame(RawFrame)

        var size: (width: Int, height: Int) {
            switch self {
            case .image(let image): (image.width, image.height)
            case .frame(let frame): (frame.width, frame.height)
            }
        }

        var label: String {
            switch self {
            case .image: "\(size.width)x\(size.height) RGB image"
            case .frame(let frame): "\(size.width)x\(size.height) \(frame.format) frame"
            }
        }
    }

    /// What part of the source lands in the tensor.
    enum Crop {
        /// The whole source, fitted with black bars, as the detectors take it.
        case letterbox
        /// A square of `side` pixels around the centre, tilted by 0.3 radians,
        /// as the landmark models take a face.
        case rotated(side: Double)
    }

    let source: Source
    let crop: Crop
    let tensorSize: Int

    var name: String {
        switch crop {
        case .letterbox: "\(source.label) -> \(tensorSize)x\(tensorSize) letterbox"
        case .rotated(let side): "\(source.label) -> \(tensorSize)x\(tensorSize) rotated \(Int(side))x\(Int(side)) crop"
        }
    }

    var transform: AffineTransform {
        let (width, height) = source.size
        switch crop {
        case .letterbox:
            return .letterbox(sourceWidth: width, sourceHeight: height, outputWidth: tensorSize, outputHeight: tensorSize)
        case .rotated(let side):
            return .rotatedRect(centerX: Double(width) / 2, centerY: Double(height) / 2, width: side, height: side, rotation: 0.3,
                                outputWidth: tensorSize, outputHeight: tensorSize)
        }
    }

    /// The detectors see black (the range's lower bound) outside the frame; the landmark models see the edge repeated.
    var border: BorderMode {
        if case .letterbox = crop { return .zero }
        return .replicate
    }

    /// The detectors take [-1, 1], the landmark models [0, 1].
    var valueRange: ClosedRange<Float> {
        if case .letterbox = crop { return -1...1 }
        return 0...1
    }

    /// Every case, in the order they are reported. The first is what the
    /// release-only sampling test once timed: a face crop of a 640x480 image.
    /// The others crop a 1920x1080 camera frame, RGB or NV12, into each
    /// tensor size the face models use (128 and 192) and a larger one (256).
    static func all() throws -> [SamplingCase] {
        var cases = [SamplingCase(source: .image(try noiseImage(width: 640, height: 480, seed: 12)), crop: .rotated(side: 300), tensorSize: 192)]
        let width = 1920, height = 1080
        let frames = [
            RawFrame(format: .rgb, width: width, height: height, rowStride: width * 3,
                     bytes: noise(count: width * height * 3, seed: 13)),
            // A full-resolution luma plane, then half as many rows of interleaved chroma.
            RawFrame(format: .nv12, width: width, height: height, rowStride: width,
                     bytes: noise(count: width * (height + height / 2), seed: 14)),
        ]
        for frame in frames {
            for crop in [Crop.letterbox, .rotated(side: 600)] {
                for size in [128, 192, 256] {
                    cases.append(SamplingCase(source: .frame(frame), crop: crop, tensorSize: size))
                }
            }
        }
        return cases
    }

    private static func noise(count: Int, seed: UInt64) -> [UInt8] {
        var generator = SplitMix64(seed: seed)
        return (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
    }

    private static func noiseImage(width: Int, height: Int, seed: UInt64) throws -> RGBImage {
        try RGBImage(width: width, height: height, pixels: noise(count: width * height * 3, seed: seed))
    }
}
