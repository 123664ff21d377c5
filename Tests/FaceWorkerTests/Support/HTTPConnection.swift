import Foundation
import Glibc

/// A blocking connection to a worker's metrics endpoint, over its Unix socket
/// or its TCP port, that sends whatever bytes it is given (a scrape, or what
/// no scraper would send) and reads what comes back until the worker closes.
final class HTTPConnection {
    /// Where a metrics endpoint listens.
    enum Address {
        case unix(String)
        case tcp(port: UInt16)
    }

    /// How reading ended.
    enum Ending: Equatable {
        /// The worker closed the connection (end of stream, or a reset).
        case closed
        /// It did not, in time.
        case timedOut
    }

    private let descriptor: Int32

    /// Connects to `address`.
    init(_ address: Address) throws {
        switch address {
        case .unix(let path):
            descriptor = try UnixSocket.connectedDescriptor(path)
        case .tcp(let port):
            descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
            let status = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard status == 0 else {
                let code = errno
                close(descriptor)
                throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
            }
        }
    }

    deinit {
        close(descriptor)
    }

    /// Writes `bytes`; false when the worker no longer takes them.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        UnixSocket.sendAll(bytes, to: descriptor)
    }

    /// Writes `bytes` unless the worker stops taking them for `stall`; false
    /// then, or when it closed the connection.
    func sendWithin(_ bytes: [UInt8], _ stall: Duration) -> Bool {
        var offset = 0
        while offset < bytes.count {
            var poller = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            guard poll(&poller, 1, stall.pollTimeout) > 0 else { return false }
            let written = bytes[offset...].withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            }
            if written < 0, errno == EINTR || errno == EAGAIN { continue }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }

    /// Writes `text`; false when the worker no longer takes it.
    @discardableResult
    func send(_ text: String) -> Bool {
        send(Array(text.utf8))
    }

    /// Reads until the worker closes the connection or `timeout` passes;
    /// returns what came and how it ended.
    func readToEnd(timeout: Duration = .seconds(30)) -> (bytes: [UInt8], ending: Ending) {
        var received: [UInt8] = []
        let deadline = ContinuousClock.now + timeout
        while true {
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero else { return (received, .timedOut) }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, remaining.pollTimeout)
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { return (received, .timedOut) }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return (received, .closed) }
            received += chunk[..<count]
        }
    }

    /// `GET /metrics`, answered whole before the worker closes, parsed.
    static func scrape(_ address: Address) throws -> MetricSamples {
        let connection = try HTTPConnection(address)
        connection.send("GET /metrics HTTP/1.1\r\nHost: localhost\r\nAccept: text/plain\r\n\r\n")
        let (bytes, ending) = connection.readToEnd()
        guard ending == .closed, let answer = HTTPAnswer(bytes), answer.status == 200 else {
            throw NoAnswer(received: bytes, ending: ending)
        }
        return MetricSamples(answer.body)
    }

    /// The worker sent no whole HTTP answer before it closed, or did not close.
    struct NoAnswer: Error {
        var received: [UInt8]
        var ending: Ending
    }
}

/// An HTTP/1.1 response, read whole.
struct HTTPAnswer {
    /// The status code.
    var status: Int
    /// The header fields, names lowercased.
    var headers: [String: String]
    /// The body, as text.
    var body: String

    /// Parses a response whose body is as long as its Content-Length says;
    /// nil for anything else.
    init?(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let split = text.range(of: "\r\n\r\n") else { return nil }
        let lines = text[..<split.lowerBound].components(separatedBy: "\r\n")
        let statusLine = lines[0].split(separator: " ", maxSplits: 2)
        guard statusLine.count >= 2, statusLine[0].hasPrefix("HTTP/1."), let status = Int(statusLine[1]) else { return nil }
        self.status = status
        headers = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { return nil }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        body = String(text[split.upperBound...])
        guard let length = headers["content-length"].flatMap(Int.init), body.utf8.count == length else { return nil }
    }
}

/// The samples of a Prometheus text exposition, and its families' types.
struct MetricSamples {
    /// One sample: a name, its labels and its value.
    struct Sample {
        var name: String
        var labels: [String: String]
        var value: Double
    }

    /// Every sample, in order.
    var samples: [Sample] = []
    /// The `# TYPE` of each family.
    var types: [String: String] = [:]

    /// Parses `text`; label values are taken as they are written (the
    /// worker's have no escapes).
    init(_ text: String) {
        for line in text.split(separator: "\n") {
            if line.hasPrefix("# TYPE ") {
                let parts = line.split(separator: " ")
                types[String(parts[2])] = String(parts[3])
                continue
            }
            guard !line.hasPrefix("#"), let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else { continue }
            let series = line[..<space]
            var labels: [String: String] = [:]
            var name = String(series)
            if let brace = series.firstIndex(of: "{") {
                name = String(series[..<brace])
                let inside = series[series.index(after: brace)..<series.index(before: series.endIndex)]
                for pair in inside.split(separator: ",") {
                    let parts = pair.split(separator: "=", maxSplits: 1)
                    labels[String(parts[0])] = String(parts[1].dropFirst().dropLast())
                }
            }
            samples.append(Sample(name: name, labels: labels, value: value))
        }
    }

    /// The value of the one sample named `name` with exactly `labels`.
    func value(_ name: String, _ labels: [String: String] = [:]) -> Double? {
        samples.first { $0.name == name && $0.labels == labels }?.value
    }

    /// The samples named `name`.
    func all(_ name: String) -> [Sample] {
        samples.filter { $0.name == name }
    }
}
