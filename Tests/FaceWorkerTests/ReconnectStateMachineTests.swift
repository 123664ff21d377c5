@testable import FaceWorkerClient
import FaceWorkerProtocol
import Foundation
import XCTest

/// The Swift client's reconnect on its own, without a worker: where calls go
/// in each phase, the transitions a loss, a reconnect, a give-up and a close
/// make, and the back-off and deadline of the attempts.
final class ReconnectStateMachineTests: XCTestCase {
    private struct Connection: Identifiable, Equatable {
        let id: Int
    }

    private typealias Machine = ReconnectStateMachine<Connection, String>

    private static let cut = FaceWorkerError(code: .unavailable, message: "the worker closed the connection")
    private static let first = Connection(id: 1)
    private static let second = Connection(id: 2)

    private func proceeds(_ route: Machine.Route) -> Connection? {
        if case .proceed(let connection) = route { connection } else { nil }
    }

    private func waits(_ route: Machine.Route) -> Bool {
        if case .wait = route { true } else { false }
    }

    func testCallsGoToTheConnectionWhileUp() {
        var machine = Machine(connection: Self.first, reconnects: true)
        XCTAssertEqual(proceeds(machine.route("call") { _ in false }), Self.first)
        XCTAssertEqual(machine.takeWaiting(), [])
    }

    func testALossStartsOneReconnectAndCallsWaitForItsConnection() {
        var machine = Machine(connection: Self.first, reconnects: true)
        let lostAt = ContinuousClock.now
        XCTAssertTrue(machine.lose(Self.first.id, to: Self.cut, at: lostAt))
        guard case .reconnecting(let at) = machine.phase else { return XCTFail("\(machine.phase)") }
        XCTAssertEqual(at, lostAt)
        // The same loss told again, or by a connection already replaced, starts nothing more.
        XCTAssertFalse(machine.lose(Self.first.id, to: Self.cut, at: .now))
        XCTAssertFalse(machine.lose(Self.second.id, to: Self.cut, at: .now))

        XCTAssertTrue(waits(machine.route("a") { _ in false }))
        XCTAssertTrue(waits(machine.route("b") { _ in false }))
        XCTAssertTrue(machine.adopt(Self.second))
        XCTAssertEqual(machine.takeWaiting(), ["a", "b"], "in the order they called")
        XCTAssertEqual(machine.takeWaiting(), [], "each handed back once")
        XCTAssertEqual(proceeds(machine.route("c") { _ in false }), Self.second)
        // The old connection's late news changes nothing on the new one.
        XCTAssertEqual(machine.drop(Self.first.id), [])
        XCTAssertFalse(machine.lose(Self.first.id, to: Self.cut, at: .now))
        guard case .up = machine.phase else { return XCTFail("\(machine.phase)") }
    }

    func testOnlyAnUnavailableConnectionOfAClientThatReconnectsStartsAReconnect() {
        var without = Machine(connection: Self.first, reconnects: false)
        XCTAssertFalse(without.lose(Self.first.id, to: Self.cut, at: .now))
        var with = Machine(connection: Self.first, reconnects: true)
        XCTAssertFalse(with.lose(Self.first.id, to: FaceWorkerError(code: .dataLoss, message: "not a worker message"), at: .now))
        guard case .up = without.phase, case .up = with.phase else { return XCTFail("\(without.phase), \(with.phase)") }
    }

    func testAStoppingWorkersConnectionHoldsCallsOnlyForAClientThatReconnects() {
        var with = Machine(connection: Self.first, reconnects: true)
        XCTAssertTrue(waits(with.route("call") { $0 == Self.first }))
        XCTAssertEqual(with.drop(Self.first.id), ["call"], "the connection gone for good fails it")
        var without = Machine(connection: Self.first, reconnects: false)
        XCTAssertEqual(proceeds(without.route("call") { _ in true }), Self.first)
    }

    func testGivingUpFailsTheWaitingCallsAndEveryLaterOne() {
        var machine = Machine(connection: Self.first, reconnects: true)
        XCTAssertTrue(machine.lose(Self.first.id, to: Self.cut, at: .now))
        XCTAssertTrue(waits(machine.route("a") { _ in false }))
        let error = FaceWorkerError(code: .unavailable, message: "no worker came back")
        XCTAssertEqual(machine.giveUp(error), ["a"])
        guard case .fail(let failed) = machine.route("b", isGoingAway: { _ in false }) else { return XCTFail("a call after the give-up") }
        XCTAssertEqual(failed, error)
        XCTAssertNil(machine.giveUp(error), "a give-up is told once")
        XCTAssertFalse(machine.adopt(Self.second), "nor is a connection adopted after it")
    }

