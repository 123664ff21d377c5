@testable import FaceDetection
import XCTest

/// The bundle's geometry metadata, parsed from its wire format, is the
/// canonical face the ML Kit path's generated model holds, so both paths fit
/// the same face.
final class LandmarkerGeometryTests: XCTestCase {
    func testTheBundleMetadataEqualsTheGeneratedCanonicalModel() throws {
        let metadata = try XCTUnwrap(TestData.models.faceLandmarker).geometry
        XCTAssertEqual(metadata.vertexCount, CanonicalFaceModel.vertexCount)
        XCTAssertEqual(metadata.positions, CanonicalFaceModel.positions)
        XCTAssertEqual(metadata.procrustesBasis.map(\.index), CanonicalFaceModel.procrustesBasis.map(\.index))
        XCTAssertEqual(metadata.procrustesBasis.map(\.weight), CanonicalFaceModel.procrustesBasis.map(\.weight))
    }

    func testMalformedMetadataIsRefused() {
        // A basis entry (field 2) cut short: its declared length runs past the end.
        XCTAssertThrowsError(try GeometryPipelineMetadata(bytes: [0x12, 0x08, 0x08, 0x01]))
        // No canonical mesh at all.
        XCTAssertThrowsError(try GeometryPipelineMetadata(bytes: [0x12, 0x07, 0x08, 0x04, 0x15, 0x00, 0x00, 0x80, 0x3F]))
    }
}
