import Foundation
@testable import ModelFile
import XCTest

/// MediaPipe's attention mesh asks more of the reader than the other models:
/// operator codes only in `deprecated_builtin_code`, outputs listed out of
/// tensor order, MUL, STRIDED_SLICE and three custom operators with
/// FlexBuffer options.
final class AttentionModelTests: XCTestCase {
    private static let path = modelPath("face_landmark_with_attention.tflite")

    func testEveryOperatorIsReadWithItsRealCode() throws {
        let model = try ModelLoader.load(path: Self.path)
        var counts: [String: Int] = [:]
        for op in model.operators { counts[op.kind.name, default: 0] += 1 }
        // The file's 712 operators less its 371 DEQUANTIZEs of fp16 weights, which loading folds.
        XCTAssertEqual(counts, [
            "CONV_2D": 80, "PRELU": 73, "DEPTHWISE_CONV_2D": 66, "ADD": 66, "MAX_POOL_2D": 16, "PAD": 9, "RESHAPE": 13,
            "MUL": 6, "STRIDED_SLICE": 1,
            "Landmarks2TransformMatrix": 3, "TransformTensorBilinear": 3, "TransformLandmarks": 5,
        ])
    }

    func testOutputsKeepTheFilesOrder() throws {
        let model = try ModelLoader.load(path: Self.path)
        XCTAssertEqual(model.outputs.map { model.tensors[$0].name }, [
            "output_mesh_identity", "output_lips", "output_left_eye", "output_right_eye",
            "output_left_iris", "output_right_iris", "conv_faceflag",
        ])
        XCTAssertNotEqual(model.outputs, model.outputs.sorted(), "the file lists its outputs out of tensor order")
    }

    func testCustomOperatorOptionsAreDecoded() throws {
        let model = try ModelLoader.load(path: Self.path)
        let customs = model.operators.compactMap { op -> CustomOperator? in
            if case .custom(let custom) = op.kind { return custom }
            return nil
        }
        let matrices = customs.filter { $0.name == "Landmarks2TransformMatrix" }
        XCTAssertEqual(matrices.map { $0.version }, [2, 2, 2])
        guard case .map(let lips) = matrices[0].options else { return XCTFail("\(matrices[0].options)") }
        XCTAssertEqual(lips["left_rotation_idx"]?.integer, 61)
        XCTAssertEqual(lips["right_rotation_idx"]?.integer, 291)
        XCTAssertEqual(lips["output_width"]?.integer, 16)
        XCTAssertEqual(lips["scale_x"]?.number, 1.5)
        XCTAssertEqual(lips["subset_idxs"]?.elements?.count, 80)
        XCTAssertEqual(lips["subset_idxs"]?.elements?.prefix(3).compactMap(\.integer), [61, 146, 91])
        for bilinear in customs where bilinear.name == "TransformTensorBilinear" {
            guard case .map(let options) = bilinear.options else { return XCTFail("\(bilinear.options)") }
            XCTAssertEqual(options["output_height"]?.integer, 16)
        }
        // TransformLandmarks stores no options at all.
        XCTAssertTrue(customs.filter { $0.name == "TransformLandmarks" }.allSatisfy { $0.options == .null })
    }

    func testTheIdentitySliceKeepsItsConstantBounds() throws {
        let model = try ModelLoader.load(path: Self.path)
        let slice = try XCTUnwrap(model.operators.first { $0.kind.name == "STRIDED_SLICE" })
        XCTAssertEqual(slice.inputs.dropFirst().map { model.tensors[$0].constant?.integers }, [[0, 0, 0, 0], [1, 1, 1, 1404], [1, 1, 1, 1]])
    }

    func testDamagedFilesAreErrorsNamingTheFile() throws {
        let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.path)))
        for length in [8, 4096, original.count / 2, original.count - 1024] {
            XCTAssertThrowsError(try ModelLoader.load(bytes: Array(original.prefix(length)), file: "attention.tflite")) { error in
                XCTAssertEqual((error as? ModelFileError)?.file, "attention.tflite")
            }
        }
        // Byte changes over the tables, the option blobs included.
        assertMutationsNeverCrash(original, head: 8192, tail: 16384, seed: 9)
    }

    func testFlexBuffersOutsideTheOptionsShapeAreErrors() {
        let cases: [([UInt8], String)] = [
            ([], "too few"),
            ([0x01, 0x04], "too few"),
            ([0x00, 0x24, 0x03], "root width"),
            ([0x05, 0x28, 0x01], "before the start"),
        ]
        for (bytes, fragment) in cases {
            XCTAssertThrowsError(try FlexValue.decode(bytes[...], file: "probe.tflite", context: "options")) { error in
                XCTAssertTrue("\(error)".contains(fragment), "\(error) lacks '\(fragment)'")
            }
        }
    }
}
