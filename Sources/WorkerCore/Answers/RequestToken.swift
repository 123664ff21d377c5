/// Which request an answer belongs to. The core never reads it: a transport
/// makes one for each request it hands in (the lean socket uses the client's
/// call ID) and reads it back from the answer, so the core needs no notion of
/// any wire's call numbering.
package struct RequestToken: Hashable, Sendable {
    /// The transport's own number for the request.
    package let value: UInt64

    /// The token a transport numbers `value`.
    package init(_ value: UInt64) {
        self.value = value
    }
}
