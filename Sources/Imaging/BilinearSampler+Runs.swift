/// The run path: the pixels of a row whose neighbourhoods lie inside the
/// source, four at a time in SIMD lanes, with the same fixed-point arithmetic
/// as the per-pixel path and the same bits out.
///
/// A run is cut into blocks of four pixels and goes through two loops. The
/// first computes every block's positions and weights. The second gathers each
/// block's source bytes with scalar loads into lane order and blends the
/// block; the gather runs `gatherLead` blocks ahead of the blend, so that its
/// loads and stores overlap the blend's vector arithmetic.
/// Upright packed RGB rows read in place by the run path: `rowStride`
/// (at least three bytes a pixel) from one row to the next, pixel
/// (`origin.column`, `origin.row`) at `base`.
struct PackedRGBRows {
    let base: UnsafePointer<UInt8>
    let rowStride: Int
    /// The byte offset of pixel (0, 0) from `base`, which the run's loads
    /// subtract: negative when only part of the image is in memory.
    let originOffset: Int

    init(base: UnsafePointer<UInt8>, rowStride: Int, origin: (column: Int, row: Int) = (0, 0)) {
        self.base = base
        self.rowStride = rowStride
        originOffset = origin.row * rowStride + origin.column * 3
    }
}

extension BilinearSampler {
    /// 16-bit lanes: two per pixel of a block.
    typealias Lanes = SIMD8<Int16>

    private static var gatherLead: Int { 4 }

    /// What the loops keep about a block: one 16-byte vector each, in a record
    /// of `Field.count` vectors per block, so that every access is at a fixed
    /// offset from one pointer. Keeping a block's values together also keeps
    /// the gather's stores from advancing through memory in step with its
    /// loads from the source, where some alignments of the two would make
    /// every load wait for the stores before it (4 KiB aliasing).
    private enum Field: Int {
        /// Integer source column and row of each pixel's top-left neighbour.
        case columns, rows
        /// Each pixel's fractions as two equal 16-bit halves: `512 * fx` and `fy`.
        case horizontalWeights, verticalWeights
        /// Four source bytes starting at the pixel's top-left, top-right,
        /// bottom-left and bottom-right neighbour: R, G, B and one spare byte.
        case topLeft, topRight, bottomLeft, bottomRight

        static var count: Int { 8 }
    }

    private static var recordBytes: Int { Field.count * 16 }

    /// Working memory of `sample`, from one temporary allocation.
    struct RunScratch {
        static var alignment: Int { 16 }

        static func byteCount(width: Int) -> Int {
            2 * MemoryLayout<Double>.stride * width + recordBytes * (width + 3) / 4
        }

        /// `m00 * 32 * u` and `m10 * 32 * u` for output column `u`.
        let stepsX: UnsafeMutablePointer<Double>
        let stepsY: UnsafeMutablePointer<Double>
        /// One record per block of a run.
        let blocks: UnsafeMutableRawPointer

        init(_ memory: UnsafeMutableRawPointer, width: Int) {
            stepsX = memory.bindMemory(to: Double.self, capacity: 2 * width)
            stepsY = stepsX + width
            blocks = memory + 2 * MemoryLayout<Double>.stride * width
        }
    }

    @inline(__always)
    private static func address(
        _ blocks: UnsafeMutableRawPointer, _ block: Int, _ field: Field, lane: Int = 0
    ) -> UnsafeMutableRawPointer {
        blocks + (block &* recordBytes &+ field.rawValue &* 16 &+ lane &* 4)
    }

