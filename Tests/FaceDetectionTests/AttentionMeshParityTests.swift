@testable import FaceDetection
import XCTest

/// Our 478 points against MediaPipe's `FaceMesh(refine_landmarks=True)` on
/// every fixture image and video frame (tools/goldens/make_attention_goldens.py):
/// every point within 0.5 % of the inter-ocular distance, the median within
/// 0.1 % (`MeshParity`).
final class AttentionMeshParityTests: XCTestCase {
    private static let parity = MeshParity(goldens: .load("attention_mesh.json"), meshModel: .attentionMesh, pointCount: 478,
                                           bound: 0.005, scale: .interOcular)

    func testLandmarkStageFromMediaPipesRegions() throws {
        try Self.parity.checkLandmarkStage()
    }

    func testStillImages() throws {
        try Self.parity.checkStillImages()
    }

    func testVideos() throws {
        try Self.parity.checkVideos()
    }
}
