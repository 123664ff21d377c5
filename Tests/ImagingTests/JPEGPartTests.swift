import Dispatch
import Imaging
import ImagingTesting
import SeededRandom
import Testing

/// Decoding part of a JPEG, or a whole one in two parts on two threads, gives
/// the pixels a whole decode gives, for every chroma subsampling, odd sizes
/// and every orientation; whatever it cannot decode exactly it leaves to a
/// whole decode.
@Suite("JPEG parts")
struct JPEGPartTests {
    static let sizes = [PixelSize(width: 333, height: 250), PixelSize(width: 97, height: 61), PixelSize(width: 640, height: 360)]

    static func jpeg(_ size: PixelSize, _ subsampling: JPEGEncoder.ChromaSubsampling, progressive: Bool = false) throws -> [UInt8] {
        try JPEGEncoder().encode(TestImages.noise(width: size.width, height: size.height, seed: UInt64(size.width)),
                                 quality: 90, subsampling: subsampling, progressive: progressive)
    }

    static func whole(_ jpeg: [UInt8]) throws -> RGBImage {
        try JPEGDecoder().decode(jpeg, maxPixels: 1 << 24)
    }

    static func part(_ jpeg: [UInt8], _ size: PixelSize, _ region: PixelRegion,
                     parallelize: JPEGDecoder.Parallelize? = nil) -> DecodedPart? {
        jpeg.withUnsafeBytes { JPEGDecoder.decodePart($0, size: size, region: region, parallelize: parallelize) }
    }

    /// Runs the calls on threads of their own at once, as the worker's thread pool does.
    static func concurrently(_ count: Int, _ body: (Int) -> Void) {
        withoutActuallyEscaping(body) { body in
            // The parts write disjoint rows.
            nonisolated(unsafe) let body = body
            DispatchQueue.concurrentPerform(iterations: count) { body($0) }
        }
    }

    /// The upright pixels of `region` read from `frame` by the sampler at unit
    /// scale, where it returns each pixel as it is stored.
    static func pixels(of frame: OrientedFrame, upright region: PixelRegion) -> [Float] {
        let transform = AffineTransform(m00: 1, m01: 0, m02: Double(region.columns.lowerBound),
                                        m10: 0, m11: 1, m12: Double(region.rows.lowerBound))
        var tensor = [Float](repeating: -1, count: region.area * 3)
        tensor.withUnsafeMutableBufferPointer { buffer in
            frame.sampleTensor(width: region.columns.count, height: region.rows.count, transform: transform, border: .replicate,
                               valueRange: 0...255, into: buffer)
        }
        return tensor
    }

    /// A random region of an image of `size`.
    static func region(in size: PixelSize, _ random: inout SplitMix64) -> PixelRegion {
        func span(_ length: Int) -> Range<Int> {
            let first = Int(random.next() % UInt64(length))
            return first..<(first + 1 + Int(random.next() % UInt64(length - first)))
        }
        return PixelRegion(columns: span(size.width), rows: span(size.height))
    }