    /// Writes output pixels `first ..< first + count` of a row (at least four,
    /// each one a run pixel), 16 bytes per pixel: the fourth float lands on the
    /// next pixel, which the caller writes afterwards.
    func sampleRun(
        from first: Int, count: Int, rowX: Double, rowY: Double, rows: PackedRGBRows, scratch: RunScratch, levels: Levels,
        into row: UnsafeMutablePointer<Float>
    ) {
        let blocks = scratch.blocks
        let blockCount = (count &+ 3) / 4
        // The last block may overlap the one before it, which rewrites the same values.
        @inline(__always) func start(_ block: Int) -> Int {
            Swift.min(4 &* block, count &- 4)
        }
        for block in 0..<blockCount {
            @inline(__always) func store(_ value: SIMD4<Int32>, as field: Field) {
                Self.address(blocks, block, field).storeBytes(of: value, as: SIMD4<Int32>.self)
            }
            let u = first &+ start(block)
            let x = Self.fixedPoints(rowX + UnsafeRawPointer(scratch.stepsX + u).loadUnaligned(as: SIMD4<Double>.self))
            let y = Self.fixedPoints(rowY + UnsafeRawPointer(scratch.stepsY + u).loadUnaligned(as: SIMD4<Double>.self))
            let fractionMask = Int32(Self.subpixels - 1), bits = Int32(Self.subpixelBits)
            let fx512 = (x & fractionMask) &<< 9, fy = y & fractionMask
            store(x &>> bits, as: .columns)
            store(y &>> bits, as: .rows)
            store(fx512 | fx512 &<< 16, as: .horizontalWeights)
            store(fy | fy &<< 16, as: .verticalWeights)
        }

        let rowBytes = rows.rowStride, source = rows.base
        @inline(__always) func gather(_ block: Int) {
            for lane in 0..<4 {
                @inline(__always) func store(_ bytes: UInt64, as field: Field) {
                    Self.address(blocks, block, field, lane: lane).storeBytes(of: UInt32(truncatingIfNeeded: bytes), as: UInt32.self)
                }
                let column = Int(Self.address(blocks, block, .columns, lane: lane).load(as: Int32.self))
                let line = Int(Self.address(blocks, block, .rows, lane: lane).load(as: Int32.self))
                let offset = line &* rowBytes &+ column &* 3 &- rows.originOffset
                let top = UnsafeRawPointer(source).loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                let bottom = UnsafeRawPointer(source).loadUnaligned(fromByteOffset: offset &+ rowBytes, as: UInt64.self)
                store(top, as: .topLeft)
                store(top &>> 24, as: .topRight)
                store(bottom, as: .bottomLeft)
                store(bottom &>> 24, as: .bottomRight)
            }
        }
        for block in 0..<Swift.min(blockCount, Self.gatherLead) {
            gather(block)
        }
        let output = UnsafeMutableRawPointer(row + 3 * first)
        for block in 0..<blockCount {
            if block &+ Self.gatherLead < blockCount {
                gather(block &+ Self.gatherLead)
            }
            // Lanes R, G, B, spare of pixels 0 and 1 in `left`, 2 and 3 in `right`.
            let (left, right) = blendBlock(block, blocks: blocks)
            let at = 12 &* start(block)
            @inline(__always) func write(_ pixel: SIMD4<UInt16>, at offset: Int) {
                output.storeBytes(of: levels.values(SIMD4(truncatingIfNeeded: pixel)), toByteOffset: at &+ offset, as: SIMD4<Float>.self)
            }
            write(left.lowHalf, at: 0)
            write(left.highHalf, at: 12)
            write(right.lowHalf, at: 24)
            write(right.highHalf, at: 36)
        }
    }