    func testClosingDuringAReconnectFailsItsCallsAndRefusesItsConnection() {
        var machine = Machine(connection: Self.first, reconnects: true)
        XCTAssertTrue(machine.lose(Self.first.id, to: Self.cut, at: .now))
        XCTAssertTrue(waits(machine.route("a") { _ in false }))
        XCTAssertEqual(machine.close(), ["a"])
        XCTAssertFalse(machine.adopt(Self.second), "the reconnect's connection is closed by its caller")
        XCTAssertNil(machine.giveUp(Self.cut))
        // A closed client's calls go to the closed connection, which refuses them itself.
        XCTAssertEqual(proceeds(machine.route("b") { _ in true }), Self.first)
    }

    func testALossRightAfterTheReconnectStartsTheNextOne() {
        var machine = Machine(connection: Self.first, reconnects: true)
        XCTAssertTrue(machine.lose(Self.first.id, to: Self.cut, at: .now))
        XCTAssertTrue(waits(machine.route("a") { _ in false }))
        XCTAssertTrue(machine.adopt(Self.second))
        XCTAssertTrue(machine.lose(Self.second.id, to: Self.cut, at: .now))
        XCTAssertTrue(waits(machine.route("b") { _ in false }))
        XCTAssertTrue(machine.adopt(Connection(id: 3)))
        XCTAssertEqual(machine.takeWaiting(), ["a", "b"], "the calls wait through both outages")
    }

    func testTheBackoffDoublesUpToItsLongestWait() {
        var backoff = ReconnectBackoff(ReconnectPolicy())
        let waits = (0..<7).map { _ in backoff.next() }
        XCTAssertEqual(waits, [50, 100, 200, 400, 500, 500, 500].map { Duration.milliseconds($0) })
        var long = ReconnectBackoff(ReconnectPolicy(initialDelay: .seconds(2), maxDelay: .seconds(1)))
        XCTAssertEqual([long.next(), long.next()], [.seconds(2), .seconds(1)])
    }

    func testAttemptsAreRetriedUntilOneSucceeds() async throws {
        let policy = ReconnectPolicy(initialDelay: .milliseconds(1), maxDelay: .milliseconds(1), deadline: .seconds(600))
        let failures: [any Error] = [
            POSIXError(.ECONNREFUSED),
            FaceWorkerError(code: .unavailable, message: "the old worker is still stopping"),
            FaceWorkerError(code: .deadlineExceeded, message: "no answer"),
            FaceWorkerError(code: .notFound, message: "the producer has not opened its session yet"),
        ]
        var attempts = 0
        let value = try await Reconnection.untilDeadline(policy, lostAt: .now, socketPath: "worker.sock", alsoRetry: [.notFound]) { _ in
            defer { attempts += 1 }
            if attempts < failures.count { throw failures[attempts] }
            return "restored"
        }
        XCTAssertEqual(value, "restored")
        XCTAssertEqual(attempts, failures.count + 1)
    }

    func testARefusalIsNotRetried() async {
        let policy = ReconnectPolicy(deadline: .seconds(600))
        let refusal = FaceWorkerError(code: .failedPrecondition, message: "the worker has no face_landmarker.task")
        var attempts = 0
        do throws(FaceWorkerError) {
            _ = try await Reconnection.untilDeadline(policy, lostAt: .now, socketPath: "worker.sock", alsoRetry: []) { _ -> Int in
                attempts += 1
                throw refusal
            }
            XCTFail("a refused attempt succeeded")
        } catch {
            XCTAssertEqual(error, refusal)
        }
        XCTAssertEqual(attempts, 1)
    }

    func testAReconnectPastItsDeadlineGivesUpAfterOneLastAttempt() async {
        var left: [Duration] = []
        do throws(FaceWorkerError) {
            _ = try await Reconnection.untilDeadline(ReconnectPolicy(deadline: .zero), lostAt: .now, socketPath: "worker.sock", alsoRetry: []) { timeLeft -> Int in
                left.append(timeLeft)
                throw FaceWorkerError(code: .unavailable, message: "nothing listens")
            }
            XCTFail("an attempt that failed succeeded")
        } catch {
            XCTAssertEqual(error.code, .unavailable)
            XCTAssertTrue(error.message.contains("no worker came back on worker.sock"), error.message)
            XCTAssertTrue(error.message.contains("nothing listens"), "it names the last attempt's failure: \(error.message)")
        }
        XCTAssertEqual(left, [.zero], "one attempt, given no time of its own")
    }
}
