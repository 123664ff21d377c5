/// Where a session's answers go, in the core's own terms: the scheduler, the
/// calls of a client and the inference threads hand every answer of a
/// session here, and each transport turns them into its own wire format at
/// its edge.
///
/// Answers passed in one call stay together and in order; answers passed
/// from different threads keep the order of the calls.
package protocol SessionOutput: Sendable {
    /// Passes on `answers`, behind everything passed before.
    func emit(_ answers: [SessionAnswer])
}
