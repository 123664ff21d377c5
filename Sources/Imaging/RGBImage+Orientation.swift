extension RGBImage {
    /// The upright image, for a stored image (`self`) tagged with `orientation`.
    ///
    /// Upright pixel `(x, y)` is stored pixel:
    ///
    /// | orientation | stored column, row |
    /// | --- | --- |
    /// | topLeft | `x, y` |
    /// | topRight | `w-1-x, y` |
    /// | bottomRight | `w-1-x, h-1-y` |
    /// | bottomLeft | `x, h-1-y` |
    /// | leftTop | `y, x` |
    /// | rightTop | `y, h-1-x` |
    /// | rightBottom | `w-1-y, h-1-x` |
    /// | leftBottom | `w-1-y, x` |
    ///
    /// where `w x h` is the stored size. `topLeft` returns `self` without copying.
    public func upright(from orientation: ImageOrientation) -> RGBImage {
        if orientation == .topLeft { return self }
        let (w, h) = (width, height)
        // Stored pixel index of upright (x, y) is origin + x * stepX + y * stepY.
        let (origin, stepX, stepY): (Int, Int, Int)
        switch orientation {
        case .topLeft: (origin, stepX, stepY) = (0, 1, w)
        case .topRight: (origin, stepX, stepY) = (w - 1, -1, w)
        case .bottomRight: (origin, stepX, stepY) = ((h - 1) * w + w - 1, -1, -w)
        case .bottomLeft: (origin, stepX, stepY) = ((h - 1) * w, 1, -w)
        case .leftTop: (origin, stepX, stepY) = (0, w, 1)
        case .rightTop: (origin, stepX, stepY) = ((h - 1) * w, -w, 1)
        case .rightBottom: (origin, stepX, stepY) = ((h - 1) * w + w - 1, -w, -1)
        case .leftBottom: (origin, stepX, stepY) = (w - 1, w, -1)
        }
        let upright = orientation.uprightSize(of: size)
        let pixels = self.pixels.withUnsafeBufferPointer { source in
            [UInt8](unsafeUninitializedCapacity: source.count) { destination, initialized in
                guard let input = source.baseAddress, let output = destination.baseAddress else { return }
                var written = 0
                for y in 0..<upright.height {
                    var stored = origin + y * stepY
                    for _ in 0..<upright.width {
                        let pixel = input + 3 * stored
                        output[written] = pixel[0]
                        output[written + 1] = pixel[1]
                        output[written + 2] = pixel[2]
                        written += 3
                        stored += stepX
                    }
                }
                initialized = written
            }
        }
        return RGBImage(validatedWidth: upright.width, height: upright.height, pixels: pixels)
    }
}
