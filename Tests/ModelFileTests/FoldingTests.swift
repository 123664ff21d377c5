@testable import ModelFile
import XCTest

/// The two weight transformations done at load: fp16 widening and densifying.
final class FoldingTests: XCTestCase {
    func testHalfWideningMatchesTheHardwareConversionForEveryBitPattern() {
        for bits in UInt16.min...UInt16.max {
            let ours = floatFromHalf(bits)
            let reference = Float(Float16(bitPattern: bits))
            if reference.isNaN {
                XCTAssertTrue(ours.isNaN, "pattern \(bits)")
            } else {
                XCTAssertEqual(ours.bitPattern, reference.bitPattern, "pattern \(bits)")
            }
        }
    }

    private func fail(_ problem: String) -> ModelFileError { ModelFileError(file: "test", problem: problem) }

    func testCompressedRowsExpandToTheMatrixTheyEncode() throws {
        // A 3x4 matrix with rows [0 5 0 0], [0 0 0 0], [7 0 0 9] as dense rows, sparse columns.
        let sparsity = SparsityParameters(
            traversalOrder: [0, 1], blockMap: [],
            levels: [.dense(size: 3), .sparse(segments: [0, 1, 1, 3], indices: [1, 0, 3])])
        let dense = try sparsity.densify([5, 7, 9], shape: [3, 4], fail: fail)
        XCTAssertEqual(dense, [0, 5, 0, 0, 0, 0, 0, 0, 7, 0, 0, 9])
    }

    func testBlockSparsityPlacesWholeBlocks() throws {
        // A 2x4 matrix split into 1x2 blocks along dimension 1; only block (1, 1) is present.
        let sparsity = SparsityParameters(
            traversalOrder: [0, 1, 2], blockMap: [1],
            levels: [.dense(size: 2), .sparse(segments: [0, 0, 1], indices: [1]), .dense(size: 2)])
        let dense = try sparsity.densify([3, 4], shape: [2, 4], fail: fail)
        XCTAssertEqual(dense, [0, 0, 0, 0, 0, 0, 3, 4])
    }

    func testInconsistentSparsityIsAnErrorNotACrash() {
        let outOfRange = SparsityParameters(
            traversalOrder: [0, 1], blockMap: [],
            levels: [.dense(size: 2), .sparse(segments: [0, 1, 2], indices: [0, 9])])
        XCTAssertThrowsError(try outOfRange.densify([1, 2], shape: [2, 4], fail: fail))
        let badSegments = SparsityParameters(
            traversalOrder: [0, 1], blockMap: [],
            levels: [.dense(size: 2), .sparse(segments: [0, 5, 1], indices: [0])])
        XCTAssertThrowsError(try badSegments.densify([1], shape: [2, 4], fail: fail))
        let tooFewValues = SparsityParameters(
            traversalOrder: [0, 1], blockMap: [],
            levels: [.dense(size: 2), .sparse(segments: [0, 1, 2], indices: [0, 1])])
        XCTAssertThrowsError(try tooFewValues.densify([1], shape: [2, 4], fail: fail))
        let wrongOrder = SparsityParameters(traversalOrder: [0, 0], blockMap: [], levels: [.dense(size: 2), .dense(size: 2)])
        XCTAssertThrowsError(try wrongOrder.densify([1, 2, 3, 4], shape: [2, 2], fail: fail))
    }
}
