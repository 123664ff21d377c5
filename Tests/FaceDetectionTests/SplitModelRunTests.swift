import FaceDetection
import XCTest

/// A session may split each model run over several threads
/// (`FaceSession(threads:)`); what it finds must not depend on it.
final class SplitModelRunTests: XCTestCase {
    func testModelRunsSplitOverTwoThreadsFindTheSameFaces() throws {
        try compareSerialAndSplit(TestData.options(.video) {
            $0.landmarks = true
            $0.contours = true
            $0.faceMesh = true
            $0.trackingEnabled = true
        })
    }

    func testTheFaceLandmarkerSplitOverTwoThreadsFindsTheSameFaces() throws {
        try compareSerialAndSplit(TestData.options(.video) {
            $0.meshModel = .faceLandmarker
            $0.faceMesh = true
            $0.faceBlendshapes = true
            $0.trackingEnabled = true
        })
    }

    private func compareSerialAndSplit(_ options: FaceOptions) throws {
        let serial = try FaceSession(models: TestData.models, options: options, threads: 1)
        let split = try FaceSession(models: TestData.models, options: options, threads: 2)
        for index in 0..<8 {
            let image = try TestData.image(String(format: "video/frame_%03d.jpg", index))
            let timestamp = Int64(index) * 33
            let one = try serial.detectForVideo(image, timestampMs: timestamp)
            let two = try split.detectForVideo(image, timestampMs: timestamp)
            XCTAssertEqual(one.faces.count, 1, "frame \(index)")
            XCTAssertEqual(two.faces.count, one.faces.count, "frame \(index)")
            XCTAssertEqual(two.detectorRan, one.detectorRan, "frame \(index)")
            for (a, b) in zip(one.faces, two.faces) {
                XCTAssertEqual(b.boundingBox.x, a.boundingBox.x, accuracy: 1e-3, "frame \(index)")
                XCTAssertEqual(b.boundingBox.y, a.boundingBox.y, accuracy: 1e-3, "frame \(index)")
                XCTAssertEqual(b.boundingBox.width, a.boundingBox.width, accuracy: 1e-3, "frame \(index)")
                XCTAssertEqual(b.trackingID, a.trackingID, "frame \(index)")
                let meshA = try XCTUnwrap(a.mesh), meshB = try XCTUnwrap(b.mesh)
                XCTAssertEqual(meshA.count, 478)
                let worst = zip(meshA, meshB).map { max(abs($0.x - $1.x), abs($0.y - $1.y)) }.max() ?? .infinity
                XCTAssertLessThan(worst, 1e-5, "frame \(index): mesh points moved by \(worst) of the image")
                if let scoresA = a.blendshapes {
                    let scoresB = try XCTUnwrap(b.blendshapes)
                    XCTAssertLessThan(zip(scoresA, scoresB).map { abs($0 - $1) }.max() ?? .infinity, 1e-4, "frame \(index)")
                }
            }
        }
    }
}
