/// A head pose as ML Kit reports it: three angles in degrees, relative to a face looking straight
/// into the camera.
///
/// The rotation they describe is yaw, then pitch, then roll, applied to the face in that order
/// about its own axes (R = Ry(y) · Rx(−x) · Rz(z) in the camera's right-handed frame, x toward the
/// image's right, y up, z toward the camera).
package struct EulerAngles: Sendable, Hashable {
    /// Pitch: positive when the face is turned upward.
    package var x: Float
    /// Yaw: positive when the face is turned toward the image's right side.
    package var y: Float
    /// Roll: positive when the face is rotated counter-clockwise in the image.
    package var z: Float

    /// Creates a pose from its three angles in degrees.
    package init(x: Float, y: Float, z: Float) {
        self.x = x
        self.y = y
        self.z = z
    }
}
