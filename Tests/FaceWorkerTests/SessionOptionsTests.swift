import FaceDetection
import FaceWorkerProtocol
import XCTest

@testable import WorkerCore

/// How the wire's SessionOptions become the pipeline's options, and back.
final class SessionOptionsTests: XCTestCase {
    func testUnsetOptionsTakeTheLibraryDefaults() throws {
        let options = try FaceOptions(wire: Faceworker_V1_SessionOptions())
        XCTAssertEqual(options, FaceOptions())
        var video = Faceworker_V1_SessionOptions()
        video.runningMode = .video
        video.detectorIntervalFrames = 0
        XCTAssertEqual(try FaceOptions(wire: video).detectorIntervalFrames, FaceOptions().detectorIntervalFrames, "0 means the default")
    }

    func testTheEchoedOptionsSpellOutEveryDefault() throws {
        let echoed = Faceworker_V1_SessionOptions(effective: FaceOptions())
        XCTAssertNotNil(echoed.optionalMinFaceSize)
        XCTAssertNotNil(echoed.optionalNumFaces)
        XCTAssertNotNil(echoed.optionalMaxMissedFrames)
        XCTAssertEqual(echoed.maxMissedFrames, UInt32(FaceOptions().maxMissedFrames))
        XCTAssertEqual(echoed.detectorIntervalFrames, UInt32(FaceOptions().detectorIntervalFrames))
        XCTAssertEqual(try FaceOptions(wire: echoed), FaceOptions(), "the echo reads back as the same options")
    }

    func testEveryOptionIsCarriedOver() throws {
        var wire = Faceworker_V1_SessionOptions()
        wire.runningMode = .liveStream
        wire.performanceMode = .accurate
        wire.landmarkMode = .all
        wire.contourMode = .all
        wire.classificationMode = .all
        wire.minFaceSize = 0.2
        wire.trackingEnabled = true
        wire.minDetectionConfidence = 0.6
        wire.minSuppressionThreshold = 0.4
        wire.numFaces = 3
        wire.minFacePresenceConfidence = 0.7
        wire.minTrackingConfidence = 0.8
        wire.outputFaceMesh = true
        wire.outputTransformationMatrix = true
        wire.detectorIntervalFrames = 10
        wire.maxMissedFrames = 0
        wire.meshModel = .faceLandmarker
        wire.outputFaceBlendshapes = true
        let options = try FaceOptions(wire: wire)
        XCTAssertEqual(options.runningMode, .liveStream)
        XCTAssertEqual(options.performanceMode, .accurate)
        XCTAssertTrue(options.landmarks && options.contours && options.classification && options.faceMesh && options.transformationMatrix)
        XCTAssertEqual(options.minFaceSize, 0.2)
        XCTAssertTrue(options.trackingEnabled)
        XCTAssertEqual(options.minDetectionConfidence, 0.6)
        XCTAssertEqual(options.minSuppressionThreshold, 0.4)
        XCTAssertEqual(options.numFaces, 3)
        XCTAssertEqual(options.minFacePresenceConfidence, 0.7)
        XCTAssertEqual(options.minTrackingConfidence, 0.8)
        XCTAssertEqual(options.detectorIntervalFrames, 10)
        XCTAssertEqual(options.maxMissedFrames, 0, "0 is a value, not the default, when set")
        XCTAssertEqual(options.meshModel, .faceLandmarker)
        XCTAssertTrue(options.faceBlendshapes)
        XCTAssertEqual(Faceworker_V1_SessionOptions(effective: options), wire.settingEveryOptional())
    }

    func testAnUnsetMeshModelIsTheAttentionMeshAndTheEchoSaysSo() throws {
        let options = try FaceOptions(wire: Faceworker_V1_SessionOptions())
        XCTAssertEqual(options.meshModel, .attentionMesh)
        XCTAssertEqual(Faceworker_V1_SessionOptions(effective: options).meshModel, .attentionMesh, "never UNSPECIFIED in an echo")
    }

