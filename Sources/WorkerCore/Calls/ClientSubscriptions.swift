import Logging

/// The subscriptions of one client, whichever door it came through, as
/// calls on the core: a door subscribes by name with the token it will know
/// the events by, the events leave through the client's
/// `SubscriptionOutput`, and a refused call throws for the door to answer in
/// its own wire format.
///
/// Its owner calls it from one place at a time (the connection's event loop,
/// a gRPC call's task); a subscription that ends on the session's side (its
/// producer closed it) removes itself, from any thread.
package final class ClientSubscriptions {
    /// A Subscribe the worker refused: the error, and the session it was
    /// about when the name was found.
    package struct Refusal: Error {
        /// The status and message.
        package var error: CallError
        /// The session the name belongs to, when it was found.
        package var sessionID: UInt64?
    }

    let core: WorkerCore
    let logger: Logger
    private let output: any SubscriptionOutput
    private let open = ConnectionSubscriptions()

    /// Subscriptions whose events go to `output`.
    package init(core: WorkerCore, output: any SubscriptionOutput, logger: Logger) {
        self.core = core
        self.output = output
        self.logger = logger
    }

    /// Subscriptions open now.
    var count: Int {
        open.count
    }

    /// Subscribe: follows the session named `name` from now on; its opening
    /// event, then the session's answers, are delivered under `request`.
    /// `ownSessions`, the client's own sessions, may not be followed: their
    /// answers already reach it.
    package func subscribe(_ request: RequestToken, name: String, ownSessions: ClientSessions?) throws(Refusal) {
        let limits = core.limits
        guard !name.isEmpty else {
            throw Refusal(error: CallError(.invalidArgument, "SubscribeRequest.name is empty; give the name the session was opened with"))
        }
        guard open.count < limits.maxSubscriptionsPerConnection else {
            throw Refusal(error: CallError(.resourceExhausted,
                "this connection already has \(open.count) subscriptions open, the most allowed (--max-subscriptions-per-connection); unsubscribe from one first"))
        }
        let session: SessionBroadcast
        switch core.namedSessions.lookup(name) {
        case .found(let found): session = found
        case .unknown:
            throw Refusal(error: CallError(.notFound, "no open session is named \"\(name)\"; a session is shared by opening it with that name"))
        case .stopping:
            throw Refusal(error: CallError(.unavailable, "the worker is shutting down"))
        }
        guard ownSessions?.openSessions[session.sessionID] == nil else {
            throw Refusal(error: CallError(.failedPrecondition, "session \"\(name)\" is this connection's own; its answers already come here"),
                          sessionID: session.sessionID)
        }
        let subscriber = Subscriber(id: core.namedSessions.makeSubscriptionID(), request: request, session: session,
                                    queueLimit: limits.subscriberQueue, output: output,
                                    registry: core.namedSessions, owner: open, logger: logger)
        // Counted and listed before it can receive anything, so that an end
        // racing the attach finds it.
        core.namedSessions.subscriptionOpened()
        open.add(subscriber)
        switch session.attach(subscriber, limit: limits.maxSubscribersPerSession) {
        case .attached(let subscribers):
            logger.info("subscribed", metadata: [
                "name": "\(name)", "session": "\(session.sessionID)", "subscription": "\(subscriber.id)",
                "subscribers": "\(subscribers)", "connection_subscriptions": "\(open.count)",
            ])
        case .full(let subscribers):
            abandon(subscriber)
            throw Refusal(error: CallError(.resourceExhausted,
                "session \"\(name)\" already has \(subscribers) subscribers, the most allowed (--max-subscribers-per-session)"),
                sessionID: session.sessionID)
        case .ended:
            abandon(subscriber)
            throw Refusal(error: CallError(.notFound, "no open session is named \"\(name)\"; it has just closed"))
        }
    }

    /// Unsubscribe: the subscription's end (unsubscribed) is delivered.
    ///
    /// - Throws: NOT_FOUND when the client has no open subscription
    ///   `subscriptionID`.
    package func unsubscribe(_ subscriptionID: UInt64) throws(CallError) {
        guard let subscriber = open.subscriber(subscriptionID), subscriber.end(.unsubscribed) else {
            throw CallError(.notFound,
                "this connection has no open subscription \(subscriptionID); use the subscription_id its SubscribeResponse gave (an ended subscription is gone)")
        }
    }

    /// The client is gone: its subscriptions end without a word.
    package func end() {
        for subscriber in open.all {
            subscriber.end(nil)
        }
    }

    private func abandon(_ subscriber: Subscriber) {
        open.remove(subscriber.id)
        core.namedSessions.subscriptionEnded()
    }
}
