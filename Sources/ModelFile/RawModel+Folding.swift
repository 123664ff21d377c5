extension RawModel {
    /// Folds weight-only operators into constants and maps the rest to `OperatorKind`s.
    func folded() throws -> Model {
        var tensors = self.tensors
        var kept: [Operator] = []
        var written = Set(inputs)
        for (index, op) in operators.enumerated() {
            let known = BuiltinOperator(rawValue: op.code.builtin)
            for input in op.inputs where input >= 0 && tensors[input].constant == nil && tensors[input].sparsity == nil && !written.contains(input) {
                throw reader.fail("operator \(index) reads tensor \(input) ('\(tensors[input].name)') before anything computes it")
            }
            switch known {
            case .dequantize, .densify:
                guard op.inputs.count == 1, op.outputs.count == 1, op.inputs[0] >= 0, op.outputs[0] >= 0,
                      let source = tensors[op.inputs[0]].constant?.stableFloats else {
                    throw reader.fail("operator \(index) (\(known == .dequantize ? "DEQUANTIZE" : "DENSIFY")) has no constant float input; only weights can be folded")
                }
                let output = op.outputs[0]
                // A dequantized tensor shares its source's values: they were widened when read.
                var values = source
                if known == .densify {
                    guard let sparsity = tensors[op.inputs[0]].sparsity else {
                        throw reader.fail("operator \(index) (DENSIFY) input has no sparsity metadata")
                    }
                    values = StableFloats(try sparsity.densify(source.array, shape: tensors[output].shape, fail: reader.fail))
                }
                guard values.count == tensors[output].shape.reduce(1, *) else {
                    throw reader.fail("operator \(index) folds \(values.count) values into tensor \(output) of shape \(tensors[output].shape)")
                }
                tensors[output].constant = .stableFloats(values)
            default:
                let kind = try operatorKind(known, op: op, index: index, tensors: tensors)
                kept.append(Operator(kind: kind, inputs: op.inputs, outputs: op.outputs))
                written.formUnion(op.outputs)
            }
        }
        for output in outputs where !written.contains(output) {
            throw reader.fail("model output tensor \(output) ('\(tensors[output].name)') is never computed")
        }
        return Model(
            file: reader.file,
            tensors: tensors.map { Tensor(name: $0.name, shape: $0.shape, type: $0.type, constant: $0.constant) },
            operators: kept,
            inputs: inputs,
            outputs: outputs
        )
    }

    private func customOperator(_ op: RawOperator, index: Int) throws -> CustomOperator {
        guard let name = op.code.customName, !name.isEmpty else {
            throw reader.fail("operator \(index) is a custom operator without a name")
        }
        guard op.outputs.allSatisfy({ $0 >= 0 }), !op.outputs.isEmpty else {
            throw reader.fail("operator \(index) (\(name)) has no output tensor")
        }
        var options = FlexValue.null
        if !op.customOptions.isEmpty {
            guard CustomOptionsFormat(rawValue: op.customOptionsFormat) == .flexBuffers else {
                throw reader.fail("operator \(index) (\(name)) stores its options in format \(op.customOptionsFormat); only FlexBuffers (0) is defined")
            }
            options = try FlexValue.decode(op.customOptions, file: reader.file, context: "operator \(index) (\(name))'s options")
        }
        return CustomOperator(name: name, version: op.code.version, options: options)
    }

    private func operatorKind(_ known: BuiltinOperator?, op: RawOperator, index: Int, tensors: [RawTensor]) throws -> OperatorKind {
        func options<Slot: FlatBufferField>(_: Slot.Type) throws -> BuiltinOptionsReader<Slot> {
            BuiltinOptionsReader(table: try op.builtinOptions(Slot.self), operatorIndex: index, reader: reader)
        }
        func requireArity(_ inputs: ClosedRange<Int>, _ name: String) throws {
            guard inputs.contains(op.inputs.count), op.outputs.count == 1, op.outputs[0] >= 0,
                  op.inputs.prefix(2).allSatisfy({ $0 >= 0 }) else {
                throw reader.fail("operator \(index) (\(name)) has \(op.inputs.count) inputs and \(op.outputs.count) outputs")
            }
        }

        switch known {
        case .conv2D:
            try requireArity(2...3, "CONV_2D")
            return .conv2D(try options(Conv2DOptionsSlot.self).convolution())
        case .depthwiseConv2D:
            try requireArity(2...3, "DEPTHWISE_CONV_2D")
            let inputChannels = tensors[op.inputs[0]].shape.last ?? 0
            let outputChannels = tensors[op.outputs[0]].shape.last ?? 0
            guard inputChannels > 0, outputChannels % inputChannels == 0 else {
                throw reader.fail("operator \(index) (DEPTHWISE_CONV_2D) maps \(inputChannels) channels to \(outputChannels)")
            }
            return .depthwiseConv2D(try options(DepthwiseConv2DOptionsSlot.self).convolution(), depthMultiplier: outputChannels / inputChannels)
        case .add:
            try requireArity(2...2, "ADD")
            return .add(try options(AddOptionsSlot.self).activation(.fusedActivationFunction))
        case .relu:
            try requireArity(1...1, "RELU")
            return .relu
        case .logistic:
            try requireArity(1...1, "LOGISTIC")
            return .logistic
        case .prelu:
            try requireArity(2...2, "PRELU")
            return .prelu
        case .maxPool2D:
            try requireArity(1...1, "MAX_POOL_2D")
            let pool = try options(Pool2DOptionsSlot.self)
            return .maxPool2D(PoolOptions(
                padding: try pool.padding(.padding), strideWidth: try pool.int(.strideW, default: 1), strideHeight: try pool.int(.strideH, default: 1),
                filterWidth: try pool.int(.filterWidth, default: 1), filterHeight: try pool.int(.filterHeight, default: 1),
                activation: try pool.activation(.fusedActivationFunction)))
        case .pad:
            try requireArity(2...2, "PAD")
            return .pad
        case .reshape:
            try requireArity(1...2, "RESHAPE")
            return .reshape
        case .resizeBilinear:
            try requireArity(2...2, "RESIZE_BILINEAR")
            let resize = try options(ResizeBilinearOptionsSlot.self)
            return .resizeBilinear(alignCorners: try resize.bool(.alignCorners), halfPixelCenters: try resize.bool(.halfPixelCenters))
        case .depthToSpace:
            try requireArity(1...1, "DEPTH_TO_SPACE")
            return .depthToSpace(blockSize: try options(DepthToSpaceOptionsSlot.self).int(.blockSize, default: 0))
        case .concatenation:
            guard !op.inputs.isEmpty, op.inputs.allSatisfy({ $0 >= 0 }), op.outputs.count == 1, op.outputs[0] >= 0 else {
                throw reader.fail("operator \(index) (CONCATENATION) has \(op.inputs.count) inputs and \(op.outputs.count) outputs")
            }
            let concatenation = try options(ConcatenationOptionsSlot.self)
            return .concatenation(axis: try concatenation.int(.axis, default: 0),
                                  activation: try concatenation.activation(.fusedActivationFunction))
        case .mul:
            try requireArity(2...2, "MUL")
            return .mul(try options(MulOptionsSlot.self).activation(.fusedActivationFunction))
        case .stridedSlice:
            try requireArity(4...4, "STRIDED_SLICE")
            guard op.inputs[1...].allSatisfy({ $0 >= 0 && tensors[$0].constant?.integers != nil }) else {
                throw reader.fail("operator \(index) (STRIDED_SLICE) needs constant integer begin, end and strides")
            }
            let slice = try options(StridedSliceOptionsSlot.self)
            guard try !slice.bool(.offset) else {
                throw reader.fail("operator \(index) (STRIDED_SLICE) uses offset ends, which FaceWorker does not support")
            }
            return .stridedSlice(StridedSliceOptions(
                beginMask: try slice.int(.beginMask, default: 0), endMask: try slice.int(.endMask, default: 0),
                ellipsisMask: try slice.int(.ellipsisMask, default: 0), newAxisMask: try slice.int(.newAxisMask, default: 0),
                shrinkAxisMask: try slice.int(.shrinkAxisMask, default: 0)))
        case .sub:
            try requireArity(2...2, "SUB")
            return .sub(try options(SubOptionsSlot.self).activation(.fusedActivationFunction))
        case .div:
            try requireArity(2...2, "DIV")
            return .div(try options(DivOptionsSlot.self).activation(.fusedActivationFunction))
        case .squaredDifference:
            try requireArity(2...2, "SQUARED_DIFFERENCE")
            return .squaredDifference
        case .neg:
            try requireArity(1...1, "NEG")
            return .neg
        case .sqrt:
            try requireArity(1...1, "SQRT")
            return .sqrt
        case .rsqrt:
            try requireArity(1...1, "RSQRT")
            return .rsqrt
        case .mean, .sum:
            let name = known == .mean ? "MEAN" : "SUM"
            try requireArity(2...2, name)
            guard let axes = tensors[op.inputs[1]].constant?.integers else {
                throw reader.fail("operator \(index) (\(name)) needs constant integer axes")
            }
            let reduction = ReductionOptions(axes: axes.map(Int.init), keepDims: try options(ReducerOptionsSlot.self).bool(.keepDims))
            return known == .mean ? .mean(reduction) : .sum(reduction)
        case .transpose:
            try requireArity(2...2, "TRANSPOSE")
            guard let permutation = tensors[op.inputs[1]].constant?.integers else {
                throw reader.fail("operator \(index) (TRANSPOSE) needs a constant integer permutation")
            }
            return .transpose(permutation: permutation.map(Int.init))
        case .custom:
            return .custom(try customOperator(op, index: index))
        case .dequantize, .densify, nil:
            throw reader.fail("operator \(index) has builtin code \(op.code.builtin), which FaceWorker does not support (supported: \(BuiltinOperator.supportedNames))")
        }
    }
}

