import Dispatch
import FaceWorkerProtocol
import Foundation
import Glibc
import Logging
import Synchronization
import WorkerCore

/// The buffer handoff socket: a Linux abstract Unix socket, named for this
/// worker run, served by one thread of its own.
///
/// A memfd must travel as SCM_RIGHTS ancillary data, which the event loop's
/// reads discard; so it comes on a short second connection, which this
/// thread accepts and serves one at a time (each bounded by a timeout).
package final class HandoffListener: Sendable {
    /// The address clients connect to.
    package let address: HandoffAddress
    private let descriptor: Int32
    private let serving = Atomic<Bool>(false)
    private let stopped = DispatchSemaphore(value: 0)

    /// Creates and binds the socket, under a name no other worker run uses.
    package init() throws(WorkerStartupError) {
        var generator = SystemRandomNumberGenerator()
        let suffix = String(generator.next() as UInt64, radix: 16)
        guard let address = HandoffAddress("@faceworker-handoff-\(getpid())-\(suffix)") else {
            throw WorkerStartupError("the buffer handoff socket's name does not fit a socket address")
        }
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else {
            throw WorkerStartupError("cannot create the buffer handoff socket: \(SystemError.message(errno))")
        }
        guard address.withSocketAddress({ bind(descriptor, $0, $1) }) == 0, listen(descriptor, 64) == 0 else {
            let code = errno
            Glibc.close(descriptor)
            throw WorkerStartupError("cannot listen on the buffer handoff socket \(address): \(SystemError.message(code))")
        }
        self.address = address
        self.descriptor = descriptor
    }

    /// Starts the thread that serves handoffs for `shared`.
    func serve(_ shared: SharedMemory, policy: PeerPolicy, logger: Logger) {
        serving.store(true, ordering: .relaxed)
        let handoff = BufferHandoff(shared: shared, policy: policy, logger: logger)
        let descriptor = descriptor
        let stopped = stopped
        let thread = Thread {
            defer { stopped.signal() }
            while true {
                let connection = accept(descriptor, nil, nil)
                if connection < 0 {
                    // Shutting the socket down makes accept fail with EINVAL: the worker stops.
                    switch errno {
                    case EINTR, ECONNABORTED: continue
                    // Out of descriptors: the connection waits in the backlog until some are closed.
                    case EMFILE, ENFILE, ENOBUFS, ENOMEM: usleep(100_000)
                    default: return
                    }
                    continue
                }
                _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
                handoff.serve(connection)
            }
        }
        thread.name = "buffer-handoff"
        thread.start()
    }

    /// Stops accepting, waits for the handoff in progress, and closes the socket.
    func close() {
        shutdown(descriptor, Int32(SHUT_RDWR))
        if serving.load(ordering: .relaxed) { stopped.wait() }
        Glibc.close(descriptor)
    }
}
