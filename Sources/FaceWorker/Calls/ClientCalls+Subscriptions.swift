import FaceWorkerProtocol
import Logging

extension ClientCalls {
    /// Subscribe: follows another connection's named session; the session
    /// answers with the SubscribeResponse, then events, under `callID`.
    func subscribe(callID: UInt64, _ request: Faceworker_V1_SubscribeRequest) {
        let name = request.name
        let limits = core.limits
        guard !name.isEmpty else {
            fail(callID: callID, CallError(.invalidArgument, "SubscribeRequest.name is empty; give the name the session was opened with"))
            return
        }
        guard subscriptions.count < limits.maxSubscriptionsPerConnection else {
            fail(callID: callID, CallError(.resourceExhausted,
                 "this connection already has \(subscriptions.count) subscriptions open, the most allowed (--max-subscriptions-per-connection); unsubscribe from one first"))
            return
        }
        let session: SessionBroadcast
        switch core.namedSessions.lookup(name) {
        case .found(let found): session = found
        case .unknown:
            fail(callID: callID, CallError(.notFound, "no open session is named \"\(name)\"; a session is shared by opening it with that name"))
            return
        case .stopping:
            fail(callID: callID, CallError(.unavailable, "the worker is shutting down"))
            return
        }
        guard sessions.openSessions[session.sessionID] == nil else {
            fail(callID: callID, CallError(.failedPrecondition, "session \"\(name)\" is this connection's own; its answers already come here"),
                 sessionID: session.sessionID)
            return
        }
        let subscriber = Subscriber(id: core.namedSessions.makeSubscriptionID(), callID: callID, session: session,
                                    queueLimit: limits.subscriberQueue, outbox: outbox,
                                    registry: core.namedSessions, owner: subscriptions, logger: logger)
        // Counted and listed before it can receive anything, so that an end
        // racing the attach finds it.
        core.namedSessions.subscriptionOpened()
        subscriptions.add(subscriber)
        switch session.attach(subscriber, limit: limits.maxSubscribersPerSession) {
        case .attached(let subscribers):
            logger.info("subscribed", metadata: [
                "name": "\(name)", "session": "\(session.sessionID)", "subscription": "\(subscriber.id)",
                "subscribers": "\(subscribers)", "connection_subscriptions": "\(subscriptions.count)",
            ])
        case .full(let subscribers):
            abandon(subscriber)
            fail(callID: callID, CallError(.resourceExhausted,
                 "session \"\(name)\" already has \(subscribers) subscribers, the most allowed (--max-subscribers-per-session)"),
                 sessionID: session.sessionID)
        case .ended:
            abandon(subscriber)
            fail(callID: callID, CallError(.notFound, "no open session is named \"\(name)\"; it has just closed"))
        }
    }

    /// Unsubscribe: the subscription's SessionEnded (UNSUBSCRIBED) goes out,
    /// then the answer.
    func unsubscribe(callID: UInt64, _ subscriptionID: UInt64) {
        guard let subscriber = subscriptions.subscriber(subscriptionID), subscriber.end(.unsubscribed) else {
            fail(callID: callID, CallError(.notFound,
                 "this connection has no open subscription \(subscriptionID); use the subscription_id its SubscribeResponse gave (an ended subscription is gone)"))
            return
        }
        var response = Faceworker_V1_UnsubscribeResponse()
        response.subscriptionID = subscriptionID
        outbox.send(Faceworker_V1_WorkerMessage(callID: callID, .unsubscribe(response)))
    }

    /// The connection is gone: its subscriptions end without a word.
    func endSubscriptions() {
        for subscriber in subscriptions.all {
            subscriber.end(nil)
        }
    }

    private func abandon(_ subscriber: Subscriber) {
        subscriptions.remove(subscriber.id)
        core.namedSessions.subscriptionEnded()
    }
}
