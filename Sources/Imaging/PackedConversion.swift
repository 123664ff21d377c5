/// Packed RGB, RGBA, BGRA, BGR and GRAY8 rows to tightly packed RGB.
enum PackedConversion {
    /// Converts a validated packed frame; `destination` holds `width * height * 3` bytes.
    static func convert(
        _ source: UnsafeBufferPointer<UInt8>, _ geometry: FrameGeometry,
        into destination: UnsafeMutableBufferPointer<UInt8>
    ) {
        guard let sourceBase = source.baseAddress, let destinationBase = destination.baseAddress else { return }
        let width = geometry.width
        for row in 0..<geometry.height {
            let input = sourceBase + row * geometry.rowStride
            let output = destinationBase + row * width * 3
            switch geometry.format {
            case .rgb:
                output.update(from: input, count: width * 3)
            case .rgba:
                copyRow(input, output, width: width, bytesPerPixel: 4, red: 0, green: 1, blue: 2)
            case .bgra:
                copyRow(input, output, width: width, bytesPerPixel: 4, red: 2, green: 1, blue: 0)
            case .bgr:
                copyRow(input, output, width: width, bytesPerPixel: 3, red: 2, green: 1, blue: 0)
            case .gray8:
                copyRow(input, output, width: width, bytesPerPixel: 1, red: 0, green: 0, blue: 0)
            case .nv12, .nv21, .i420:
                preconditionFailure("\(geometry.format) is not a packed format")
            }
        }
    }

    @inline(__always)
    private static func copyRow(
        _ input: UnsafePointer<UInt8>, _ output: UnsafeMutablePointer<UInt8>,
        width: Int, bytesPerPixel: Int, red: Int, green: Int, blue: Int
    ) {
        for x in 0..<width {
            let pixel = input + x * bytesPerPixel
            output[3 * x] = pixel[red]
            output[3 * x + 1] = pixel[green]
            output[3 * x + 2] = pixel[blue]
        }
    }
}
