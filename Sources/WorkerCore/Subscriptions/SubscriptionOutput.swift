/// Where a subscription's events go: the subscriber's transport, which
/// reports each tracked event once it is written, so the subscription's
/// queue stays bounded by what its reader has not taken.
package protocol SubscriptionOutput: Sendable {
    /// Queues `events` of subscription `subscriptionID`, which answer the
    /// Subscribe request `request`, behind everything delivered before;
    /// calls `written` once for each of the first `tracked`, when it is
    /// written (or dropped with its destination).
    func deliver(_ events: [SubscriptionEvent], subscriptionID: UInt64, request: RequestToken, tracked: Int,
                 written: @escaping @Sendable () -> Void)
}
