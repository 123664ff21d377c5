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
        let sessions = try [Expect.options(.video) { $0.outputFaceMesh = true }, Expect.options(.image)].map(socket.openSession)
        // Eight frames of the busy session, then one of the quiet session, in one write.
        try socket.send(all: try TestPaths.videoFrames().prefix(8).enumerated().map { index, jpeg in
            .processFrame(callID: UInt64(10 + index), session: sessions[0], .jpeg(jpeg, timestampMs: Int64(index)))
        } + [.processFrame(callID: 99, session: sessions[1], .jpeg(try TestPaths.jpeg("astronaut.jpg")))])

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
        let sessionID = try socket.openSession(Expect.options(.video) { $0.landmarkMode = .all })

        // A slow frame (9 megapixels to convert), three more and the close, in
        // one write: the close arrives while the slow frame runs and the
        // others wait.
        var frames = [Faceworker_V1_Frame.raw(Data(count: 3000 * 3000), format: .gray8, width: 3000, height: 3000, timestampMs: 0)]
        for (index, jpeg) in try TestPaths.videoFrames().prefix(3).enumerated() {
            frames.append(.jpeg(jpeg, timestampMs: Int64(index + 1)))
        }
        try socket.send(all: frames.enumerated().map { index, frame in
            .processFrame(callID: UInt64(10 + index), session: sessionID, frame)
        } + [.closeSession(callID: 99, session: sessionID)])

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
