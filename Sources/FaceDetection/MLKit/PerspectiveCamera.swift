import Foundation

/// The virtual camera MediaPipe's face geometry assumes took the picture.
///
/// MediaPipe's Face Landmarker uses a vertical field of view of 63°, a near plane at 1 cm and a
/// far plane at 10000 cm, with the image origin at the top-left corner. The far plane only matters
/// for rendering, not for the face's pose, so it is not kept here.
package struct PerspectiveCamera: Sendable, Hashable {
    /// The vertical field of view, in degrees, strictly between 0 and 180.
    package var verticalFieldOfViewDegrees: Float
    /// The near clipping plane's distance, in centimetres, greater than 0.
    package var near: Float

    /// Creates a camera.
    package init(verticalFieldOfViewDegrees: Float, near: Float) {
        self.verticalFieldOfViewDegrees = verticalFieldOfViewDegrees
        self.near = near
    }

    /// MediaPipe's default camera.
    package static let mediaPipe = PerspectiveCamera(verticalFieldOfViewDegrees: 63, near: 1)

    /// The size of the image on the near plane, in centimetres, for an image of the given
    /// aspect: its height from the field of view, its width from the image's aspect ratio.
    func nearPlaneSize(imageWidth: Int, imageHeight: Int) -> (width: Double, height: Double) {
        let halfAngle = Double(verticalFieldOfViewDegrees) * .pi / 360
        let height = 2 * Double(near) * tan(halfAngle)
        return (Double(imageWidth) * height / Double(imageHeight), height)
    }
}
