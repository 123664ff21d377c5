import FaceWorkerProtocol
import Glibc
import Logging
import NIOCore
import WorkerCore

/// One handoff connection: checks its peer, reads the token and the memfd,
/// maps the buffer into the connection that reserved it, and answers with
/// one length-prefixed WorkerMessage.
struct BufferHandoff {
    /// How long a handoff peer may stay silent (or not read its answer)
    /// before it is given up, so that it cannot stall the handoffs after it.
    static let timeout = timeval(tv_sec: 1, tv_usec: 0)

    let shared: SharedMemory
    let policy: PeerPolicy
    let logger: Logger

    /// Serves the accepted `connection` and closes it.
    func serve(_ connection: Int32) {
        defer { close(connection) }
        var timeout = Self.timeout
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(connection, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let answer: Faceworker_V1_WorkerMessage.OneOf_Kind
        switch handle(connection) {
        case .success(let registered): answer = .bufferRegistered(registered)
        case .failure(let error): answer = .error(Faceworker_V1_Status(error))
        }
        write(Faceworker_V1_WorkerMessage(callID: 0, answer).framed(allocator: ByteBufferAllocator()), to: connection)
    }

    private func handle(_ connection: Int32) -> Result<Faceworker_V1_BufferRegistered, CallError> {
        var credentials = KernelCredentials()
        var length = socklen_t(MemoryLayout<KernelCredentials>.size)
        guard getsockopt(connection, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else {
            return .failure(CallError(.permissionDenied, "the handoff's peer credentials (SO_PEERCRED) cannot be read"))
        }
        let peer = PeerCredentials(pid: credentials.pid, uid: credentials.uid, gid: credentials.gid)
        guard policy.allows(peer) else {
            logger.notice("buffer handoff refused", metadata: ["peer_pid": "\(peer.pid)", "peer_uid": "\(peer.uid)"])
            return .failure(CallError(.permissionDenied, "uid \(peer.uid) may not use this worker"))
        }
        // Room for more descriptors than allowed, so that extra ones are seen (and closed) rather than truncated away.
        guard let received = DescriptorPassing.receive(on: connection, maxBytes: 64, maxDescriptors: 8) else {
            let code = errno
            let reason = code == EAGAIN || code == EWOULDBLOCK ? "nothing came within 1 s" : SystemError.message(code)
            return .failure(CallError(.invalidArgument, "the handoff could not be read: \(reason); send the token and the memfd in one sendmsg"))
        }
        defer { for descriptor in received.descriptors { close(descriptor) } }
        return Result { () throws(CallError) in try register(received, from: peer) }
    }

    private func register(_ received: DescriptorPassing.Received, from peer: PeerCredentials) throws(CallError) -> Faceworker_V1_BufferRegistered {
        guard received.bytes.count == SharedMemory.tokenLength, let (table, bufferID) = shared.tokens.take(received.bytes, now: .now) else {
            let error = CallError(.notFound, "the handoff's token (\(received.bytes.count) bytes) is unknown, already used or expired: tokens are the \(SharedMemory.tokenLength) bytes RegisterBuffer returned, good for one handoff within 10 s")
            logger.info("buffer refused", metadata: ["peer_pid": "\(peer.pid)", "code": "\(error.code)", "reason": "\(error.message)"])
            throw error
        }
        do throws(CallError) {
            try table.claim(bufferID, pid: peer.pid, now: .now)
            guard !received.truncated, received.descriptors.count == 1 else {
                let count = received.truncated ? "more than \(received.descriptors.count)" : "\(received.descriptors.count)"
                throw CallError(.invalidArgument, "the handoff carried \(count) descriptors: send exactly one, the buffer's memfd, in one SCM_RIGHTS message")
            }
            let size = try SealedMemfd.size(of: received.descriptors[0])
            try table.checkRoom(for: size)
            let mapping = try SharedMapping(descriptor: received.descriptors[0], size: size, bufferID: bufferID, counters: shared.counters)
            try table.register(mapping)
            table.logger.info("buffer registered", metadata: ["buffer": "\(bufferID)", "size_bytes": "\(size)"])
            var registered = Faceworker_V1_BufferRegistered()
            registered.bufferID = bufferID
            registered.sizeBytes = UInt64(size)
            return registered
        } catch {
            table.cancel(bufferID)
            table.logger.info("buffer refused", metadata: ["buffer": "\(bufferID)", "code": "\(error.code)", "reason": "\(error.message)"])
            throw error
        }
    }

    /// Writes the answer; a peer that went away or does not read simply misses it.
    private func write(_ buffer: ByteBuffer, to connection: Int32) {
        let bytes = Array(buffer.readableBytesView)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }
}
