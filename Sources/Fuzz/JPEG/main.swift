import CLibFuzzer
import Imaging

/// The lenient decode a session gets by default: a damaged stream with a sound
/// header decodes as libjpeg decodes it, with a warning; then the strict one;
/// then a part of the image (the region taken from the input's last bytes),
/// which must hold the pixels the whole decode gave, on one thread and shared
/// by two; and the whole image in two parts, which must equal it. The header's size is checked against a small
/// pixel limit first, as the worker's admission does, so a header claiming a
/// huge image costs nothing.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJPEG(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let jpeg = UnsafeRawBufferPointer(start: start, count: count)
    let decoder = JPEGDecoder()
    guard let size = try? decoder.header(of: jpeg), (try? PixelLimit.check(width: size.width, height: size.height, maxPixels: 1 << 16)) != nil else {
        return 0
    }
    let lenient = try? decoder.decode(jpeg, size: size, refuseDamaged: false)
    if let lenient {
        precondition(lenient.image.width == size.width && lenient.image.height == size.height)
    }
    _ = try? decoder.decode(jpeg, size: size, refuseDamaged: true)
    let inTurn: JPEGDecoder.Parallelize = { count, body in (0..<count).forEach(body) }
    if let split = try? decoder.decode(jpeg, size: size, refuseDamaged: false, parallelize: inTurn) {
        precondition(split.image == lenient?.image && split.warning == lenient?.warning, "a split decode differs from the whole one")
    }
    let tail = Array(jpeg.suffix(4))
    guard tail.count == 4, let whole = lenient?.image else { return 0 }
    let first = (Int(tail[0]) % size.width, Int(tail[1]) % size.height)
    let region = PixelRegion(columns: first.0..<first.0 + 1 + Int(tail[2]) % (size.width - first.0),
                             rows: first.1..<first.1 + 1 + Int(tail[3]) % (size.height - first.1))
    let shared = JPEGDecoder.decodePart(jpeg, size: size, region: region, parallelize: inTurn)
    if let part = JPEGDecoder.decodePart(jpeg, size: size, region: region) {
        precondition(part.region.contains(region), "a part holds less than was asked")
        precondition(shared?.region == part.region, "a part shared by two threads holds other pixels than one decoded by one")
        // The sampler reads a pixel's neighbours (and the run path a little past them).
        let inner = PixelRegion(columns: region.columns.lowerBound + 1..<max(region.columns.lowerBound + 1, region.columns.upperBound - 3),
                                rows: region.rows.lowerBound + 1..<max(region.rows.lowerBound + 1, region.rows.upperBound - 2))
        guard inner.area > 0 else { return 0 }
        let identity = AffineTransform(m00: 1, m01: 0, m02: Double(inner.columns.lowerBound), m10: 0, m11: 1, m12: Double(inner.rows.lowerBound))
        func sample(_ frame: OrientedFrame) -> [Float]? {
            guard frame.holdsPixels(sampledBy: identity, width: inner.columns.count, height: inner.rows.count) else { return nil }
            var tensor = [Float](repeating: 0, count: inner.area * 3)
            tensor.withUnsafeMutableBufferPointer { buffer in
                frame.sampleTensor(width: inner.columns.count, height: inner.rows.count, transform: identity, border: .replicate,
                                   valueRange: 0...255, into: buffer)
            }
            return tensor
        }
        if let fromPart = part.withFrame(orientation: .topLeft, sample) {
            precondition(fromPart == whole.withView { sample(OrientedFrame($0, orientation: .topLeft)) }, "a part's pixels differ")
            precondition(shared?.withFrame(orientation: .topLeft, sample) == fromPart, "a shared part's pixels differ")
        }
    }
    return 0
}

libfuzzer_main(CommandLine.argc, CommandLine.unsafeArgv)
