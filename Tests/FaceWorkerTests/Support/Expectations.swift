import FaceWorkerClient
import FaceWorkerProtocol
import Foundation
import XCTest

/// Options and checks the integration tests share.
enum Expect {
    /// Session options with a running mode and changes applied.
    static func options(_ mode: Faceworker_V1_RunningMode = .image, _ change: (inout Faceworker_V1_SessionOptions) -> Void = { _ in }) -> Faceworker_V1_SessionOptions {
        var options = Faceworker_V1_SessionOptions()
        options.runningMode = mode
        change(&options)
        return options
    }

    /// Asserts that `result` holds exactly one face whose box is centred near
    /// `centre` (pixels) and about `size` pixels wide, as the fixture
    /// manifest places the astronaut's and the cameraman's faces.
    static func oneFace(_ result: Faceworker_V1_FrameResult, centre: (Float, Float), size: Float, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(result.faces.count, 1, "faces found", file: file, line: line)
        guard let box = result.faces.first?.boundingBox else { return }
        XCTAssertEqual(box.x + box.width / 2, centre.0, accuracy: size * 0.2, "box centre x", file: file, line: line)
        XCTAssertEqual(box.y + box.height / 2, centre.1, accuracy: size * 0.2, "box centre y", file: file, line: line)
        XCTAssertEqual(box.width, size, accuracy: size * 0.35, "box width", file: file, line: line)
    }

    /// The astronaut's face in astronaut.jpg (from the fixture manifest).
    static func astronaut(_ result: Faceworker_V1_FrameResult, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(result.imageWidth, 512, file: file, line: line)
        XCTAssertEqual(result.imageHeight, 512, file: file, line: line)
        oneFace(result, centre: (225, 130), size: 95, file: file, line: line)
    }

    /// Asserts that `session` (image mode) still finds the astronaut: the
    /// worker still serves it correctly.
    static func stillServes(_ session: FaceWorkerSession, file: StaticString = #filePath, line: UInt = #line) async throws {
        astronaut(try await session.process(jpeg: try TestPaths.jpeg("astronaut.jpg")), file: file, line: line)
    }

    /// Runs `call` and returns the worker's error, failing if it succeeds.
    static func failure<T>(_ call: () async throws -> T, file: StaticString = #filePath, line: UInt = #line) async -> FaceWorkerError? {
        do {
            _ = try await call()
            XCTFail("the call succeeded; an error was expected", file: file, line: line)
        } catch let error as FaceWorkerError {
            return error
        } catch {
            XCTFail("unexpected error \(error)", file: file, line: line)
        }
        return nil
    }
}
