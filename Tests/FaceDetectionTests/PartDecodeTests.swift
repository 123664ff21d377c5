import FaceDetection
import Imaging
import XCTest

/// A video frame that only follows faces decodes just the part of its JPEG
/// that its crops read; what the session finds must be exactly what it finds
/// in the whole frame's pixels, in every pipeline and orientation, frame
/// after frame.
final class PartDecodeTests: XCTestCase {
    /// How many frames decoded a part, and how many only followed faces.
    @discardableResult
    private func compare(_ video: String, frames: Int, orientation: ImageOrientation, threads: Int,
                         _ change: (inout FaceOptions) -> Void) throws -> (parts: Int, followed: Int) {
        let options = TestData.options(.video) {
            $0.trackingEnabled = true
            change(&$0)
        }
        let fromJPEG = try FaceSession(models: TestData.models, options: options, threads: threads)
        let fromPixels = try FaceSession(models: TestData.models, options: options, threads: threads)
        var parts = 0, followed = 0
        for index in 0..<frames {
            let file = String(format: "\(video)/frame_%03d.jpg", index)
            let label = "\(file) \(orientation)"
            let timestamp = Int64(index) * 33
            let jpeg = try TestData.jpeg(file)
            let image = try TestData.image(file)
            let raw = RawFrame(format: .rgb, width: image.width, height: image.height, rowStride: image.width * 3, bytes: image.pixels)
            let a = try fromJPEG.process(jpeg: jpeg, orientation: orientation, timestampMs: timestamp)
            let b = try fromPixels.process(FrameInput(pixels: .raw(raw), orientation: orientation, timestampMs: timestamp))
            XCTAssertFalse(a.faces.isEmpty, label)
            XCTAssertEqual(a.detectorRan, b.detectorRan, label)
            XCTAssertEqual(String(describing: a.faces), String(describing: b.faces), "\(label): the faces differ")
            if !a.detectorRan { followed += 1 }
            if let part = a.decodedPart {
                parts += 1
                XCTAssertLessThan(Double(part.area), 0.5 * Double(image.width * image.height), label)
            }
        }
        XCTAssertGreaterThan(followed, frames / 2, "\(video): faces were followed")
        // A frame decodes a part only when its faces' crops cover little of it.
        XCTAssertGreaterThan(parts, 0, "\(video) \(orientation): no frame decoded a part")
        return (parts, followed)
    }

    func testTheFaceLandmarkerFindsTheSameFacesInAPartAsInTheWholeFrame() throws {
        for orientation in [ImageOrientation.topLeft, .rightTop, .topRight] {
            let counts = try compare("video", frames: 12, orientation: orientation, threads: 1) {
                $0.meshModel = .faceLandmarker
                $0.faceMesh = true
                $0.faceBlendshapes = true
                $0.transformationMatrix = true
            }
            // One face, small in the frame: every frame that follows it decodes a part.
            XCTAssertEqual(counts.parts, counts.followed, "\(orientation)")
        }
    }

    func testTheFaceLandmarkerFollowsTwoFacesInAPart() throws {
        try compare("two_faces_video", frames: 16, orientation: .topLeft, threads: 2) {
            $0.meshModel = .faceLandmarker
            $0.faceMesh = true
            $0.numFaces = 2
        }
    }

    func testMLKitOutputsAreTheSameFromAPart() throws {
        for orientation in [ImageOrientation.topLeft, .leftBottom] {
            try compare("video", frames: 12, orientation: orientation, threads: 1) {
                $0.landmarks = true
                $0.contours = true
                $0.classification = true
                $0.faceMesh = true
            }
        }
    }

    func testTheLegacyFaceMeshFollowsTwoFacesInAPart() throws {
        try compare("two_faces_video", frames: 16, orientation: .topLeft, threads: 2) {
            $0.meshModel = .faceMesh
            $0.faceMesh = true
            $0.numFaces = 2
        }
    }
}
