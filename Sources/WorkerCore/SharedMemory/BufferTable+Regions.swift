import FaceWorkerProtocol

extension BufferTable {
    /// The bytes a frame's region names, checked against its buffer.
    ///
    /// - Throws: NOT_FOUND for a buffer this connection has not registered;
    ///   INVALID_ARGUMENT for a length of 0; OUT_OF_RANGE for a region that
    ///   ends past the buffer (or past 2^64).
    package func region(_ region: Faceworker_V1_BufferRegion, field: String) throws(CallError) -> SharedRegion {
        guard let mapping = mapping(region.bufferID) else {
            throw CallError(.notFound, "no buffer \(region.bufferID) is registered on this connection (\(field).buffer_id); register it with RegisterBuffer on this connection first")
        }
        guard region.length > 0 else {
            throw CallError(.invalidArgument, "\(field).length is 0: a region holds at least 1 byte")
        }
        let (end, overflow) = region.offset.addingReportingOverflow(region.length)
        guard !overflow, end <= UInt64(mapping.size) else {
            throw CallError(.outOfRange, "\(field) (offset \(region.offset), length \(region.length)) ends past buffer \(region.bufferID), which holds \(mapping.size) bytes: offset + length must be at most \(mapping.size)")
        }
        return SharedRegion(mapping: mapping, offset: Int(region.offset), length: Int(region.length))
    }
}
