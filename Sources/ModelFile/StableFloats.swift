/// A model's float weights at an address that never moves, so the runtimes
/// built from the model can point XNNPACK at them instead of each keeping a
/// copy: the weights of every model a worker loads are held once.
///
/// Safety of `@unchecked Sendable`: the memory is allocated and written only
/// in `init`, never written again and freed only in `deinit`, when no other
/// reference exists; every other access is a read.
package final class StableFloats: @unchecked Sendable {
    private let storage: UnsafeMutableBufferPointer<Float>
    /// The number of values.
    package let count: Int

    /// Copies `values`.
    package convenience init(_ values: [Float]) {
        self.init(count: values.count) { values[$0] }
    }

    /// Allocates `count` values, value `i` being `element(i)`.
    package init(count: Int, _ element: (Int) -> Float) {
        storage = .allocate(capacity: max(count, 1))
        storage[0] = 0
        for index in 0..<count { storage[index] = element(index) }
        self.count = count
    }

    deinit {
        storage.deallocate()
    }

    /// The values' address, valid as long as this object lives.
    package var pointer: UnsafePointer<Float> {
        UnsafePointer(storage.baseAddress!)
    }

    /// A copy of the values.
    package var array: [Float] {
        Array(UnsafeBufferPointer(start: storage.baseAddress, count: count))
    }
}
