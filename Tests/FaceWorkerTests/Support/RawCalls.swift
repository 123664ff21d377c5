import FaceWorkerProtocol
import Foundation

/// Calls written by hand for tests that send them on a `UnixSocket` or an
/// in-process connection, many in one write, so that the worker reads them
/// together.
extension Faceworker_V1_ClientMessage {
    /// An OpenSession call.
    static func openSession(callID: UInt64, _ options: Faceworker_V1_SessionOptions) -> Self {
        var message = Self()
        message.callID = callID
        message.openSession.options = options
        return message
    }

    /// A ProcessFrame call.
    static func processFrame(callID: UInt64, session: UInt64, _ frame: Faceworker_V1_Frame) -> Self {
        var message = Self()
        message.callID = callID
        message.processFrame.sessionID = session
        message.processFrame.frame = frame
        return message
    }

    /// A GetStats call.
    static func getStats(callID: UInt64) -> Self {
        var message = Self()
        message.callID = callID
        message.getStats = Faceworker_V1_GetStatsRequest()
        return message
    }

    /// An empty Ping.
    static func ping(callID: UInt64) -> Self {
        var message = Self()
        message.callID = callID
        message.ping = Faceworker_V1_PingRequest()
        return message
    }
}

extension UnixSocket {
    /// Opens a session with call 1 and returns its ID.
    func openSession(_ options: Faceworker_V1_SessionOptions) throws -> UInt64 {
        try send(.openSession(callID: 1, options))
        guard let answer = try receive(), case .openSession(let opened)? = answer.kind else {
            throw UnexpectedAnswer(description: "OpenSession was not answered with a session")
        }
        return opened.sessionID
    }

    /// Writes every message in one write.
    func send(all messages: [Faceworker_V1_ClientMessage]) throws {
        try send(messages.flatMap { try TestFraming.frame($0) })
    }
}

/// An answer a test did not expect.
struct UnexpectedAnswer: Error, CustomStringConvertible {
    var description: String
}
