import WorkerCore
import XCTest

/// How `--metrics-listen` reads its value: a path, or a TCP address that stays
/// on the loopback interface unless a host is named.
final class MetricsListenAddressTests: XCTestCase {
    func testPathsAreUnixSocketsAndEverythingElseTCPOnLoopbackByDefault() throws {
        let cases: [(String, MetricsListenAddress)] = [
            ("9464", .tcp(host: "127.0.0.1", port: 9464)),
            (":9464", .tcp(host: "127.0.0.1", port: 9464)),
            ("0", .tcp(host: "127.0.0.1", port: 0)),
            ("0.0.0.0:9464", .tcp(host: "0.0.0.0", port: 9464)),
            ("localhost:65535", .tcp(host: "localhost", port: 65535)),
            ("[::1]:9464", .tcp(host: "::1", port: 9464)),
            ("/run/faceworker/metrics.sock", .unixSocket(path: "/run/faceworker/metrics.sock")),
            ("./metrics.sock", .unixSocket(path: "./metrics.sock")),
            ("unix:metrics.sock", .unixSocket(path: "metrics.sock")),
        ]
        for (text, expected) in cases {
            XCTAssertEqual(try MetricsListenAddress(parsing: text), expected, text)
        }
        XCTAssertEqual(MetricsListenAddress.tcp(host: "::1", port: 9464).description, "[::1]:9464")
        XCTAssertEqual(MetricsListenAddress.unixSocket(path: "/m.sock").description, "unix:/m.sock")
    }

    func testAValueThatIsNeitherIsRefusedSayingWhatIsAllowed() {
        let cases = [
            ("", "is not a TCP port"), ("metrics.sock", "with a / in it"), ("65536", "0 to 65535"), ("host:", "is not a TCP port"),
            ("host:-1", "is not a TCP port"), ("::1:9464", "in brackets"), ("[::1]", "[address]:port"), ("[::1]9464", "[address]:port"),
            ("unix:", "is empty"),
        ]
        for (text, message) in cases {
            XCTAssertThrowsError(try MetricsListenAddress(parsing: text), text) { error in
                XCTAssertTrue("\(error)".contains(message), "\(text): \(error)")
            }
        }
    }
}
