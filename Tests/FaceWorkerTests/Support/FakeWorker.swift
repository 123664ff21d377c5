import Foundation
import NIOCore
import NIOPosix
import XCTest

extension XCTestCase {
    /// A fake worker in this process: a listener on a fresh socket whose
    /// connections `setUp` equips, on their event loop, closed when the test
    /// ends. For tests of what the Swift client does with what a worker sends.
    func fakeWorker(_ setUp: @escaping @Sendable (any Channel) throws -> Void) async throws -> String {
        let directory = try WorkerProcess.makeTemporaryDirectory()
        let path = "\(directory)/fake.sock"
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try setUp(channel) }
            }
            .bind(unixDomainSocketPath: path)
            .get()
        addTeardownBlock {
            try? await server.close()
            try? FileManager.default.removeItem(atPath: directory)
        }
        return path
    }
}
