import ModelFile

extension Model {
    /// The graph with every RELU that is the only reader of an elementwise
    /// ADD, MUL, SUB or DIV folded into that operator's own activation.
    ///
    /// XNNPACK's subgraph folds a clamp into the convolution or pooling that
    /// feeds it, but not into a binary elementwise node, so a residual ADD
    /// followed by RELU (sixteen times in BlazeFace's short-range detector)
    /// would make two passes over the tensor where one suffices. The fold
    /// keeps the RELU's output tensor, so readers and model outputs are
    /// untouched; a producer whose result is also read elsewhere, or is itself
    /// a model output, keeps its RELU.
    func withActivationsFused() -> Model {
        var readers = [Int](repeating: 0, count: tensors.count)
        for op in operators {
            for input in op.inputs where input >= 0 { readers[input] += 1 }
        }
        for output in outputs { readers[output] += 1 }
        var producer: [Int: Int] = [:]
        for (index, op) in operators.enumerated() {
            for output in op.outputs { producer[output] = index }
        }

        var fused = operators.map(Optional.some)
        for (index, op) in operators.enumerated() where op.kind == .relu {
            let value = op.inputs[0]
            guard readers[value] == 1, let source = producer[value], let kept = fused[source],
                  let withRelu = kept.kind.withReluActivation else { continue }
            fused[source] = Operator(kind: withRelu, inputs: kept.inputs, outputs: op.outputs)
            fused[index] = nil
        }
        return Model(file: file, tensors: tensors, operators: fused.compactMap { $0 }, inputs: inputs, outputs: outputs)
    }
}

private extension OperatorKind {
    /// The same elementwise operator followed by RELU, when its own
    /// activation can express that (none or RELU before); nil otherwise.
    var withReluActivation: OperatorKind? {
        switch self {
        case .add(let activation): activation.thenRelu.map { .add($0) }
        case .mul(let activation): activation.thenRelu.map { .mul($0) }
        case .sub(let activation): activation.thenRelu.map { .sub($0) }
        case .div(let activation): activation.thenRelu.map { .div($0) }
        default: nil
        }
    }
}

private extension Activation {
    /// This activation followed by RELU, when one activation says both.
    var thenRelu: Activation? {
        switch self {
        case .none, .relu: .relu
        case .relu6: .relu6
        case .reluN1To1: nil
        }
    }
}
