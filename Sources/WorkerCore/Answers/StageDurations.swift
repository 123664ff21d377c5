/// How long a frame spent in each stage, kept as durations until a wire or a
/// metric needs a number.
package struct StageDurations: Sendable, Equatable {
    /// When the whole request had been read, in microseconds since the Unix
    /// epoch: a wall-clock moment a client can line up with its own clock.
    var receivedUnixMicros: Int64
    /// In turn: waiting for an inference thread, decoding the image, the
    /// detector, the landmark models (zero for a session that asks for none),
    /// and all of it, from the request read to the answer ready.
    package var queued, decode, detect, landmarks, total: Duration
}
