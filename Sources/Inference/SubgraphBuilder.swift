import CXNNPack
import ModelFile

/// Translates one segment of a folded graph into an XNNPACK subgraph.
///
/// Every TFLite tensor index is used as the XNNPACK external value id, so a
/// segment's inputs and outputs are addressed by the same numbers as in the file.
struct SubgraphBuilder {
    let model: CompiledModel
    let segment: ExecutionPlan.Segment
    let subgraph: xnn_subgraph_t

    private var graph: Model { model.graph }

    func check(_ status: xnn_status, operatorIndex: Int? = nil, _ what: @autoclosure () -> String) throws {
        guard status == xnn_status_success else {
            throw InferenceError(file: graph.file, operatorIndex: operatorIndex, problem: "XNNPACK refused \(what()): \(status.name)")
        }
    }

    /// Defines every tensor the segment touches, then every node.
    func build() throws {
        var used = Set<Int>()
        for index in segment.operators {
            used.formUnion(graph.operators[index].inputs.filter { $0 >= 0 })
            used.formUnion(graph.operators[index].outputs)
        }
        let inputs = Set(segment.inputs)
        let outputs = Set(segment.outputs)
        for index in used.sorted() {
            let flags = (inputs.contains(index) ? UInt32(XNN_VALUE_FLAG_EXTERNAL_INPUT) : 0)
                | (outputs.contains(index) ? UInt32(XNN_VALUE_FLAG_EXTERNAL_OUTPUT) : 0)
            try defineTensor(index, flags: flags)
        }
        for index in segment.operators {
            try defineNode(graph.operators[index], index: index)
        }
    }

    private func defineTensor(_ index: Int, flags: UInt32) throws {
        let tensor = graph.tensors[index]
        if case .int32 = tensor.constant {
            return // Integer parameters (paddings, shapes) are read by the node definitions.
        }
        let sizes = tensor.shape.map { size_t($0) }
        var id: UInt32 = 0
        let status = sizes.withUnsafeBufferPointer {
            xnn_define_tensor_value(subgraph, xnn_datatype_fp32, $0.count, $0.baseAddress,
                                    model.weights.pointer(index), UInt32(index), flags, &id)
        }
        try check(status, "tensor \(index) ('\(tensor.name)', shape \(tensor.shape))")
    }

