import FaceDetection
import Foundation
import Imaging
import XCTest

/// A client may send a frame as JPEG or as the pixels it decodes to; the
/// detector must find the same faces either way: on every fixture frame, the
/// same number of faces, each with box IoU at least 0.95 and a score within
/// 0.01 of its counterpart's.
final class JPEGRawParityTests: XCTestCase {
    /// Every image and video frame the fixture manifest lists.
    private struct Manifest: Decodable {
        struct Entry: Decodable {
            var file: String
            var faces: Int
        }

        var images: [Entry]
        var videos: [String: [Entry]]

        static func load() throws -> [Entry] {
            let data = try Data(contentsOf: TestData.fixtures.appendingPathComponent("manifest.json"))
            let manifest = try JSONDecoder().decode(Manifest.self, from: data)
            return manifest.images + manifest.videos.keys.sorted().flatMap { manifest.videos[$0]! }
        }
    }

    private func check(_ performance: FaceOptions.PerformanceMode) throws {
        // Every detection is compared, not only those a default session keeps.
        let session = try FaceSession(models: TestData.models, options: TestData.options {
            $0.performanceMode = performance
            $0.numFaces = 8
            $0.minFaceSize = 0
        })
        let entries = try Manifest.load()
        let onDisk = FileManager.default.enumerator(atPath: TestData.fixtures.path)!.compactMap { $0 as? String }.filter { $0.hasSuffix(".jpg") }
        XCTAssertEqual(Set(entries.map(\.file)), Set(onDisk), "the manifest lists every fixture JPEG")
        var framesWithFaces = 0
        for entry in entries {
            let label = "\(entry.file) \(performance)"
            let image = try TestData.image(entry.file)
            let raw = RawFrame(format: .rgb, width: image.width, height: image.height, rowStride: image.width * 3, bytes: image.pixels)
            let fromJPEG = try session.process(jpeg: TestData.jpeg(entry.file))
            let fromRaw = try session.process(FrameInput(pixels: .raw(raw)))
            XCTAssertEqual(fromJPEG.imageWidth, fromRaw.imageWidth, label)
            XCTAssertEqual(fromJPEG.imageHeight, fromRaw.imageHeight, label)
            XCTAssertEqual(fromJPEG.faces.count, fromRaw.faces.count, "\(label): face count")
            if entry.faces > 0, !fromRaw.faces.isEmpty { framesWithFaces += 1 }
            for face in fromRaw.faces {
                guard let twin = fromJPEG.faces.max(by: { iou($0.boundingBox, face.boundingBox) < iou($1.boundingBox, face.boundingBox) }) else { continue }
                XCTAssertGreaterThanOrEqual(iou(twin.boundingBox, face.boundingBox), 0.95, "\(label): box")
                XCTAssertEqual(twin.score, face.score, accuracy: 0.01, "\(label): score")
            }
        }
        // The comparison means something only where there are faces to compare; the
        // short-range detector is not made for the far faces of a group photo.
        let seen = entries.filter { $0.faces > 0 && !(performance == .fast && $0.file == TestData.farFaces) }
        XCTAssertEqual(framesWithFaces, seen.count, "\(performance): frames with faces where the detector found some")
    }

    func testShortRangeFindsTheSameFacesInAJPEGAndItsPixels() throws {
        try check(.fast)
    }

    func testFullRangeFindsTheSameFacesInAJPEGAndItsPixels() throws {
        try check(.accurate)
    }
}
