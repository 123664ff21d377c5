/// TFLite's sparse tensor encoding, and its expansion to a dense array.
///
/// The full-range face detector ships most of its convolution weights sparse
/// (behind `DENSIFY` operators); XNNPACK wants them dense, so they are expanded
/// once at load. The encoding walks the tensor's dimensions in `traversalOrder`;
/// each level is either dense (every index present) or CSR-like (a segments
/// array per parent position and an indices array). Dimensions listed in
/// `blockMap` are additionally split into blocks whose sizes are given by the
/// trailing levels.
struct SparsityParameters {
    enum Level {
        case dense(size: Int)
        case sparse(segments: [Int], indices: [Int])
    }

    var traversalOrder: [Int]
    var blockMap: [Int]
    var levels: [Level]

    /// Expands `values` (in traversal order) into a dense row-major array of `shape`.
    func densify(_ values: [Float], shape: [Int], fail: (String) -> ModelFileError) throws -> [Float] {
        let rank = shape.count
        guard traversalOrder.count == rank + blockMap.count, levels.count == traversalOrder.count,
              Set(traversalOrder) == Set(0..<traversalOrder.count) else {
            throw fail("sparse tensor metadata is inconsistent (traversal order \(traversalOrder), block map \(blockMap), \(levels.count) levels, rank \(rank))")
        }
        // Block sizes come from the dense levels that traverse the block dimensions.
        var blockSizes = [Int](repeating: 0, count: blockMap.count)
        for (level, dimension) in traversalOrder.enumerated() where dimension >= rank {
            guard case .dense(let size) = levels[level], size > 0 else {
                throw fail("sparse tensor block dimension \(dimension) is not dense")
            }
            blockSizes[dimension - rank] = size
        }
        var blockedShape = shape
        for (block, dimension) in blockMap.enumerated() {
            guard dimension >= 0, dimension < rank, shape[dimension] % blockSizes[block] == 0 else {
                throw fail("sparse tensor block map \(blockMap) does not divide shape \(shape)")
            }
            blockedShape[dimension] = shape[dimension] / blockSizes[block]
        }
        let levelSizes = traversalOrder.map { $0 < rank ? blockedShape[$0] : blockSizes[$0 - rank] }
        var strides = [Int](repeating: 1, count: rank)
        for d in stride(from: rank - 2, through: 0, by: -1) { strides[d] = strides[d + 1] * shape[d + 1] }

        // A level's index moves the dense position by a fixed stride: its dimension's stride, times
        // the block size when the dimension is split into blocks (the block's own level then moves
        // by the dimension's stride). Every index is checked against its level's size, so every
        // position lies inside the shape.
        let levelStrides = traversalOrder.map { dimension in
            dimension < rank
                ? strides[dimension] * (blockMap.firstIndex(of: dimension).map { blockSizes[$0] } ?? 1)
                : strides[blockMap[dimension - rank]]
        }
        var dense = [Float](repeating: 0, count: shape.reduce(1, *))
        var consumed = 0

        func walk(level: Int, parent: Int, offset: Int) throws {
            if level == levels.count {
                guard consumed < values.count else {
                    throw fail("sparse tensor has fewer values (\(values.count)) than its indices address")
                }
                dense[offset] = values[consumed]
                consumed += 1
                return
            }
            switch levels[level] {
            case .dense(let size):
                guard size == levelSizes[level] else {
                    throw fail("sparse tensor level \(level) has dense size \(size), expected \(levelSizes[level])")
                }
                for i in 0..<size {
                    try walk(level: level + 1, parent: parent * size + i, offset: offset + i * levelStrides[level])
                }
            case .sparse(let segments, let indices):
                guard parent + 1 < segments.count else {
                    throw fail("sparse tensor level \(level) has \(segments.count) segments, position \(parent) needs more")
                }
                let lower = segments[parent], upper = segments[parent + 1]
                guard lower >= 0, lower <= upper, upper <= indices.count else {
                    throw fail("sparse tensor level \(level) has a segment \(lower)..<\(upper) outside its \(indices.count) indices")
                }
                for i in lower..<upper {
                    guard indices[i] >= 0, indices[i] < levelSizes[level] else {
                        throw fail("sparse tensor level \(level) index \(indices[i]) is outside 0..<\(levelSizes[level])")
                    }
                    try walk(level: level + 1, parent: i, offset: offset + indices[i] * levelStrides[level])
                }
            }
        }
        try walk(level: 0, parent: 0, offset: 0)
        guard consumed == values.count else {
            throw fail("sparse tensor has \(values.count) values but its indices address \(consumed)")
        }
        return dense
    }
}
