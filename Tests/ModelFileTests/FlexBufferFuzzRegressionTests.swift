@testable import ModelFile
import XCTest

/// Inputs the FlexBuffers fuzz target found crashing the reader, each now an
/// error: a model's custom options are configuration, but a damaged file must
/// never stop the worker.
final class FlexBufferFuzzRegressionTests: XCTestCase {
    /// The string's length (8 bytes wide, all bits set) does not fit an Int.
    func testAStringLengthBeyondIntIsAnError() {
        // length, "ab\0", then the root: offset 3 back to the string, type STRING with 8-byte length, root width 1.
        let bytes: [UInt8] = Array(repeating: 0xFF, count: 8) + Array("ab\0".utf8) + [3, 5 << 2 | 3, 1]
        XCTAssertThrowsError(try FlexValue.decode(bytes[...], file: "probe.tflite", context: "options")) { error in
            XCTAssertTrue("\(error)".contains("longer than the blob"), "\(error)")
        }
    }

    /// The map's keys width (8 bytes wide, all bits set) does not fit an Int.
    func testAMapKeysWidthBeyondIntIsAnError() {
        // The keys' width (8 bytes, all set) and the map's length (0) in the slots before its
        // values, then the root: offset 0 (an empty map's values start where the root is),
        // type MAP with 8-byte slots, root width 1.
        let bytes: [UInt8] = Array(repeating: 0xFF, count: 8) + Array(repeating: 0, count: 8) + [0, 9 << 2 | 3, 1]
        XCTAssertThrowsError(try FlexValue.decode(bytes[...], file: "probe.tflite", context: "options")) { error in
            XCTAssertTrue("\(error)".contains("keys are"), "\(error)")
        }
    }
}
