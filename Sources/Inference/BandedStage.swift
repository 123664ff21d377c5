import CXNNPack
import ModelFile

/// One runtime's means of running its model's `LeadingStage`: an XNNPACK
/// runtime of the stage's operators alone, shaped for the whole height after
/// a whole run of the leading convolution and for a band of rows after a
/// band run, writing straight into the stage's output.
///
/// A band's run pads its cut edges with zeros, so the `halo` rows at each
/// cut come out wrong; those rows are ones the border decides, and they are
/// put back as the last whole run left them. Every other row is computed
/// from the same window, in the same order, as in a whole run: the outputs
/// are the whole run's to the bit.
///
/// Not thread-safe, like the `Runtime` that owns it.
final class BandedStage {
    let geometry: LeadingStage
    private let input: UnsafeMutableBufferPointer<Float>
    private let output: UnsafeMutableBufferPointer<Float>
    /// The stage's XNNPACK runtime, read for its operator profile.
    let engine: xnn_runtime_t
    /// Held so the workspace outlives the runtime. It may be the thread's
    /// shared one: the runtime is first shaped for the whole height, and a
    /// band needs less, so reshaping never grows it and never moves the
    /// memory the thread's other runtimes were set up with.
    private let workspace: Workspace
    private let file: String
    /// The input rows the runtime is shaped and set up for.
    private var prepared: Range<Int>?
    /// The output rows a band's run gets wrong, kept while it runs.
    private let edges: UnsafeMutableBufferPointer<Float>
    /// How many runs computed a band alone, for tests.
    private(set) var bandRuns = 0

    init(_ geometry: LeadingStage, model: CompiledModel, input: UnsafeMutableBufferPointer<Float>,
         output: UnsafeMutableBufferPointer<Float>, pool: pthreadpool_t?, workspace: Workspace?, profiling: Bool) throws {
        self.geometry = geometry
        self.input = input
        self.output = output
        file = model.graph.file
        self.workspace = try workspace ?? Workspace()
        let segment = ExecutionPlan.Segment(operators: geometry.operators, inputs: [geometry.input], outputs: [geometry.output])
        engine = try Runtime.engine(for: segment, model: model, pool: pool, workspace: self.workspace.handle, weightsCache: nil,
                                    setUp: false, profiling: profiling, externals: [])
        edges = .allocate(capacity: max(2 * geometry.halo * geometry.width * geometry.outputChannels, 1))
        try prepare(0..<geometry.height)
    }

    deinit {
        xnn_delete_runtime(engine)
        edges.deallocate()
    }

    /// Runs the stage after the leading convolution computed the rows `band`
    /// alone (nil: all of them).
    func run(after band: Range<Int>?) throws {
        let rows = band.map { geometry.inputRows(after: $0) } ?? 0..<geometry.height
        if rows != prepared { try prepare(rows) }
        let rowLength = geometry.width * geometry.outputChannels
        let top = rows.lowerBound > 0 ? geometry.halo : 0
        let bottom = rows.upperBound < geometry.height ? geometry.halo : 0
        let above = output.baseAddress! + rows.lowerBound * rowLength
        let below = output.baseAddress! + (rows.upperBound - bottom) * rowLength
        edges.baseAddress!.update(from: above, count: top * rowLength)
        (edges.baseAddress! + top * rowLength).update(from: below, count: bottom * rowLength)
        let status = xnn_invoke_runtime(engine)
        above.update(from: edges.baseAddress!, count: top * rowLength)
        below.update(from: edges.baseAddress! + top * rowLength, count: bottom * rowLength)
        guard status == xnn_status_success else {
            throw InferenceError(file: file, problem: "XNNPACK failed to run the operators after the leading CONV_2D: \(status.name)")
        }
        if band != nil { bandRuns += 1 }
    }

    /// Sets the runtime up again for the rows it is shaped for: a runtime
    /// built later in the shared workspace may have grown it, and so moved it.
    func rebind() throws {
        try prepare(prepared ?? 0..<geometry.height)
    }

    /// Shapes the runtime for the input rows `rows` and points it at them and at the same rows of the output.
    private func prepare(_ rows: Range<Int>) throws {
        prepared = nil
        let shape = [1, rows.count, geometry.width, geometry.inputChannels]
        var status = xnn_reshape_external_value(engine, UInt32(geometry.input), shape.count, shape)
        if status == xnn_status_success { status = xnn_reshape_runtime(engine) }
        guard status == xnn_status_success else {
            throw InferenceError(file: file, problem: "XNNPACK could not shape the operators after the leading CONV_2D for \(rows.count) rows: \(status.name)")
        }
        let externals = [
            xnn_external_value(id: UInt32(geometry.input),
                               data: UnsafeMutableRawPointer(input.baseAddress! + rows.lowerBound * geometry.width * geometry.inputChannels)),
            xnn_external_value(id: UInt32(geometry.output),
                               data: UnsafeMutableRawPointer(output.baseAddress! + rows.lowerBound * geometry.width * geometry.outputChannels)),
        ]
        status = xnn_setup_runtime_v2(engine, externals.count, externals)
        guard status == xnn_status_success else {
            throw InferenceError(file: file, problem: "XNNPACK could not set up the operators after the leading CONV_2D: \(status.name)")
        }
        prepared = rows
    }
}
