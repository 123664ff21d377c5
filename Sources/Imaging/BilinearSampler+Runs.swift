/// The run path: the pixels of a row whose neighbourhoods lie inside the
/// source, four at a time in SIMD lanes, with the same fixed-point arithmetic
/// as the per-pixel path and the same bits out.
///
/// A run goes through two loops. The first computes every pixel's position
/// and weights. The second gathers each pixel's source bytes with scalar
/// loads into lane order and blends four pixels at a time; the gather runs
/// `gatherLead` pixels ahead of the blend, so that its scalar loads and stores
/// overlap the blend's vector arithmetic rather than waiting for it.
extension BilinearSampler {
    /// 16-bit lanes: two per pixel in a 4-pixel block.
    typealias Lanes = SIMD8<Int16>

    private static let gatherLead = 16

    /// Per-column working memory of `sample`, carved from one temporary
    /// allocation of `bytesPerColumn` bytes per output column.
    struct RunScratch {
        static let bytesPerColumn = 48
        static let alignment = 16

        /// `m00 * 32 * u` and `m10 * 32 * u` for output column `u`.
        let stepsX: UnsafeMutablePointer<Double>
        let stepsY: UnsafeMutablePointer<Double>
        /// Integer source column and row of each run pixel's top-left neighbour.
        let columns: UnsafeMutablePointer<Int32>
        let rows: UnsafeMutablePointer<Int32>
        /// Each pixel's fractions as two equal 16-bit halves: `512 * fx` and `fy`.
        let horizontalWeights: UnsafeMutablePointer<Int32>
        let verticalWeights: UnsafeMutablePointer<Int32>
        /// Four source bytes per pixel, starting at its top-left, top-right,
        /// bottom-left and bottom-right neighbour: R, G, B and one spare byte.
        let topLeft: UnsafeMutablePointer<UInt32>
        let topRight: UnsafeMutablePointer<UInt32>
        let bottomLeft: UnsafeMutablePointer<UInt32>
        let bottomRight: UnsafeMutablePointer<UInt32>

        init(_ memory: UnsafeMutableRawPointer, width: Int) {
            stepsX = memory.bindMemory(to: Double.self, capacity: 2 * width)
            stepsY = stepsX + width
            columns = (memory + 16 * width).bindMemory(to: Int32.self, capacity: 4 * width)
            rows = columns + width
            horizontalWeights = rows + width
            verticalWeights = horizontalWeights + width
            topLeft = (memory + 32 * width).bindMemory(to: UInt32.self, capacity: 4 * width)
            topRight = topLeft + width
            bottomLeft = topRight + width
            bottomRight = bottomLeft + width
        }
    }

