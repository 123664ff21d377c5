import CXNNPack
import ModelFile

/// One thread's means of running a `CompiledModel`: an XNNPACK runtime with its
/// own input and output buffers.
///
/// A runtime is not thread-safe and deliberately not `Sendable`: create one on
/// each inference thread and use it only there. Many runtimes can share one
/// `CompiledModel`.
public final class Runtime {
    /// The model this runtime executes.
    public let model: CompiledModel
    private let runtime: xnn_runtime_t
    private let threadPool: pthreadpool_t?
    private let inputBuffers: [UnsafeMutableBufferPointer<Float>]
    /// Buffers XNNPACK writes, keyed by tensor index.
    private let partBuffers: [Int: UnsafeMutableBufferPointer<Float>]
    /// The assembled model outputs; aliases a part buffer when no assembly is needed.
    private let outputBuffers: [UnsafeMutableBufferPointer<Float>]
    private let ownedOutputBuffers: [UnsafeMutableBufferPointer<Float>]

    /// Builds an XNNPACK runtime for `model` using `threads` threads (1 runs on
    /// the calling thread only).
    public init(model: CompiledModel, threads: Int = 1) throws {
        let file = model.graph.file
        guard threads >= 1 else { throw InferenceError(file: file, problem: "thread count must be at least 1, got \(threads)") }
        let initStatus = xnn_initialize(nil)
        guard initStatus == xnn_status_success else {
            throw InferenceError(file: file, problem: "XNNPACK failed to initialise: \(initStatus.name)")
        }
        var subgraph: xnn_subgraph_t?
        let createStatus = xnn_create_subgraph(UInt32(model.graph.tensors.count), 0, &subgraph)
        guard createStatus == xnn_status_success, let subgraph else {
            throw InferenceError(file: file, problem: "XNNPACK could not create a subgraph: \(createStatus.name)")
        }
        defer { xnn_delete_subgraph(subgraph) }
        try SubgraphBuilder(model: model, subgraph: subgraph).build()

        let pool = threads > 1 ? pthreadpool_create(threads) : nil
        var runtime: xnn_runtime_t?
        let runtimeStatus = xnn_create_runtime_v2(subgraph, pool, 0, &runtime)
        guard runtimeStatus == xnn_status_success, let runtime else {
            if let pool { pthreadpool_destroy(pool) }
            throw InferenceError(file: file, problem: "XNNPACK could not create a runtime: \(runtimeStatus.name)")
        }
        self.model = model
        self.runtime = runtime
        self.threadPool = pool

        let graph = model.graph
        inputBuffers = graph.inputs.map { Self.allocate(graph.tensors[$0].elementCount) }
        var parts: [Int: UnsafeMutableBufferPointer<Float>] = [:]
        for index in model.plan.externalOutputs {
            parts[index] = Self.allocate(graph.tensors[index].elementCount)
        }
        partBuffers = parts
        var outputs: [UnsafeMutableBufferPointer<Float>] = []
        var owned: [UnsafeMutableBufferPointer<Float>] = []
        for (position, assembly) in model.plan.assemblies.enumerated() {
            if assembly.parts.count == 1 {
                outputs.append(parts[assembly.parts[0]]!)
            } else {
                let buffer = Self.allocate(graph.tensors[graph.outputs[position]].elementCount)
                outputs.append(buffer)
                owned.append(buffer)
            }
        }
        outputBuffers = outputs
        ownedOutputBuffers = owned

        var externals = zip(graph.inputs, inputBuffers).map { xnn_external_value(id: UInt32($0), data: UnsafeMutableRawPointer($1.baseAddress!)) }
        externals += parts.map { xnn_external_value(id: UInt32($0.key), data: UnsafeMutableRawPointer($0.value.baseAddress!)) }
        let setupStatus = xnn_setup_runtime(runtime, externals.count, externals)
        guard setupStatus == xnn_status_success else {
            throw InferenceError(file: file, problem: "XNNPACK could not set up the runtime: \(setupStatus.name)")
        }
    }

    deinit {
        xnn_delete_runtime(runtime)
        if let threadPool { pthreadpool_destroy(threadPool) }
        for buffer in inputBuffers { buffer.deallocate() }
        for buffer in partBuffers.values { buffer.deallocate() }
        for buffer in ownedOutputBuffers { buffer.deallocate() }
    }

    /// XNNPACK may read a little past the end of its inputs with vector loads,
    /// so every buffer gets slack beyond the tensor itself.
    private static func allocate(_ count: Int) -> UnsafeMutableBufferPointer<Float> {
        let slack = 16
        let raw = UnsafeMutableBufferPointer<Float>.allocate(capacity: count + slack)
        raw.initialize(repeating: 0)
        return UnsafeMutableBufferPointer(rebasing: raw[0..<count])
    }

    /// The buffer of input `index`, to fill before `invoke()`.
    public func input(_ index: Int = 0) -> UnsafeMutableBufferPointer<Float> {
        inputBuffers[index]
    }

    /// The result in output `index`, valid until the next `invoke()`.
    public func output(_ index: Int) -> UnsafeBufferPointer<Float> {
        UnsafeBufferPointer(outputBuffers[index])
    }

    /// Runs the model on the current input buffers.
    public func invoke() throws {
        let status = xnn_invoke_runtime(runtime)
        guard status == xnn_status_success else {
            throw InferenceError(file: model.graph.file, problem: "XNNPACK failed to run: \(status.name)")
        }
        for (position, assembly) in model.plan.assemblies.enumerated() where assembly.parts.count > 1 {
            var destination = outputBuffers[position].baseAddress!
            for outer in 0..<assembly.outerCount {
                for (part, chunk) in zip(assembly.parts, assembly.partChunks) {
                    destination.update(from: partBuffers[part]!.baseAddress! + outer * chunk, count: chunk)
                    destination += chunk
                }
            }
        }
    }

    /// Copies `values` into input 0, runs, and returns copies of every output.
    public func run(_ values: [Float]) throws -> [[Float]] {
        let buffer = input(0)
        guard values.count == buffer.count else {
            throw InferenceError(file: model.graph.file, problem: "input has \(values.count) values, the model expects \(buffer.count)")
        }
        _ = buffer.update(fromContentsOf: values)
        try invoke()
        return outputBuffers.indices.map { Array(output($0)) }
    }
}
