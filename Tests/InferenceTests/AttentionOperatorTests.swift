import Inference
import ModelFile
import XCTest

/// The three custom operators of MediaPipe's attention mesh, each on its own,
/// against MediaPipe's own kernels: options read from the real model file,
/// inputs and outputs from tools/goldens/make_attention_goldens.py.
final class AttentionOperatorTests: XCTestCase {
    /// The model's custom operators in file order, as our loader read them.
    private static let customOperators: [CustomOperator] = {
        let model = try! ModelLoader.load(path: modelsDirectory.appendingPathComponent("face_landmark_with_attention.tflite").path)
        return model.operators.compactMap { op in
            if case .custom(let custom) = op.kind { return custom }
            return nil
        }
    }()

    /// Our reading of the options of the golden's instance (matched by position among the model's custom operators).
    private func options(of testCase: AttentionGoldens.Operators.Case, in manifest: AttentionGoldens.Operators) throws -> FlexValue {
        let position = try XCTUnwrap(manifest.customOperators.firstIndex { $0.opIndex == testCase.optionsFromOpIndex })
        let ours = Self.customOperators[position]
        XCTAssertEqual(ours.name, manifest.customOperators[position].customCode)
        XCTAssertEqual(ours.version, 2)
        return ours.options
    }

    private func run(_ testCase: AttentionGoldens.Operators.Case, manifest: AttentionGoldens.Operators) throws -> [Float] {
        let inputs = try testCase.inputs.map { try AttentionGoldens.floats("ops/\($0.file)") }
        var output = [Float](repeating: .nan, count: testCase.output.shape.reduce(1, *))
        let shapes = testCase.inputs.map(\.shape)
        try inputs[0].withUnsafeBufferPointer { first in
            try output.withUnsafeMutableBufferPointer { out in
                switch testCase.op {
                case "Landmarks2TransformMatrix":
                    let kernel = try LandmarksToTransformMatrix(options: try options(of: testCase, in: manifest), inputShapes: shapes, outputShapes: [testCase.output.shape])
                    kernel.run(landmarks: first, into: out)
                case "TransformTensorBilinear":
                    let kernel = try TransformTensorBilinear(inputShapes: shapes, outputShapes: [testCase.output.shape])
                    inputs[1].withUnsafeBufferPointer { kernel.run(input: first, matrix: $0, into: out) }
                case "TransformLandmarks":
                    let kernel = try TransformLandmarks(inputShapes: shapes, outputShapes: [testCase.output.shape])
                    inputs[1].withUnsafeBufferPointer { kernel.run(landmarks: first, matrix: $0, into: out) }
                default:
                    XCTFail("unknown operator \(testCase.op)")
                }
            }
        }
        return output
    }

    func testEveryOperatorCaseMatchesMediaPipe() throws {
        let manifest = try AttentionGoldens.operators()
        XCTAssertEqual(Set(manifest.cases.map(\.op)), ["Landmarks2TransformMatrix", "TransformTensorBilinear", "TransformLandmarks"])
        for testCase in manifest.cases {
            let ours = try run(testCase, manifest: manifest)
            let reference = try AttentionGoldens.floats("ops/\(testCase.output.file)")
            let (count, worst) = GoldenManifest.mismatches(ours, reference)
            XCTAssertEqual(count, 0, "\(testCase.name): \(count) of \(reference.count) values differ; \(worst)")
        }
    }

    func testOutOfBoundsSamplesAreZeroInEveryChannel() throws {
        let manifest = try AttentionGoldens.operators()
        let cases = manifest.cases.filter { ($0.outOfBoundsPixels ?? 0) > 0 }
        XCTAssertGreaterThanOrEqual(cases.count, 2, "the goldens must cover out-of-bounds sampling")
        for testCase in cases {
            let ours = try run(testCase, manifest: manifest)
            let channels = testCase.output.shape[3]
            let zeroPixels = stride(from: 0, to: ours.count, by: channels).filter { start in
                ours[start..<start + channels].allSatisfy { $0 == 0 }
            }.count
            XCTAssertEqual(zeroPixels, testCase.outOfBoundsPixels, "\(testCase.name): pixels left all zero")
        }
    }

    func testLandmarksToTransformMatrixReadsTheModelsOptions() throws {
        let manifest = try AttentionGoldens.operators()
        let shapes = [[1, 468, 3]], output = [[1, 4, 4]]
        var checked = 0
        for (instance, ours) in zip(manifest.customOperators, Self.customOperators) where instance.customCode == "Landmarks2TransformMatrix" {
            let expected = try XCTUnwrap(instance.options)
            let kernel = try LandmarksToTransformMatrix(options: ours.options, inputShapes: shapes, outputShapes: output)
            XCTAssertEqual(kernel.leftRotationIndex, expected.leftRotationIdx)
            XCTAssertEqual(kernel.rightRotationIndex, expected.rightRotationIdx)
            XCTAssertEqual(kernel.subset, expected.subsetIdxs)
            XCTAssertEqual(kernel.outputWidth, expected.outputWidth)
            XCTAssertEqual(kernel.outputHeight, expected.outputHeight)
            XCTAssertEqual(kernel.scaleX, expected.scaleX)
            XCTAssertEqual(kernel.scaleY, expected.scaleY)
            XCTAssertEqual(kernel.targetRotation, expected.targetRotationRadians)
            checked += 1
        }
        XCTAssertEqual(checked, 3)
    }

    func testBadOptionsAndShapesAreErrorsThatSayWhatIsWrong() throws {
        let good = try XCTUnwrap(Self.customOperators.first { $0.name == "Landmarks2TransformMatrix" }).options
        guard case .map(var values) = good else { return XCTFail("options are not a map") }
        values["left_rotation_idx"] = .int(468)
        XCTAssertThrowsError(try LandmarksToTransformMatrix(options: .map(values), inputShapes: [[1, 468, 3]], outputShapes: [[1, 4, 4]])) { error in
            XCTAssertTrue("\(error)".contains("left_rotation_idx is 468, outside the 468 landmarks"), "\(error)")
        }
        values["left_rotation_idx"] = .int(61)
        values["subset_idxs"] = .vector([.int(0), .int(-1)])
        XCTAssertThrowsError(try LandmarksToTransformMatrix(options: .map(values), inputShapes: [[1, 468, 3]], outputShapes: [[1, 4, 4]]))
        values.removeValue(forKey: "scale_x")
        XCTAssertThrowsError(try LandmarksToTransformMatrix(options: .map(values), inputShapes: [[1, 468, 3]], outputShapes: [[1, 4, 4]])) { error in
            XCTAssertTrue("\(error)".contains("scale_x"), "\(error)")
        }
        XCTAssertThrowsError(try LandmarksToTransformMatrix(options: .null, inputShapes: [[1, 468, 3]], outputShapes: [[1, 4, 4]]))
        XCTAssertThrowsError(try TransformTensorBilinear(inputShapes: [[1, 48, 48, 32], [1, 4, 4]], outputShapes: [[1, 16, 16, 16]]))
        XCTAssertThrowsError(try TransformLandmarks(inputShapes: [[1, 5, 2], [1, 3, 3]], outputShapes: [[1, 5, 2]]))
    }
}
