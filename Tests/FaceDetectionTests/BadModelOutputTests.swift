@testable import FaceDetection
import Foundation
import Inference
import ModelFile
import XCTest

/// A landmark model that gives NaN, or points far outside its crop, drops that
/// face for the frame; the session goes on. A wrong model file fails at load,
/// naming the file.
final class BadModelOutputTests: XCTestCase {
    /// The attention mesh with the bias of the convolution behind its mesh output replaced.
    private func attentionMesh(meshBias value: Float) throws -> CompiledModel {
        let graph = TestData.models.attentionMesh.graph
        let meshName = "output_mesh"
        let producer = try XCTUnwrap(graph.operators.first { op in op.outputs.contains { graph.tensors[$0].name == meshName } })
        let bias = producer.inputs[2]
        var tensors = graph.tensors
        let old = tensors[bias]
        tensors[bias] = Tensor(name: old.name, shape: old.shape, type: old.type, constant: .float([Float](repeating: value, count: old.elementCount)))
        return try CompiledModel(graph: Model(file: graph.file, tensors: tensors, operators: graph.operators, inputs: graph.inputs, outputs: graph.outputs))
    }

    private func models(meshBias value: Float) throws -> FaceModels {
        let models = TestData.models
        return try FaceModels(shortRangeDetector: models.shortRangeDetector, fullRangeDetector: models.fullRangeDetector,
                              faceMesh: models.faceMesh, attentionMesh: try attentionMesh(meshBias: value))
    }

    func testNaNOrFarOutsidePointsDropTheFaceAndTheSessionGoesOn() throws {
        let image = try TestData.image("astronaut.jpg")
        for bias in [Float.nan, 5000] {
            let session = try FaceSession(models: try models(meshBias: bias), options: TestData.options(.video) { $0.faceMesh = true })
            for frame in 0..<3 {
                let result = try session.detectForVideo(image, timestampMs: Int64(frame) * 33)
                XCTAssertTrue(result.faces.isEmpty, "bias \(bias), frame \(frame): \(result.faces.count) faces")
            }
        }
        // The unchanged model finds the face, so the drops above are the guard's doing.
        let session = try FaceSession(models: TestData.models, options: TestData.options(.video) { $0.faceMesh = true })
        XCTAssertEqual(try session.detectForVideo(image, timestampMs: 0).faces.count, 1)
    }

    func testPlausibilityBoundsOfTheRawPoints() {
        let good: [Float] = [0, 0, -40, 96, 96, 12, 191, 191, 30]
        XCTAssertTrue(LegacyMeshStage.plausible(good, cropSize: 192))
        XCTAssertTrue(LegacyMeshStage.plausible([-190, 380, 0], cropSize: 192), "a point of a face half out of the image")
        XCTAssertFalse(LegacyMeshStage.plausible([-200, 96, 0], cropSize: 192))
        XCTAssertFalse(LegacyMeshStage.plausible([96, 400, 0], cropSize: 192))
        XCTAssertFalse(LegacyMeshStage.plausible([96, 96, .nan], cropSize: 192))
        XCTAssertFalse(LegacyMeshStage.plausible([.infinity, 96, 0], cropSize: 192))
    }

    func testAWrongOrDamagedAttentionModelIsALoadErrorNamingTheFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("faceworker-models-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = TestData.directory.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("models")
        // The bundle is optional and left out; the manifest lists where each file is.
        for name in TestData.models.files.filter({ FaceModels.requiredRoles.contains($0.role) }).map(\.name) + ["manifest.json"]
        where name != "face_landmark_with_attention.tflite" {
            try FileManager.default.copyItem(at: source.appendingPathComponent(name), to: directory.appendingPathComponent(name))
        }
        let target = directory.appendingPathComponent("face_landmark_with_attention.tflite")
        // The plain face mesh where the attention mesh belongs.
        try FileManager.default.copyItem(at: source.appendingPathComponent("face_landmark.tflite"), to: target)
        XCTAssertThrowsError(try FaceModels(directory: directory.path)) { error in
            XCTAssertTrue("\(error)".contains("face_landmark_with_attention.tflite: is not the attention mesh"), "\(error)")
        }
        // The attention mesh cut short.
        let bytes = try Data(contentsOf: source.appendingPathComponent("face_landmark_with_attention.tflite"))
        try FileManager.default.removeItem(at: target)
        try bytes.prefix(bytes.count / 3).write(to: target)
        XCTAssertThrowsError(try FaceModels(directory: directory.path)) { error in
            XCTAssertTrue("\(error)".contains("face_landmark_with_attention.tflite"), "\(error)")
        }
    }
}