    private func defineNode(_ op: Operator, index: Int) throws {
        let input = UInt32(op.inputs[0])
        let output = UInt32(op.outputs[0])
        let optional = { (position: Int) -> UInt32 in
            position < op.inputs.count && op.inputs[position] >= 0 ? UInt32(op.inputs[position]) : XNN_INVALID_VALUE_ID
        }
        let status: xnn_status
        switch op.kind {
        case .conv2D(let options):
            let filter = graph.tensors[op.inputs[1]].shape // [O, kh, kw, I]
            guard filter.count == 4 else { throw shapeError(index, "CONV_2D filter shape \(filter)") }
            let range = options.activation.range
            status = xnn_define_convolution_2d(
                subgraph, 0, 0, 0, 0, UInt32(filter[1]), UInt32(filter[2]),
                UInt32(options.strideHeight), UInt32(options.strideWidth),
                UInt32(options.dilationHeight), UInt32(options.dilationWidth),
                1, filter[3], filter[0], range.lowerBound, range.upperBound,
                input, UInt32(op.inputs[1]), optional(2), output, paddingFlag(options.padding))
        case .depthwiseConv2D(let options, let multiplier):
            let filter = graph.tensors[op.inputs[1]].shape // [1, kh, kw, C * multiplier]
            guard filter.count == 4 else { throw shapeError(index, "DEPTHWISE_CONV_2D filter shape \(filter)") }
            let range = options.activation.range
            status = xnn_define_depthwise_convolution_2d(
                subgraph, 0, 0, 0, 0, UInt32(filter[1]), UInt32(filter[2]),
                UInt32(options.strideHeight), UInt32(options.strideWidth),
                UInt32(options.dilationHeight), UInt32(options.dilationWidth),
                UInt32(multiplier), filter[3] / multiplier, range.lowerBound, range.upperBound,
                input, UInt32(op.inputs[1]), optional(2), output, paddingFlag(options.padding))
        case .add(let activation):
            status = binary(xnn_binary_add, op, activation)
        case .relu:
            var params = xnn_unary_params(clamp: .init(min: 0, max: .infinity))
            status = xnn_define_unary(subgraph, xnn_unary_clamp, &params, input, output, 0)
        case .logistic:
            status = xnn_define_unary(subgraph, xnn_unary_sigmoid, nil, input, output, 0)
        case .prelu:
            var slopes = UInt32(op.inputs[1])
            if let rows = model.weights.rowSlopes(ofOperator: index) {
                let sizes = rows.shape.map { size_t($0) }
                try check(xnn_define_tensor_value(subgraph, xnn_datatype_fp32, sizes.count, sizes, rows.pointer,
                                                  XNN_INVALID_VALUE_ID, 0, &slopes),
                          operatorIndex: index, "PRELU slopes repeated to \(rows.shape)")
            }
            status = xnn_define_binary(subgraph, xnn_binary_prelu, nil, input, slopes, output, 0)
        case .maxPool2D(let options):
            let range = options.activation.range
            status = xnn_define_max_pooling_2d(
                subgraph, 0, 0, 0, 0, UInt32(options.filterHeight), UInt32(options.filterWidth),
                UInt32(options.strideHeight), UInt32(options.strideWidth), 1, 1,
                range.lowerBound, range.upperBound, input, output, paddingFlag(options.padding))
        case .pad:
            let rank = graph.tensors[op.inputs[0]].shape.count
            guard let amounts = graph.tensors[op.inputs[1]].constant?.integers, amounts.count == 2 * rank,
                  amounts.allSatisfy({ $0 >= 0 }) else {
                throw shapeError(index, "PAD needs constant non-negative paddings of shape [\(rank), 2]")
            }
            let before = (0..<rank).map { size_t(amounts[2 * $0]) }
            let after = (0..<rank).map { size_t(amounts[2 * $0 + 1]) }
            status = xnn_define_static_constant_pad(subgraph, before, after, 0, input, output, 0)
        case .reshape:
            let shape = graph.tensors[op.outputs[0]].shape.map { size_t($0) }
            status = xnn_define_static_reshape(subgraph, shape.count, shape, input, output, 0)
        case .resizeBilinear(let alignCorners, let halfPixelCenters):
            let shape = graph.tensors[op.outputs[0]].shape
            guard shape.count == 4 else { throw shapeError(index, "RESIZE_BILINEAR output shape \(shape)") }
            // TFLite's default (neither flag) is TensorFlow's legacy sampling grid.
            let flags: UInt32 = alignCorners ? UInt32(XNN_FLAG_ALIGN_CORNERS)
                : halfPixelCenters ? 0 : UInt32(XNN_FLAG_TENSORFLOW_LEGACY_MODE)
            status = xnn_define_static_resize_bilinear_2d(subgraph, shape[1], shape[2], input, output, flags)
        case .depthToSpace(let blockSize):
            status = xnn_define_depth_to_space_2d(subgraph, UInt32(blockSize), input, output, 0)
        case .mul(let activation):
            status = binary(xnn_binary_multiply, op, activation)
        case .sub(let activation):
            status = binary(xnn_binary_subtract, op, activation)
        case .div(let activation):
            status = binary(xnn_binary_divide, op, activation)
        case .squaredDifference:
            status = xnn_define_binary(subgraph, xnn_binary_squared_difference, nil, input, UInt32(op.inputs[1]), output, 0)
        case .neg:
            status = xnn_define_unary(subgraph, xnn_unary_negate, nil, input, output, 0)
        case .sqrt:
            status = xnn_define_unary(subgraph, xnn_unary_square_root, nil, input, output, 0)
        case .stridedSlice(let options):
            guard StridedSlice.isIdentity(op, options: options, graph: graph) else {
                throw shapeError(index, "STRIDED_SLICE that drops or reorders elements runs on the host, not in XNNPACK")
            }
            let shape = graph.tensors[op.outputs[0]].shape.map { size_t($0) }
            status = xnn_define_static_reshape(subgraph, shape.count, shape, input, output, 0)
        case .rsqrt:
            status = xnn_define_unary(subgraph, xnn_unary_reciprocal_square_root, nil, input, output, 0)
        case .transpose(let permutation):
            let order = permutation.map { size_t($0) }
            status = xnn_define_static_transpose(subgraph, order.count, order, input, output, 0)
        case .mean(let options), .sum(let options):
            let isMean = if case .mean = op.kind { true } else { false }
            let axes = try ReductionAxes.checked(op, options: options, name: op.kind.name, graph: graph) { shapeError(index, $0) }
                .map { size_t($0) }
            status = xnn_define_static_reduce(subgraph, isMean ? xnn_reduce_mean : xnn_reduce_sum, axes.count, axes,
                                              input, output, options.keepDims ? UInt32(XNN_FLAG_KEEP_DIMS) : 0)
        case .concatenation(let axis, _):
            let ids = op.inputs.map { UInt32($0) }
            switch ids.count {
            case 2: status = xnn_define_concatenate2(subgraph, Int32(axis), ids[0], ids[1], output, 0)
            case 3: status = xnn_define_concatenate3(subgraph, Int32(axis), ids[0], ids[1], ids[2], output, 0)
            case 4: status = xnn_define_concatenate4(subgraph, Int32(axis), ids[0], ids[1], ids[2], ids[3], output, 0)
            case 5: status = xnn_define_concatenate5(subgraph, Int32(axis), ids[0], ids[1], ids[2], ids[3], ids[4], output, 0)
            default: throw shapeError(index, "CONCATENATION of \(ids.count) inputs runs on the host, not in XNNPACK")
            }
        case .custom:
            throw shapeError(index, "\(op.kind.name) runs on the host, not in XNNPACK")
        }
        try check(status, operatorIndex: index, "\(op.kind.name) (inputs \(op.inputs), outputs \(op.outputs))")
    }

    /// A two-input elementwise node, its fused activation as the output's clamp.
    private func binary(_ type: xnn_binary_operator, _ op: Operator, _ activation: Activation) -> xnn_status {
        let range = activation.range
        var params = xnn_binary_params(output_min: Double(range.lowerBound), output_max: Double(range.upperBound))
        return xnn_define_binary(subgraph, type, &params, UInt32(op.inputs[0]), UInt32(op.inputs[1]), UInt32(op.outputs[0]), 0)
    }

    /// How many inputs XNNPACK's concatenate nodes take.
    static let concatenationArity = 2...5

    private func paddingFlag(_ padding: Padding) -> UInt32 {
        padding == .same ? UInt32(XNN_FLAG_TENSORFLOW_SAME_PADDING) : 0
    }

    private func shapeError(_ index: Int, _ problem: String) -> InferenceError {
        InferenceError(file: graph.file, operatorIndex: index, problem: problem)
    }
}
