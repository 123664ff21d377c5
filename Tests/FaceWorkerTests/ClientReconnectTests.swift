@testable import FaceWorkerClient
import FaceWorkerProtocol
import Foundation
import Glibc
import NIOCore
import NIOPosix
import XCTest

/// The Swift client outlives its worker: real workers stopped (SIGTERM and
/// its drain, or SIGKILL) and started again on the same socket path.
final class ClientReconnectTests: XCTestCase {
    /// Long enough for a debug worker to load its models on a shared machine.
    private static let policy = ReconnectPolicy(deadline: .seconds(60))

    func testAnImageSessionSurvivesARestartAndSaysSoOnce() async throws {
        var worker = try await startWorker()
        let client = try await FaceWorkerClient.connect(socketPath: worker.socketPath, reconnect: Self.policy)
        let session = try await client.openSession()
        try await Expect.stillServes(session)
        worker = try await restart(worker)
        try await Expect.stillServes(session)
        var results = session.results.makeAsyncIterator()
        guard case .workerRestarted(let outage)? = await results.next() else { return XCTFail("the outage is told in results") }
        XCTAssertNil(outage.error)
        XCTAssertEqual(outage.cause.code, .unavailable)
        XCTAssertEqual(outage.droppedFrames, 0)
        try await Expect.stillServes(session)
        try await session.close()
        let afterClose = await results.next()
        XCTAssertNil(afterClose, "told once: nothing else came before the close")
        await client.close()
    }

    func testLiveFramesInFlightAreDroppedWithWorkerRestartedNeverLostNeverAnsweredTwice() async throws {
        var worker = try await startWorker()
        let client = try await FaceWorkerClient.connect(socketPath: worker.socketPath, reconnect: Self.policy)
        let session = try await client.openSession(options: Expect.options(.liveStream))
        var results = session.results.makeAsyncIterator()
        let photo = try TestPaths.jpeg("astronaut.jpg")
        try await session.send(jpeg: photo, timestampMs: 0)
        guard case .result? = await results.next() else { return XCTFail("the first frame is answered") }

        // Frames on the wire that the worker will never answer: stopped, then killed.
        try await worker.freeze()
        let stranded: [Int64] = [1, 2, 3]
        for timestamp in stranded { try await session.send(jpeg: photo, timestampMs: timestamp) }
        XCTAssertEqual(client.unansweredCalls, stranded.count)
        worker = try await restart(worker, kill: true)

        var heard: [Int64: LiveStreamEvent] = [:]
        var outage: WorkerOutage?
        while outage == nil, let event = await results.next() {
            switch event {
            case .workerRestarted(let told): outage = told
            case .dropped(let notice):
                XCTAssertNil(heard[notice.timestampMs], "frame \(notice.timestampMs) was answered twice")
                heard[notice.timestampMs] = event
                XCTAssertEqual(notice.reason, .workerRestarted)
            default: XCTFail("only drops come before the notice: \(event)")
            }
        }
        XCTAssertEqual(Set(heard.keys), Set(stranded), "every stranded frame is dropped, none lost")
        XCTAssertNil(outage?.error)
        XCTAssertEqual(outage?.droppedFrames, stranded.count)

        try await session.send(jpeg: photo, timestampMs: 100)
        guard case .result(let result)? = await results.next() else { return XCTFail("the next frame is answered by the new worker") }
        XCTAssertEqual(result.timestampMs, 100)
        Expect.astronaut(result)
        await client.close()
    }

    func testAVideoCallInFlightThrowsUnavailableOnceAndTheNextCallWorks() async throws {
        var worker = try await startWorker()
        let client = try await FaceWorkerClient.connect(socketPath: worker.socketPath, reconnect: Self.policy)
        let session = try await client.openSession(options: Expect.options(.video) { $0.trackingEnabled = true })
        let frames = try TestPaths.videoFrames()
        let first = try await session.process(jpeg: frames[0], timestampMs: 0)
        XCTAssertFalse(first.faces.isEmpty)

        try await worker.freeze()
        let inFlight = Task { try await session.process(jpeg: frames[1], timestampMs: 33) }
        while client.unansweredCalls == 0 { await Task.yield() }
        worker = try await restart(worker, kill: true)
        let error = await Expect.failure { try await inFlight.value }
        XCTAssertEqual(error?.code, .unavailable)

        let after = try await session.process(jpeg: frames[2], timestampMs: 66)
        XCTAssertFalse(after.faces.isEmpty)
        var results = session.results.makeAsyncIterator()
        guard case .workerRestarted(let outage)? = await results.next() else { return XCTFail("the outage is told in results") }
        XCTAssertEqual(outage.droppedFrames, 1, "the frame whose call threw is counted")
        await client.close()
    }