/// One operator's builtin options table, read field by field: an absent table
/// or field takes its default, and a value the schema does not define is an
/// error naming the operator.
private struct BuiltinOptionsReader<Slot: FlatBufferField> {
    let table: FlatBufferReader.Table<Slot>?
    let operatorIndex: Int
    let reader: FlatBufferReader

    func int(_ field: Slot, default defaultValue: Int32) throws -> Int {
        Int(try table?.scalar(field, default: defaultValue) ?? defaultValue)
    }

    func bool(_ field: Slot) throws -> Bool {
        try table?.bool(field) ?? false
    }

    /// A `Padding` field; absent means SAME, the schema's first value.
    func padding(_ field: Slot) throws -> Padding {
        let value = try table?.scalar(field, default: UInt8(0)) ?? 0
        guard let padding = Padding(schemaValue: value) else {
            throw reader.fail("operator \(operatorIndex) has unknown padding \(value)")
        }
        return padding
    }

    /// A `fused_activation_function` field; absent means NONE, the schema's first value.
    func activation(_ field: Slot) throws -> Activation {
        let value = try table?.scalar(field, default: UInt8(0)) ?? 0
        guard let activation = Activation(schemaValue: value) else {
            throw reader.fail("operator \(operatorIndex) has fused activation \(value), which FaceWorker does not support (none, RELU, RELU_N1_TO_1, RELU6)")
        }
        return activation
    }
}

extension BuiltinOptionsReader where Slot: ConvolutionOptionsSlot {
    /// The options of a regular or depthwise convolution, which name the same fields at different slots.
    func convolution() throws -> ConvolutionOptions {
        ConvolutionOptions(
            padding: try padding(.padding), strideWidth: try int(.strideW, default: 1), strideHeight: try int(.strideH, default: 1),
            dilationWidth: try int(.dilationWFactor, default: 1), dilationHeight: try int(.dilationHFactor, default: 1),
            activation: try activation(.fusedActivationFunction))
    }
}
