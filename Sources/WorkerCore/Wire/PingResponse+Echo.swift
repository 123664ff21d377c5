import FaceWorkerProtocol

extension Faceworker_V1_PingResponse {
    /// The answer to `ping`: its payload, back.
    package init(echoing ping: Faceworker_V1_PingRequest) {
        self.init()
        payload = ping.payload
    }
}
