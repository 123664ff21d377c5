import CXNNPack
import ModelFile

/// One thread's means of running a `CompiledModel`: an XNNPACK runtime per
/// segment of the model's execution plan, the host operators between them,
/// and the buffers they pass tensors through.
///
/// A runtime is not thread-safe and deliberately not `Sendable`: create one on
/// each inference thread and use it only there. Many runtimes can share one
/// `CompiledModel`.
package final class Runtime {
    /// The model this runtime executes.
    package let model: CompiledModel
    /// One XNNPACK runtime per stage; nil where a stage's segment is empty.
    let engines: [xnn_runtime_t?]
    /// Held so the pool outlives the XNNPACK runtimes that run on it.
    private let threadPool: ThreadPool?
    /// Held so the workspace outlives the XNNPACK runtimes that keep their
    /// tensors in it.
    private let workspace: Workspace?
    /// Held so the cache outlives the XNNPACK runtimes whose packed weights
    /// it holds.
    private let weightsCache: WeightsCache?
    /// Whether the XNNPACK runtimes are set up; one built in an open weights
    /// cache is not until `rebind()` after the cache is finalized.
    private var isSetUp: Bool
    /// Each XNNPACK runtime's external tensors, bound again by `rebind()`.
    private let externals: [[xnn_external_value]]
    /// The buffer of every tensor that crosses a boundary, keyed by tensor index.
    private let buffers: [Int: UnsafeMutableBufferPointer<Float>]
    private let hostCalls: [[HostCall]]
    /// The model's first convolution, run before the first stage; nil when it has none.
    let leading: BandedConvolution?
    /// The operators after it that keep its output's rows, run with it; nil when there are none.
    let leadingStage: BandedStage?
    /// With profiling, the leading convolution's time in the last run.
    private(set) var leadingTime: Duration = .zero
    let profiling: Bool
    private let inputBuffers: [UnsafeMutableBufferPointer<Float>]
    private let outputBuffers: [UnsafeMutableBufferPointer<Float>]

    /// A host operator with its operands resolved to this runtime's buffers,
    /// so a run allocates nothing.
    private struct HostCall {
        var operation: HostOperation
        var inputs: [UnsafeBufferPointer<Float>]
        var outputs: [UnsafeMutableBufferPointer<Float>]
    }

    /// Builds the XNNPACK runtimes for `model` using `threads` threads (1 runs
    /// on the calling thread only) in a pool of the runtime's own; with
    /// `profiling`, each run records the time of every XNNPACK operator (see
    /// `operatorTimes()`), at a small cost per operator.
    package convenience init(model: CompiledModel, threads: Int = 1, profiling: Bool = false) throws {
        guard threads >= 1 else { throw InferenceError(file: model.graph.file, problem: "thread count must be at least 1, got \(threads)") }
        try self.init(model: model, threadPool: threads > 1 ? try ThreadPool(threads: threads) : nil, profiling: profiling)
    }

    /// Builds the XNNPACK runtimes for `model`, splitting each operator over
    /// `threadPool` (which other runtimes may share), or running on the
    /// calling thread only when it is nil, with their inner tensors in
    /// `workspace`, which other runtimes run on the same thread may share
    /// (nil: a workspace of their own), and their packed weights in
    /// `weightsCache`, which runtimes on any thread may share (nil: packed
    /// weights of their own). Built while the cache is open, the runtime
    /// runs only after the cache is finalized and `rebind()` is called.
    package init(model: CompiledModel, threadPool: ThreadPool?, workspace: Workspace? = nil, weightsCache: WeightsCache? = nil,
                 profiling: Bool = false) throws {
        let file = model.graph.file
        try initializeXNNPACK(for: file)
        let graph = model.graph
        var buffers: [Int: UnsafeMutableBufferPointer<Float>] = [:]
        for index in model.plan.boundaryTensors {
            let buffer = Self.allocate(graph.tensors[index].elementCount)
            if let values = graph.tensors[index].constant?.floats { _ = buffer.update(fromContentsOf: values) }
            buffers[index] = buffer
        }
        let pool = threadPool?.handle
        let setUp = weightsCache?.isFinalized ?? true
        var engines: [xnn_runtime_t?] = []
        let externals = model.plan.stages.map { stage in
            (stage.segment.inputs + stage.segment.outputs).map {
                xnn_external_value(id: UInt32($0), data: UnsafeMutableRawPointer(buffers[$0]!.baseAddress!))
            }
        }
        do {
            leading = try model.plan.leading.map {
                try BandedConvolution($0, graph: graph, input: buffers[$0.input]!, output: buffers[$0.output]!, pool: pool)
            }
            for (stage, plan) in model.plan.stages.enumerated() {
                engines.append(plan.segment.operators.isEmpty ? nil
                    : try Self.engine(for: plan.segment, model: model, pool: pool, workspace: workspace?.handle,
                                      weightsCache: weightsCache?.handle, setUp: setUp, profiling: profiling,
                                      externals: externals[stage]))
            }
            // After the segments, which may grow a shared workspace: set up before them, it would have to be set up again.
            leadingStage = try model.plan.leadingStage.map {
                try BandedStage($0, model: model, input: buffers[$0.input]!, output: buffers[$0.output]!, pool: pool,
                                workspace: workspace, profiling: profiling)
            }
        } catch {
            for case let engine? in engines { xnn_delete_runtime(engine) }
            for buffer in buffers.values { Self.deallocate(buffer) }
            throw error
        }
        self.model = model
        self.profiling = profiling
        self.engines = engines
        self.threadPool = threadPool
        self.workspace = workspace
        self.weightsCache = weightsCache
        isSetUp = setUp
        self.externals = externals
        self.buffers = buffers
        hostCalls = model.plan.stages.map { stage in
            stage.host.map { step in
                HostCall(operation: step.operation,
                         inputs: step.inputs.map { UnsafeBufferPointer(buffers[$0]!) },
                         outputs: step.outputs.map { buffers[$0]! })
            }
        }
        stepNames = Self.stepNames(of: model)
        inputBuffers = graph.inputs.map { buffers[$0]! }
        outputBuffers = graph.outputs.map { buffers[$0]! }
    }

    /// An XNNPACK runtime of `segment`'s operators; set up with `externals`
    /// unless `setUp` is false, when its owner sets it up later.
    static func engine(for segment: ExecutionPlan.Segment, model: CompiledModel, pool: pthreadpool_t?, workspace: xnn_workspace_t?,
                       weightsCache: xnn_weights_cache_t?, setUp: Bool, profiling: Bool,
                       externals: [xnn_external_value]) throws -> xnn_runtime_t {
        let file = model.graph.file
        var subgraph: xnn_subgraph_t?
        let createStatus = xnn_create_subgraph(UInt32(model.graph.tensors.count), 0, &subgraph)
        guard createStatus == xnn_status_success, let subgraph else {
            throw InferenceError(file: file, problem: "XNNPACK could not create a subgraph: \(createStatus.name)")
        }
        defer { xnn_delete_subgraph(subgraph) }
        try SubgraphBuilder(model: model, segment: segment, subgraph: subgraph).build()

        var runtime: xnn_runtime_t?
        let runtimeStatus = xnn_create_runtime_v4(subgraph, weightsCache, workspace, pool, profiling ? UInt32(XNN_FLAG_BASIC_PROFILING) : 0,
                                                  &runtime)
        guard runtimeStatus == xnn_status_success, let runtime else {
            throw InferenceError(file: file, problem: "XNNPACK could not create a runtime: \(runtimeStatus.name)")
        }
        guard setUp else { return runtime }
        let setupStatus = xnn_setup_runtime(runtime, externals.count, externals)
        guard setupStatus == xnn_status_success else {
            xnn_delete_runtime(runtime)
            throw InferenceError(file: file, problem: "XNNPACK could not set up the runtime: \(setupStatus.name)")
        }
        return runtime
    }

    deinit {
        for case let engine? in engines { xnn_delete_runtime(engine) }
        for buffer in buffers.values { Self.deallocate(buffer) }
    }

    /// Sets the runtimes up again: a runtime built later in a shared
    /// workspace or weights cache may have grown and so moved it, and the
    /// operators of the runtimes already built hold pointers into it from
    /// their setup.
    package func rebind() throws {
        try leadingStage?.rebind()
        for (stage, engine) in engines.enumerated() {
            guard let engine else { continue }
            let status = xnn_setup_runtime(engine, externals[stage].count, externals[stage])
            guard status == xnn_status_success else {
                throw InferenceError(file: model.graph.file, problem: "XNNPACK could not set up the runtime again: \(status.name)")
            }
        }
        isSetUp = true
    }

    /// XNNPACK may read a little past the end of its inputs with vector loads,
    /// so every buffer gets slack beyond the tensor itself.
    private static let slack = 16

    private static func allocate(_ count: Int) -> UnsafeMutableBufferPointer<Float> {
        let raw = UnsafeMutableBufferPointer<Float>.allocate(capacity: count + slack)
        raw.initialize(repeating: 0)
        return UnsafeMutableBufferPointer(rebasing: raw[0..<count])
    }

    private static func deallocate(_ buffer: UnsafeMutableBufferPointer<Float>) {
        UnsafeMutableBufferPointer(start: buffer.baseAddress, count: buffer.count + slack).deallocate()
    }

    /// The buffer of input `index`, to fill before `invoke()`.
    package func input(_ index: Int = 0) -> UnsafeMutableBufferPointer<Float> {
        inputBuffers[index]
    }

    /// The result in output `index`, valid until the next `invoke()`.
    package func output(_ index: Int) -> UnsafeBufferPointer<Float> {
        UnsafeBufferPointer(outputBuffers[index])
    }

    /// What each step of a run is, in order: an XNNPACK segment, or the host
    /// operators that follow it. `invoke(stepTimes:)` times the same steps.
    package let stepNames: [String]

    private static func stepNames(of model: CompiledModel) -> [String] {
        let leading = model.plan.leading.map { leading in
            ["leading CONV_2D (operator \(leading.operatorIndex))" + (leading.fusedReLUIndex.map { " with RELU (operator \($0))" } ?? "")
                + (model.plan.leadingStage.map { ", then \(Self.list($0.operators)) over its rows" } ?? "")]
        } ?? []
        return leading + model.plan.stages.enumerated().flatMap { stage, plan -> [String] in
            var names: [String] = []
            if !plan.segment.operators.isEmpty { names.append("segment \(stage) (\(plan.segment.operators.count) operators)") }
            if !plan.host.isEmpty {
                let kinds = plan.host.map { model.graph.operators[$0.operatorIndex].kind.name }
                names.append("host \(stage) (\(kinds.joined(separator: ", ")))")
            }
            return names
        }
    }

    /// "operator 2", "operators 2, 3" or "operators 2–10" for a run of consecutive indices.
    private static func list(_ indices: [Int]) -> String {
        guard indices.count > 1, let first = indices.first, let last = indices.last else { return "operator \(indices[0])" }
        guard last - first + 1 == indices.count, indices.count > 2 else {
            return "operators " + indices.map(String.init).joined(separator: ", ")
        }
        return "operators \(first)–\(last)"
    }

    /// How many runs computed only the rows of the model's first convolution
    /// that its input's uniform border does not decide (see
    /// `LeadingConvolution`), keeping the rest from an earlier run.
    package var bandRuns: Int { leading?.bandRuns ?? 0 }

    /// How many runs computed only the rows of the operators after the first
    /// convolution (see `LeadingStage`) that the border does not decide.
    package var stageBandRuns: Int { leadingStage?.bandRuns ?? 0 }

    /// Runs the model on the current input buffers.
    package func invoke() throws {
        try checkSetUp()
        if let leading {
            let clock = ContinuousClock()
            let start = profiling ? clock.now : nil
            let band = try leading.run()
            if let start { leadingTime = clock.now - start }
            try runStage(after: band, of: leading)
        }
        for stage in engines.indices {
            if let engine = engines[stage] { try run(engine) }
            for call in hostCalls[stage] { call.operation.run(call.inputs, call.outputs) }
        }
    }

    /// Runs the model as `invoke()` does, adding each step's time to `stepTimes`
    /// (one entry per name in `stepNames`; the array is sized on first use).
    package func invoke(stepTimes: inout [Duration]) throws {
        try checkSetUp()
        let clock = ContinuousClock()
        if stepTimes.count != stepNames.count { stepTimes = Array(repeating: .zero, count: stepNames.count) }
        var step = 0
        if let leading {
            let start = clock.now
            try runStage(after: try leading.run(), of: leading)
            stepTimes[step] += clock.now - start
            step += 1
        }
        for stage in engines.indices {
            if let engine = engines[stage] {
                let start = clock.now
                try run(engine)
                stepTimes[step] += clock.now - start
                step += 1
            }
            if !hostCalls[stage].isEmpty {
                let start = clock.now
                for call in hostCalls[stage] { call.operation.run(call.inputs, call.outputs) }
                stepTimes[step] += clock.now - start
                step += 1
            }
        }
    }

    private func runStage(after band: Range<Int>?, of leading: BandedConvolution) throws {
        guard let leadingStage else { return }
        do {
            try leadingStage.run(after: band)
        } catch {
            leading.forgetBorder()
            throw error
        }
    }

    private func checkSetUp() throws {
        guard isSetUp else {
            throw InferenceError(file: model.graph.file, problem: "cannot run before its weights cache is finalized and the runtime set up again")
        }
    }

    private func run(_ engine: xnn_runtime_t) throws {
        let status = xnn_invoke_runtime(engine)
        guard status == xnn_status_success else {
            throw InferenceError(file: model.graph.file, problem: "XNNPACK failed to run: \(status.name)")
        }
    }

    /// Copies `values` into input 0, runs, and returns copies of every output.
    package func run(_ values: [Float]) throws -> [[Float]] {
        let buffer = input(0)
        guard values.count == buffer.count else {
            throw InferenceError(file: model.graph.file, problem: "input has \(values.count) values, the model expects \(buffer.count)")
        }
        _ = buffer.update(fromContentsOf: values)
        try invoke()
        return outputBuffers.indices.map { Array(output($0)) }
    }
}
