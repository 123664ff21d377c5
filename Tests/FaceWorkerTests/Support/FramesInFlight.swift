import FaceWorkerProtocol

extension UnixSocket {
    /// Opens a video session with the face mesh (slow enough that frames
    /// wait) and sends `count` frames of the test video, then a Ping; returns
    /// once the Ping is answered, when the worker has read every frame, so
    /// the frames not answered yet are in flight.
    ///
    /// - Returns: the session, and the timestamps of the frames answered
    ///   before the Ping.
    func sendFramesInFlight(_ count: Int) throws -> (sessionID: UInt64, answered: [Int64]) {
        let sessionID = try openSession(Expect.options(.video) {
            $0.trackingEnabled = true
            $0.outputFaceMesh = true
        })
        let pingID: UInt64 = 2
        try send(all: try TestPaths.videoFrames().prefix(count).enumerated().map { index, jpeg in
            .processFrame(callID: UInt64(10 + index), session: sessionID, .jpeg(jpeg, timestampMs: Int64(index)))
        } + [.ping(callID: pingID)])
        var answered: [Int64] = []
        while let answer = try receive(), answer.callID != pingID {
            answered.append(answer.frameResult.timestampMs)
        }
        return (sessionID, answered)
    }

    /// The timestamps of the frame results that come until the worker hangs
    /// up.
    ///
    /// - Throws: `UnexpectedAnswer` for anything but a frame result of `sessionID`.
    func frameResultsUntilClosed(sessionID: UInt64) throws -> [Int64] {
        var timestamps: [Int64] = []
        while let answer = try receive() {
            guard case .frameResult(let result)? = answer.kind, result.sessionID == sessionID else {
                throw UnexpectedAnswer(description: "a frame result of session \(sessionID) was expected: \(answer)")
            }
            timestamps.append(result.timestampMs)
        }
        return timestamps
    }
}