    func testTheFaceMeshModelIsCarriedOverAndEchoed() throws {
        var wire = Faceworker_V1_SessionOptions()
        wire.runningMode = .video
        wire.outputFaceMesh = true
        wire.meshModel = .faceMesh
        let options = try FaceOptions(wire: wire)
        XCTAssertEqual(options.meshModel, .faceMesh)
        let echoed = Faceworker_V1_SessionOptions(effective: options)
        XCTAssertEqual(echoed.meshModel, .faceMesh)
        XCTAssertEqual(try Faceworker_V1_SessionOptions(serializedBytes: echoed.serializedBytes() as [UInt8]).meshModel, .faceMesh,
                       "MESH_MODEL_FACE_MESH survives the wire")
        XCTAssertEqual(try FaceOptions(wire: echoed), options, "the echo reads back as the same options")
    }

    func testBlendshapesNeedTheFaceLandmarkerAndAnUnknownModelIsRefused() {
        func refusal(_ change: (inout Faceworker_V1_SessionOptions) -> Void) -> String? {
            invalidArgument { change(&$0) }
        }
        for model in [Faceworker_V1_MeshModel.unspecified, .attentionMesh, .faceMesh] {
            let message = refusal {
                $0.meshModel = model
                $0.outputFaceBlendshapes = true
            }
            XCTAssertTrue(message?.hasPrefix("output_face_blendshapes") == true, "\(model): \(message ?? "accepted")")
        }
        XCTAssertTrue(refusal { $0.meshModel = .UNRECOGNIZED(7) }?.hasPrefix("mesh_model 7") == true)
    }

    func testTheBlendshapeNamesComeOnlyWithTheOption() throws {
        var wire = Faceworker_V1_SessionOptions()
        wire.meshModel = .faceLandmarker
        XCTAssertEqual(Faceworker_V1_SessionOptions(effective: try FaceOptions(wire: wire)).blendshapeNames, [])
        wire.outputFaceBlendshapes = true
        XCTAssertEqual(Faceworker_V1_SessionOptions(effective: try FaceOptions(wire: wire)).blendshapeNames, FaceBlendshapes.categoryNames)
    }

    func testOutOfRangeValuesNameTheFieldAndTheRange() {
        func message(_ change: (inout Faceworker_V1_SessionOptions) -> Void) -> String? {
            invalidArgument {
                $0.runningMode = .video
                change(&$0)
            }
        }
        XCTAssertEqual(message { $0.minFaceSize = 1.01 }, "min_face_size must be between 0 and 1, got 1.01")
        XCTAssertEqual(message { $0.numFaces = 65 }, "num_faces must be between 1 and 64, got 65")
        XCTAssertEqual(message { $0.detectorIntervalFrames = 1001 }, "detector_interval_frames must be between 1 and 1000, got 1001")
        XCTAssertNotNil(message { $0.minFacePresenceConfidence = -0 - 0.5 })
        XCTAssertNotNil(message { $0.landmarkMode = .UNRECOGNIZED(2) })
        XCTAssertNil(message { $0.minSuppressionThreshold = 1 }, "the bounds are allowed")
    }
}

extension Faceworker_V1_SessionOptions {
    /// These options with the presence-tracked fields all set (as an echo has them).
    fileprivate func settingEveryOptional() -> Self {
        var options = self
        options.minFaceSize = minFaceSize
        options.minDetectionConfidence = minDetectionConfidence
        options.minSuppressionThreshold = minSuppressionThreshold
        options.numFaces = numFaces
        options.minFacePresenceConfidence = minFacePresenceConfidence
        options.minTrackingConfidence = minTrackingConfidence
        options.maxMissedFrames = maxMissedFrames
        return options
    }
}

/// The INVALID_ARGUMENT message for wire options built by `change` from the
/// defaults, nil when they are accepted, or a note naming another refusal.
private func invalidArgument(_ change: (inout Faceworker_V1_SessionOptions) -> Void) -> String? {
    var wire = Faceworker_V1_SessionOptions()
    change(&wire)
    do {
        _ = try FaceOptions(wire: wire)
        return nil
    } catch {
        guard case .invalidArgument(let message) = error else { return "not INVALID_ARGUMENT: \(error)" }
        return message
    }
}
