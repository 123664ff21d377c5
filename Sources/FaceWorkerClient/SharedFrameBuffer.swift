import Dispatch
import FaceWorkerProtocol
import Glibc

/// A shared-memory buffer registered with the worker: frames name regions of
/// it instead of carrying their bytes, and the worker reads them from its
/// read-only mapping.
///
/// ```swift
/// let buffer = try await faceDetector.registerBuffer(size: 640 * 480 * 3 / 2)
/// camera.writeNV12(into: buffer.bytes)
/// let frame = MPImage(image: try buffer.image(format: .nv12, width: 640, height: 480))
/// let result = try await faceDetector.detect(image: frame)
/// try await buffer.unregister()
/// ```
///
/// A region is the worker's to read from the moment its frame is sent until
/// the frame's answer arrives; write it again only after that. The memory is
/// unmapped and the memfd closed when the buffer is released.
public final class SharedFrameBuffer {
    /// The worker's ID for the buffer: a new one after the client reconnected
    /// to a restarted worker and registered the buffer there again, so make a
    /// frame from the buffer just before sending it.
    public var id: UInt64 { record.id }
    /// The buffer's size in bytes.
    public let size: Int
    /// The buffer's memory, for writing frames into.
    public let bytes: UnsafeMutableRawBufferPointer
    let record: BufferRecord
    private let client: FaceWorkerClient

    private init(id: UInt64, memory: SharedMemoryFile, client: FaceWorkerClient) {
        record = BufferRecord(descriptor: memory.descriptor, id: id)
        size = memory.size
        bytes = memory.bytes
        self.client = client
        client.keep(record)
    }

    deinit {
        // First out of the client: a reconnect copies the descriptor only while the client holds it.
        client.forget(record)
        munmap(bytes.baseAddress, size)
        close(record.descriptor)
    }

    /// Creates a sealed memfd of `size` bytes, maps it and registers it on
    /// `client`'s connection.
    static func register(on client: FaceWorkerClient, size: Int) async throws -> SharedFrameBuffer {
        let memory = try SharedMemoryFile(size: size)
        let id: UInt64
        do {
            id = try await register(memory.descriptor) { kind in try await client.call(kind) }
        } catch {
            memory.release()
            throw error
        }
        return SharedFrameBuffer(id: id, memory: memory, client: client)
    }

    /// Registers the memfd `descriptor` with the worker `call` reaches: the
    /// reservation, then the handoff. Returns the worker's ID for it.
    static func register(
        _ descriptor: Int32, call: (Faceworker_V1_ClientMessage.OneOf_Kind) async throws -> Faceworker_V1_WorkerMessage.OneOf_Kind
    ) async throws -> UInt64 {
        guard case .registerBuffer(let reservation) = try await call(.registerBuffer(Faceworker_V1_RegisterBufferRequest())) else {
            throw FaceWorkerError(code: .internal, message: "the worker answered RegisterBuffer with an unexpected message kind")
        }
        let answer = try await handOff(descriptor, reservation)
        guard case .bufferRegistered(let registered) = answer.kind, registered.bufferID == reservation.bufferID else {
            if case .error(let status) = answer.kind { throw FaceWorkerError(status) }
            throw FaceWorkerError(code: .dataLoss, message: "the worker answered the buffer handoff with an unexpected message")
        }
        return registered.bufferID
    }

    /// A frame whose JPEG file is the `length` bytes at `offset`.
    package func jpegFrame(offset: Int = 0, length: Int, timestampMs: Int64 = 0, orientation: Faceworker_V1_Orientation = .topLeft) throws -> Faceworker_V1_Frame {
        var frame = Faceworker_V1_Frame()
        frame.sharedJpeg = try region(offset: offset, length: length)
        frame.timestampMs = timestampMs
        frame.orientation = orientation
        return frame
    }

    /// A frame of uncompressed pixels laid out as RawImage describes from
    /// `offset`; `rowStride` 0 means rows are tightly packed.
    package func rawFrame(
        offset: Int = 0, format: Faceworker_V1_PixelFormat, width: Int, height: Int, rowStride: Int = 0,
        timestampMs: Int64 = 0, orientation: Faceworker_V1_Orientation = .topLeft
    ) throws -> Faceworker_V1_Frame {
        guard let length = RawLayout.byteCount(format: format, width: width, height: height, rowStride: rowStride) else {
            throw FaceWorkerError(code: .invalidArgument, message: "a raw frame needs a pixel format, a width and a height of at least 1, and a row stride of at least 0")
        }
        var raw = Faceworker_V1_RawImage()
        raw.format = format
        raw.width = UInt32(clamping: width)
        raw.height = UInt32(clamping: height)
        raw.rowStride = UInt32(clamping: rowStride)
        raw.region = try region(offset: offset, length: length)
        var frame = Faceworker_V1_Frame()
        frame.raw = raw
        frame.timestampMs = timestampMs
        frame.orientation = orientation
        return frame
    }

    /// Tells the worker to forget the buffer: later frames naming it are
    /// refused, frames already sent are still answered. The memory stays
    /// mapped here until this object is released.
    public func unregister() async throws {
        _ = try await client.call {
            var request = Faceworker_V1_UnregisterBufferRequest()
            request.bufferID = id
            return .unregisterBuffer(request)
        }
        client.forget(record)
    }

    func region(offset: Int, length: Int) throws -> Faceworker_V1_BufferRegion {
        guard offset >= 0, length >= 1, offset <= size - length else {
            throw FaceWorkerError(code: .outOfRange, message: "the region at offset \(offset) of \(length) bytes does not lie inside the buffer's \(size) bytes")
        }
        var region = Faceworker_V1_BufferRegion()
        region.bufferID = id
        region.offset = UInt64(offset)
        region.length = UInt64(length)
        return region
    }

    /// The handoff blocks on a socket for a moment, so it runs on a thread of
    /// its own rather than one of the concurrency pool.
    private static func handOff(_ descriptor: Int32, _ reservation: Faceworker_V1_RegisterBufferResponse) async throws -> Faceworker_V1_WorkerMessage {
        let address = reservation.handoffAddress, token = [UInt8](reservation.token)
        return try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                do throws(BufferHandoffExchange.Failure) {
                    continuation.resume(returning: try BufferHandoffExchange.run(address: address, token: token, descriptors: [descriptor]))
                } catch {
                    continuation.resume(throwing: FaceWorkerError(code: .unavailable, message: error.description))
                }
            }
        }
    }
}

extension FaceWorkerClient {
    /// Creates a shared-memory buffer of `size` bytes (a memfd sealed against
    /// shrinking, mapped here for writing) and registers it on this
    /// connection.
    ///
    /// - Throws: `FaceWorkerError`: INVALID_ARGUMENT for a size below 1;
    ///   RESOURCE_EXHAUSTED when this process cannot create or map the memory,
    ///   or the worker's limits on buffers or mapped bytes are reached.
    public func registerBuffer(size: Int) async throws -> SharedFrameBuffer {
        try await SharedFrameBuffer.register(on: self, size: size)
    }
}
