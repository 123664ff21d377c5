import FaceWorkerClient
import FaceWorkerProtocol
import Foundation
import XCTest

/// Several clients with several sessions each, all at once, each getting its
/// own correct answers.
final class ConcurrencyTests: XCTestCase {
    func testSeveralClientsAndSessionsAtOnce() async throws {
        let worker = try await startWorker()
        let astronaut = try TestPaths.jpeg("astronaut.jpg")
        let coffee = try TestPaths.jpeg("coffee.jpg")
        let video = try TestPaths.videoFrames()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                let client = try await worker.connect()
                // An image session alternating a face and no face.
                group.addTask {
                    let session = try await client.openSession(options: Expect.options(.image))
                    for _ in 0..<6 {
                        Expect.astronaut(try await session.process(jpeg: astronaut))
                        let empty = try await session.process(jpeg: coffee)
                        XCTAssertEqual(empty.faces.count, 0)
                    }
                    try await session.close()
                }
                // A video session on the same connection, tracking one face.
                group.addTask {
                    let session = try await client.openSession(options: Expect.options(.video) { $0.trackingEnabled = true })
                    var ids = Set<Int32>()
                    for (index, jpeg) in video.enumerated() {
                        let result = try await session.process(jpeg: jpeg, timestampMs: Int64(index) * 40)
                        XCTAssertEqual(result.timestampMs, Int64(index) * 40)
                        XCTAssertEqual(result.faces.count, 1)
                        ids.formUnion(result.faces.map(\.trackingID))
                    }
                    XCTAssertEqual(ids.count, 1, "one face, one tracking ID, whatever else the worker does")
                    try await session.close()
                }
            }
            try await group.waitForAll()
        }
        let client = try await worker.connect()
        let stats = try await client.stats()
        XCTAssertEqual(stats.framesProcessed, UInt64(4 * (12 + video.count)))
        XCTAssertEqual(stats.sessions, 0)
    }

    func testABusySessionDoesNotStarveAQuietOne() async throws {
        let worker = try await startWorker(["--threads", "1"])
        let socket = try UnixSocket(path: worker.socketPath)
        var sessions: [UInt64] = []
        for (call, options) in [Expect.options(.video) { $0.outputFaceMesh = true }, Expect.options(.image)].enumerated() {
            var open = Faceworker_V1_ClientMessage()
            open.callID = UInt64(call + 1)
            open.openSession.options = options
            try socket.send(open)
            sessions.append(try XCTUnwrap(try socket.receive()).openSession.sessionID)
        }
        // Eight frames of the busy session, then one of the quiet session, in one write.
        let encoder = LengthPrefixedMessageEncoder()
        var bytes: [UInt8] = []
        for (index, jpeg) in try TestPaths.videoFrames().prefix(8).enumerated() {
            var frame = Faceworker_V1_ClientMessage()
            frame.callID = UInt64(10 + index)
            frame.processFrame.sessionID = sessions[0]
            frame.processFrame.frame = .jpeg(jpeg, timestampMs: Int64(index))
            try encoder.encode(message: frame, into: &bytes)
        }
        var quiet = Faceworker_V1_ClientMessage()
        quiet.callID = 99
        quiet.processFrame.sessionID = sessions[1]
        quiet.processFrame.frame = .jpeg(try TestPaths.jpeg("astronaut.jpg"))
        try encoder.encode(message: quiet, into: &bytes)
        try socket.send(bytes)

        var order: [UInt64] = []
        while order.count < 9 {
            order.append(try XCTUnwrap(try socket.receive()).callID)
        }
        let quietPosition = try XCTUnwrap(order.firstIndex(of: 99))
        // Round robin: the quiet frame runs as soon as the busy session's
        // running frame is done, not after its seven waiting ones.
        XCTAssertLessThanOrEqual(quietPosition, 2, "answer order \(order)")
    }

    func testCloseIsAnsweredAfterEveryEarlierFrameOfTheSession() async throws {
        let worker = try await startWorker(["--threads", "1"])
        let socket = try UnixSocket(path: worker.socketPath)
        var open = Faceworker_V1_ClientMessage()
        open.callID = 1
        open.openSession.options = Expect.options(.video) { $0.landmarkMode = .all }
        try socket.send(open)
        let sessionID = try XCTUnwrap(try socket.receive()).openSession.sessionID

        // A slow frame (9 megapixels to convert), three more and the close, in
        // one write: the close arrives while the slow frame runs and the
        // others wait.
        let encoder = LengthPrefixedMessageEncoder()
        var bytes: [UInt8] = []
        var frames = [Faceworker_V1_Frame.raw(Data(count: 3000 * 3000), format: .gray8, width: 3000, height: 3000, timestampMs: 0)]
        for (index, jpeg) in try TestPaths.videoFrames().prefix(3).enumerated() {
            frames.append(.jpeg(jpeg, timestampMs: Int64(index + 1)))
        }
        for (index, frame) in frames.enumerated() {
            var message = Faceworker_V1_ClientMessage()
            message.callID = UInt64(10 + index)
            message.processFrame.sessionID = sessionID
            message.processFrame.frame = frame
            try encoder.encode(message: message, into: &bytes)
        }
        var close = Faceworker_V1_ClientMessage()
        close.callID = 99
        close.closeSession.sessionID = sessionID
        try encoder.encode(message: close, into: &bytes)
        try socket.send(bytes)

        var answered: [UInt64] = []
        var results: [UInt64] = []
        while answered.last != 99 {
            let answer = try XCTUnwrap(try socket.receive())
            switch answer.kind {
            case .frameResult: results.append(answer.callID)
            case .frameDropped(let dropped): XCTAssertEqual(dropped.reason, .sessionClosed)
            case .closeSession(let closed): XCTAssertEqual(closed.sessionID, sessionID)
            default: XCTFail("unexpected answer \(answer)")
            }
            answered.append(answer.callID)
        }
        XCTAssertEqual(answered.dropLast().sorted(), Array(10...13), "every frame is answered before the close")
        // The slow frame is usually running when the close arrives (then it is
        // finished); on a loaded machine the close may come first. Either way
        // the frames behind it never run.
        XCTAssertTrue(results.allSatisfy { $0 == 10 }, "frames waiting at the close are dropped: \(results) were processed")
    }
}
