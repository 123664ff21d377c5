import CXNNPack

/// One operator XNNPACK ran in the last `invoke()` of a profiling runtime:
/// what XNNPACK made of the graph after its own fusion, so the list also
/// counts the operators a run really executes.
package struct OperatorTime: Sendable, Equatable {
    /// The stage whose segment holds the operator (as in `Runtime.stepNames`).
    package var stage: Int
    /// XNNPACK's name for the operator, with its microkernel type when it is not the default.
    package var name: String
    /// Wall time from the end of the previous operator to the end of this one.
    package var microseconds: UInt64
}

extension Runtime {
    /// Every XNNPACK operator of the last run with its time, in run order.
    ///
    /// Only a runtime created with `profiling` records times; any other throws.
    package func operatorTimes() throws -> [OperatorTime] {
        var times: [OperatorTime] = []
        if leading != nil {
            guard profiling else {
                throw InferenceError(file: model.graph.file, problem: "XNNPACK has no operator profile; create the runtime with profiling")
            }
            times.append(OperatorTime(stage: 0, name: "Convolution (NHWC, F32) leading, its border rows kept",
                                      microseconds: UInt64(leadingTime / .microseconds(1))))
        }
        let profiled = [(0, leadingStage?.engine)] + engines.enumerated().map { ($0, $1) }
        for (stage, engine) in profiled {
            guard let engine else { continue }
            let names = try profileInfo(engine, xnn_profile_info_operator_name, as: CChar.self)
            let timings = try profileInfo(engine, xnn_profile_info_operator_timing, as: UInt64.self)
            let labels = names.split(separator: 0, omittingEmptySubsequences: false).prefix(timings.count)
                .map { String(decoding: $0.map { UInt8(bitPattern: $0) }, as: UTF8.self) }
            guard labels.count == timings.count else {
                throw InferenceError(file: model.graph.file, problem: "XNNPACK named \(labels.count) operators but timed \(timings.count)")
            }
            for (name, time) in zip(labels, timings) {
                times.append(OperatorTime(stage: stage, name: name, microseconds: time))
            }
        }
        return times
    }

    /// One of XNNPACK's profile arrays: asked once for its size, then filled.
    private func profileInfo<Element>(_ engine: xnn_runtime_t, _ info: xnn_profile_info, as _: Element.Type) throws -> [Element] {
        var size = 0
        var status = xnn_get_runtime_profiling_info(engine, info, 0, nil, &size)
        if status == xnn_status_success { return [] }
        guard status == xnn_status_out_of_memory else {
            throw InferenceError(file: model.graph.file, problem: "XNNPACK has no operator profile (\(status.name)); create the runtime with profiling")
        }
        let stride = MemoryLayout<Element>.stride
        let values = [Element](unsafeUninitializedCapacity: size / stride) { buffer, count in
            status = xnn_get_runtime_profiling_info(engine, info, size, buffer.baseAddress, &size)
            count = buffer.count
        }
        guard status == xnn_status_success else {
            throw InferenceError(file: model.graph.file, problem: "XNNPACK could not report its operator profile: \(status.name)")
        }
        return values
    }
}
