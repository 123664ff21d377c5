@testable import ModelFile
import XCTest

/// The `.task` reader on MediaPipe's real Face Landmarker bundle, and on
/// bundles built here to be broken in each way a download can be.
final class TaskBundleTests: XCTestCase {
    /// The members of face_landmarker.task in archive order, which differs from the manifest's.
    static let archiveOrder = ["face_detector.tflite", "face_landmarks_detector.tflite",
                               "geometry_pipeline_metadata_landmarks.binarypb", "face_blendshapes.tflite"]

    private func assertFails(_ kind: TaskBundleError.Kind, member: String?, containing fragment: String? = nil,
                             file: StaticString = #filePath, line: UInt = #line, _ body: () throws -> Void) {
        XCTAssertThrowsError(try body(), file: file, line: line) { error in
            guard let error = error as? TaskBundleError else {
                return XCTFail("unexpected error type \(type(of: error)): \(error)", file: file, line: line)
            }
            XCTAssertEqual(error.kind, kind, "\(error)", file: file, line: line)
            XCTAssertEqual(error.member, member, "\(error)", file: file, line: line)
            XCTAssertTrue(error.description.hasPrefix(error.file), "\(error)", file: file, line: line)
            if let member { XCTAssertTrue(error.description.contains(member), "\(error)", file: file, line: line) }
            if let fragment { XCTAssertTrue(error.description.contains(fragment), "\(error) lacks '\(fragment)'", file: file, line: line) }
        }
    }

    func testTheLandmarkerBundlesMembersAreReadAndMatchTheirDigests() throws {
        let bundle = try TaskBundle(path: modelPath("face_landmarker.task"))
        XCTAssertEqual(bundle.memberNames, Self.archiveOrder)
        XCTAssertEqual(Set(bundle.memberNames), Set(landmarkerMembers.map(\.name)))
        for (name, digest) in landmarkerMembers {
            let bytes = try bundle.bytes(of: name, sha256: digest.uppercased())
            XCTAssertEqual(bytes.count, bundle.members.first { $0.name == name }?.size)
        }
        XCTAssertEqual(bundle.members.map(\.size), [229_746, 2_553_590, 19_376, 955_312])
    }

    func testModelsLoadFromTheBundleLabelledByBundleAndMember() throws {
        let bundle = try TaskBundle(path: modelPath("face_landmarker.task"))
        let mesh = try bundle.model("face_landmarks_detector.tflite", sha256: landmarkerMembers.first { $0.name == "face_landmarks_detector.tflite" }!.sha256)
        XCTAssertTrue(mesh.file.hasSuffix("face_landmarker.task:face_landmarks_detector.tflite"), mesh.file)
        XCTAssertEqual(mesh.inputs.map { mesh.tensors[$0].shape }, [[1, 256, 256, 3]])
        XCTAssertEqual(mesh.operators.filter { $0.kind == .logistic }.count, 1)
        let detector = try bundle.model("face_detector.tflite")
        XCTAssertEqual(detector.inputs.map { detector.tensors[$0].shape }, [[1, 128, 128, 3]])
    }

    func testADigestMismatchNamesTheMember() throws {
        let bundle = try TaskBundle(path: modelPath("face_landmarker.task"))
        let wrong = String(repeating: "0", count: 64)
        assertFails(.sha256Mismatch, member: "face_blendshapes.tflite", containing: wrong) {
            _ = try bundle.bytes(of: "face_blendshapes.tflite", sha256: wrong)
        }
    }

    func testAMissingFileIsNamed() {
        assertFails(.missingFile, member: nil, containing: "no-such.task") { _ = try TaskBundle(path: "/nonexistent/no-such.task") }
    }