    /// Writes output pixels `first ..< first + count` of a row (at least four,
    /// each one a run pixel), 16 bytes per pixel: the fourth float lands on the
    /// next pixel, which the caller writes afterwards.
    func sampleRun(
        from first: Int, count: Int, rowX: Double, rowY: Double, scratch: RunScratch, levels: Levels,
        into row: UnsafeMutablePointer<Float>
    ) {
        // Blocks of four; the last one may overlap the one before it, which
        // rewrites the same values.
        var block = 0
        while block < count {
            block = Swift.min(block, count &- 4)
            let u = first &+ block
            let x = Self.fixedPoints(rowX + Self.load(scratch.stepsX + u))
            let y = Self.fixedPoints(rowY + Self.load(scratch.stepsY + u))
            Self.store(x &>> Int32(Self.subpixelBits), at: scratch.columns + block)
            Self.store(y &>> Int32(Self.subpixelBits), at: scratch.rows + block)
            let fx = (x & Int32(Self.subpixels - 1)) &<< 9, fy = y & Int32(Self.subpixels - 1)
            Self.store(fx | fx &<< 16, at: scratch.horizontalWeights + block)
            Self.store(fy | fy &<< 16, at: scratch.verticalWeights + block)
            block &+= 4
        }

        let rowBytes = sourceWidth &* 3
        @inline(__always) func gather(_ index: Int) {
            let offset = Int(scratch.rows[index]) &* rowBytes &+ Int(scratch.columns[index]) &* 3
            let top = UnsafeRawPointer(source).loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            let bottom = UnsafeRawPointer(source).loadUnaligned(fromByteOffset: offset &+ rowBytes, as: UInt64.self)
            scratch.topLeft[index] = UInt32(truncatingIfNeeded: top)
            scratch.topRight[index] = UInt32(truncatingIfNeeded: top &>> 24)
            scratch.bottomLeft[index] = UInt32(truncatingIfNeeded: bottom)
            scratch.bottomRight[index] = UInt32(truncatingIfNeeded: bottom &>> 24)
        }
        var gathered = 0
        while gathered < Swift.min(count, Self.gatherLead) {
            gather(gathered)
            gathered &+= 1
        }
        let output = UnsafeMutableRawPointer(row + 3 * first)
        block = 0
        while block < count {
            block = Swift.min(block, count &- 4)
            if gathered &+ 4 <= count {
                gather(gathered)
                gather(gathered &+ 1)
                gather(gathered &+ 2)
                gather(gathered &+ 3)
                gathered &+= 4
            } else {
                while gathered < count {
                    gather(gathered)
                    gathered &+= 1
                }
            }
            let (left, right) = blendBlock(block, scratch: scratch)
            // Lanes R, G, B, spare of pixels 0 and 1 in `left`, 2 and 3 in `right`.
            let at = 12 &* block
            output.storeBytes(of: levels.values(SIMD4(truncatingIfNeeded: left.lowHalf)), toByteOffset: at, as: SIMD4<Float>.self)
            output.storeBytes(of: levels.values(SIMD4(truncatingIfNeeded: left.highHalf)), toByteOffset: at &+ 12, as: SIMD4<Float>.self)
            output.storeBytes(of: levels.values(SIMD4(truncatingIfNeeded: right.lowHalf)), toByteOffset: at &+ 24, as: SIMD4<Float>.self)
            output.storeBytes(of: levels.values(SIMD4(truncatingIfNeeded: right.highHalf)), toByteOffset: at &+ 36, as: SIMD4<Float>.self)
            block &+= 4
        }
    }

    /// The 8-bit results of pixels `block ..< block + 4`, as R, G, B and a
    /// spare lane per pixel.
    ///
    /// Each pixel's four bytes R, G, B, R' seen as two 16-bit lanes split into
    /// their low bytes (R, B) and high bytes (G, R'), so every lane of a vector
    /// holds one channel of one pixel. OpenCV's sum
    /// `(32 - fx)(32 - fy) p + fx (32 - fy) p' + (32 - fx) fy q + fx fy q'`
    /// is computed as a vertical blend `a = (32 - fy) p + fy q` (at most
    /// 32 * 255, so it fits 16 bits) of the left and of the right neighbours,
    /// then a horizontal one in `round`.
    @inline(__always)
    private func blendBlock(_ block: Int, scratch: RunScratch) -> (SIMD8<UInt16>, SIMD8<UInt16>) {
        let fy = Self.load(scratch.verticalWeights + block, as: Lanes.self)
        let fx512 = Self.load(scratch.horizontalWeights + block, as: Lanes.self)
        let gy = 32 &- fy
        let topLeft = Self.load(scratch.topLeft + block), topRight = Self.load(scratch.topRight + block)
        let bottomLeft = Self.load(scratch.bottomLeft + block), bottomRight = Self.load(scratch.bottomRight + block)
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

    @inline(__always)
    private static func load<Element, Vector: SIMD>(_ pointer: UnsafeMutablePointer<Element>, as type: Vector.Type) -> Vector {
        UnsafeRawPointer(pointer).loadUnaligned(as: Vector.self)
    }

    @inline(__always)
    private static func load<Scalar: SIMDScalar>(_ pointer: UnsafeMutablePointer<Scalar>) -> SIMD4<Scalar> {
        UnsafeRawPointer(pointer).loadUnaligned(as: SIMD4<Scalar>.self)
    }

    @inline(__always)
    private static func store<Scalar: SIMDScalar>(_ value: SIMD4<Scalar>, at pointer: UnsafeMutablePointer<Scalar>) {
        UnsafeMutableRawPointer(pointer).storeBytes(of: value, as: SIMD4<Scalar>.self)
    }
}
