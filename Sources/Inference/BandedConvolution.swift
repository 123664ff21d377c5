import CXNNPack
import ModelFile

/// One runtime's means of running its model's `LeadingConvolution`: two
/// XNNPACK convolution operators on the same weights, one over the whole
/// input (padded as the model says) and one over a band of rows (padded at
/// the sides only), and what the last whole run left in the output.
///
/// Not thread-safe, like the `Runtime` that owns it.
final class BandedConvolution {
    /// The input's uniform border when the output's border rows were last
    /// computed: the rows at the top and bottom, and their values' bits
    /// (zero where there are no such rows).
    private struct Border: Equatable {
        var top: Int
        var bottom: Int
        var topBits: UInt32
        var bottomBits: UInt32
    }

    let geometry: LeadingConvolution
    private let input: UnsafeMutableBufferPointer<Float>
    private let output: UnsafeMutableBufferPointer<Float>
    private let pool: pthreadpool_t?
    private let file: String
    private let whole: xnn_operator_t
    private let banded: xnn_operator_t
    private var wholeWorkspace: UnsafeMutableRawPointer?
    private var bandWorkspace: UnsafeMutableRawPointer?
    /// The band the banded operator is set up for.
    private var preparedBand: Range<Int>?
    /// The border whose rows the output holds from a whole run; nil after a
    /// whole run on an input whose border leaves no band to save.
    private var heldBorder: Border?
    /// How many runs computed the band alone, for tests and profiles.
    private(set) var bandRuns = 0

    init(_ geometry: LeadingConvolution, graph: Model, input: UnsafeMutableBufferPointer<Float>,
         output: UnsafeMutableBufferPointer<Float>, pool: pthreadpool_t?) throws {
        self.geometry = geometry
        self.input = input
        self.output = output
        self.pool = pool
        file = graph.file
        let op = graph.operators[geometry.operatorIndex]
        guard case .conv2D(let options) = op.kind else {
            throw InferenceError(file: graph.file, operatorIndex: geometry.operatorIndex, problem: "the leading operator is not a CONV_2D")
        }
        let filter = graph.tensors[op.inputs[1]].constant?.floats ?? []
        let bias = op.inputs.count > 2 && op.inputs[2] >= 0 ? graph.tensors[op.inputs[2]].constant?.floats : nil
        let range = geometry.outputRange
        func create(top: Int, right: Int, bottom: Int, left: Int, flags: UInt32) throws -> xnn_operator_t {
            var created: xnn_operator_t?
            let status = filter.withUnsafeBufferPointer { filter in
                Self.withOptional(bias) { bias in
                    xnn_create_convolution2d_nhwc_f32(
                        UInt32(top), UInt32(right), UInt32(bottom), UInt32(left),
                        UInt32(geometry.kernelHeight), UInt32(geometry.kernelWidth),
                        UInt32(geometry.strideHeight), UInt32(geometry.strideWidth), 1, 1, 1,
                        geometry.channels, geometry.outputChannels, geometry.channels, geometry.outputChannels,
                        filter.baseAddress, bias, range.lowerBound, range.upperBound, flags, nil, nil, &created)
                }
            }
            guard status == xnn_status_success, let created else {
                throw InferenceError(file: graph.file, operatorIndex: geometry.operatorIndex,
                                     problem: "XNNPACK refused the leading CONV_2D: \(status.name)")
            }
            return created
        }
        whole = try create(top: 0, right: 0, bottom: 0, left: 0,
                           flags: options.padding == .same ? UInt32(XNN_FLAG_TENSORFLOW_SAME_PADDING) : 0)
        do {
            banded = try create(top: 0, right: geometry.paddingRight, bottom: 0, left: geometry.paddingLeft, flags: 0)
        } catch {
            xnn_delete_operator(whole)
            throw error
        }
        // Every stored property is set: from here a throw runs deinit, which deletes both operators.
        wholeWorkspace = try prepare(whole, rows: geometry.height, input: input.baseAddress!, output: output.baseAddress!,
                                     outputRows: geometry.outputHeight)
    }

    deinit {
        xnn_delete_operator(whole)
        xnn_delete_operator(banded)
        wholeWorkspace?.deallocate()
        bandWorkspace?.deallocate()
    }

