extension Faceworker_V1_Status {
    /// The status the worker sends, under call_id 0, before it closes a
    /// connection whose byte stream broke the framing rules.
    ///
    /// The codes are the ones the API promises in faceworker.proto: a message
    /// above the size limit is `RESOURCE_EXHAUSTED`, an unsupported flag byte
    /// (compression) is `UNIMPLEMENTED`; a stream cut inside a message has lost
    /// data, which is `DATA_LOSS`.
    ///
    /// - Parameter error: The framing error.
    package init(_ error: FramingError) {
        self.init()
        switch error {
        case .messageTooLarge:
            code = .resourceExhausted
        case .unsupportedFlag:
            code = .unimplemented
        case .truncatedMessage:
            code = .dataLoss
        }
        message = error.description
    }
}