    func testABuiltBundleRoundTrips() throws {
        let entries = [ZipBuilder.Entry(name: "a.bin", contents: Array(0..<200)), ZipBuilder.Entry(name: "empty", contents: [])]
        let bundle = try TaskBundle(bytes: ZipBuilder(entries: entries).bytes(), file: "built.task")
        XCTAssertEqual(bundle.memberNames, ["a.bin", "empty"])
        XCTAssertEqual(try bundle.bytes(of: "a.bin"), Array(0..<200))
        XCTAssertEqual(try bundle.bytes(of: "empty"), [])
        XCTAssertEqual(CRC32.checksum(of: Array("123456789".utf8)[...]), 0xCBF4_3926)
    }

    func testTruncatedBundlesAreRefusedAsSuch() throws {
        let bytes = ZipBuilder(entries: [ZipBuilder.Entry(name: "model.tflite", contents: Array(repeating: 7, count: 300))]).bytes()
        for length in [0, 4, 21, 30, 100, 350, bytes.count - 23, bytes.count - 1] {
            assertFails(.malformed, member: nil) { _ = try TaskBundle(bytes: Array(bytes.prefix(length)), file: "cut.task") }
        }
        let real = [UInt8](try Data(contentsOf: URL(fileURLWithPath: modelPath("face_landmarker.task"))))
        assertFails(.malformed, member: nil, containing: "truncated") {
            _ = try TaskBundle(bytes: Array(real.prefix(real.count / 2)), file: "half.task")
        }
        assertFails(.malformed, member: nil, containing: "not a zip") {
            _ = try TaskBundle(bytes: Array("certainly not an archive, only some text".utf8), file: "text.task")
        }
    }

    func testAnAlteredByteIsACRCErrorNamingTheMember() throws {
        let entries = [ZipBuilder.Entry(name: "first.tflite", contents: Array(repeating: 1, count: 64)),
                       ZipBuilder.Entry(name: "second.tflite", contents: Array(repeating: 2, count: 64))]
        var bytes = ZipBuilder(entries: entries).bytes()
        let second = bytes.indices.first { bytes[$0] == 2 }!
        bytes[second + 10] ^= 0x40
        let bundle = try TaskBundle(bytes: bytes, file: "altered.task")
        XCTAssertEqual(try bundle.bytes(of: "first.tflite"), Array(repeating: 1, count: 64))
        assertFails(.crcMismatch, member: "second.tflite", containing: "CRC-32") { _ = try bundle.bytes(of: "second.tflite") }
    }

    func testADeflatedMemberIsRefusedWhenRead() throws {
        let entries = [ZipBuilder.Entry(name: "plain.txt", contents: Array("plain".utf8)),
                       ZipBuilder.Entry(name: "packed.tflite", contents: [0x4B, 0x4C, 0x04, 0x00], method: 8)]
        let bundle = try TaskBundle(bytes: ZipBuilder(entries: entries).bytes(), file: "deflated.task")
        XCTAssertEqual(try bundle.bytes(of: "plain.txt"), Array("plain".utf8))
        assertFails(.compressedMember, member: "packed.tflite", containing: "deflated") { _ = try bundle.bytes(of: "packed.tflite") }
        assertFails(.compressedMember, member: "packed.tflite") { _ = try bundle.model("packed.tflite") }
    }

    func testAMissingMemberIsNamedWithWhatIsThere() throws {
        let bundle = try TaskBundle(bytes: ZipBuilder(entries: [ZipBuilder.Entry(name: "only.tflite", contents: [1])]).bytes(), file: "small.task")
        assertFails(.memberMissing, member: "face_blendshapes.tflite", containing: "only.tflite") {
            _ = try bundle.bytes(of: "face_blendshapes.tflite")
        }
    }

    func testAMemberThatIsNotAModelFailsAsAModelNamedByBundleAndMember() throws {
        let bundle = try TaskBundle(bytes: ZipBuilder(entries: [ZipBuilder.Entry(name: "notes.txt", contents: Array("hello, no model here".utf8))]).bytes(),
                                    file: "odd.task")
        XCTAssertThrowsError(try bundle.model("notes.txt")) { error in
            XCTAssertEqual((error as? ModelFileError)?.file, "odd.task:notes.txt")
        }
    }
}
