/// The fixed parameters of one BlazeFace variant, from MediaPipe's
/// face_detection graphs (anchors, decoding scales, input size).
struct DetectorModel: Sendable {
    /// Input tensor side (square).
    var inputSize: Int
    /// SSD anchor strides, one per layer; equal consecutive strides share a grid.
    var strides: [Int]
    /// Whether each grid cell gets the extra interpolated-scale anchor.
    var interpolatedAnchor: Bool

    /// BlazeFace short range: 128x128, strides 8, 16, 16, 16 (896 anchors).
    static let shortRange = DetectorModel(inputSize: 128, strides: [8, 16, 16, 16], interpolatedAnchor: true)
    /// BlazeFace full range: 192x192, stride 4 (2304 anchors).
    static let fullRange = DetectorModel(inputSize: 192, strides: [4], interpolatedAnchor: false)

    /// Anchor centres in tensor-normalized coordinates, in the model's output order
    /// (feature map, then row, then column, then anchor within the cell). With
    /// `fixed_anchor_size` every anchor is 1x1, so only centres matter.
    func anchors() -> [(x: Float, y: Float)] {
        var anchors: [(x: Float, y: Float)] = []
        var layer = 0
        while layer < strides.count {
            var perCell = 0
            var last = layer
            // Layers with the same stride are merged into one feature map; each
            // contributes one anchor per aspect ratio (there is only 1.0) and,
            // when enabled, one interpolated-scale anchor.
            while last < strides.count, strides[last] == strides[layer] {
                perCell += interpolatedAnchor ? 2 : 1
                last += 1
            }
            let side = (inputSize + strides[layer] - 1) / strides[layer]
            for y in 0..<side {
                for x in 0..<side {
                    let centre = (x: (Float(x) + 0.5) / Float(side), y: (Float(y) + 0.5) / Float(side))
                    anchors.append(contentsOf: repeatElement(centre, count: perCell))
                }
            }
            layer = last
        }
        return anchors
    }
}
