import FaceWorkerProtocol
import Foundation
import NIOCore
import SwiftProtobuf
import Testing

/// Every kind of envelope survives serialization, framing, arbitrary read
/// boundaries and parsing unchanged, so client and worker see the same call.
@Suite("Envelope round trips")
struct EnvelopeRoundTripTests {
    static let clientMessages: [Faceworker_V1_ClientMessage] = [
        .with {
            $0.callID = 1
            $0.openSession.options = .with {
                $0.runningMode = .liveStream
                $0.performanceMode = .accurate
                $0.landmarkMode = .all
                $0.contourMode = .all
                $0.classificationMode = .all
                $0.minFaceSize = 0.25
                $0.trackingEnabled = true
                $0.minDetectionConfidence = 0.6
                $0.minSuppressionThreshold = 0.4
                $0.numFaces = 4
                $0.minFacePresenceConfidence = 0.7
                $0.minTrackingConfidence = 0.8
                $0.outputFaceMesh = true
                $0.outputTransformationMatrix = true
                $0.detectorIntervalFrames = 10
                $0.maxMissedFrames = 0
            }
        },
        .with {
            $0.callID = 2
            $0.processFrame = .with {
                $0.sessionID = 9
                $0.frame = .with {
                    $0.jpeg = Data([0xFF, 0xD8, 0xFF, 0xD9])
                    $0.orientation = .rightTop
                    $0.timestampMs = 1_700_000_000_123
                }
            }
        },
        .with {
            $0.callID = 3
            $0.processFrame = .with {
                $0.sessionID = 9
                $0.frame = .with {
                    $0.raw = .with {
                        $0.format = .nv21
                        $0.width = 4
                        $0.height = 2
                        $0.rowStride = 6
                        $0.data = Data((0..<18).map { UInt8($0) })
                    }
                    $0.orientation = .leftBottom
                    $0.timestampMs = -5
                }
            }
        },
        .with { $0.callID = 4; $0.closeSession.sessionID = 9 },
        .with { $0.callID = 5; $0.resetSession.sessionID = 9 },
        .with { $0.callID = 6; $0.ping.payload = Data("hello".utf8) },
        .with { $0.callID = .max; $0.getStats = .init() },
        .with { $0.callID = 7; $0.subscribe.name = "front-door" },
        .with { $0.callID = 8; $0.unsubscribe.subscriptionID = 3 },
        .with { $0.callID = 9; $0.registerBuffer = .init() },
        .with { $0.callID = 10; $0.unregisterBuffer.bufferID = 4 },
    ]

    static let workerMessages: [Faceworker_V1_WorkerMessage] = [
        .with {
            $0.callID = 1
            $0.openSession = .with {
                $0.sessionID = 9
                // The options in effect, every one of them set, as the worker answers.
                $0.options = .with {
                    $0.runningMode = .video
                    $0.minFaceSize = 0.15
                    $0.trackingEnabled = true
                    $0.minDetectionConfidence = 0.55
                    $0.minSuppressionThreshold = 0.35
                    $0.numFaces = 2
                    $0.minFacePresenceConfidence = 0.45
                    $0.minTrackingConfidence = 0.65
                    $0.detectorIntervalFrames = 7
                    $0.maxMissedFrames = 0
                }
            }
        },
        .with {
            $0.callID = 2
            $0.frameResult = .with {
                $0.sessionID = 9
                $0.timestampMs = 1_700_000_000_123
                $0.imageWidth = 360
                $0.imageHeight = 640
                $0.detectorRan = true
                $0.timings = .with {
                    $0.receivedUnixUs = 1_700_000_000_123_456
                    $0.queuedUs = 12
                    $0.decodeUs = 900
                    $0.detectUs = 800
                    $0.landmarksUs = 1500
                    $0.totalUs = 3300
                }
                $0.faces = [sampleFace]
            }
        },
        .with {
            $0.callID = 3
            $0.frameDropped = .with { $0.sessionID = 9; $0.timestampMs = 40; $0.reason = .replaced }
        },
        .with { $0.callID = 4; $0.closeSession.sessionID = 9 },
        .with { $0.callID = 5; $0.resetSession.sessionID = 9 },
        .with { $0.callID = 6; $0.ping.payload = Data("hello".utf8) },
        .with {
            $0.callID = 7
            $0.getStats = .with {
                $0.uptimeSeconds = 12.5
                $0.connections = 3
                $0.sessions = 8
                $0.framesProcessed = 1000
                $0.framesDropped = 7
                $0.framesFailed = 1
                $0.stageLatencies = [
                    .with { $0.stage = .total; $0.p50Us = 3000; $0.p90Us = 4000; $0.p99Us = 9000; $0.count = 1000 },
                ]
                $0.residentMemoryBytes = 80 << 20
                $0.inferenceThreads = 2
                $0.models = [
                    .with {
                        $0.name = "face_detection_short_range.tflite"
                        $0.sha256 = String(repeating: "ab", count: 32)
                        $0.sizeBytes = 229_746
                    },
                ]
            }
        },
        .with {
            $0.callID = 8
            $0.error = .with { $0.code = .invalidArgument; $0.message = "timestamp must increase"; $0.sessionID = 9 }
        },
        .with { $0.callID = 9; $0.subscribe = .with { $0.subscriptionID = 3; $0.sessionID = 9; $0.name = "front-door" } },
        .with { $0.callID = 9; $0.sessionEvent = .with { $0.subscriptionID = 3; $0.eventsMissed = .init() } },
        .with { $0.callID = 10; $0.unsubscribe.subscriptionID = 3 },
        .with {
            $0.callID = 11
            $0.registerBuffer = .with { $0.bufferID = 4; $0.token = Data(repeating: 7, count: 16); $0.handoffAddress = "@faceworker-handoff-1-ab" }
        },
        .with { $0.bufferRegistered = .with { $0.bufferID = 4; $0.sizeBytes = 4096 } },
        .with { $0.callID = 12; $0.unregisterBuffer.bufferID = 4 },
    ]

