import CLibFuzzer
import Imaging

/// The lenient decode a session gets by default: a damaged stream with a sound
/// header decodes as libjpeg decodes it, with a warning; then the strict one.
/// The header's size is checked against a small pixel limit first, as the
/// worker's admission does, so a header claiming a huge image costs nothing.
private enum Fuzz {
    /// One decoder for every input, as a connection keeps one. libFuzzer calls
    /// the entry point from one thread only, so nothing uses it concurrently.
    nonisolated(unsafe) static let decoder = try! JPEGDecoder()
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJPEG(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let jpeg = UnsafeRawBufferPointer(start: start, count: count)
    let decoder = Fuzz.decoder
    guard let size = try? decoder.header(of: jpeg), (try? PixelLimit.check(width: size.width, height: size.height, maxPixels: 1 << 16)) != nil else {
        return 0
    }
    if let decoded = try? decoder.decode(jpeg, size: size, refuseDamaged: false) {
        precondition(decoded.image.width == size.width && decoded.image.height == size.height)
    }
    _ = try? decoder.decode(jpeg, size: size, refuseDamaged: true)
    return 0
}

libfuzzer_main(CommandLine.argc, CommandLine.unsafeArgv)
