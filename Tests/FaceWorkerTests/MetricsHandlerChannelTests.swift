@testable import MetricsHTTP
import Foundation
import NIOCore
import NIOEmbedded
import NIOHTTP1
import Synchronization
import WorkerCore
import XCTest

/// The metrics endpoint's request handling in a channel fed by hand, with the
/// handlers in the order the metrics server installs them: what a scraper
/// gets for each kind of request, and that every connection is answered once
/// and closed.
final class MetricsHandlerChannelTests: XCTestCase {
    private static let exposition = "faceworker_connections 0\n"

    func testAGetOfTheMetricsPathIsAnsweredWithTheExpositionThenClosed() throws {
        let channel = try Self.channel()
        try channel.writeInbound(Self.bytes("GET /metrics HTTP/1.1\r\nHost: localhost\r\n\r\n"))
        let answer = try Self.answer(channel)
        XCTAssertEqual(answer.statusLine, "HTTP/1.1 200 OK")
        XCTAssertEqual(answer.headers["content-type"], MetricsRequestHandler.contentType)
        XCTAssertEqual(answer.headers["content-length"], "\(Self.exposition.utf8.count)")
        XCTAssertEqual(answer.headers["connection"], "close")
        XCTAssertEqual(answer.body, Self.exposition)
        XCTAssertFalse(channel.isActive, "the connection is closed once answered")
    }

    func testAQueryStringIsIgnored() throws {
        let channel = try Self.channel()
        try channel.writeInbound(Self.bytes("GET /metrics?name[]=faceworker_sessions HTTP/1.1\r\n\r\n"))
        XCTAssertEqual(try Self.answer(channel).statusLine, "HTTP/1.1 200 OK")
    }

    func testAnotherMethodOnTheMetricsPathIs405WithAllowGETNamingTheMethod() throws {
        let channel = try Self.channel()
        try channel.writeInbound(Self.bytes("POST /metrics HTTP/1.1\r\nContent-Length: 2\r\n\r\nhi"))
        let answer = try Self.answer(channel)
        XCTAssertEqual(answer.statusLine, "HTTP/1.1 405 Method Not Allowed")
        XCTAssertEqual(answer.headers["allow"], "GET")
        XCTAssertTrue(answer.body.contains("POST"), "the message names the method: \(answer.body)")
        XCTAssertFalse(channel.isActive)
        for method in ["PUT", "DELETE", "HEAD", "OPTIONS"] {
            let channel = try Self.channel()
            try channel.writeInbound(Self.bytes("\(method) /metrics HTTP/1.1\r\nContent-Length: 0\r\n\r\n"))
            let answer = try Self.answer(channel)
            XCTAssertEqual(answer.statusLine, "HTTP/1.1 405 Method Not Allowed", method)
            XCTAssertEqual(answer.headers["allow"], "GET", method)
            // A HEAD answer has no body, by HTTP's rule.
            if method != "HEAD" {
                XCTAssertTrue(answer.body.contains(method), "the message names the method: \(answer.body)")
            }
            XCTAssertFalse(channel.isActive, method)
        }
    }

    func testAnotherPathIs404SayingWhatIsServed() throws {
        for request in ["GET / HTTP/1.1\r\n\r\n", "GET /metrics/extra HTTP/1.1\r\n\r\n", "GET /favicon.ico HTTP/1.1\r\n\r\n",
                        "POST / HTTP/1.1\r\nContent-Length: 0\r\n\r\n"] {
            let channel = try Self.channel()
            try channel.writeInbound(Self.bytes(request))
            let answer = try Self.answer(channel)
            XCTAssertEqual(answer.statusLine, "HTTP/1.1 404 Not Found", request)
            XCTAssertTrue(answer.body.contains("GET /metrics"), answer.body)
            XCTAssertFalse(channel.isActive, request)
        }
    }

