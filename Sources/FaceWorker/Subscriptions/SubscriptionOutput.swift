import FaceWorkerProtocol

/// Where a subscription's writes go: the subscriber's transport, which
/// reports each tracked write once it is written, so the subscription's
/// queue stays bounded by what its reader has not taken.
protocol SubscriptionOutput: Sendable {
    /// Queues `writes` behind everything sent before; calls `written` once
    /// for each of the first `tracked`, when it is written (or dropped with
    /// its destination).
    func sendStream(_ writes: [(kind: StreamWrite.Kind, message: Faceworker_V1_WorkerMessage)], tracked: Int, written: @escaping @Sendable () -> Void)
}