    @Test("a part holds at least the region asked for, each pixel as a whole decode gives it",
          arguments: JPEGEncoder.ChromaSubsampling.allCases)
    func partsMatchTheWholeDecode(subsampling: JPEGEncoder.ChromaSubsampling) throws {
        var random = SplitMix64(seed: 7)
        for size in Self.sizes {
            let jpeg = try Self.jpeg(size, subsampling)
            let whole = try Self.whole(jpeg)
            for _ in 0..<40 {
                let asked = Self.region(in: size, &random)
                let part = try #require(Self.part(jpeg, size, asked), "\(size) \(asked)")
                #expect(part.region.contains(asked), "\(size): asked \(asked), held \(part.region)")
                #expect(part.storedSize == size)
                // The held pixels the sampler reads at unit scale without its
                // neighbourhood (and the run path's loads) leaving the part.
                let held = part.region
                let inner = PixelRegion(
                    columns: held.columns.lowerBound + (held.columns.lowerBound > 0 ? 1 : 0)
                        ..< max(held.columns.lowerBound + 1, held.columns.upperBound - (held.columns.upperBound < size.width ? 3 : 0)),
                    rows: held.rows.lowerBound + (held.rows.lowerBound > 0 ? 1 : 0)
                        ..< max(held.rows.lowerBound + 1, held.rows.upperBound - (held.rows.upperBound < size.height ? 2 : 0)))
                let identity = AffineTransform(m00: 1, m01: 0, m02: Double(inner.columns.lowerBound),
                                               m10: 0, m11: 1, m12: Double(inner.rows.lowerBound))
                let holds = part.withFrame(orientation: .topLeft) {
                    $0.holdsPixels(sampledBy: identity, width: inner.columns.count, height: inner.rows.count)
                }
                guard inner.columns.count > 0, inner.rows.count > 0, holds else {
                    #expect(held.columns.count < 5 || held.rows.count < 4, "\(size): \(held) cannot be sampled")
                    continue
                }
                let fromPart = part.withFrame(orientation: .topLeft) { Self.pixels(of: $0, upright: inner) }
                let fromWhole = whole.withView { Self.pixels(of: OrientedFrame($0, orientation: .topLeft), upright: inner) }
                #expect(fromPart == fromWhole, "\(subsampling) \(size): pixels of \(inner) differ")
                // Its rows shared by two threads, wherever the split falls, the part is the same.
                let shared = try #require(Self.part(jpeg, size, asked, parallelize: Self.concurrently), "\(size) \(asked)")
                #expect(shared.region == held)
                #expect(shared.withFrame(orientation: .topLeft) { Self.pixels(of: $0, upright: inner) } == fromWhole,
                        "\(subsampling) \(size): pixels of \(inner) differ when shared")
            }
        }
    }

    @Test("a part of a frame stored in any orientation samples as the whole frame does", arguments: ImageOrientation.allCases)
    func partsInEveryOrientation(orientation: ImageOrientation) throws {
        let size = PixelSize(width: 333, height: 250)
        let jpeg = try Self.jpeg(size, .quarter)
        let whole = try Self.whole(jpeg)
        let upright = orientation.uprightSize(of: size)
        // A rotated crop in the upright image, as the landmark stages take one.
        let transform = AffineTransform.rotatedRect(centerX: Double(upright.width) * 0.45, centerY: Double(upright.height) * 0.55,
                                                    width: 90, height: 110, rotation: 0.4, outputWidth: 64, outputHeight: 64)
        let needed = orientation.storedRegion(of: transform.sampledRegion(width: 64, height: 64, in: upright), storedSize: size)
        let part = try #require(Self.part(jpeg, size, needed))
        func sample(_ frame: OrientedFrame) -> [Float] {
            #expect(frame.holdsPixels(sampledBy: transform, width: 64, height: 64))
            var tensor = [Float](repeating: 0, count: 64 * 64 * 3)
            tensor.withUnsafeMutableBufferPointer { buffer in
                frame.sampleTensor(width: 64, height: 64, transform: transform, border: .replicate, valueRange: -1...1, into: buffer)
            }
            return tensor
        }
        let fromPart = part.withFrame(orientation: orientation) { frame in
            #expect(frame.size == upright)
            return sample(frame)
        }
        #expect(fromPart == whole.withView { sample(OrientedFrame($0, orientation: orientation)) })
        // A crop elsewhere in the image is not held.
        let elsewhere = AffineTransform.rotatedRect(centerX: 10, centerY: 10, width: 20, height: 20, rotation: 0, outputWidth: 8, outputHeight: 8)
        let farCorner = orientation.storedRegion(of: elsewhere.sampledRegion(width: 8, height: 8, in: upright), storedSize: size)
        if !part.region.contains(farCorner) {
            part.withFrame(orientation: orientation) { #expect(!$0.holdsPixels(sampledBy: elsewhere, width: 8, height: 8)) }
        }
    }

    @Test("a whole decode in two parts on two threads equals TurboJPEG's", arguments: JPEGEncoder.ChromaSubsampling.allCases)
    func splitMatchesTheWholeDecode(subsampling: JPEGEncoder.ChromaSubsampling) throws {
        let decoder = JPEGDecoder()
        let concurrently: JPEGDecoder.Parallelize = Self.concurrently
        let inTurn: JPEGDecoder.Parallelize = { count, body in (0..<count).forEach(body) }
        for size in Self.sizes {
            let jpeg = try Self.jpeg(size, subsampling)
            for parallelize in [concurrently, inTurn] {
                let decoded = try jpeg.withUnsafeBytes { (bytes) throws(ImagingError) in
                    try decoder.decode(bytes, size: size, refuseDamaged: true, parallelize: parallelize)
                }
                #expect(decoded.warning == nil)
                #expect(decoded.image == (try Self.whole(jpeg)), "\(subsampling) \(size)")
            }
        }
    }

    @Test("a progressive JPEG is left to a whole decode")
    func progressiveIsDecodedWhole() throws {
        let size = PixelSize(width: 97, height: 61)
        let jpeg = try Self.jpeg(size, .quarter, progressive: true)
        #expect(Self.part(jpeg, size, PixelRegion(columns: 10..<20, rows: 10..<20)) == nil)
        let decoded = try jpeg.withUnsafeBytes { (bytes) throws(ImagingError) in
            try JPEGDecoder().decode(bytes, size: size, refuseDamaged: true) { count, body in (0..<count).forEach(body) }
        }
        #expect(decoded.image == (try Self.whole(jpeg)))
    }

    @Test("damage anywhere, even after the part, leaves the JPEG to a whole decode that reports it")
    func damageIsReportedAsByAWholeDecode() throws {
        let size = PixelSize(width: 333, height: 250)
        let sound = try Self.jpeg(size, .quarter)
        // The scan cut short: the last rows' data is missing, far below the part.
        let damaged = Array(sound.prefix(sound.count * 8 / 10))
        #expect(Self.part(damaged, size, PixelRegion(columns: 10..<40, rows: 5..<20)) == nil)
        let decoder = JPEGDecoder()
        let split = try damaged.withUnsafeBytes { (bytes) throws(ImagingError) in
            try decoder.decode(bytes, size: size, refuseDamaged: false) { count, body in (0..<count).forEach(body) }
        }
        let plain = try damaged.withUnsafeBytes { (bytes) throws(ImagingError) in
            try decoder.decode(bytes, size: size, refuseDamaged: false)
        }
        #expect(split.warning != nil)
        #expect(split.warning == plain.warning)
        #expect(split.image == plain.image)
        #expect(throws: ImagingError.self) {
            try damaged.withUnsafeBytes { (bytes) throws(ImagingError) in
                try decoder.decode(bytes, size: size, refuseDamaged: true) { count, body in (0..<count).forEach(body) }
            }
        }
    }

    @Test("a part reaching far down the image is shared by two threads, one near its top is not")
    func onlyADeepPartIsShared() throws {
        let size = PixelSize(width: 333, height: 250)
        let jpeg = try Self.jpeg(size, .quarter)
        func calls(_ region: PixelRegion) throws -> [Int] {
            var counts: [Int] = []
            _ = try #require(Self.part(jpeg, size, region) { count, body in
                counts.append(count)
                (0..<count).forEach(body)
            })
            return counts
        }
        // Both threads entropy-decode down to their last row, and the second on to the end: a
        // part that ends high up leaves the second nothing it could take over.
        #expect(try calls(PixelRegion(columns: 0..<333, rows: 100..<240)) == [2])
        #expect(try calls(PixelRegion(columns: 10..<40, rows: 5..<60)).isEmpty)
    }

    @Test("damage after a shared part is found by the thread that reads to the end")
    func damageAfterASharedPart() throws {
        let size = PixelSize(width: 333, height: 250)
        let sound = try Self.jpeg(size, .quarter)
        let region = PixelRegion(columns: 0..<333, rows: 100..<230)
        #expect(Self.part(sound, size, region, parallelize: Self.concurrently) != nil)
        // Cut inside the last rows' data, below the part.
        let damaged = Array(sound.prefix(sound.count * 97 / 100))
        #expect(Self.part(damaged, size, region, parallelize: Self.concurrently) == nil)
    }

    @Test("a region that is empty or leaves the image is not decoded")
    func regionsOutsideTheImage() throws {
        let size = PixelSize(width: 97, height: 61)
        let jpeg = try Self.jpeg(size, .quarter)
        #expect(Self.part(jpeg, size, PixelRegion(columns: 10..<10, rows: 0..<5)) == nil)
        #expect(Self.part(jpeg, size, PixelRegion(columns: 90..<98, rows: 0..<5)) == nil)
        #expect(Self.part(jpeg, size, PixelRegion(columns: 0..<5, rows: -1..<5)) == nil)
    }
}
