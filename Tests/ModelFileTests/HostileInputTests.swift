import Foundation
@testable import ModelFile
import SeededRandom
import XCTest

/// Broken, foreign and hostile files are thrown `ModelFileError`s naming the
/// file and the problem: never a crash, never an out-of-bounds read.
final class HostileInputTests: XCTestCase {
    private func shortRangeBytes() throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: modelPath("face_detection_short_range.tflite"))))
    }

    private func assertRejected(_ bytes: [UInt8], containing fragment: String? = nil, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try ModelLoader.load(bytes: bytes, file: "probe.tflite"), file: file, line: line) { error in
            guard let error = error as? ModelFileError else {
                return XCTFail("unexpected error type \(type(of: error))", file: file, line: line)
            }
            XCTAssertEqual(error.file, "probe.tflite", file: file, line: line)
            if let fragment {
                XCTAssertTrue(error.problem.contains(fragment), "\(error.problem) lacks '\(fragment)'", file: file, line: line)
            }
        }
    }

    func testTruncatedFilesAreRejected() throws {
        let bytes = try shortRangeBytes()
        for length in [0, 3, 7, 8, 64, 1000, bytes.count / 2, bytes.count - 4096] {
            assertRejected(Array(bytes.prefix(length)))
        }
    }

    func testWrongFileTypesAreNamedAsSuch() {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 0, count: 64)
        assertRejected(png, containing: "not a TensorFlow Lite model")
        assertRejected(Array("just some text, certainly no model".utf8), containing: "not a TensorFlow Lite model")
        assertRejected([1, 2, 3], containing: "too short")
    }

    func testRandomBytesBehindAValidIdentifierAreRejected() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            var bytes = (0..<Int.random(in: 8...4096, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            bytes.replaceSubrange(4..<8, with: Array("TFL3".utf8))
            // Random bytes could in principle form a valid tiny model; what matters
            // is that loading returns or throws a ModelFileError, without crashing.
            do { _ = try ModelLoader.load(bytes: bytes, file: "probe.tflite") } catch is ModelFileError {} catch {
                XCTFail("unexpected error type \(type(of: error))")
            }
        }
    }

    func testCorruptedRealModelNeverCrashes() throws {
        // The first and last few KB hold the tables and vtables; the middle is mostly weight data.
        assertMutationsNeverCrash(try shortRangeBytes(), head: 4096, tail: 8192, seed: 5)
    }

    func testUnsupportedOperatorIsNamed() throws {
        var bytes = try shortRangeBytes()
        // Rewrite the RELU operator code as SOFTMAX (25), which FaceWorker does not run.
        let softmax: UInt8 = 25
        let reader = FlatBufferReader(bytes: bytes, file: "probe.tflite")
        var patched = false
        for code in try reader.rootTable(of: ModelSlot.self).tables(.operatorCodes, of: OperatorCodeSlot.self) {
            guard try RawModel.OperatorCode.builtin(of: code) == BuiltinOperator.relu.rawValue else { continue }
            // Older files store the code only in the deprecated int8 field.
            for field in [OperatorCodeSlot.deprecatedBuiltinCode, .builtinCode] {
                if let position = try code.fieldPosition(field) { bytes[position] = softmax; patched = true }
            }
        }
        XCTAssertTrue(patched, "the short-range model should use RELU")
        assertRejected(bytes, containing: "builtin code 25, which FaceWorker does not support")
    }
}

/// Loads `count` copies of `original` with one to eight bytes changed in its
/// first `head` or last `tail` bytes (seeded, so a failure replays), and
/// checks that each load returns or throws a `ModelFileError`, never crashes.
func assertMutationsNeverCrash(_ original: [UInt8], head: Int, tail: Int, seed: UInt64, count: Int = 300,
                               file: StaticString = #filePath, line: UInt = #line) {
    var random = SplitMix64(seed: seed)
    for _ in 0..<count {
        var bytes = original
        for _ in 0..<Int.random(in: 1...8, using: &random) {
            let region = Bool.random(using: &random) ? 0..<head : (bytes.count - tail)..<bytes.count
            bytes[Int.random(in: region, using: &random)] = UInt8.random(in: 0...255, using: &random)
        }
        do { _ = try ModelLoader.load(bytes: bytes, file: "probe.tflite") } catch is ModelFileError {} catch {
            XCTFail("unexpected error type \(type(of: error))", file: file, line: line)
        }
    }
}