    /// Answered only when the request is whole, so no request bytes are left
    /// unread when the connection closes (which would reset it under the answer).
    func testARequestInPiecesIsAnsweredOnlyOnceItIsWhole() throws {
        let channel = try Self.channel()
        let request = Array("GET /metrics HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8)
        for byte in request.dropLast() {
            try channel.writeInbound(channel.allocator.buffer(bytes: [byte]))
            XCTAssertNil(try channel.readOutbound(as: ByteBuffer.self), "answered before the request was whole")
        }
        try channel.writeInbound(channel.allocator.buffer(bytes: [request.last!]))
        XCTAssertEqual(try Self.answer(channel).statusLine, "HTTP/1.1 200 OK")
    }

    func testARequestPastTheSizeLimitIs431AndTheRestIsNotRead() throws {
        let exposed = ExpositionCount()
        let channel = try Self.channel(maxRequestBytes: 64, exposition: exposed)
        try channel.writeInbound(Self.bytes("GET /metrics HTTP/1.1\r\n"))
        try channel.writeInbound(Self.bytes("X-Padding: " + String(repeating: "a", count: 64) + "\r\n"))
        let answer = try Self.answer(channel)
        XCTAssertEqual(answer.statusLine, "HTTP/1.1 431 Request Header Fields Too Large")
        XCTAssertFalse(channel.isActive)
        XCTAssertEqual(exposed.count, 0, "the metrics were not rendered")
    }

    /// At the endpoint's own limit, 8 KiB: a long header, a long path or many
    /// short headers each pass it.
    func testEachWayOfPassingTheDefaultLimitIs431SayingTooLarge() throws {
        let limit = MetricsEndpoint(address: .unixSocket(path: "/metrics.sock")).maxRequestBytes
        let longHeader = "GET /metrics HTTP/1.1\r\nCookie: \(String(repeating: "a", count: 9000))\r\n\r\n"
        let longPath = "GET /metrics?\(String(repeating: "b", count: 9000)) HTTP/1.1\r\n\r\n"
        let manyHeaders = "GET /metrics HTTP/1.1\r\n" + String(repeating: "X-A: b\r\n", count: 2000) + "\r\n"
        for (name, request) in [("long header", longHeader), ("long path", longPath), ("many headers", manyHeaders)] {
            let exposed = ExpositionCount()
            let channel = try Self.channel(maxRequestBytes: limit, exposition: exposed)
            try channel.writeInbound(Self.bytes(request))
            let answer = try Self.answer(channel)
            XCTAssertEqual(answer.statusLine, "HTTP/1.1 431 Request Header Fields Too Large", name)
            XCTAssertTrue(answer.body.contains("too large"), "\(name): \(answer.body)")
            XCTAssertFalse(channel.isActive, name)
            XCTAssertEqual(exposed.count, 0, "\(name): the metrics were not rendered")
        }
    }

    func testARequestLineAloneCanPassTheLimit() throws {
        let channel = try Self.channel(maxRequestBytes: 64)
        try channel.writeInbound(Self.bytes("GET /" + String(repeating: "m", count: 100)))
        XCTAssertEqual(try Self.answer(channel).statusLine, "HTTP/1.1 431 Request Header Fields Too Large")
    }

    /// Garbage, a TLS ClientHello, an HTTP version that does not exist and a
    /// header line without a colon.
    func testSomethingThatIsNotHTTPIs400AndClosed() throws {
        for request in ["\u{0}\u{1}\u{2} nonsense\r\n\r\n", "\u{16}\u{03}\u{01}\u{02}\u{00}\u{01}\u{00}\u{01}\u{fc}\u{03}\u{03}\r\n\r\n",
                        "GET /metrics HTTP/9.9\r\n\r\n", "GET /metrics HTTP/1.1\r\nBad Header\r\n\r\n"] {
            let channel = try Self.channel()
            try channel.writeInbound(Self.bytes(request))
            XCTAssertEqual(try Self.answer(channel).statusLine, "HTTP/1.1 400 Bad Request", request.debugDescription)
            XCTAssertFalse(channel.isActive, request.debugDescription)
        }
    }

    func testTwoRequestsInOneReadGetOneAnswer() throws {
        let channel = try Self.channel()
        try channel.writeInbound(Self.bytes("GET /metrics HTTP/1.1\r\n\r\nGET / HTTP/1.1\r\n\r\n"))
        let answer = try Self.answer(channel)
        XCTAssertEqual(answer.statusLine, "HTTP/1.1 200 OK")
        XCTAssertEqual(answer.body, Self.exposition, "one answer, nothing after it")
        XCTAssertFalse(channel.isActive)
    }

    // MARK: - Support

    /// Counts the renderings, so a test can tell the metrics were not rendered.
    private final class ExpositionCount: Sendable {
        private let renderings = Mutex(0)

        var count: Int { renderings.withLock { $0 } }

        func render() -> [UInt8] {
            renderings.withLock { $0 += 1 }
            return Array(MetricsHandlerChannelTests.exposition.utf8)
        }
    }

    private struct Answer {
        var statusLine: String
        /// Header fields by lowercased name.
        var headers: [String: String]
        var body: String
    }

    /// A connection as the metrics server sets it up, active.
    private static func channel(maxRequestBytes: Int = 8192, exposition: ExpositionCount = ExpositionCount()) throws -> EmbeddedChannel {
        let channel = EmbeddedChannel()
        let pipeline = channel.pipeline.syncOperations
        try pipeline.addHandler(MetricsRequestLimit(maxBytes: maxRequestBytes))
        try pipeline.configureHTTPServerPipeline(withPipeliningAssistance: false, withErrorHandling: true)
        try pipeline.addHandler(MetricsRequestHandler(exposition: exposition.render))
        try channel.connect(to: SocketAddress(unixDomainSocketPath: "/metrics.sock")).wait()
        return channel
    }

    private static func bytes(_ text: String) -> ByteBuffer {
        ByteBuffer(string: text)
    }

    /// Everything the handlers wrote, read as one HTTP response.
    private static func answer(_ channel: EmbeddedChannel, file: StaticString = #filePath, line: UInt = #line) throws -> Answer {
        var written = ByteBuffer()
        while var buffer = try channel.readOutbound(as: ByteBuffer.self) {
            written.writeBuffer(&buffer)
        }
        let text = String(buffer: written)
        guard let end = text.range(of: "\r\n\r\n") else {
            XCTFail("no whole response head in \(text.debugDescription)", file: file, line: line)
            return Answer(statusLine: "", headers: [:], body: "")
        }
        var lines = text[..<end.lowerBound].components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst()
        var headers: [String: String] = [:]
        for field in lines {
            let parts = field.split(separator: ":", maxSplits: 1)
            headers[parts[0].lowercased()] = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : ""
        }
        return Answer(statusLine: statusLine, headers: headers, body: String(text[end.upperBound...]))
    }
}