    static let sampleFace = Faceworker_V1_Face.with {
        $0.boundingBox = .with { $0.x = -3.5; $0.y = 20; $0.width = 100.25; $0.height = 101 }
        $0.score = 0.93
        $0.keypoints = [
            .with {
                $0.type = .rightEye
                $0.normalized = .with { $0.x = 0.25; $0.y = 0.5 }
                $0.position = .with { $0.x = 90; $0.y = 320 }
            },
        ]
        $0.landmarks = [.with { $0.type = .noseBase; $0.position = .with { $0.x = 1; $0.y = 2 } }]
        $0.contours = [
            .with {
                $0.type = .noseBottom
                $0.pointsXy = [1, 2, 3, 4, 5, 6]
            },
        ]
        $0.headEulerAngleX = -10
        $0.headEulerAngleY = 0
        $0.headEulerAngleZ = 5.5
        $0.smilingProbability = 0.9
        $0.leftEyeOpenProbability = 0.8
        $0.rightEyeOpenProbability = 0
        $0.trackingID = 0
        $0.presenceScore = 0.99
        $0.meshXyz = (0..<478).flatMap { i in [Float(i) / 478, 0.5, -0.01] }
        $0.transformationMatrix = (0..<16).map { Float($0) }
    }

    /// Frames `messages` into one stream, feeds it to the decoder in reads of
    /// `chunkSize` bytes, and parses every payload as `Message`, as the worker
    /// and the client do.
    private func roundTrip<Message: SwiftProtobuf.Message>(
        _ messages: [Message],
        chunkSize: Int
    ) throws -> [Message] {
        let encoder = LengthPrefixedMessageEncoder<Message>()
        var stream = ByteBuffer()
        for message in messages {
            try encoder.encode(data: message, out: &stream)
        }
        let pipeline = DecoderPipeline(maximumMessageLength: WorkerSocket.maxAnswerBytes)
        while let chunk = stream.readSlice(length: min(chunkSize, stream.readableBytes)), chunk.readableBytes > 0 {
            try pipeline.write(chunk.readableBytesView)
        }
        try pipeline.close()
        return try pipeline.payloadBuffers().map { try Message(serializedBytes: $0.readableBytesSpan) }
    }

    @Test("client messages of every kind arrive unchanged", arguments: [1, 7, 4096])
    func clientMessages(chunkSize: Int) throws {
        let decoded = try roundTrip(Self.clientMessages, chunkSize: chunkSize)
        #expect(decoded == Self.clientMessages)
    }

    @Test("worker messages of every kind arrive unchanged", arguments: [1, 7, 4096])
    func workerMessages(chunkSize: Int) throws {
        let decoded = try roundTrip(Self.workerMessages, chunkSize: chunkSize)
        #expect(decoded == Self.workerMessages)
    }

    @Test("the samples cover every envelope kind")
    func coverage() {
        let clientKinds = Set(Self.clientMessages.compactMap { $0.kind.map(Self.name) })
        let workerKinds = Set(Self.workerMessages.compactMap { $0.kind.map(Self.name) })
        #expect(clientKinds.count == 10)
        #expect(workerKinds.count == 14)
    }

    /// Exhaustive, so that a new kind in the .proto fails to compile here
    /// until a sample of it is added above.
    private static func name(_ kind: Faceworker_V1_ClientMessage.OneOf_Kind) -> String {
        switch kind {
        case .openSession: "openSession"
        case .processFrame: "processFrame"
        case .closeSession: "closeSession"
        case .resetSession: "resetSession"
        case .ping: "ping"
        case .getStats: "getStats"
        case .subscribe: "subscribe"
        case .unsubscribe: "unsubscribe"
        case .registerBuffer: "registerBuffer"
        case .unregisterBuffer: "unregisterBuffer"
        }
    }

    private static func name(_ kind: Faceworker_V1_WorkerMessage.OneOf_Kind) -> String {
        switch kind {
        case .openSession: "openSession"
        case .frameResult: "frameResult"
        case .frameDropped: "frameDropped"
        case .closeSession: "closeSession"
        case .resetSession: "resetSession"
        case .ping: "ping"
        case .getStats: "getStats"
        case .error: "error"
        case .subscribe: "subscribe"
        case .sessionEvent: "sessionEvent"
        case .unsubscribe: "unsubscribe"
        case .registerBuffer: "registerBuffer"
        case .bufferRegistered: "bufferRegistered"
        case .unregisterBuffer: "unregisterBuffer"
        }
    }

    @Test("explicitly set options survive even when zero, unset ones stay unset")
    func optionalPresence() throws {
        var options = Faceworker_V1_SessionOptions()
        options.maxMissedFrames = 0
        let decoded = try Faceworker_V1_SessionOptions(serializedBytes: options.serializedBytes() as [UInt8])
        #expect(decoded.optionalMaxMissedFrames == .maxMissedFrames(0))
        #expect(decoded.optionalMinFaceSize == nil)
        #expect(decoded.optionalNumFaces == nil)
    }
}
