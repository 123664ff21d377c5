/// The ten face landmarks of ML Kit's face detector.
///
/// Left and right are the subject's, as in ML Kit: `leftEye` is the subject's left eye, which is
/// on the image's right side for an upright, non-mirrored face. Raw values are ML Kit Android's
/// `FaceLandmark` constants, so they can cross the wire unchanged.
package enum MLKitLandmarkType: Int, Sendable, Hashable, CaseIterable {
    /// The centre of the bottom lip.
    case mouthBottom = 0
    /// Midway between the subject's left mouth corner and the outer corner of their left eye.
    case leftCheek = 1
    /// Midway between the tip and the lobe of the subject's left ear.
    case leftEar = 3
    /// The centre of the subject's left eye.
    case leftEye = 4
    /// The subject's left mouth corner.
    case mouthLeft = 5
    /// Where the nose meets the upper lip, between the nostrils.
    case noseBase = 6
    /// Midway between the subject's right mouth corner and the outer corner of their right eye.
    case rightCheek = 7
    /// Midway between the tip and the lobe of the subject's right ear.
    case rightEar = 9
    /// The centre of the subject's right eye.
    case rightEye = 10
    /// The subject's right mouth corner.
    case mouthRight = 11
}
