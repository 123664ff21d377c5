import CTurboJPEG
import Imaging

/// Encodes `RGBImage`s as JPEG with TurboJPEG, for tests that need JPEG
/// frames of known content (the worker itself only decodes).
///
/// Owns TurboJPEG compressors, which are not thread-safe: use one encoder per
/// thread (it is deliberately not `Sendable`).
package final class JPEGEncoder {
    /// How much the encoder reduces the colour (chroma) resolution.
    package enum ChromaSubsampling: Sendable, Hashable, CaseIterable {
        /// Full-resolution chroma.
        case none
        /// Chroma at half the horizontal resolution.
        case half
        /// Chroma at half the horizontal and vertical resolution (the usual camera choice).
        case quarter
        /// No chroma at all: a grayscale JPEG.
        case grayscale

        var turboJPEGValue: Int32 {
            switch self {
            case .none: return Int32(TJSAMP_444.rawValue)
            case .half: return Int32(TJSAMP_422.rawValue)
            case .quarter: return Int32(TJSAMP_420.rawValue)
            case .grayscale: return Int32(TJSAMP_GRAY.rawValue)
            }
        }
    }

    private let baseline: tjhandle
    /// Progressive JPEGs get a compressor of their own: TurboJPEG 2.1 keeps a
    /// progressive encode's settings in its compressor, and the baseline JPEGs
    /// it writes afterwards come out corrupt.
    private var progressiveCompressor: tjhandle?

    /// Creates a TurboJPEG compressor.
    ///
    /// - Throws: `ImagingError.turboJPEG` if TurboJPEG cannot allocate one.
    package init() throws(ImagingError) {
        guard let handle = tjInitCompress() else {
            throw .turboJPEG(turboJPEGMessage(nil))
        }
        baseline = handle
    }

    deinit {
        tjDestroy(baseline)
        if let progressiveCompressor { tjDestroy(progressiveCompressor) }
    }

    private func compressor(progressive: Bool) throws(ImagingError) -> tjhandle {
        guard progressive else { return baseline }
        if let progressiveCompressor { return progressiveCompressor }
        guard let handle = tjInitCompress() else {
            throw .turboJPEG(turboJPEGMessage(nil))
        }
        progressiveCompressor = handle
        return handle
    }

    /// Compresses `image`.
    ///
    /// - Parameters:
    ///   - quality: 1 (smallest) to 100 (best).
    ///   - subsampling: chroma resolution.
    ///   - progressive: write a progressive JPEG (several scans) instead of a
    ///     baseline one.
    /// - Throws: `ImagingError.turboJPEG` if TurboJPEG fails.
    package func encode(
        _ image: RGBImage, quality: Int = 90, subsampling: ChromaSubsampling = .quarter, progressive: Bool = false
    ) throws(ImagingError) -> [UInt8] {
        precondition((1...100).contains(quality), "JPEG quality must be in 1...100, got \(quality)")
        var output: UnsafeMutablePointer<UInt8>?
        var outputSize: UInt = 0
        let flags = progressive ? TJFLAG_PROGRESSIVE : 0
        let handle = try compressor(progressive: progressive)
        let status = image.pixels.withUnsafeBufferPointer { pixels in
            tjCompress2(
                handle, pixels.baseAddress, Int32(image.width), Int32(image.width * 3), Int32(image.height),
                Int32(TJPF_RGB.rawValue), &output, &outputSize, subsampling.turboJPEGValue, Int32(quality), flags
            )
        }
        // TurboJPEG may have allocated the output even when it failed.
        defer { tjFree(output) }
        guard status == 0, let output else {
            throw .turboJPEG(turboJPEGMessage(handle))
        }
        return Array(UnsafeBufferPointer(start: output, count: Int(outputSize)))
    }
}
