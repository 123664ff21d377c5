import FaceWorkerProtocol

/// The connection a client calls on, and where it stands with it: up,
/// reconnecting after a loss, given up, or closed; and the calls that wait
/// for the connection a reconnect opens.
///
/// A value without locks or I/O: its owner keeps it under its lock, makes
/// the transitions, and resumes the waiters each transition hands back once
/// the lock is released. A connection is told by its `id`, so that a loss
/// reported by one already replaced changes nothing.
struct ReconnectStateMachine<Connection: Identifiable, Waiter> {
    /// Where the client stands with its connection.
    enum Phase: Sendable {
        /// Calls go to the current connection.
        case up
        /// The connection was lost at `lostAt`; calls wait for the next one.
        case reconnecting(lostAt: ContinuousClock.Instant)
        /// The reconnect gave up; every call fails with its error.
        case gaveUp(FaceWorkerError)
        /// The client was closed; calls go to the closed connection, which
        /// fails them.
        case closed
    }

    /// Where a call goes.
    enum Route {
        /// To this connection, now.
        case proceed(Connection)
        /// The waiter was kept, to be handed back by a later transition.
        case wait
        /// Nowhere: the call fails with this error.
        case fail(FaceWorkerError)
    }

    /// The connection calls go to; during an outage, the lost one.
    private(set) var current: Connection
    private(set) var phase = Phase.up
    /// Whether a loss to UNAVAILABLE starts a reconnect (the client has a
    /// ``ReconnectPolicy``).
    let reconnects: Bool
    private var waiting: [Waiter] = []

    init(connection: Connection, reconnects: Bool) {
        current = connection
        self.reconnects = reconnects
    }

    /// Where a new call goes; `isGoingAway` tells whether the current
    /// connection's worker is stopping or already cut it off, in which case
    /// a client that reconnects keeps the call for the next worker.
    mutating func route(_ waiter: Waiter, isGoingAway: (Connection) -> Bool) -> Route {
        switch phase {
        case .up where reconnects && isGoingAway(current), .reconnecting:
            waiting.append(waiter)
            return .wait
        case .up, .closed:
            return .proceed(current)
        case .gaveUp(let error):
            return .fail(error)
        }
    }

    /// Whether a loss of the connection to `error` starts a reconnect.
    private func reconnects(after error: FaceWorkerError) -> Bool {
        reconnects && error.code == .unavailable
    }

    /// The connection `lost` was lost to `error` at `now`. True when this
    /// starts a reconnect: it is the current connection, the client was up
    /// on it, and it reconnects after such a loss. A second report of the
    /// same loss, or one from a connection already replaced, starts nothing.
    mutating func lose(_ lost: Connection.ID, to error: FaceWorkerError, at now: ContinuousClock.Instant) -> Bool {
        guard reconnects(after: error), case .up = phase, lost == current.id else { return false }
        phase = .reconnecting(lostAt: now)
        return true
    }

    /// The connection `gone` is gone for good: the calls waiting for it, to
    /// fail. None when the client has moved on from it.
    mutating func drop(_ gone: Connection.ID) -> [Waiter] {
        guard case .up = phase, gone == current.id else { return [] }
        return takeWaiting()
    }

    /// A reconnect opened `connection`: the client is up on it. False when
    /// no reconnect is under way any more (the client was closed), and the
    /// caller closes `connection`.
    mutating func adopt(_ connection: Connection) -> Bool {
        guard case .reconnecting = phase else { return false }
        current = connection
        phase = .up
        return true
    }

    /// The calls waiting for a connection, handed back once.
    mutating func takeWaiting() -> [Waiter] {
        defer { waiting = [] }
        return waiting
    }

    /// The reconnect gave up with `error`: the waiting calls, to fail. Nil
    /// when no reconnect was under way (the client was closed meanwhile).
    mutating func giveUp(_ error: FaceWorkerError) -> [Waiter]? {
        guard case .reconnecting = phase else { return nil }
        phase = .gaveUp(error)
        return takeWaiting()
    }

    /// The client is closed: the waiting calls, to fail.
    mutating func close() -> [Waiter] {
        phase = .closed
        return takeWaiting()
    }
}

extension ReconnectStateMachine: Sendable where Connection: Sendable, Waiter: Sendable {}
