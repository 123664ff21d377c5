import FaceWorkerProtocol
import Foundation
import SwiftProtobuf
import Testing

/// The numbers other languages' clients depend on: field tags, gRPC status
/// codes, EXIF orientations and proto3 zero-value defaults. The expected values
/// are written from the protobuf encoding rules and the external standards,
/// not from running the code under test.
@Suite("Wire contract")
struct WireContractTests {
    @Test("a ping envelope has the documented field numbers on the wire")
    func pingBytes() throws {
        let message = Faceworker_V1_ClientMessage.with {
            $0.callID = 1
            $0.ping.payload = Data("hi".utf8)
        }
        // call_id: field 1, varint. ping: field 6, length-delimited, holding
        // payload: field 1, length-delimited.
        let expected: [UInt8] = [0x08, 0x01, 0x32, 0x04, 0x0A, 0x02, 0x68, 0x69]
        #expect(try message.serializedBytes() == expected)
    }

    @Test("an error envelope has the documented field numbers on the wire")
    func errorBytes() throws {
        let message = Faceworker_V1_WorkerMessage.with {
            $0.error = .with { $0.code = .resourceExhausted; $0.message = "x"; $0.sessionID = 3 }
        }
        // call_id 0 is omitted. error: field 9, length-delimited, holding code
        // (field 1) 8, message (field 2) "x", session_id (field 3) 3.
        let expected: [UInt8] = [0x4A, 0x07, 0x08, 0x08, 0x12, 0x01, 0x78, 0x18, 0x03]
        #expect(try message.serializedBytes() == expected)
    }

    @Test("an optional field set to zero is on the wire, as proto3 optional would send it")
    func explicitZero() throws {
        var options = Faceworker_V1_SessionOptions()
        #expect(try options.serializedBytes() == [UInt8]())
        options.maxMissedFrames = 0
        // max_missed_frames: field 16, varint; the tag 16 << 3 takes two bytes.
        #expect(try options.serializedBytes() == [0x80, 0x01, 0x00])
    }

    @Test("the face mesh travels as packed floats, x, y, z per point, in field 16")
    func packedMesh() throws {
        let face = Faceworker_V1_Face.with { $0.meshXyz = [1.0, 0.5, -2.0] }
        // mesh_xyz: field 16, length-delimited (the tag takes two bytes), 12
        // bytes: three little-endian IEEE 754 floats, not one message per point.
        let expected: [UInt8] = [0x82, 0x01, 0x0C, 0x00, 0x00, 0x80, 0x3F, 0x00, 0x00, 0x00, 0x3F, 0x00, 0x00, 0x00, 0xC0]
        #expect(try face.serializedBytes() == expected)
        let mesh = Faceworker_V1_Face.with { $0.meshXyz = [Float](repeating: 0.25, count: 478 * 3) }
        let meshBytes: [UInt8] = try mesh.serializedBytes()
        let tagAndLength = 2 + 2
        #expect(meshBytes.count == tagAndLength + 478 * 12, "12 bytes a point")
    }

    @Test("contour points travel as packed floats, x, y per point, in field 3")
    func packedContour() throws {
        let contour = Faceworker_V1_Contour.with { $0.type = .noseBridge; $0.pointsXy = [1.0, 0.5, -2.0, 0] }
        // type: field 1, varint 12. points_xy: field 3, length-delimited, 16
        // bytes: four little-endian IEEE 754 floats.
        let expected: [UInt8] = [
            0x08, 0x0C, 0x1A, 0x10,
            0x00, 0x00, 0x80, 0x3F, 0x00, 0x00, 0x00, 0x3F, 0x00, 0x00, 0x00, 0xC0, 0x00, 0x00, 0x00, 0x00,
        ]
        #expect(try contour.serializedBytes() == expected)
    }

    @Test("the retired per-point mesh field 14 is skipped as an unknown field")
    func retiredMeshField() throws {
        // Field 14, length-delimited, holding one point {x: 1.0} as the old
        // NormalizedLandmark did, then score (field 2, fixed32) 0.5.
        let bytes: [UInt8] = [0x72, 0x05, 0x0D, 0x00, 0x00, 0x80, 0x3F, 0x15, 0x00, 0x00, 0x00, 0x3F]
        let face = try Faceworker_V1_Face(serializedBytes: bytes)
        #expect(face.meshXyz.isEmpty)
        #expect(face.score == 0.5)
    }

    @Test("status codes carry gRPC's numbers")
    func grpcStatusCodes() {
        let grpc: [(Faceworker_V1_Status.Code, Int)] = [
            (.ok, 0), (.cancelled, 1), (.unknown, 2), (.invalidArgument, 3), (.deadlineExceeded, 4),
            (.notFound, 5), (.alreadyExists, 6), (.permissionDenied, 7), (.resourceExhausted, 8),
            (.failedPrecondition, 9), (.aborted, 10), (.outOfRange, 11), (.unimplemented, 12),
            (.internal, 13), (.unavailable, 14), (.dataLoss, 15), (.unauthenticated, 16),
        ]
        for (code, number) in grpc {
            #expect(code.rawValue == number, "\(code)")
        }
        #expect(Faceworker_V1_Status.Code.allCases.count == grpc.count)
    }

    @Test("orientation values are the EXIF orientation tag minus one")
    func exifOrientations() {
        let exif: [(Faceworker_V1_Orientation, Int)] = [
            (.topLeft, 1), (.topRight, 2), (.bottomRight, 3), (.bottomLeft, 4),
            (.leftTop, 5), (.rightTop, 6), (.rightBottom, 7), (.leftBottom, 8),
        ]
        for (orientation, tag) in exif {
            #expect(orientation.rawValue + 1 == tag, "\(orientation)")
        }
    }

    @Test("fields a client leaves unset mean the documented defaults")
    func zeroValueDefaults() {
        let options = Faceworker_V1_SessionOptions()
        #expect(options.runningMode == .image)
        #expect(options.performanceMode == .fast)
        #expect(options.landmarkMode == .none)
        #expect(options.contourMode == .none)
        #expect(options.classificationMode == .none)
        #expect(!options.trackingEnabled)
        #expect(Faceworker_V1_Frame().orientation == .topLeft)
        #expect(Faceworker_V1_RawImage().format == .unspecified)
    }

    @Test("contour types carry ML Kit's Android numbers")
    func contourNumbers() {
        let mlKit: [(Faceworker_V1_ContourType, Int)] = [
            (.face, 1), (.leftEyebrowTop, 2), (.leftEyebrowBottom, 3), (.rightEyebrowTop, 4),
            (.rightEyebrowBottom, 5), (.leftEye, 6), (.rightEye, 7), (.upperLipTop, 8),
            (.upperLipBottom, 9), (.lowerLipTop, 10), (.lowerLipBottom, 11), (.noseBridge, 12),
            (.noseBottom, 13), (.leftCheek, 14), (.rightCheek, 15),
        ]
        for (type, number) in mlKit {
            #expect(type.rawValue == number, "\(type)")
        }
    }
}
