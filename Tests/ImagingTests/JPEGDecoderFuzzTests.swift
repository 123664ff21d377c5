import Foundation
import Imaging
import ImagingTesting
import SeededRandom
import Testing

/// Seeded mutations of real JPEGs through one reused decoder, as the worker
/// uses one per thread: each either decodes to an image whose size agrees
/// with its header, or throws an ``ImagingError`` that names the problem;
/// and no refused input changes how the decoder reads the next good one.
@Suite("JPEG decoder fuzzing")
struct JPEGDecoderFuzzTests {
    /// The face pipeline's astronaut fixture (a camera JPEG, 4:2:0) and
    /// encoder-made images in the other layouts a client may send.
    static let originals: [(name: String, bytes: [UInt8])] = {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/astronaut.jpg")
        let gradient = TestImages.gradient(width: 120, height: 90)
        let encoder = try! JPEGEncoder()
        let encode = { (image: RGBImage, quality: Int, subsampling: JPEGEncoder.ChromaSubsampling, progressive: Bool) in
            try! encoder.encode(image, quality: quality, subsampling: subsampling, progressive: progressive)
        }
        return [
            ("astronaut.jpg", Array(try! Data(contentsOf: fixture))),
            ("progressive 4:2:0", encode(gradient, 80, .quarter, true)),
            ("baseline 4:4:4", encode(gradient, 95, .none, false)),
            ("grayscale", encode(gradient, 70, .grayscale, false)),
            ("progressive 4:2:2", encode(TestImages.noise(width: 33, height: 17, seed: 3), 90, .half, true)),
        ]
    }()

    static let maxPixelChoices = [64 * 48, 1 << 20, 40_000_000]

    @Test("mutated JPEGs decode sanely or throw ImagingError, and the decoder stays good")
    func mutatedJPEGs() throws {
        let seed: UInt64 = 0xF022_0003
        var random = SplitMix64(seed: seed)
        let decoder = JPEGDecoder()
        let references = try Self.originals.map { try JPEGDecoder().decode($0.bytes, maxPixels: 1 << 20) }
        var decoded = 0, refused = 0
        for index in 0..<5000 {
            let original = Int.random(in: 0..<Self.originals.count, using: &random)
            var jpeg = Self.originals[original].bytes
            var mutations: [String] = []
            // Restated before other mutations, while the frame header is still where the original has it.
            if random.next() % 4 == 0 {
                let width = [0, 1, 7, 4096, 65535, Int.random(in: 1...2000, using: &random)].randomElement(using: &random)!
                let height = [0, 1, 9, 4096, 65535, Int.random(in: 1...2000, using: &random)].randomElement(using: &random)!
                jpeg = HostileJPEG.replacingSize(of: jpeg, width: width, height: height)
                mutations.append("stated size \(width)x\(height)")
            }
            for _ in 0..<Int.random(in: mutations.isEmpty ? 1...3 : 0...2, using: &random) {
                mutations.append(HostileJPEG.mutate(&jpeg, using: &random))
            }
            let maxPixels = Self.maxPixelChoices.randomElement(using: &random)!
            let label = "case \(index) of seed \(String(seed, radix: 16)): \(Self.originals[original].name), \(mutations.joined(separator: ", ")); maxPixels \(maxPixels)"

            if Self.check(jpeg, decoder: decoder, maxPixels: maxPixels, label: label) {
                decoded += 1
            } else {
                refused += 1
            }
            if index % 20 == 19 {
                let again = Int.random(in: 0..<Self.originals.count, using: &random)
                let reread = try decoder.decode(Self.originals[again].bytes, maxPixels: 1 << 20)
                #expect(reread == references[again], "after \(label): \(Self.originals[again].name) decodes as on a fresh decoder")
            }
        }
        // Both outcomes must occur, or the mutations are not reaching the decoder.
        #expect(decoded > 100, "\(decoded) mutated JPEGs decoded")
        #expect(refused > 2500, "\(refused) mutated JPEGs refused")
    }

    /// Decodes `jpeg` and checks the result; true when it decoded.
    static func check(_ jpeg: [UInt8], decoder: JPEGDecoder, maxPixels: Int, label: String) -> Bool {
        let header: Result<PixelSize, ImagingError> = Result { () throws(ImagingError) in try decoder.header(of: jpeg) }
        let decode: Result<RGBImage, ImagingError> = Result { () throws(ImagingError) in
            try decoder.decode(jpeg, maxPixels: maxPixels)
        }
        switch (header, decode) {
        case (.success(let size), .success(let image)):
            #expect(image.size == size, "\(label): the image is the header's size")
            #expect(size.width * size.height <= maxPixels, "\(label): within the pixel limit")
            #expect(image.pixels.count == image.width * image.height * 3, "\(label): packed RGB")
            return true
        case (.success(let size), .failure(.tooManyPixels(let width, let height, let limit))):
            #expect(PixelSize(width: width, height: height) == size, "\(label): the refusal names the header's size")
            #expect(limit == maxPixels && width * height > limit, "\(label): refused only over the limit")
        case (.success(let size), .failure(.invalidJPEG(let message))):
            #expect(!message.isEmpty, "\(label): TurboJPEG's reason is given")
            #expect(size.width > 0 && size.height > 0, "\(label): a header size is positive")
        case (.failure(.invalidJPEG(let headerMessage)), .failure(.invalidJPEG(let message))):
            #expect(!headerMessage.isEmpty && !message.isEmpty, "\(label): TurboJPEG's reason is given")
        case (.failure(let error), .success):
            Issue.record("\(label): decoded although its header was refused with \(error)")
        default:
            Issue.record("\(label): unexpected outcome: header \(header), decode \(decode)")
        }
        return false
    }
}
