import ModelFile

/// A loaded model prepared for XNNPACK: immutable and shared by every runtime.
///
/// Holds the folded graph, its execution plan (XNNPACK segments and the host
/// operators between them, checked here so a model the runtime cannot run is
/// an error at load) and the stable addresses of its weights (XNNPACK keeps
/// pointers to static tensor data for the lifetime of a subgraph and its
/// runtimes). Load each model once per process and create one `Runtime` per
/// inference thread from it.
package final class CompiledModel: Sendable {
    /// The folded graph as read from the file.
    package let graph: Model
    /// The shape of each model input, in order.
    package let inputShapes: [[Int]]
    /// The shape of each model output, in order.
    package let outputShapes: [[Int]]
    let weights: WeightStore
    let plan: ExecutionPlan

    /// Reads, folds and validates the model at `path`.
    ///
    /// - Parameter letterboxedInput: whether the model's input is an image
    ///   fitted into it with a uniform border above and below (a detector's):
    ///   its first convolution then keeps the output rows that border decides
    ///   from one run to the next (see `LeadingConvolution`).
    package convenience init(path: String, letterboxedInput: Bool = false) throws {
        try self.init(graph: try ModelLoader.load(path: path), letterboxedInput: letterboxedInput)
    }

    /// Reads, folds and validates the model stored as member `member` of a
    /// `.task` bundle, checking its SHA-256 when `sha256` is given;
    /// `letterboxedInput` as for `init(path:letterboxedInput:)`.
    package convenience init(bundle: TaskBundle, member: String, sha256: String? = nil, letterboxedInput: Bool = false) throws {
        try self.init(graph: try bundle.model(member, sha256: sha256), letterboxedInput: letterboxedInput)
    }

    /// Validates a folded graph for execution; `letterboxedInput` as for
    /// `init(path:letterboxedInput:)`.
    package init(graph: Model, letterboxedInput: Bool = false) throws {
        self.graph = graph
        self.inputShapes = graph.inputs.map { graph.tensors[$0].shape }
        self.outputShapes = graph.outputs.map { graph.tensors[$0].shape }
        self.plan = try ExecutionPlan(graph: graph, bandsLeadingConvolution: letterboxedInput)
        self.weights = WeightStore(graph: graph)
    }

    /// The file name without directory, for logs and reports.
    package var name: String {
        String(graph.file.split(separator: "/").last ?? Substring(graph.file))
    }
}

/// The weights' stable addresses: the graph's own float constants, and the
/// PRELU slopes widened for XNNPACK.
struct WeightStore: Sendable {
    private let storage: [Int: StableFloats]
    /// Per PRELU operator index: its slopes repeated along the image width.
    private let rowSlopes: [Int: (shape: [Int], values: StableFloats)]

    init(graph: Model) {
        var storage: [Int: StableFloats] = [:]
        for (index, tensor) in graph.tensors.enumerated() {
            guard let values = tensor.constant?.stableFloats else { continue }
            storage[index] = values
        }
        self.storage = storage
        var rowSlopes: [Int: (shape: [Int], values: StableFloats)] = [:]
        for (index, op) in graph.operators.enumerated() {
            guard let slopes = RowSlopes(op, graph: graph) else { continue }
            rowSlopes[index] = (slopes.shape, StableFloats(slopes.values))
        }
        self.rowSlopes = rowSlopes
    }

    /// Stable address of tensor `index`'s float data, or nil if it has none.
    func pointer(_ index: Int) -> UnsafePointer<Float>? {
        storage[index]?.pointer
    }

    /// The shape and stable address of PRELU operator `index`'s slopes
    /// repeated along the width (see `RowSlopes`), or nil if it has none.
    func rowSlopes(ofOperator index: Int) -> (shape: [Int], pointer: UnsafePointer<Float>)? {
        rowSlopes[index].map { ($0.shape, $0.values.pointer) }
    }
}
