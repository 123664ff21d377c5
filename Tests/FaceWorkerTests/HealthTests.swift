@testable import FaceWorkerClient
import FaceWorkerProtocol
import Foundation
import NIOCore
import XCTest

/// Ping from the Swift client's side, against a fake worker in this process;
/// and a client that does not read, as only a worker process shows it: the
/// kernel's socket buffers fill, and the process's resident memory stays
/// bounded. The worker's echo is tested in-process (`WorkerCoreTests`).
final class HealthTests: XCTestCase {
    /// Many pings in flight at once on one connection, answered in the
    /// reverse of their order: each caller gets its own payload back, never
    /// another's, and none is left unanswered.
    func testEachCallerOfPingsInFlightAtOnceGetsItsOwnPayload() async throws {
        let count = 200
        let path = try await fakeWorker { channel in
            try channel.pipeline.syncOperations.addHandlers([
                ByteToMessageHandler(LengthPrefixedMessageDecoder(maximumMessageLength: 1 << 20)),
                EchoPingsInReverse(after: count),
            ])
        }
        let client = try await FaceWorkerClient.connect(socketPath: path, reconnect: nil)
        func payload(_ index: Int) -> Data {
            Data("ping \(index)".utf8) + Data(repeating: UInt8(truncatingIfNeeded: index), count: index)
        }
        let echoes = try await withThrowingTaskGroup(of: (Int, Data).self) { group in
            for index in 0..<count {
                group.addTask { (index, try await client.ping(payload: payload(index))) }
            }
            var echoes: [Int: Data] = [:]
            for try await (index, echoed) in group { echoes[index] = echoed }
            return echoes
        }
        XCTAssertEqual(echoes.count, count, "every ping is answered once")
        for (index, echoed) in echoes {
            XCTAssertEqual(echoed, payload(index))
        }
        XCTAssertEqual(client.unansweredCalls, 0)
        await client.close()
    }

    func testAClientThatDoesNotReadGetsBackpressureNotUnboundedMemory() async throws {
        let worker = try await startWorker()
        let observer = try await worker.connect()
        let before = try await observer.stats().residentMemoryBytes
        // 64 MB of pings whose 64 KB answers are never read.
        var ping = Faceworker_V1_ClientMessage()
        ping.ping.payload = Data(count: 64 << 10)
        let one = try TestFraming.frame(ping)
        var flood: [UInt8] = []
        flood.reserveCapacity(1000 * one.count)
        for _ in 0..<1000 { flood.append(contentsOf: one) }
        let socket = try UnixSocket(path: worker.socketPath)
        let taken = socket.send(flood, untilStalledFor: .milliseconds(500))
        XCTAssertLessThan(taken, 16 << 20, "the worker stops reading while its answers pile up")
        let after = try await observer.stats().residentMemoryBytes
        XCTAssertLessThan(after, before + (64 << 20), "resident memory stays bounded: \(before) -> \(after) bytes")
        try await observer.ping()
    }
}

/// Holds the pings of a connection until `count` are in, then answers them
/// last first, so that answers come in another order than their calls.
private final class EchoPingsInReverse: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer
    private let count: Int
    private var held: [Faceworker_V1_ClientMessage] = []

    init(after count: Int) {
        self.count = count
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let payload = unwrapInboundIn(data)
        guard let call = try? Faceworker_V1_ClientMessage(serializedBytes: Array(payload.readableBytesView)),
              case .ping = call.kind else { return }
        held.append(call)
        guard held.count == count else { return }
        for call in held.reversed() {
            var answer = Faceworker_V1_WorkerMessage()
            answer.callID = call.callID
            answer.ping.payload = call.ping.payload
            guard let bytes = try? TestFraming.frame(answer) else { return }
            context.write(wrapOutboundOut(context.channel.allocator.buffer(bytes: bytes)), promise: nil)
        }
        context.flush()
        held = []
    }
}
