import Dispatch
import Synchronization

/// Where a live-stream task's outcomes go: the delegate, called on a serial
/// queue of the task's own (as MediaPipe calls it on a dedicated serial
/// dispatch queue), and the task's results sequence, once someone reads it.
///
/// A delegate that blocks holds up only its own task's queue: outcomes of
/// every other session, and of this one, keep arriving meanwhile.
final class LiveStreamOutlet<Result: Sendable>: Sendable {
    private let queue: DispatchQueue
    private let stream = Mutex<(AsyncStream<LiveStreamDetection<Result>>, AsyncStream<LiveStreamDetection<Result>>.Continuation)?>(nil)
    /// The loop that hands the session's outcomes to ``deliver(_:tellDelegate:)``.
    private let delivery = Mutex<Task<Void, Never>?>(nil)

    init(label: String) {
        queue = DispatchQueue(label: label)
    }

    /// The outcomes from the first read on; one reader.
    var results: AsyncStream<LiveStreamDetection<Result>> {
        stream.withLock { stream in
            if let (results, _) = stream { return results }
            let made = AsyncStream.makeStream(of: LiveStreamDetection<Result>.self)
            stream = made
            return made.stream
        }
    }

    /// Hands `detection` to the results sequence, and `tellDelegate` to the
    /// queue.
    func deliver(_ detection: LiveStreamDetection<Result>, tellDelegate: @escaping @Sendable () -> Void) {
        _ = stream.withLock { $0?.1.yield(detection) }
        queue.async(execute: tellDelegate)
    }

    /// Keeps the delivery loop, for ``drain()`` to wait for.
    func run(_ loop: Task<Void, Never>) {
        delivery.withLock { $0 = loop }
    }

    /// Waits until the delivery loop has ended (its session is closed) and
    /// the delegate has heard every outcome, then ends the results sequence.
    /// Called from the delegate, it would wait for itself.
    func drain() async {
        if let loop = delivery.withLock({ $0 }) { await loop.value }
        await withCheckedContinuation { heard in queue.async { heard.resume() } }
        stream.withLock { stream in
            // A sequence first read after the close is over from the start.
            if stream == nil { stream = AsyncStream.makeStream(of: LiveStreamDetection<Result>.self) }
            stream?.1.finish()
        }
    }
}

/// A live-stream delegate, held weakly as MediaPipe's options hold it.
///
/// Unchecked: the reference is set once, in `init`, before this object is
/// shared, and only read afterwards (the runtime loads and clears weak
/// references atomically); the delegate is only ever called on its task's
/// serial queue.
final class DelegateReference: @unchecked Sendable {
    private(set) weak var delegate: AnyObject?

    init(_ delegate: AnyObject?) {
        self.delegate = delegate
    }
}
