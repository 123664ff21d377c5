/// Reads one stored pixel of a checked frame as 8-bit RGB, exactly as the
/// frame's format defines it: the sampler fetches each neighbour it blends
/// through one of these, so no frame is ever converted whole.
protocol StoredPixels {
    /// The RGB of the pixel at `column`, `row`, which lie inside the frame.
    func rgb(column: Int, row: Int) -> (UInt8, UInt8, UInt8)
}

/// RGB, RGBA, BGRA, BGR and GRAY8: each pixel's channels at fixed offsets.
struct PackedPixels: StoredPixels {
    let base: UnsafePointer<UInt8>
    let rowStride: Int
    let bytesPerPixel: Int
    let red: Int
    let green: Int
    let blue: Int

    init(_ view: RawFrameView) {
        base = view.base
        rowStride = view.rowStride
        switch view.format {
        case .rgb: (bytesPerPixel, red, green, blue) = (3, 0, 1, 2)
        case .rgba: (bytesPerPixel, red, green, blue) = (4, 0, 1, 2)
        case .bgra: (bytesPerPixel, red, green, blue) = (4, 2, 1, 0)
        case .bgr: (bytesPerPixel, red, green, blue) = (3, 2, 1, 0)
        // Luminance is copied to all three channels.
        case .gray8: (bytesPerPixel, red, green, blue) = (1, 0, 0, 0)
        case .nv12, .nv21, .i420: preconditionFailure("\(view.format) is not a packed format")
        }
    }

    @inline(__always)
    func rgb(column: Int, row: Int) -> (UInt8, UInt8, UInt8) {
        let pixel = base + (row &* rowStride &+ column &* bytesPerPixel)
        return (pixel[red], pixel[green], pixel[blue])
    }
}

/// NV12, NV21 and I420: BT.601 limited range, chroma upsampled by nearest
/// neighbour (see ``RawFrame``), so pixel `(x, y)` takes chroma sample
/// `(x / 2, y / 2)`, which also covers odd widths and heights.
struct YUVPixels: StoredPixels {
    let luma: UnsafePointer<UInt8>
    let rowStride: Int
    let uPlane: UnsafePointer<UInt8>
    let vPlane: UnsafePointer<UInt8>
    /// Distance between neighbouring chroma samples: 2 where U and V are interleaved.
    let step: Int
    let chromaStride: Int
    let colour = BT601()

    init(_ view: RawFrameView) {
        let geometry = view.geometry, base = view.base
        luma = base
        rowStride = geometry.rowStride
        chromaStride = geometry.chromaStride
        switch geometry.format {
        case .nv12:
            (uPlane, vPlane, step) = (base + geometry.chromaOffset, base + geometry.chromaOffset + 1, 2)
        case .nv21:
            (uPlane, vPlane, step) = (base + geometry.chromaOffset + 1, base + geometry.chromaOffset, 2)
        case .i420:
            (uPlane, vPlane, step) = (base + geometry.chromaOffset, base + geometry.secondChromaOffset, 1)
        case .rgb, .rgba, .bgra, .bgr, .gray8:
            preconditionFailure("\(geometry.format) is not a YUV format")
        }
    }

    @inline(__always)
    func rgb(column: Int, row: Int) -> (UInt8, UInt8, UInt8) {
        let chromaIndex = (row >> 1) &* chromaStride &+ (column >> 1) &* step
        let chroma = colour.chroma(u: uPlane[chromaIndex], v: vPlane[chromaIndex])
        return colour.rgb(y: luma[row &* rowStride &+ column], chroma: chroma)
    }
}
