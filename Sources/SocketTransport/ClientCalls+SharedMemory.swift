import FaceWorkerProtocol
import Logging
import WorkerCore

extension ClientCalls {
    /// RegisterBuffer: reserves a buffer ID for this connection and answers
    /// with the token its handoff must bring.
    func registerBuffer(callID: UInt64) {
        let shared = core.sharedMemory
        let bufferID = shared.makeBufferID()
        let token = SharedMemory.makeToken()
        let deadline = ContinuousClock.now + shared.tokenLifetime
        do throws(CallError) {
            try buffers.reserve(bufferID, pid: peerPID, deadline: deadline)
        } catch {
            logger.info("buffer refused", metadata: ["code": "\(error.code)", "reason": "\(error.message)"])
            fail(callID: callID, error)
            return
        }
        shared.tokens.add(token, table: buffers, bufferID: bufferID, deadline: deadline)
        var response = Faceworker_V1_RegisterBufferResponse()
        response.bufferID = bufferID
        response.token = .init(token)
        response.handoffAddress = shared.address.description
        outbox.send(Faceworker_V1_WorkerMessage(callID: callID, .registerBuffer(response)))
    }

    /// UnregisterBuffer: forgets the buffer; frames already admitted keep
    /// their mapping until they are answered.
    func unregisterBuffer(callID: UInt64, _ bufferID: UInt64) {
        guard let mapping = buffers.unregister(bufferID) else {
            fail(callID: callID, CallError(.notFound, "no buffer \(bufferID) is registered on this connection"))
            return
        }
        logger.info("buffer unregistered", metadata: ["buffer": "\(bufferID)", "size_bytes": "\(mapping.size)", "reason": "UnregisterBuffer"])
        var response = Faceworker_V1_UnregisterBufferResponse()
        response.bufferID = bufferID
        outbox.send(Faceworker_V1_WorkerMessage(callID: callID, .unregisterBuffer(response)))
    }

    /// Forgets every buffer and pending handoff of the closed connection.
    func closeBuffers() {
        core.sharedMemory.tokens.forget(buffers)
        for mapping in buffers.close() {
            logger.info("buffer unregistered", metadata: ["buffer": "\(mapping.bufferID)", "size_bytes": "\(mapping.size)", "reason": "connection closed"])
        }
    }
}
