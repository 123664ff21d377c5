import FaceWorkerProtocol
import Synchronization

/// A subscription to another connection's named session: the events of its
/// frames, as an asynchronous sequence.
///
/// ```swift
/// let subscription = try await client.subscribe(to: "front-door")
/// for try await event in subscription {
///     if case .result(let result) = event { print(result.faces.count) }
/// }
/// print(subscription.endReason ?? .reasonUnspecified)
/// ```
///
/// The sequence ends after its `.ended` event (the producer closed the
/// session or went away, the subscription was ended with `unsubscribe()`, or
/// the worker stopped), and throws `FaceWorkerError` if the connection ends
/// first. Events wait in this process until they are read.
///
/// When its client reconnects to a restarted worker, it subscribes again by
/// name (waiting for the producer to open its session there, up to the
/// reconnect's deadline), under new IDs; the sequence gets one
/// `.workerRestarted` event instead of the old worker's WORKER_STOPPING end.
package final class FaceWorkerSubscription: AsyncSequence, Sendable {
    /// The events, in order.
    public typealias Element = SubscriptionEvent
    /// Iterates the events.
    public typealias AsyncIterator = AsyncThrowingStream<SubscriptionEvent, any Error>.Iterator

    /// The worker's ID for the subscription (a new one after a reconnect).
    public var id: UInt64 { record.current.subscription }
    /// The session followed (a new one after a reconnect).
    public var sessionID: UInt64 { record.current.session }
    /// The session's name.
    public let name: String
    /// The session's options in effect.
    public let options: Faceworker_V1_SessionOptions
    /// The names of each face's `blendshapes` scores, as the session's
    /// ``FaceWorkerSession/blendshapeNames``; empty without
    /// `outputFaceBlendshapes`.
    public let blendshapeNames: [String]
    /// How many events may wait unread on the worker's side before this
    /// subscriber starts losing events (reported with `.missed`).
    public let queueLimit: UInt32
    private let events: AsyncThrowingStream<SubscriptionEvent, any Error>
    private let record: SubscriptionRecord
    private let client: FaceWorkerClient

    init(client: FaceWorkerClient, response: Faceworker_V1_SubscribeResponse,
         events: AsyncThrowingStream<SubscriptionEvent, any Error>, record: SubscriptionRecord) {
        self.client = client
        self.record = record
        name = response.name
        options = response.options
        blendshapeNames = response.blendshapeNames
        queueLimit = response.queueLimit
        self.events = events
    }

    /// Why the subscription ended, once its `.ended` event has arrived.
    public var endReason: Faceworker_V1_SessionEnded.Reason? {
        record.ending.reason
    }

    /// Iterates the events; one iteration per subscription.
    public func makeAsyncIterator() -> AsyncIterator {
        events.makeAsyncIterator()
    }

    /// Ends the subscription: the sequence gets `.ended(.reasonUnsubscribed)`
    /// and finishes before this returns.
    ///
    /// - Throws: `FaceWorkerError` NOT_FOUND when it had already ended.
    public func unsubscribe() async throws {
        _ = try await client.call {
            var request = Faceworker_V1_UnsubscribeRequest()
            request.subscriptionID = id
            return .unsubscribe(request)
        }
    }
}

/// Where the router leaves a subscription's end reason for its sequence's
/// owner to read.
final class SubscriptionEnding: Sendable {
    private let stored = Mutex<Faceworker_V1_SessionEnded.Reason?>(nil)

    /// The reason, once known.
    var reason: Faceworker_V1_SessionEnded.Reason? {
        get { stored.withLock { $0 } }
        set { stored.withLock { $0 = newValue } }
    }
}