    /// The 8-bit results of a block's pixels, as R, G, B and a spare lane per
    /// pixel.
    ///
    /// Each pixel's four bytes R, G, B, R' seen as two 16-bit lanes split into
    /// their low bytes (R, B) and high bytes (G, R'), so every lane of a vector
    /// holds one channel of one pixel. OpenCV's sum
    /// `(32 - fx)(32 - fy) p + fx (32 - fy) p' + (32 - fx) fy q + fx fy q'`
    /// is computed as a vertical blend `a = (32 - fy) p + fy q` (at most
    /// 32 * 255, so it fits 16 bits) of the left and of the right neighbours,
    /// then a horizontal one in `round`.
    @inline(__always)
    private func blendBlock(_ block: Int, blocks: UnsafeMutableRawPointer) -> (SIMD8<UInt16>, SIMD8<UInt16>) {
        @inline(__always) func load<Vector: SIMD>(_ field: Field, as type: Vector.Type) -> Vector {
            UnsafeRawPointer(Self.address(blocks, block, field)).load(as: Vector.self)
        }
        let fy = load(.verticalWeights, as: Lanes.self)
        let fx512 = load(.horizontalWeights, as: Lanes.self)
        let gy = 32 &- fy
        let topLeft = load(.topLeft, as: SIMD4<UInt32>.self), topRight = load(.topRight, as: SIMD4<UInt32>.self)
        let bottomLeft = load(.bottomLeft, as: SIMD4<UInt32>.self)
        let bottomRight = load(.bottomRight, as: SIMD4<UInt32>.self)
        let redBlueLeft = Self.lowBytes(topLeft) &* gy &+ Self.lowBytes(bottomLeft) &* fy
        let redBlueRight = Self.lowBytes(topRight) &* gy &+ Self.lowBytes(bottomRight) &* fy
        let greenLeft = Self.highBytes(topLeft) &* gy &+ Self.highBytes(bottomLeft) &* fy
        let greenRight = Self.highBytes(topRight) &* gy &+ Self.highBytes(bottomRight) &* fy
        let redBlue = SIMD8<UInt16>(truncatingIfNeeded: Self.round(redBlueLeft, redBlueRight, fx512))
        let green = SIMD8<UInt16>(truncatingIfNeeded: Self.round(greenLeft, greenRight, fx512))
        return (
            SIMD8(redBlue[0], green[0], redBlue[1], green[1], redBlue[2], green[2], redBlue[3], green[3]),
            SIMD8(redBlue[4], green[4], redBlue[5], green[5], redBlue[6], green[6], redBlue[7], green[7])
        )
    }

    /// `((32 - fx) a + fx b + 512) >> 10` for vertical blends `a`, `b` of at
    /// most 32 * 255, with `fx512 = 512 * fx`, without leaving 16 bits:
    /// writing the sum as `32 a + fx (b - a)`, it equals
    /// `(a + ((fx (b - a)) >> 5) + 16) >> 5`, and `(fx (b - a)) >> 5` is the
    /// high half of the 32-bit product `4 (b - a) * 512 fx` (both factors
    /// within ±2^15), which SSE2 computes in one instruction (pmulhw).
    @inline(__always)
    private static func round(_ a: Lanes, _ b: Lanes, _ fx512: Lanes) -> Lanes {
        let difference = (b &- a) &<< 2
        let product = SIMD8<Int32>(truncatingIfNeeded: difference) &* SIMD8<Int32>(truncatingIfNeeded: fx512)
        return (a &+ Lanes(truncatingIfNeeded: product &>> 16) &+ 16) &>> 5
    }

    @inline(__always)
    private static func lowBytes(_ bytes: SIMD4<UInt32>) -> Lanes {
        unsafeBitCast(bytes, to: Lanes.self) & 0xFF
    }

    @inline(__always)
    private static func highBytes(_ bytes: SIMD4<UInt32>) -> Lanes {
        unsafeBitCast(unsafeBitCast(bytes, to: SIMD8<UInt16>.self) &>> 8, to: Lanes.self)
    }

    /// The rounded positions, as `fixedPoint` computes them for positions
    /// known to be in range.
    @inline(__always)
    private static func fixedPoints(_ values: SIMD4<Double>) -> SIMD4<Int32> {
        SIMD4<Int32>(truncatingIfNeeded: unsafeBitCast(values + roundingBias, to: SIMD4<Int64>.self))
    }
}
