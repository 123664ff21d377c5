import FaceWorkerProtocol

extension FrameImage {
    /// How an image's stored pixels must be turned to look upright, under the
    /// names UIKit's `UIImage.Orientation` gives them, which ML Kit's
    /// `VisionImage` and MediaPipe's `MPImage` take on iOS.
    ///
    /// `.right` is a picture stored a quarter turn counter-clockwise from
    /// upright (a phone held upright with its back camera), which a quarter turn
    /// clockwise makes upright; the mirrored cases are also flipped left to
    /// right. Every coordinate in a result refers to the upright image.
    public enum Orientation: Int, Sendable, CaseIterable {
        case up, down, left, right, upMirrored, downMirrored, leftMirrored, rightMirrored

        /// The EXIF orientation tag value (1 to 8) of the same turn.
        public var exifValue: Int {
            switch self {
            case .up: 1
            case .upMirrored: 2
            case .down: 3
            case .downMirrored: 4
            case .leftMirrored: 5
            case .right: 6
            case .rightMirrored: 7
            case .left: 8
            }
        }

        /// The orientation of an EXIF orientation tag value; nil outside 1 to 8.
        public init?(exifValue: Int) {
            guard let match = Self.allCases.first(where: { $0.exifValue == exifValue }) else { return nil }
            self = match
        }

        /// The wire's orientation, whose numbering is the EXIF value minus 1.
        package var wire: Faceworker_V1_Orientation {
            Faceworker_V1_Orientation(rawValue: exifValue - 1) ?? .topLeft
        }
    }
}
