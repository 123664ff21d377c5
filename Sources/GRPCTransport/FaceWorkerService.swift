import FaceWorkerGRPC
import FaceWorkerProtocol
import GRPCCore
import Logging
import WorkerCore

/// The gRPC door's service, faceworker.v1.FaceWorker: the worker's calls
/// over HTTP/2, answered by the same engine, session table and limits as the
/// worker's own socket.
struct FaceWorkerService: Faceworker_V1_FaceWorker.SimpleServiceProtocol {
    let core: WorkerCore
    let streams: GRPCStreams
    let connections: ConnectionRegistry
    let logger: Logger

    func ping(request: Faceworker_V1_PingRequest, context: ServerContext) async throws -> Faceworker_V1_PingResponse {
        Faceworker_V1_PingResponse(echoing: request)
    }

    func getStats(request: Faceworker_V1_GetStatsRequest, context: ServerContext) async throws -> Faceworker_V1_GetStatsResponse {
        Faceworker_V1_GetStatsResponse(core.statistics.snapshot())
    }

    func session(request: RPCAsyncSequence<Faceworker_V1_SessionRequest, any Error>, response: RPCWriter<Faceworker_V1_SessionResponse>,
                 context: ServerContext) async throws {
        try await SessionStream(core: core, streams: streams, logger: logger(for: context))
            .run(requests: request, response: response)
    }

    func subscribe(request: Faceworker_V1_SubscribeRequest, response: RPCWriter<Faceworker_V1_SubscriptionUpdate>,
                   context: ServerContext) async throws {
        try await SubscriptionStream(core: core, logger: logger(for: context)).run(request, response: response)
    }

    /// The worker's logger, naming the door and the call.
    private func logger(for context: ServerContext) -> Logger {
        var logger = logger
        logger[metadataKey: "door"] = "grpc"
        logger[metadataKey: "rpc"] = "\(context.descriptor.method)"
        logger[metadataKey: "connection"] = "grpc:\(connections.makeID())"
        return logger
    }
}
