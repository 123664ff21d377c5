import ModelFile

/// PReLU slopes repeated along the width of the image they apply to, so that
/// XNNPACK runs a PRELU as one long row per image row instead of one short
/// row per pixel.
///
/// XNNPACK splits a broadcasting elementwise operator into one task per run
/// of its innermost dimensions that both operands share. With per-channel
/// slopes of shape [C] over an [N, H, W, C] image that run is C values (8 or
/// 16 in the Face Landmarker's mesh, so 16384 calls of 16 values at 128x128);
/// slopes given as [1, 1, W, C] share W as well, and each task covers W * C
/// values. The values computed are the same.
struct RowSlopes: Sendable {
    /// The slope tensor's shape as given to XNNPACK: [1, 1, W, C].
    let shape: [Int]
    /// The slopes, W copies of the C per-channel values.
    let values: [Float]

    /// The repeated slopes for PRELU `op`, or nil when it is not a per-channel
    /// PReLU over a 4-D image wider than one pixel.
    init?(_ op: Operator, graph: Model) {
        guard case .prelu = op.kind, op.inputs.count == 2, op.inputs[1] >= 0,
              let slopes = graph.tensors[op.inputs[1]].constant?.floats else { return nil }
        let input = graph.tensors[op.inputs[0]].shape
        guard input.count == 4, graph.tensors[op.outputs[0]].shape == input,
              input[2] > 1, slopes.count == input[3],
              graph.tensors[op.inputs[1]].shape.dropLast().allSatisfy({ $0 == 1 }) else { return nil }
        shape = [1, 1, input[2], input[3]]
        values = Array([[Float]](repeating: slopes, count: input[2]).joined())
    }
}
