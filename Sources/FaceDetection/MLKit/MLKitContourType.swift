/// The fifteen face contours of ML Kit's face detector.
///
/// Left and right are the subject's, as for `MLKitLandmarkType`. Raw values are ML Kit Android's
/// `FaceContour` constants.
package enum MLKitContourType: Int, Sendable, Hashable, CaseIterable {
    /// The outline of the face.
    case face = 1
    /// The top outline of the subject's left eyebrow.
    case leftEyebrowTop = 2
    /// The bottom outline of the subject's left eyebrow.
    case leftEyebrowBottom = 3
    /// The top outline of the subject's right eyebrow.
    case rightEyebrowTop = 4
    /// The bottom outline of the subject's right eyebrow.
    case rightEyebrowBottom = 5
    /// The outline of the subject's left eye.
    case leftEye = 6
    /// The outline of the subject's right eye.
    case rightEye = 7
    /// The top outline of the upper lip.
    case upperLipTop = 8
    /// The bottom outline of the upper lip.
    case upperLipBottom = 9
    /// The top outline of the lower lip.
    case lowerLipTop = 10
    /// The bottom outline of the lower lip.
    case lowerLipBottom = 11
    /// The nose bridge, from between the eyes to the tip.
    case noseBridge = 12
    /// The bottom of the nose.
    case noseBottom = 13
    /// The centre of the subject's left cheek.
    case leftCheek = 14
    /// The centre of the subject's right cheek.
    case rightCheek = 15

    /// How many points ML Kit gives this contour; every contour computed here has exactly this many.
    package var pointCount: Int {
        switch self {
        case .face: 36
        case .leftEyebrowTop, .leftEyebrowBottom, .rightEyebrowTop, .rightEyebrowBottom: 5
        case .leftEye, .rightEye: 16
        case .upperLipTop: 11
        case .upperLipBottom, .lowerLipTop, .lowerLipBottom: 9
        case .noseBridge: 2
        case .noseBottom: 3
        case .leftCheek, .rightCheek: 1
        }
    }
}
