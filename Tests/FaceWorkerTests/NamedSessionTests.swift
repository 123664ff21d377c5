import FaceWorkerClient
import FaceWorkerProtocol
import Foundation
import Glibc
import XCTest

/// Named sessions where only a worker process shows it: a SIGTERM ends
/// every subscription with WORKER_STOPPING before the worker drains and
/// exits. What the worker's core does with named sessions is tested
/// in-process (`WorkerCoreTests`), and the Swift client's subscriptions
/// ending when it closes against a fake worker (`ClientErrorTests`).
final class NamedSessionTests: XCTestCase {
    func testShutdownEndsEverySubscriptionWithWorkerStoppingAndClosesTheSubscriberAfterIt() async throws {
        let worker = try await startWorker()
        let producer = try await worker.connect()
        _ = try await producer.openSession(options: Expect.options(.image), name: "stopping")
        let subscriber = try UnixSocket(path: worker.socketPath)
        try subscriber.send(.subscribe(callID: 7, name: "stopping"))
        guard case .subscribe(let subscribed)? = try subscriber.receive()?.kind else { return XCTFail("no SubscribeResponse") }

        worker.signal(SIGTERM)
        let ended = try subscriber.receive()
        XCTAssertEqual(ended?.callID, 7)
        XCTAssertEqual(ended?.sessionEvent.subscriptionID, subscribed.subscriptionID)
        XCTAssertEqual(ended?.sessionEvent.sessionEnded.reason, .workerStopping)
        XCTAssertNil(try subscriber.receive(), "then the worker closes the connection")
        let status = await worker.waitForExit(timeout: .seconds(10))
        XCTAssertEqual(status, 0)
        XCTAssertTrue(worker.log.contains("connections_cut_off=0"), "the subscriber drained instead of being cut off:\n\(worker.log)")
    }
}