    func testANamedSessionKeepsItsNameAndItsSubscriberComesBack() async throws {
        var worker = try await startWorker()
        let producer = try await FaceWorkerClient.connect(socketPath: worker.socketPath, reconnect: Self.policy)
        let follower = try await FaceWorkerClient.connect(socketPath: worker.socketPath, reconnect: Self.policy)
        let session = try await producer.openSession(options: Expect.options(.video), name: "door-camera")
        let subscription = try await follower.subscribe(to: "door-camera")
        var events = subscription.makeAsyncIterator()
        let photo = try TestPaths.jpeg("astronaut.jpg")
        _ = try await session.process(jpeg: photo, timestampMs: 1)
        guard case .result(let first)? = try await events.next() else { return XCTFail("the subscriber hears the first frame") }
        XCTAssertEqual(first.timestampMs, 1)

        worker = try await restart(worker)
        _ = try await session.process(jpeg: photo, timestampMs: 2)
        XCTAssertEqual(session.name, "door-camera")
        guard case .workerRestarted(let outage)? = try await events.next() else {
            return XCTFail("the subscriber hears of the outage, not the old worker's WORKER_STOPPING")
        }
        XCTAssertNil(outage.error)
        _ = try await session.process(jpeg: photo, timestampMs: 3)
        var heard: [Int64] = []
        while !heard.contains(3), case .result(let result)? = try await events.next() { heard.append(result.timestampMs) }
        XCTAssertEqual(heard.last, 3, "frames sent once the subscriber is back reach it")
        XCTAssertNil(subscription.endReason)
        await follower.close()
        await producer.close()
    }

    func testASharedBufferIsRegisteredAgain() async throws {
        var worker = try await startWorker()
        let client = try await FaceWorkerClient.connect(socketPath: worker.socketPath, reconnect: Self.policy)
        let session = try await client.openSession()
        let photo = try TestPaths.jpeg("astronaut.jpg")
        let buffer = try await client.registerBuffer(size: photo.count)
        photo.copyBytes(to: buffer.bytes.bindMemory(to: UInt8.self), count: photo.count)
        Expect.astronaut(try await session.process(try buffer.jpegFrame(length: photo.count)))
        worker = try await restart(worker)
        try await client.ping()
        Expect.astronaut(try await session.process(try buffer.jpegFrame(length: photo.count)))
        try await buffer.unregister()
        await client.close()
    }

    func testADrainingWorkerLosesNoFrameAndTheNextCallWaitsForTheNewWorker() async throws {
        var worker = try await startWorker(["--threads", "1"])
        let client = try await FaceWorkerClient.connect(socketPath: worker.socketPath, reconnect: Self.policy)
        // Frames that keep the worker's drain busy while the test calls.
        let busy = try await client.openSession(options: Expect.options(.video) {
            $0.trackingEnabled = true
            $0.outputFaceMesh = true
        })
        let session = try await client.openSession()
        let frames = try TestPaths.videoFrames()
        for (index, jpeg) in frames.prefix(8).enumerated() { try await busy.send(jpeg: jpeg, timestampMs: Int64(index)) }
        worker.signal(SIGTERM)
        let draining = await worker.waitForLog("shutting down")
        XCTAssertTrue(draining, worker.log)

        // The draining worker refuses, or no longer reads, what comes now: either way the call fails once.
        let refused = await Expect.failure { try await session.process(jpeg: try TestPaths.jpeg("astronaut.jpg")) }
        XCTAssertEqual(refused?.code, .unavailable)
        try await busy.send(jpeg: frames[8], timestampMs: 8)
        let next = Task { try await Expect.stillServes(session) }
        worker = try await restart(worker)
        try await next.value

        var answered: [Int64] = [], dropped: [Int64] = []
        var events = busy.results.makeAsyncIterator()
        loop: while let event = await events.next() {
            switch event {
            case .result(let result): answered.append(result.timestampMs)
            case .dropped(let notice):
                XCTAssertEqual(notice.reason, .workerRestarted)
                dropped.append(notice.timestampMs)
            case .failed(let timestamp, let error): XCTFail("frame \(timestamp) failed: \(error)")
            case .workerRestarted(let outage):
                XCTAssertEqual(outage.droppedFrames, dropped.count)
                break loop
            }
        }
        XCTAssertEqual((answered + dropped).sorted(), Array(0...8), "each frame answered or dropped, exactly once")
        XCTAssertTrue(dropped.contains(8), "the frame sent during the drain is dropped by the restart")
        await client.close()
    }

