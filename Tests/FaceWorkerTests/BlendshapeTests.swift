import FaceDetection
import FaceWorkerClient
import FaceWorkerProtocol
import Foundation
import XCTest

/// The Face Landmarker's blendshapes as a client reads them, through the
/// lean socket's handler into the core on the real models, in-process: the
/// names once per session (and per subscription), each face's scores, and the
/// refusals.
final class BlendshapeTests: InProcessModelTestCase {
    private static var blendshapeOptions: Faceworker_V1_SessionOptions {
        var options = Faceworker_V1_SessionOptions()
        options.meshModel = .faceLandmarker
        options.outputFaceBlendshapes = true
        return options
    }

    func testTheSessionNamesTheScoresOfEveryFace() async throws {
        let client = try await startInProcessWorker().connect()
        var options = Self.blendshapeOptions
        options.numFaces = 3
        let session = try await client.openSession(options)
        XCTAssertEqual(session.blendshapeNames, FaceBlendshapes.categoryNames)
        XCTAssertEqual(session.options.meshModel, .faceLandmarker)

        let result = try await client.process(.jpeg(try TestPaths.jpeg("three_faces.jpg")), in: session.sessionID)
        XCTAssertEqual(result.faces.count, 3)
        for face in result.faces {
            let blendshapes = face.blendshapes(named: session.blendshapeNames)
            XCTAssertEqual(blendshapes.map(\.index), Array(0..<52))
            XCTAssertEqual(blendshapes.map(\.name), session.blendshapeNames)
            XCTAssertEqual(blendshapes.map(\.score), face.blendshapes)
            XCTAssertTrue(face.blendshapes.allSatisfy { (0...1).contains($0) }, "\(face.blendshapes)")
            // Every fixture face smiles broadly, its eyes open.
            let score = Dictionary(uniqueKeysWithValues: blendshapes.map { ($0.name, $0.score) })
            XCTAssertGreaterThan(try XCTUnwrap(score["mouthSmileLeft"]), try XCTUnwrap(score["eyeBlinkLeft"]))
        }
    }

    func testASubscriberGetsTheProducersNames() async throws {
        let worker = try startInProcessWorker()
        let producer = try await worker.connect()
        let follower = try await worker.connect()
        let session = try await producer.openSession(Self.blendshapeOptions, name: "blendshapes")
        XCTAssertEqual(session.blendshapeNames, FaceBlendshapes.categoryNames)
        let subscription = try await follower.subscribe(to: "blendshapes")
        XCTAssertEqual(subscription.blendshapeNames, session.blendshapeNames)
    }

    func testWithoutTheOptionThereAreNeitherNamesNorScores() async throws {
        let client = try await startInProcessWorker().connect()
        var options = Faceworker_V1_SessionOptions()
        options.meshModel = .faceLandmarker
        options.outputFaceMesh = true
        let session = try await client.openSession(options)
        XCTAssertEqual(session.blendshapeNames, [])
        let result = try await client.process(.jpeg(try TestPaths.jpeg("astronaut.jpg")), in: session.sessionID)
        let face = try XCTUnwrap(result.faces.first)
        XCTAssertEqual(face.blendshapes, [])
        XCTAssertEqual(face.meshPoints.count, 478)
    }

    func testBlendshapesWithTheAttentionMeshAreRefusedNamingTheOption() async throws {
        let client = try await startInProcessWorker().connect()
        var options = Faceworker_V1_SessionOptions()
        options.outputFaceBlendshapes = true
        let error = try await client.refusedOpen(options)
        XCTAssertEqual(error.code, .invalidArgument)
        XCTAssertTrue(error.message.hasPrefix("output_face_blendshapes"), error.message)
    }
}
