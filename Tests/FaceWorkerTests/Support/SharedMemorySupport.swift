import FaceWorkerClient
import FaceWorkerProtocol
import Foundation
import Glibc
import XCTest

/// Memfds, handoffs and leak checks for the shared-memory tests.
enum SharedMemorySupport {
    /// A memfd of `size` bytes holding `contents` at its start, sealed against
    /// shrinking when `sealed`.
    static func memfd(size: Int, contents: [UInt8] = [], sealed: Bool = true) throws -> Int32 {
        let descriptor = Memfd.create(name: "faceworker-test")
        guard descriptor >= 0, ftruncate(descriptor, off_t(size)) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        if !contents.isEmpty {
            _ = contents.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        }
        if sealed, fcntl(descriptor, Memfd.addSeals, Memfd.sealShrink) != 0 { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        return descriptor
    }

    /// Reserves a buffer on `client`'s connection.
    static func reserve(_ client: FaceWorkerClient) async throws -> Faceworker_V1_RegisterBufferResponse {
        guard case .registerBuffer(let response) = try await client.call(.registerBuffer(Faceworker_V1_RegisterBufferRequest())) else {
            throw UnexpectedAnswer(description: "RegisterBuffer was not answered with a reservation")
        }
        return response
    }

    /// Hands `descriptors` over with `token` and returns the worker's status,
    /// failing the test if the handoff succeeded.
    static func refusedHandoff(_ reservation: Faceworker_V1_RegisterBufferResponse, token: [UInt8]? = nil, descriptors: [Int32],
                               file: StaticString = #filePath, line: UInt = #line) throws -> Faceworker_V1_Status? {
        let answer = try BufferHandoffExchange.run(address: reservation.handoffAddress, token: token ?? [UInt8](reservation.token), descriptors: descriptors)
        guard case .error(let status) = answer.kind else {
            XCTFail("the handoff was accepted: \(answer)", file: file, line: line)
            return nil
        }
        return status
    }

    /// The lines of the worker's memory map that map a memfd.
    static func mappedMemfds(_ worker: WorkerProcess) -> [String] {
        // Files in /proc state a size of 0, so they are read to their end rather than by their size.
        let file = FileHandle(forReadingAtPath: "/proc/\(worker.process.processIdentifier)/maps")
        let maps = String(decoding: file?.readDataToEndOfFile() ?? Data(), as: UTF8.self)
        return maps.split(separator: "\n").map(String.init).filter { $0.contains("/memfd:") }
    }

    /// Asserts that the worker holds no buffer and maps no shared memory,
    /// waiting a little for frames still being answered to let go.
    static func assertNothingMapped(_ worker: WorkerProcess, _ client: FaceWorkerClient,
                                    file: StaticString = #filePath, line: UInt = #line) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        var stats = try await client.stats()
        while stats.mappedBytes != 0 || stats.sharedBuffers != 0 || !mappedMemfds(worker).isEmpty, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
            stats = try await client.stats()
        }
        XCTAssertEqual(stats.sharedBuffers, 0, "shared buffers", file: file, line: line)
        XCTAssertEqual(stats.mappedBytes, 0, "mapped bytes", file: file, line: line)
        XCTAssertEqual(mappedMemfds(worker), [], "memfds in the worker's memory map", file: file, line: line)
    }
}

extension UnixSocket {
    /// Registers `descriptor` as a buffer of this connection (RegisterBuffer
    /// with call `callID`, then the handoff) and returns its ID.
    func registerBuffer(callID: UInt64, descriptor: Int32) throws -> UInt64 {
        var message = Faceworker_V1_ClientMessage()
        message.callID = callID
        message.registerBuffer = Faceworker_V1_RegisterBufferRequest()
        try send(message)
        guard let answer = try receive(), case .registerBuffer(let reservation)? = answer.kind else {
            throw UnexpectedAnswer(description: "RegisterBuffer was not answered with a reservation")
        }
        let handoff = try BufferHandoffExchange.run(address: reservation.handoffAddress, token: [UInt8](reservation.token), descriptors: [descriptor])
        guard case .bufferRegistered(let registered)? = handoff.kind else {
            throw UnexpectedAnswer(description: "the handoff was refused: \(handoff)")
        }
        return registered.bufferID
    }
}

extension Faceworker_V1_ClientMessage {
    /// An UnregisterBuffer call.
    static func unregisterBuffer(callID: UInt64, buffer: UInt64) -> Self {
        var message = Self()
        message.callID = callID
        message.unregisterBuffer.bufferID = buffer
        return message
    }
}

extension Faceworker_V1_BufferRegion {
    /// A region of `buffer`.
    init(buffer: UInt64, offset: UInt64, length: UInt64) {
        self.init()
        bufferID = buffer
        self.offset = offset
        self.length = length
    }
}
