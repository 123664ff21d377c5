import FaceWorkerMLKit
import FaceWorkerTasksVision
import Foundation
import Imaging
import XCTest

/// Images from every source the APIs take: uncompressed pixels with a row
/// stride, the camera formats NV12 and I420, regions of a shared frame
/// buffer, and orientations.
final class ImageSourceTests: WorkerTestCase {
    private let goldens = ClientGoldens.shared
    private let astronaut = (try? Data(contentsOf: TestPaths.fixture("astronaut.jpg"))) ?? Data()

    /// The astronaut's pixels as the worker's decoder gives them.
    private func rgb() throws -> RGBImage {
        let decoder = JPEGDecoder()
        return try astronaut.withUnsafeBytes { try decoder.decode($0, maxPixels: 1 << 24) }
    }

    func testPaddedRowsOfDecodedPixelsGiveTheJPEGsFaces() throws {
        let image = try rgb()
        let stride = image.width * 3 + 16
        var padded = Data(count: stride * image.height)
        for row in 0..<image.height {
            padded.replaceSubrange(row * stride..<row * stride + image.width * 3, with: image.pixels[row * image.width * 3..<(row + 1) * image.width * 3])
        }
        let faceDetector = try FaceWorkerTasksVision.FaceDetector(options: FaceWorkerTasksVision.FaceDetectorOptions())
        let result = try faceDetector.detect(image: MPImage(pixels: padded, format: .rgb, width: image.width, height: image.height, rowStride: stride))
        assertEqual(result.detections, goldens.detectorImage["astronaut.jpg"] ?? [], "padded RGB")
    }

    func testNV12AndI420FramesFindTheFace() throws {
        let image = try rgb()
        let faceDetector = try FaceWorkerTasksVision.FaceDetector(options: FaceWorkerTasksVision.FaceDetectorOptions())
        let frames = [
            ("NV12", MPImage(pixels: YUV.nv12(image), format: .nv12, width: image.width, height: image.height)),
            ("I420", MPImage(pixels: YUV.i420(image), format: .i420, width: image.width, height: image.height)),
        ]
        for (format, frame) in frames {
            assertNear(try faceDetector.detect(image: frame).detections, goldens.detectorImage["astronaut.jpg"] ?? [], format)
        }
    }

    func testRegionsOfASharedBufferTravelInsteadOfTheirBytes() async throws {
        let image = try rgb()
        let nv12 = YUV.nv12(image)
        let faceDetector = try await FaceWorkerTasksVision.FaceDetector(options: FaceWorkerTasksVision.FaceDetectorOptions())
        let buffer = try await faceDetector.registerBuffer(size: astronaut.count + nv12.count)
        astronaut.withUnsafeBytes { buffer.bytes.copyMemory(from: $0) }
        nv12.withUnsafeBytes { UnsafeMutableRawBufferPointer(rebasing: buffer.bytes[astronaut.count...]).copyMemory(from: $0) }

        let jpeg = try await faceDetector.detect(image: MPImage(image: buffer.image(length: astronaut.count)))
        assertEqual(jpeg.detections, goldens.detectorImage["astronaut.jpg"] ?? [], "shared JPEG")
        let frame = try buffer.image(offset: astronaut.count, format: .nv12, width: image.width, height: image.height)
        assertNear(try await faceDetector.detect(image: MPImage(image: frame)).detections, goldens.detectorImage["astronaut.jpg"] ?? [], "shared NV12")

        // ML Kit's detector takes the same regions of a buffer on its own connection.
        let mlKit = FaceWorkerMLKit.FaceDetector.faceDetector()
        let mlKitBuffer = try await mlKit.registerBuffer(size: astronaut.count)
        astronaut.withUnsafeBytes { mlKitBuffer.bytes.copyMemory(from: $0) }
        let faces = try await mlKit.results(in: VisionImage(buffer: mlKitBuffer.image(length: astronaut.count)))
        XCTAssertEqual(faces.map { [$0.frame.minX, $0.frame.minY].map { Double($0.rounded(.toNearestOrEven)) } },
                       goldens.detectorImage["astronaut.jpg"]?.map { Array($0.box.prefix(2)) })
        await faceDetector.close()
        await mlKit.close()
    }

