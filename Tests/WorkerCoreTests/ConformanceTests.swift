import FaceDetection
import FaceWorkerProtocol
import Foundation
import SwiftProtobuf
import WorkerCore
import XCTest

/// The core against the conformance file, `proto/faceworker/v1/defaults.json`,
/// which the Python and C clients' tests check too: every option's default
/// and range, as OpenSession echoes and refuses them. The options are the
/// core's to check, so the fake pipeline serves; that the worker's socket is
/// named by the file's environment variable is checked on the worker process
/// (FaceWorkerTests), and the rule itself with the wire module's tests.
final class ConformanceTests: XCTestCase {
    private var worker: InProcessWorker!

    override func setUp() {
        worker = InProcessWorker()
    }

    override func tearDown() async throws {
        await worker.stop()
    }

    /// The conformance file, parsed.
    private struct Conformance {
        let options: [String: [String: Any]]

        init() throws {
            let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("proto/faceworker/v1/defaults.json")
            let root = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
            options = try XCTUnwrap(root["session_options"] as? [String: [String: Any]])
        }

        /// The numeric options, by wire name.
        var numeric: [(name: String, spec: [String: Any])] {
            options.filter { ["float", "uint32"].contains($0.value["type"] as? String) }.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        }
    }

    /// The enum options' numbers; the file lists each enum's values in the
    /// order of their numbers, from 0.
    private static let enumNumbers: [String: @Sendable (Faceworker_V1_SessionOptions) -> Int] = [
        "running_mode": { $0.runningMode.rawValue },
        "performance_mode": { $0.performanceMode.rawValue },
        "landmark_mode": { $0.landmarkMode.rawValue },
        "contour_mode": { $0.contourMode.rawValue },
        "classification_mode": { $0.classificationMode.rawValue },
        "mesh_model": { $0.meshModel.rawValue },
    ]

    /// Session options as protobuf's JSON spells them, with the fields JSON
    /// leaves out (proto3's zero values) filled in: enums by their value's
    /// name in the file, bools false.
    private func fields(_ options: Faceworker_V1_SessionOptions, _ conformance: Conformance? = nil) throws -> [String: Any] {
        var printing = JSONEncodingOptions()
        printing.preserveProtoFieldNames = true
        let json = try options.jsonUTF8Data(options: printing)
        var fields = try XCTUnwrap(JSONSerialization.jsonObject(with: json) as? [String: Any])
        for (name, spec) in conformance?.options ?? [:] where fields[name] == nil {
            switch spec["type"] as? String {
            case "enum":
                let values = try XCTUnwrap(spec["values"] as? [String])
                fields[name] = values[try XCTUnwrap(Self.enumNumbers[name], name)(options)]
            case "bool":
                fields[name] = false
            default:
                fields[name] = 0
            }
        }
        return fields
    }

    /// Fails unless every option in `options` has the conformance file's default.
    private func assertDefaults(_ options: Faceworker_V1_SessionOptions, _ conformance: Conformance, _ what: String) throws {
        let echoed = try fields(options, conformance)
        for (name, spec) in conformance.options {
            let expected = try XCTUnwrap(spec["default"], name)
            switch spec["type"] as? String {
            case "float":
                XCTAssertEqual((echoed[name] as? NSNumber)?.floatValue, Float(try XCTUnwrap(expected as? Double)), "\(what): \(name)")
            case "uint32":
                XCTAssertEqual((echoed[name] as? NSNumber)?.intValue, try XCTUnwrap(expected as? Int), "\(what): \(name)")
            case "bool":
                XCTAssertEqual(echoed[name] as? Bool, try XCTUnwrap(expected as? Bool), "\(what): \(name)")
            default:
                XCTAssertEqual(echoed[name] as? String, try XCTUnwrap(expected as? String), "\(what): \(name)")
            }
        }
        XCTAssertEqual(Set(echoed.keys), Set(conformance.options.keys), "\(what): the file names every option, and only those")
    }

    func testTheLibraryDefaultsAreTheFilesDefaults() throws {
        try assertDefaults(Faceworker_V1_SessionOptions(effective: FaceOptions()), Conformance(), "FaceOptions()")
    }

    func testTheCoreAppliesTheFilesDefaultsToUnsetOptions() async throws {
        let conformance = try Conformance()
        var connection = try await worker.connect()
        let opened = try await connection.opened(Faceworker_V1_SessionOptions())
        try assertDefaults(opened.options, conformance, "OpenSessionResponse.options")
    }

    func testTheCoreAcceptsEachRangesBoundsAndRefusesJustOutside() async throws {
        let conformance = try Conformance()
        var connection = try await worker.connect()
        XCTAssertFalse(conformance.numeric.isEmpty, "the file lists numeric options")
        for (name, spec) in conformance.numeric {
            let isFloat = spec["type"] as? String == "float"
            let low = try XCTUnwrap(spec["min"] as? Double), high = try XCTUnwrap(spec["max"] as? Double)
            for bound in [low, high] {
                let opened = try await connection.opened(try options(setting: name, to: bound))
                let echoed = try fields(opened.options)
                XCTAssertEqual((echoed[name] as? NSNumber)?.doubleValue, bound, "\(name) = \(bound) is accepted as sent")
                try await close(opened.sessionID, on: &connection)
            }
            var outside = isFloat ? [Double(Float(low).nextDown), Double(Float(high).nextUp), .nan] : [high + 1]
            let zeroMeansDefault = spec["zero_means_default"] as? Bool == true
            if low > 0, !(zeroMeansDefault && low == 1) { outside.append(low - 1) }
            for value in outside {
                let refusal = try await connection.refusedOpen(try options(setting: name, to: value))
                XCTAssertEqual(refusal.code, .invalidArgument, "\(name) = \(value)")
                XCTAssertTrue(refusal.message.hasPrefix(name) && refusal.message.contains("between \(Self.text(low)) and \(Self.text(high))"),
                              "\(name) = \(value): \(refusal.message)")
            }
            if zeroMeansDefault {
                let opened = try await connection.opened(try options(setting: name, to: 0))
                XCTAssertEqual((try fields(opened.options)[name] as? NSNumber)?.doubleValue, spec["default"] as? Double, "\(name) = 0 means the default")
                try await close(opened.sessionID, on: &connection)
            }
        }
    }

    /// Closes `session`, so the connection's sessions stay under its limit.
    private func close(_ session: UInt64, on connection: inout InProcessConnection) async throws {
        let call = try await connection.sendClose(session)
        let answer = try await connection.receive()
        guard answer.callID == call, case .closeSession = answer.kind else { throw UnexpectedAnswer(answer) }
    }

    /// Options with only `name` set, to `value`.
    private func options(setting name: String, to value: Double) throws -> Faceworker_V1_SessionOptions {
        let number = value.isNaN ? "\"NaN\"" : (value == value.rounded() ? String(Int(value)) : String(value))
        return try Faceworker_V1_SessionOptions(jsonString: "{\"\(name)\": \(number)}")
    }

    /// A bound as the worker writes it.
    private static func text(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
