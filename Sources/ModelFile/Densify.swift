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

        var dense = [Float](repeating: 0, count: shape.reduce(1, *))
        var coordinate = [Int](repeating: 0, count: traversalOrder.count)
        var consumed = 0

        func place() throws {
            var original = [Int](repeating: 0, count: rank)
            for (level, dimension) in traversalOrder.enumerated() where dimension < rank {
                original[dimension] = coordinate[level]
            }
            for (level, dimension) in traversalOrder.enumerated() where dimension >= rank {
                let block = dimension - rank
                let target = blockMap[block]
                original[target] = original[target] * blockSizes[block] + coordinate[level]
            }
            var flat = 0
            for d in 0..<rank {
                guard original[d] < shape[d] else {
                    throw fail("sparse tensor index \(original) lies outside shape \(shape)")
                }
                flat += original[d] * strides[d]
            }
            guard consumed < values.count else {
                throw fail("sparse tensor has fewer values (\(values.count)) than its indices address")
            }
            dense[flat] = values[consumed]
            consumed += 1
        }

        func walk(level: Int, parent: Int) throws {
            if level == levels.count { return try place() }
            switch levels[level] {
            case .dense(let size):
                guard size == levelSizes[level] else {
                    throw fail("sparse tensor level \(level) has dense size \(size), expected \(levelSizes[level])")
                }
                for i in 0..<size {
                    coordinate[level] = i
                    try walk(level: level + 1, parent: parent * size + i)
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
                    coordinate[level] = indices[i]
                    try walk(level: level + 1, parent: i)
                }
            }
        }
        try walk(level: 0, parent: 0)
        guard consumed == values.count else {
            throw fail("sparse tensor has \(values.count) values but its indices address \(consumed)")
        }
        return dense
    }
}
