import FaceWorkerClient
import FaceWorkerProtocol
import XCTest

/// Calls of shared sessions written by hand, for tests that drive the
/// producer or a subscriber on a `UnixSocket`.
extension Faceworker_V1_ClientMessage {
    /// An OpenSession call for a named session.
    static func openSession(callID: UInt64, _ options: Faceworker_V1_SessionOptions, name: String) -> Self {
        var message = openSession(callID: callID, options)
        message.openSession.name = name
        return message
    }

    /// A Subscribe call.
    static func subscribe(callID: UInt64, name: String) -> Self {
        var message = Self()
        message.callID = callID
        message.subscribe.name = name
        return message
    }

    /// A ResetSession call.
    static func resetSession(callID: UInt64, session: UInt64) -> Self {
        var message = Self()
        message.callID = callID
        message.resetSession.sessionID = session
        return message
    }
}

/// What a producer or a subscriber heard about one frame (or a reset), in a
/// form both sides can be compared in.
enum Heard: Equatable, CustomStringConvertible {
    case result(Int64)
    case dropped(Int64, Faceworker_V1_FrameDropped.Reason)
    case failed(Int64, Faceworker_V1_Status.Code)
    case reset

    /// What the producer heard in `answer`; nil for an answer that is not
    /// about the session's frames.
    init?(answer: Faceworker_V1_WorkerMessage) {
        switch answer.kind {
        case .frameResult(let result): self = .result(result.timestampMs)
        case .frameDropped(let dropped): self = .dropped(dropped.timestampMs, dropped.reason)
        case .error(let status) where status.optionalSessionID != nil: self = .failed(status.timestampMs, status.code)
        case .resetSession: self = .reset
        default: return nil
        }
    }

    /// What a subscriber heard in `event`; nil for the subscription's own
    /// news (missed events, its end).
    init?(event: SubscriptionEvent) {
        switch event {
        case .result(let result): self = .result(result.timestampMs)
        case .dropped(let dropped): self = .dropped(dropped.timestampMs, dropped.reason)
        case .failed(let timestampMs, let error): self = .failed(timestampMs, error.code)
        case .reset: self = .reset
        case .missed, .ended, .workerRestarted: return nil
        }
    }

    var description: String {
        switch self {
        case .result(let timestamp): "result \(timestamp)"
        case .dropped(let timestamp, let reason): "dropped \(timestamp) \(reason)"
        case .failed(let timestamp, let code): "failed \(timestamp) \(code)"
        case .reset: "reset"
        }
    }
}

extension FaceWorkerSubscription {
    /// Every event until the sequence ends.
    func collect() async throws -> [SubscriptionEvent] {
        var events: [SubscriptionEvent] = []
        for try await event in self { events.append(event) }
        return events
    }
}

extension FaceWorkerClient {
    /// Waits until GetStats reports `count` subscriptions (they end a moment
    /// after the connection that held them closes); false if it never does.
    func waitForSubscriptions(_ count: UInt32, attempts: Int = 500) async throws -> Bool {
        for _ in 0..<attempts {
            if try await stats().subscriptions == count { return true }
            try await Task.sleep(for: .milliseconds(10))
        }
        return false
    }
}