    func testTheOrientationTurnsTheImageUpright() throws {
        let faceDetector = try FaceWorkerTasksVision.FaceDetector(options: FaceWorkerTasksVision.FaceDetectorOptions())
        // The fixture mirrored left to right and encoded again, against the original turned by its orientation.
        let flipped = try faceDetector.detect(image: MPImage(contentsOf: TestPaths.fixture("astronaut_flipped.jpg"))).detections
        let mirrored = try faceDetector.detect(image: MPImage(jpegData: astronaut, orientation: .upMirrored)).detections
        XCTAssertEqual(mirrored.count, 1)
        XCTAssertEqual(flipped.count, 1)
        let box = try XCTUnwrap(mirrored.first?.boundingBox), expected = try XCTUnwrap(flipped.first?.boundingBox)
        for (value, expectedValue) in zip([box.minX, box.minY, box.width, box.height], [expected.minX, expected.minY, expected.width, expected.height]) {
            XCTAssertEqual(Double(value), Double(expectedValue), accuracy: 2)
        }

        // ML Kit's orientation, and Firebase's metadata, under their own names.
        let mlKit = FaceWorkerMLKit.FaceDetector.faceDetector()
        let image = VisionImage(jpegData: astronaut)
        image.orientation = .upMirrored
        XCTAssertEqual(try mlKit.results(in: image).map { Double($0.frame.minX) }.first ?? 0, Double(box.minX), accuracy: 1)
        let metadata = VisionImageMetadata()
        metadata.orientation = .topRight
        image.orientation = .up
        image.metadata = metadata
        XCTAssertEqual(try mlKit.results(in: image).map { Double($0.frame.minX) }.first ?? 0, Double(box.minX), accuracy: 1)
    }

    func testAnImageKnowsItsStoredSize() throws {
        let jpeg = try MPImage(contentsOf: TestPaths.fixture("two_faces.jpg"), orientation: .right)
        XCTAssertEqual(jpeg.width, 640)
        XCTAssertEqual(jpeg.height, 360)
        let pixels = MPImage(pixels: Data(count: 6 * 4 * 3 / 2), format: .nv12, width: 6, height: 4)
        XCTAssertEqual(pixels.width, 6)
        XCTAssertEqual(pixels.height, 4)
        XCTAssertNil(MPImage(jpegData: Data("not a JPEG".utf8)).width)
    }

    /// Converted pixels lose a little: the face's box within 4 pixels.
    private func assertNear(_ detections: [Detection], _ expected: [ClientGoldens.Detection], _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(detections.count, expected.count, "\(what): faces", file: file, line: line)
        for (detection, golden) in zip(detections, expected) {
            let box = detection.boundingBox
            for (value, goldenValue) in zip([box.minX, box.minY, box.width, box.height], golden.box) {
                XCTAssertEqual(Double(value), goldenValue, accuracy: 4, "\(what): box", file: file, line: line)
            }
        }
    }
}

/// RGB to BT.601 limited-range YUV 4:2:0, as a camera gives it.
enum YUV {
    static func nv12(_ image: RGBImage) -> Data {
        let (y, u, v) = planes(image)
        var data = Data(y)
        for (cb, cr) in zip(u, v) { data.append(contentsOf: [cb, cr]) }
        return data
    }

    static func i420(_ image: RGBImage) -> Data {
        let (y, u, v) = planes(image)
        return Data(y + u + v)
    }

    private static func planes(_ image: RGBImage) -> ([UInt8], [UInt8], [UInt8]) {
        let width = image.width, height = image.height, pixels = image.pixels
        func rgb(_ x: Int, _ y: Int) -> (Double, Double, Double) {
            let at = 3 * (y * width + x)
            return (Double(pixels[at]), Double(pixels[at + 1]), Double(pixels[at + 2]))
        }
        func byte(_ value: Double) -> UInt8 { UInt8(max(0, min(255, value.rounded()))) }
        var luma: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                let (r, g, b) = rgb(x, y)
                luma.append(byte(16 + (65.481 * r + 128.553 * g + 24.966 * b) / 255))
            }
        }
        var u: [UInt8] = [], v: [UInt8] = []
        for y in stride(from: 0, to: height, by: 2) {
            for x in stride(from: 0, to: width, by: 2) {
                var sum = (0.0, 0.0, 0.0), count = 0.0
                for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] where x + dx < width && y + dy < height {
                    let (r, g, b) = rgb(x + dx, y + dy)
                    sum = (sum.0 + r, sum.1 + g, sum.2 + b)
                    count += 1
                }
                let (r, g, b) = (sum.0 / count, sum.1 / count, sum.2 / count)
                u.append(byte(128 + (-37.797 * r - 74.203 * g + 112 * b) / 255))
                v.append(byte(128 + (112 * r - 93.786 * g - 18.214 * b) / 255))
            }
        }
        return (luma, u, v)
    }
}