    func testTheReconnectGivesUpAtItsDeadline() async throws {
        let worker = try await startWorker()
        let deadline = Duration.seconds(1)
        let client = try await FaceWorkerClient.connect(socketPath: worker.socketPath, reconnect: ReconnectPolicy(deadline: deadline))
        let session = try await client.openSession()
        worker.signal(SIGTERM)
        var results = session.results.makeAsyncIterator()
        guard case .workerRestarted(let outage)? = await results.next() else { return XCTFail("the outage is told in results") }
        XCTAssertEqual(outage.error?.code, .unavailable)
        XCTAssertGreaterThanOrEqual(outage.duration, deadline)
        let afterOutage = await results.next()
        XCTAssertNil(afterOutage, "the results end with the outage")
        for _ in 0..<2 {
            let error = await Expect.failure { try await session.process(jpeg: try TestPaths.jpeg("astronaut.jpg")) }
            XCTAssertEqual(error?.code, .unavailable)
            XCTAssertTrue(error?.message.contains("within") == true, error?.message ?? "")
        }
        await client.close()
    }

    func testWithoutReconnectEveryLaterCallThrowsUnavailable() async throws {
        var worker = try await startWorker()
        let client = try await FaceWorkerClient.connect(socketPath: worker.socketPath, reconnect: nil)
        let session = try await client.openSession()
        try await Expect.stillServes(session)
        worker = try await restart(worker)
        for _ in 0..<2 {
            let error = await Expect.failure { try await session.process(jpeg: try TestPaths.jpeg("astronaut.jpg")) }
            XCTAssertEqual(error?.code, .unavailable)
        }
        await client.close()
    }

    func testWithoutReconnectASubscriberHearsTheWorkerStopping() async throws {
        let worker = try await startWorker()
        let producer = try await FaceWorkerClient.connect(socketPath: worker.socketPath, reconnect: nil)
        let follower = try await FaceWorkerClient.connect(socketPath: worker.socketPath, reconnect: nil)
        _ = try await producer.openSession(options: Expect.options(.video), name: "stopping-camera")
        let subscription = try await follower.subscribe(to: "stopping-camera")
        worker.signal(SIGTERM)
        var last: SubscriptionEvent?
        for try await event in subscription { last = event }
        guard case .ended(.workerStopping)? = last else { return XCTFail("WORKER_STOPPING comes before the cut: \(String(describing: last))") }
        XCTAssertEqual(subscription.endReason, .workerStopping)
    }

    func testAWorkerThatComesBackSpeakingAnotherProtocolEndsTheOutageWithItsError() async throws {
        let worker = try await startWorker()
        let client = try await FaceWorkerClient.connect(socketPath: worker.socketPath, reconnect: Self.policy)
        let session = try await client.openSession()
        worker.signal(SIGTERM)
        _ = await worker.waitForExit(timeout: .seconds(30))
        // What comes back on the socket answers the re-opened session with a flag byte faceworker.v1 does not have.
        let stranger = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(AnswerOnFirstRead(answer: ByteBuffer(bytes: [1, 0, 0, 0, 0])))
                }
            }
            .bind(unixDomainSocketPath: worker.socketPath, cleanupExistingSocketFile: true)
            .get()
        addTeardownBlock { try? await stranger.close() }

        var results = session.results.makeAsyncIterator()
        guard case .workerRestarted(let outage)? = await results.next() else { return XCTFail("the outage is told in results") }
        XCTAssertEqual(outage.error?.code, .dataLoss, "the stranger's fault, not a retry: \(String(describing: outage.error))")
        XCTAssertLessThan(outage.duration, Self.policy.deadline, "told at once, not at the deadline")
        let error = await Expect.failure { try await session.process(jpeg: try TestPaths.jpeg("astronaut.jpg")) }
        XCTAssertEqual(error?.code, .dataLoss)
        await client.close()
    }

    /// Stops `worker` and starts a new one on its socket path.
    private func restart(_ worker: WorkerProcess, kill: Bool = false) async throws -> WorkerProcess {
        worker.signal(kill ? SIGKILL : SIGTERM)
        _ = await worker.waitForExit(timeout: .seconds(30))
        let next = try WorkerProcess(socketPath: worker.socketPath, directory: worker.directory)
        addTeardownBlock { next.stop() }
        try await next.waitUntilListening()
        return next
    }
}

/// Writes its answer when the first bytes arrive.
private final class AnswerOnFirstRead: ChannelInboundHandler, RemovableChannelHandler, Sendable {
    typealias InboundIn = ByteBuffer
    private let answer: ByteBuffer

    init(answer: ByteBuffer) {
        self.answer = answer
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        context.writeAndFlush(NIOAny(answer), promise: nil)
        context.pipeline.syncOperations.removeHandler(self, promise: nil)
    }
}
