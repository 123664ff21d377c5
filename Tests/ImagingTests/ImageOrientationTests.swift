import Imaging
import Testing

/// The 8 EXIF orientations against an asymmetric 3x2 upright image,
///
///     A B C
///     D E F
///
/// stored the way each tag describes: the name says where the stored row 0
/// and column 0 are in the upright view. For example `rightTop` (6) stores
/// the upright right-hand column C, F as row 0, top first.
@Suite("Image orientation")
struct ImageOrientationTests {
    static let a: [UInt8] = [1, 2, 3], b: [UInt8] = [4, 5, 6], c: [UInt8] = [7, 8, 9]
    static let d: [UInt8] = [10, 11, 12], e: [UInt8] = [13, 14, 15], f: [UInt8] = [16, 17, 18]

    static let upright = try! RGBImage(width: 3, height: 2, pixels: (a + b + c) + (d + e + f))

    /// The stored image for each orientation, rows top to bottom.
    static let stored: [(ImageOrientation, [[[UInt8]]])] = [
        (.topLeft, [[a, b, c], [d, e, f]]),
        (.topRight, [[c, b, a], [f, e, d]]),
        (.bottomRight, [[f, e, d], [c, b, a]]),
        (.bottomLeft, [[d, e, f], [a, b, c]]),
        (.leftTop, [[a, d], [b, e], [c, f]]),
        (.rightTop, [[c, f], [b, e], [a, d]]),
        (.rightBottom, [[f, c], [e, b], [d, a]]),
        (.leftBottom, [[d, a], [e, b], [f, c]]),
    ]

    @Test("each stored form turns upright", arguments: stored.map(\.0))
    func turnsUpright(orientation: ImageOrientation) throws {
        let rows = try #require(Self.stored.first { $0.0 == orientation }?.1)
        let image = try RGBImage(width: rows[0].count, height: rows.count, pixels: rows.flatMap { $0.flatMap { $0 } })
        #expect(orientation.uprightSize(of: image.size) == Self.upright.size)
        #expect(image.upright(from: orientation) == Self.upright)
    }

    @Test("EXIF values and the rotations they name")
    func rawValues() {
        #expect(ImageOrientation.allCases.map(\.rawValue) == Array(1...8))
        #expect(ImageOrientation(rawValue: 6) == .rightTop)
        #expect(ImageOrientation.allCases.filter(\.swapsAxes) == [.leftTop, .rightTop, .rightBottom, .leftBottom])
        // rightTop is a quarter turn clockwise: its top-left corner comes from
        // the stored bottom-left, and four turns give the image back.
        let image = TestImages.noise(width: 5, height: 3, seed: 3)
        let turned = image.upright(from: .rightTop)
        #expect(turned.rgb(0, 0) == image.rgb(0, 2))
        #expect(turned.upright(from: .rightTop).upright(from: .rightTop).upright(from: .rightTop) == image)
        #expect(turned.upright(from: .leftBottom) == image)
    }

    @Test("a mirrored orientation is its own inverse", arguments: [ImageOrientation.topRight, .bottomLeft, .leftTop, .rightBottom, .bottomRight])
    func involutions(orientation: ImageOrientation) {
        let image = TestImages.noise(width: 7, height: 4, seed: 5)
        #expect(image.upright(from: orientation).upright(from: orientation) == image)
    }
}
