import FaceWorkerProtocol
import Glibc
import Logging
@testable import WorkerCore
import XCTest

/// One connection's shared buffers without a socket: a reservation is claimed
/// once, by the process that made it, before its deadline; buffers and mapped
/// bytes stay within the connection's limits; closing forgets everything and
/// the counters follow.
final class BufferTableTests: XCTestCase {
    private let counters = SharedMemoryCounters()
    private let logger = Logger(label: "buffers") { _ in SwiftLogNoOpLogHandler() }

    private func table(maxBuffers: Int = 2, maxMappedBytes: Int = 1 << 20) -> BufferTable {
        BufferTable(maxBuffers: maxBuffers, maxMappedBytes: maxMappedBytes, counters: counters, logger: logger)
    }

    /// A memfd of `size` bytes mapped as buffer `bufferID`.
    private func mapping(_ bufferID: UInt64, size: Int) throws -> SharedMapping {
        let descriptor = Memfd.create(name: "buffer-table-test")
        XCTAssertGreaterThanOrEqual(descriptor, 0)
        defer { close(descriptor) }
        XCTAssertEqual(ftruncate(descriptor, off_t(size)), 0)
        return try SharedMapping(descriptor: descriptor, size: size, bufferID: bufferID, counters: counters)
    }

    private func assertRefused(_ code: CallError.Code, _ body: () throws(CallError) -> Void, file: StaticString = #filePath, line: UInt = #line) {
        do throws(CallError) {
            try body()
            XCTFail("not refused", file: file, line: line)
        } catch {
            XCTAssertEqual(error.code, code, error.message, file: file, line: line)
        }
    }

    func testAReservationIsClaimedOnceByTheProcessThatMadeItBeforeItsDeadline() throws {
        let buffers = table()
        let deadline = ContinuousClock.now + .seconds(60)
        try buffers.reserve(1, pid: 10, deadline: deadline)
        assertRefused(.permissionDenied) { () throws(CallError) in try buffers.claim(1, pid: 11, now: .now) }
        try buffers.claim(1, pid: 10, now: .now)
        assertRefused(.notFound) { () throws(CallError) in try buffers.claim(1, pid: 10, now: .now) }

        try buffers.reserve(2, pid: 10, deadline: deadline)
        assertRefused(.notFound) { () throws(CallError) in try buffers.claim(2, pid: 10, now: deadline + .seconds(1)) }
    }

    func testBuffersAndMappedBytesStayWithinTheConnectionsLimits() throws {
        let buffers = table(maxBuffers: 2, maxMappedBytes: 8192)
        let deadline = ContinuousClock.now + .seconds(60)
        try buffers.reserve(1, pid: 10, deadline: deadline)
        try buffers.reserve(2, pid: 10, deadline: deadline)
        assertRefused(.resourceExhausted) { () throws(CallError) in try buffers.reserve(3, pid: 10, deadline: deadline) }

        try buffers.claim(1, pid: 10, now: .now)
        try buffers.register(try mapping(1, size: 4096))
        XCTAssertEqual(counters.buffers.load(ordering: .relaxed), 1)
        XCTAssertEqual(counters.mappedBytes.load(ordering: .relaxed), 4096)
        assertRefused(.resourceExhausted) { () throws(CallError) in try buffers.checkRoom(for: 8192) }
        try buffers.checkRoom(for: 4096)

        XCTAssertNotNil(buffers.unregister(1))
        XCTAssertNil(buffers.unregister(1), "a buffer is forgotten once")
        XCTAssertEqual(counters.buffers.load(ordering: .relaxed), 0)
        try buffers.reserve(3, pid: 10, deadline: deadline)
    }

    func testClosingForgetsEveryBufferAndRefusesALateHandoff() throws {
        let buffers = table()
        let deadline = ContinuousClock.now + .seconds(60)
        try buffers.reserve(1, pid: 10, deadline: deadline)
        try buffers.claim(1, pid: 10, now: .now)
        try buffers.register(try mapping(1, size: 4096))
        try buffers.reserve(2, pid: 10, deadline: deadline)
        try buffers.claim(2, pid: 10, now: .now)
        let late = try mapping(2, size: 4096)

        XCTAssertEqual(buffers.close().map(\.bufferID), [1])
        assertRefused(.notFound) { () throws(CallError) in try buffers.register(late) }
        XCTAssertEqual(counters.buffers.load(ordering: .relaxed), 0)
    }
}
