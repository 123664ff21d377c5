@testable import FaceDetection
import Foundation
@testable import ModelFile
import XCTest

/// The models come from the manifest by role; the Face Landmarker bundle is
/// optional: a missing, truncated or altered bundle or member is named in
/// `faceLandmarkerProblem`, and sessions that do not need it still run.
final class FaceLandmarkerBundleTests: XCTestCase {
    private let source = TestData.directory.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("models")
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("faceworker-bundle-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for file in TestData.models.files where file.role != FaceModels.landmarkerRole {
            try FileManager.default.createSymbolicLink(at: directory.appendingPathComponent(file.name),
                                                       withDestinationURL: URL(fileURLWithPath: file.path))
        }
    }

    override func tearDownWithError() throws {
        try FileManager.default.removeItem(at: directory)
    }

    private var bundleName: String { TestData.models.files.first { $0.role == FaceModels.landmarkerRole }!.name }

    /// Writes the manifest, changed by `change` (its JSON object), and `bundle` unless nil.
    private func install(bundle: [UInt8]?, change: (inout [String: Any]) -> Void = { _ in }) throws {
        let data = try Data(contentsOf: source.appendingPathComponent("manifest.json"))
        var manifest = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        change(&manifest)
        try JSONSerialization.data(withJSONObject: manifest).write(to: directory.appendingPathComponent("manifest.json"))
        if let bundle {
            try Data(bundle).write(to: directory.appendingPathComponent(bundleName))
        }
    }

    /// Sets a field of the bundle's manifest entry, or of one of its members.
    private func setBundleField(_ manifest: inout [String: Any], member: String? = nil, _ key: String, _ value: String) {
        var files = manifest["files"] as! [[String: Any]]
        let index = files.firstIndex { $0["role"] as? String == FaceModels.landmarkerRole }!
        if let member {
            var members = files[index]["members"] as! [[String: Any]]
            let m = members.firstIndex { $0["role"] as? String == member }!
            members[m][key] = value
            files[index]["members"] = members
        } else {
            files[index][key] = value
        }
        manifest["files"] = files
    }

    private func originalBundle() throws -> [UInt8] {
        [UInt8](try Data(contentsOf: source.appendingPathComponent(bundleName)))
    }

    /// The models load; the bundle is unusable for `expected` reasons; detector
    /// and attention-mesh sessions still work; a Face Landmarker session is refused.
    private func checkBundleRefused(_ expected: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        let models = try FaceModels(directory: directory.path)
        XCTAssertNil(models.faceLandmarker, file: file, line: line)
        let problem = try XCTUnwrap(models.faceLandmarkerProblem, file: file, line: line)
        for part in expected {
            XCTAssertTrue(problem.contains(part), "\(problem) should say \(part)", file: file, line: line)
        }
        XCTAssertFalse(models.files.contains { $0.role == FaceModels.landmarkerRole }, file: file, line: line)
        let image = try TestData.image("astronaut.jpg")
        let detector = try FaceSession(models: models, options: TestData.options())
        XCTAssertEqual(try detector.detect(image).faces.count, 1, file: file, line: line)
        let mesh = try FaceSession(models: models, options: TestData.options { $0.faceMesh = true })
        XCTAssertEqual(try mesh.detect(image).faces.first?.mesh?.count, 478, file: file, line: line)
        // The full-range detector is loaded, but ACCURATE changes only which detector the bundle's mesh follows.
        for performance in [FaceOptions.PerformanceMode.fast, .accurate] {
            XCTAssertThrowsError(try FaceSession(models: models, options: TestData.options {
                $0.faceMesh = true
                $0.meshModel = .faceLandmarker
                $0.performanceMode = performance
            }), file: file, line: line) { error in
                guard case FaceError.failedPrecondition(let message) = error else { return XCTFail("\(error)", file: file, line: line) }
                XCTAssertTrue(message.contains("no Face Landmarker bundle"), message, file: file, line: line)
                XCTAssertTrue(message.contains(expected[0]), message, file: file, line: line)
            }
        }
    }

    func testTheBundleLoadsByRoleWithItsMembers() throws {
        let models = TestData.models
        let landmarker = try XCTUnwrap(models.faceLandmarker, models.faceLandmarkerProblem ?? "")
        XCTAssertNil(models.faceLandmarkerProblem)
        XCTAssertEqual(Set(models.files.map(\.role)), Set(FaceModels.requiredRoles + [FaceModels.landmarkerRole]))
        XCTAssertEqual(landmarker.detector.inputShapes, [[1, 128, 128, 3]])
        XCTAssertEqual(landmarker.landmarks.inputShapes, [[1, 256, 256, 3]])
        XCTAssertEqual(landmarker.geometry.vertexCount, 468)
    }

    func testMissingBundle() throws {
        try install(bundle: nil)
        try checkBundleRefused([bundleName, "cannot be read"])
    }

    func testTruncatedBundle() throws {
        let bytes = try originalBundle()
        try install(bundle: Array(bytes.prefix(bytes.count / 2)))
        try checkBundleRefused([bundleName, "SHA-256"])
    }

    func testTruncatedBundleWhoseManifestAgrees() throws {
        // With the manifest updated, the bundle's own structure must catch the cut.
        let bytes = Array(try originalBundle().prefix(2_000_000))
        try install(bundle: bytes) { self.setBundleField(&$0, "sha256", ModelDigest.hexDigest(of: bytes)) }
        try checkBundleRefused([bundleName])
    }

    func testAlteredMember() throws {
        // The manifest expects other contents for the mesh model.
        try install(bundle: try originalBundle()) {
            self.setBundleField(&$0, member: FaceLandmarkerBundle.landmarksRole, "sha256", String(repeating: "0", count: 64))
        }
        try checkBundleRefused([bundleName, "face_landmarks_detector.tflite", "SHA-256"])
    }

    func testMemberMissingFromTheBundle() throws {
        try install(bundle: try originalBundle()) {
            self.setBundleField(&$0, member: FaceLandmarkerBundle.geometryRole, "name", "no_such_member.binarypb")
        }
        try checkBundleRefused([bundleName, "no_such_member.binarypb"])
    }

    func testMissingManifestOrRequiredFileThrows() throws {
        XCTAssertThrowsError(try FaceModels(directory: directory.path)) { error in
            XCTAssertTrue("\(error)".contains("manifest.json"), "\(error)")
        }
        try install(bundle: try originalBundle())
        let attention = TestData.models.files.first { $0.role == "attention_mesh" }!.name
        try FileManager.default.removeItem(at: directory.appendingPathComponent(attention))
        XCTAssertThrowsError(try FaceModels(directory: directory.path)) { error in
            XCTAssertTrue("\(error)".contains(attention), "\(error)")
        }
    }

    func testABlendshapeModelThatCannotRunCostsOnlyTheBlendshapes() throws {
        struct Unsupported: Error, CustomStringConvertible {
            var description: String { "face_blendshapes.tflite: an operator this build cannot run" }
        }
        let full = TestData.models
        let bundle = try XCTUnwrap(full.faceLandmarker)
        let landmarker = try FaceLandmarkerModels(detector: bundle.detector, landmarks: bundle.landmarks,
                                                  blendshapes: .failure(Unsupported()), geometry: bundle.geometry)
        XCTAssertNil(landmarker.blendshapes)
        let models = try FaceModels(shortRangeDetector: full.shortRangeDetector, fullRangeDetector: full.fullRangeDetector,
                                    faceMesh: full.faceMesh, attentionMesh: full.attentionMesh, faceLandmarker: landmarker)
        let mesh = TestData.options {
            $0.faceMesh = true
            $0.meshModel = .faceLandmarker
        }
        XCTAssertEqual(try FaceSession(models: models, options: mesh).detect(TestData.image("astronaut.jpg")).faces.count, 1)
        var withBlendshapes = mesh
        withBlendshapes.faceBlendshapes = true
        XCTAssertThrowsError(try FaceSession(models: models, options: withBlendshapes)) { error in
            guard case FaceError.failedPrecondition(let message) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(message.contains("an operator this build cannot run"), message)
        }
    }
}
