import ModelFile

/// How a model runs: XNNPACK segments, with the operators XNNPACK cannot run
/// (custom operators, and the builtins `HostOperation` lists) done on the host
/// between them.
///
/// Operators are placed by data dependency, not by their order in the file:
/// an XNNPACK operator joins the first segment after everything it reads is
/// computed, and a host operator runs right after the segment that computes
/// the last of its inputs. A file that interleaves a branch after a custom
/// operator with trunk operators that need none (as MediaPipe's attention mesh
/// does) still runs as one segment per side of the custom operators.
struct ExecutionPlan: Sendable {
    /// The XNNPACK part of one step.
    struct Segment: Sendable {
        /// Operator indices, in file order.
        var operators: [Int]
        /// Tensors the segment reads but does not compute.
        var inputs: [Int]
        /// Tensors the segment computes that something after it reads, or that are model outputs.
        var outputs: [Int]
    }

    /// One host operator, ready to run.
    struct HostStep: Sendable {
        var operatorIndex: Int
        var operation: HostOperation
        var inputs: [Int]
        var outputs: [Int]
    }

    /// An XNNPACK segment followed by the host operators that depend on it.
    struct Stage: Sendable {
        var segment: Segment
        var host: [HostStep]
    }

    /// The first convolution, run before the first stage by the runtime
    /// itself (see `LeadingConvolution`); nil when the model has none.
    var leading: LeadingConvolution?
    /// The operators after it that keep its output's rows, run with it (see
    /// `LeadingStage`); nil when there are none.
    var leadingStage: LeadingStage?
    var stages: [Stage]
    /// Every tensor that crosses a boundary (model inputs and outputs, segment
    /// inputs and outputs, host operands): each gets a buffer of its own.
    var boundaryTensors: [Int]

    /// Places `graph`'s operators; with `bandsLeadingConvolution`, its first
    /// convolution (if it has one) and the operators after it that keep its
    /// height run on their own before the first stage.
    init(graph: Model, bandsLeadingConvolution: Bool = false) throws {
        var producedBy: [Int: Place] = [:]
        for input in graph.inputs { producedBy[input] = .engine(0) }
        leading = bandsLeadingConvolution ? LeadingConvolution(graph: graph) : nil
        leadingStage = leading.flatMap { LeadingStage(graph: graph, after: $0) }
        if let leading { producedBy[leading.output] = .engine(0) }
        if let leadingStage { producedBy[leadingStage.output] = .engine(0) }
        var engineOperators: [[Int]] = []
        var hostSteps: [[HostStep]] = []

        func grow(_ count: Int) {
            while engineOperators.count < count { engineOperators.append([]) }
            while hostSteps.count < count { hostSteps.append([]) }
        }

        let runByLeading = Set((leading?.operatorIndices ?? []) + (leadingStage?.operators ?? []))
        for (index, op) in graph.operators.enumerated() where !runByLeading.contains(index) {
            let computed = op.inputs.filter { $0 >= 0 && graph.tensors[$0].constant == nil }
            let places = computed.compactMap { producedBy[$0] }
            if let operation = try HostOperation(op, index: index, graph: graph, hostInputs: places.contains { $0.isHost }) {
                let stage = places.map(\.stage).max() ?? 0
                grow(stage + 1)
                hostSteps[stage].append(HostStep(operatorIndex: index, operation: operation, inputs: op.inputs, outputs: op.outputs))
                for output in op.outputs { producedBy[output] = .host(stage) }
            } else {
                let segment = places.map { $0.isHost ? $0.stage + 1 : $0.stage }.max() ?? 0
                grow(segment + 1)
                engineOperators[segment].append(index)
                for output in op.outputs { producedBy[output] = .engine(segment) }
            }
        }
        if engineOperators.isEmpty { grow(1) }

        var readers: [Int: Set<Int>] = [:] // tensor -> stages whose segment reads it
        var hostRead = Set<Int>()
        for (stage, operators) in engineOperators.enumerated() {
            for index in operators {
                for input in graph.operators[index].inputs where input >= 0 { readers[input, default: []].insert(stage) }
            }
        }
        for steps in hostSteps {
            for step in steps { hostRead.formUnion(step.inputs.filter { $0 >= 0 }) }
        }
        let modelOutputs = Set(graph.outputs)
        var boundary = Set(graph.inputs).union(graph.outputs).union(hostRead)
            .union([leading?.output, leadingStage?.output].compactMap { $0 })
        stages = engineOperators.indices.map { stage in
            let operators = engineOperators[stage]
            var computedHere = Set<Int>()
            var read = Set<Int>()
            for index in operators {
                computedHere.formUnion(graph.operators[index].outputs)
                read.formUnion(graph.operators[index].inputs.filter { $0 >= 0 && graph.tensors[$0].constant == nil })
            }
            let inputs = read.subtracting(computedHere).sorted()
            let outputs = computedHere.filter { tensor in
                modelOutputs.contains(tensor) || hostRead.contains(tensor) || readers[tensor, default: []].contains { $0 != stage }
            }.sorted()
            boundary.formUnion(inputs)
            boundary.formUnion(outputs)
            return Stage(segment: Segment(operators: operators, inputs: inputs, outputs: outputs), host: hostSteps[stage])
        }
        boundaryTensors = boundary.sorted()
    }

    /// Where a tensor is computed: by which stage's segment, or by its host part.
    private enum Place {
        case engine(Int)
        case host(Int)

        var stage: Int {
            switch self {
            case .engine(let stage), .host(let stage): stage
            }
        }

        var isHost: Bool {
            if case .host = self { return true }
            return false
        }
    }
}