    private static func withOptional<Result>(_ values: [Float]?, _ body: (UnsafePointer<Float>?) -> Result) -> Result {
        guard let values else { return body(nil) }
        return values.withUnsafeBufferPointer { body($0.baseAddress) }
    }

    /// Shapes `op` for `rows` input rows and points it at `input` and
    /// `output`; returns the workspace it needs, which the caller frees.
    private func prepare(_ op: xnn_operator_t, rows: Int, input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>,
                         outputRows: Int) throws -> UnsafeMutableRawPointer? {
        var workspaceSize = 0, workspaceAlignment = 0, outputHeight = 0, outputWidth = 0
        var status = xnn_reshape_convolution2d_nhwc_f32(op, 1, rows, geometry.width, &workspaceSize, &workspaceAlignment,
                                                         &outputHeight, &outputWidth, pool)
        guard status == xnn_status_success, outputHeight == outputRows, outputWidth == geometry.outputWidth else {
            throw InferenceError(file: file, operatorIndex: geometry.operatorIndex,
                                 problem: "XNNPACK shaped the leading CONV_2D over \(rows) rows to \(outputHeight)x\(outputWidth) (\(status.name))")
        }
        let workspace = workspaceSize > 0
            ? UnsafeMutableRawPointer.allocate(byteCount: workspaceSize, alignment: max(workspaceAlignment, 64)) : nil
        status = xnn_setup_convolution2d_nhwc_f32(op, workspace, input, output)
        guard status == xnn_status_success else {
            workspace?.deallocate()
            throw InferenceError(file: file, operatorIndex: geometry.operatorIndex,
                                 problem: "XNNPACK could not set up the leading CONV_2D: \(status.name)")
        }
        return workspace
    }

    /// Computes the output from the current input: the band alone when the
    /// input's border is the one the output's border rows were computed for.
    /// Returns the output rows computed, nil when it computed them all.
    func run() throws -> Range<Int>? {
        let border = uniformBorder()
        let band = geometry.band(top: border.top, bottom: border.bottom)
        if let band, border == heldBorder {
            if band != preparedBand {
                bandWorkspace?.deallocate()
                bandWorkspace = nil
                preparedBand = nil
                let rows = geometry.inputRows(of: band)
                bandWorkspace = try prepare(banded, rows: rows.count,
                                            input: input.baseAddress! + rows.lowerBound * geometry.width * geometry.channels,
                                            output: output.baseAddress! + band.lowerBound * geometry.outputWidth * geometry.outputChannels,
                                            outputRows: band.count)
                preparedBand = band
            }
            try execute(banded)
            bandRuns += 1
            return band
        }
        heldBorder = nil
        try execute(whole)
        heldBorder = band == nil ? nil : border
        return nil
    }

    /// Makes the next run a whole one: what follows the convolution failed
    /// to keep its own border rows from this run.
    func forgetBorder() {
        heldBorder = nil
    }

    private func execute(_ op: xnn_operator_t) throws {
        let status = xnn_run_operator(op, pool)
        guard status == xnn_status_success else {
            throw InferenceError(file: file, operatorIndex: geometry.operatorIndex, problem: "XNNPACK failed to run the leading CONV_2D: \(status.name)")
        }
    }

    /// How many rows at the top of the input hold one value throughout (the
    /// first value's bits), and how many at the bottom (the last row's first).
    private func uniformBorder() -> Border {
        let rowLength = geometry.width * geometry.channels, height = geometry.height
        return UnsafeRawBufferPointer(input).withMemoryRebound(to: UInt32.self) { bits in
            // Branch-free over a row, so that the compiler vectorizes it.
            func uniform(_ row: Int, _ value: UInt32) -> Bool {
                var differing: UInt32 = 0
                for index in (row * rowLength)..<((row + 1) * rowLength) { differing |= bits[index] ^ value }
                return differing == 0
            }
            let topBits = bits[0]
            var top = 0
            while top < height, uniform(top, topBits) { top += 1 }
            let bottomBits = bits[(height - 1) * rowLength]
            var bottom = 0
            while bottom < height - top, uniform(height - 1 - bottom, bottomBits) { bottom += 1 }
            return Border(top: top, bottom: bottom, topBits: top > 0 ? topBits : 0, bottomBits: bottom > 0 ? bottomBits : 0)
        }
    }
}
