import FaceDetection
import FaceWorkerClient
import FaceWorkerProtocol
import Foundation
import SwiftProtobuf
import XCTest

@testable import WorkerCore

/// The worker and the Swift client against the conformance file,
/// `proto/faceworker/v1/defaults.json`, which the Python and C clients'
/// tests check too: every option's default and range, and the worker's
/// socket named by the environment variable (the rule itself is checked with
/// the wire module's tests).
final class ConformanceTests: XCTestCase {
    /// The conformance file, parsed.
    private struct Conformance {
        let options: [String: [String: Any]]

        init() throws {
            let url = TestPaths.packageRoot.appendingPathComponent("proto/faceworker/v1/defaults.json")
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

    func testTheWorkerAppliesTheFilesDefaultsToUnsetOptions() async throws {
        let conformance = try Conformance()
        let worker = try await startWorker()
        let client = try await worker.connect()
        let session = try await client.openSession()
        try assertDefaults(session.options, conformance, "OpenSessionResponse.options")
        await client.close()
    }

    func testTheWorkerAcceptsEachRangesBoundsAndRefusesJustOutside() async throws {
        let conformance = try Conformance()
        let worker = try await startWorker()
        let client = try await worker.connect()
        for (name, spec) in conformance.numeric {
            let isFloat = spec["type"] as? String == "float"
            let low = try XCTUnwrap(spec["min"] as? Double), high = try XCTUnwrap(spec["max"] as? Double)
            for bound in [low, high] {
                let session = try await client.openSession(options: try options(setting: name, to: bound))
                let echoed = try fields(session.options)
                XCTAssertEqual((echoed[name] as? NSNumber)?.doubleValue, bound, "\(name) = \(bound) is accepted as sent")
                try await session.close()
            }
            var outside = isFloat ? [Double(Float(low).nextDown), Double(Float(high).nextUp), .nan] : [high + 1]
            let zeroMeansDefault = spec["zero_means_default"] as? Bool == true
            if low > 0, !(zeroMeansDefault && low == 1) { outside.append(low - 1) }
            for value in outside {
                let error = await Expect.failure { try await client.openSession(options: try self.options(setting: name, to: value)) }
                XCTAssertEqual(error?.code, .invalidArgument, "\(name) = \(value)")
                let message = error?.message ?? ""
                XCTAssertTrue(message.hasPrefix(name) && message.contains("between \(Self.text(low)) and \(Self.text(high))"),
                              "\(name) = \(value): \(message)")
            }
            if zeroMeansDefault {
                let session = try await client.openSession(options: try options(setting: name, to: 0))
                XCTAssertEqual((try fields(session.options)[name] as? NSNumber)?.doubleValue, spec["default"] as? Double, "\(name) = 0 means the default")
                try await session.close()
            }
        }
        await client.close()
    }

    func testTheWorkerListensWhereTheEnvironmentVariableSays() async throws {
        let directory = try WorkerProcess.makeTemporaryDirectory()
        addTeardownBlock { try? FileManager.default.removeItem(atPath: directory) }
        let path = "\(directory)/named.sock"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TestPaths.workerBinary)
        process.arguments = ["--models", TestPaths.models]
        process.environment = ProcessInfo.processInfo.environment.merging([WorkerSocket.environmentVariable: path]) { $1 }
        process.standardError = FileHandle.nullDevice
        try process.run()
        addTeardownBlock {
            process.terminate()
            process.waitUntilExit()
        }
        let deadline = ContinuousClock.now + .seconds(60)
        while !UnixSocket.accepts(path) {
            XCTAssertTrue(process.isRunning, "the worker exited")
            guard process.isRunning, ContinuousClock.now < deadline else { return XCTFail("the worker never listened on \(path)") }
            try await Task.sleep(for: .milliseconds(20))
        }
        let client = try await FaceWorkerClient.connect(socketPath: WorkerSocket.path(environment: [WorkerSocket.environmentVariable: path]))
        try await client.ping()
        await client.close()
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
