/// Tables of element offsets for the host's data-movement kernels
/// (transposes, strided slices, scattered reductions): computing the layout
/// once at compile time leaves a run with one indexed load per element.
enum IndexTable {
    /// Offsets `base + Σ position[axis] * steps[axis]` for every position of a
    /// grid of `counts`, in row-major order.
    static func rowMajor(counts: [Int], steps: [Int], base: Int) -> [Int32] {
        let total = counts.reduce(1, *)
        var table: [Int32] = []
        table.reserveCapacity(total)
        var position = [Int](repeating: 0, count: counts.count)
        var offset = base
        for _ in 0..<total {
            table.append(Int32(offset))
            var axis = counts.count - 1
            while axis >= 0 {
                position[axis] += 1
                offset += steps[axis]
                if position[axis] < counts[axis] { break }
                offset -= steps[axis] * counts[axis]
                position[axis] = 0
                axis -= 1
            }
        }
        return table
    }

    /// Row-major strides of `shape`, in elements.
    static func strides(of shape: [Int]) -> [Int] {
        var strides = [Int](repeating: 1, count: shape.count)
        for axis in shape.indices.dropLast().reversed() { strides[axis] = strides[axis + 1] * shape[axis + 1] }
        return strides
    }
}
