import FaceWorkerProtocol
import Foundation
import XCTest

@testable import FaceWorkerClient
@testable import Imaging

/// The worker's and the Swift client's raw-image layouts against the rules in
/// the conformance file, `proto/faceworker/v1/defaults.json`, which the
/// Python and C clients' tests check too: the least row stride of each pixel
/// format and the bytes an image holds, for every format over a range of
/// sizes (odd ones included) and strides, and the file's worked examples.
final class RawLayoutConformanceTests: XCTestCase {
    private struct Layout: Decodable {
        struct Format: Decodable {
            struct Multiple: Decodable {
                var widthTimes: Int?
                var cwTimes: Int?
            }

            struct Plane: Decodable {
                var rows: String
                var stride: String
            }

            var minRowStride: Multiple
            var planes: [Plane]
        }

        struct Example: Decodable {
            var format: String
            var width: Int
            var height: Int
            var rowStride: Int
            var byteCount: Int
        }

        var formats: [String: Format]
        var examples: [Example]

        /// The least row stride of `format` at `width`, by the file's rule.
        func minimumRowStride(_ format: String, width: Int) throws -> Int {
            let multiple = try XCTUnwrap(formats[format], format).minRowStride
            if let times = multiple.widthTimes { return width * times }
            return (width + 1) / 2 * (try XCTUnwrap(multiple.cwTimes, format))
        }

        /// The bytes of an image, by the file's rule; `rowStride` 0 is the least one.
        func byteCount(_ format: String, width: Int, height: Int, rowStride: Int) throws -> Int {
            let stride = rowStride == 0 ? try minimumRowStride(format, width: width) : rowStride
            let rows = ["height": height, "ch": (height + 1) / 2]
            let strides = ["row_stride": stride, "half_row_stride": (stride + 1) / 2]
            return try XCTUnwrap(formats[format], format).planes.reduce(0) { sum, plane in
                sum + (try XCTUnwrap(rows[plane.rows], plane.rows)) * (try XCTUnwrap(strides[plane.stride], plane.stride))
            }
        }
    }

    private struct File: Decodable {
        var rawImageLayout: Layout
    }

    private static let wireFormats: [String: Faceworker_V1_PixelFormat] = [
        "PIXEL_FORMAT_RGB": .rgb, "PIXEL_FORMAT_RGBA": .rgba, "PIXEL_FORMAT_BGRA": .bgra, "PIXEL_FORMAT_BGR": .bgr,
        "PIXEL_FORMAT_GRAY8": .gray8, "PIXEL_FORMAT_NV12": .nv12, "PIXEL_FORMAT_NV21": .nv21, "PIXEL_FORMAT_I420": .i420,
    ]

    private func layout() throws -> Layout {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let url = TestPaths.packageRoot.appendingPathComponent("proto/faceworker/v1/defaults.json")
        return try decoder.decode(File.self, from: Data(contentsOf: url)).rawImageLayout
    }

    /// Sizes from 1 to 6 on each side, each with the least stride and with a padded one.
    private static let sizes = (1...6).flatMap { width in (1...6).map { height in (width, height) } }

    func testTheFileNamesEveryPixelFormatOfTheWire() throws {
        XCTAssertEqual(Set(try layout().formats.keys), Set(Self.wireFormats.keys))
        XCTAssertEqual(Set(PixelFormat.allCases.map { "PIXEL_FORMAT_\($0)" }), Set(Self.wireFormats.keys))
    }

    func testTheWorkersLeastRowStrideAndByteCountAreTheFiles() throws {
        let layout = try layout()
        for format in PixelFormat.allCases {
            let name = "PIXEL_FORMAT_\(format)"
            for (width, height) in Self.sizes {
                let minimum = try layout.minimumRowStride(name, width: width)
                XCTAssertEqual(format.minimumRowStride(width: width), minimum, "\(name) \(width)")
                for rowStride in [minimum, minimum + 3] {
                    let expected = try layout.byteCount(name, width: width, height: height, rowStride: rowStride)
                    let place = "\(name) \(width)x\(height) stride \(rowStride)"
                    XCTAssertNoThrow(try FrameGeometry(format: format, width: width, height: height, rowStride: rowStride,
                                                       byteCount: expected, maxPixels: .max), place)
                    XCTAssertThrowsError(try FrameGeometry(format: format, width: width, height: height, rowStride: rowStride,
                                                           byteCount: expected - 1, maxPixels: .max), place)
                }
                XCTAssertThrowsError(try FrameGeometry(format: format, width: width, height: height, rowStride: minimum - 1,
                                                       byteCount: 1 << 20, maxPixels: .max), "\(name) \(width): a stride under the least")
            }
        }
    }

    func testTheClientsByteCountIsTheFiles() throws {
        let layout = try layout()
        for (name, format) in Self.wireFormats {
            for (width, height) in Self.sizes {
                let minimum = try layout.minimumRowStride(name, width: width)
                for rowStride in [0, minimum, minimum + 3] {
                    XCTAssertEqual(RawLayout.byteCount(format: format, width: width, height: height, rowStride: rowStride),
                                   try layout.byteCount(name, width: width, height: height, rowStride: rowStride),
                                   "\(name) \(width)x\(height) stride \(rowStride)")
                }
            }
        }
    }

    func testTheFilesExamplesFollowItsRules() throws {
        let layout = try layout()
        XCTAssertFalse(layout.examples.isEmpty)
        for example in layout.examples {
            XCTAssertEqual(try layout.byteCount(example.format, width: example.width, height: example.height, rowStride: example.rowStride),
                           example.byteCount, "\(example)")
            let format = try XCTUnwrap(Self.wireFormats[example.format])
            XCTAssertEqual(RawLayout.byteCount(format: format, width: example.width, height: example.height, rowStride: example.rowStride),
                           example.byteCount, "\(example)")
        }
    }
}
