/// Where each ML Kit contour's points are read from MediaPipe's face mesh.
///
/// ML Kit documents the point counts but not the point order, so the order is fixed here:
/// - closed contours (the face, the eyes) go clockwise in the image; the face starts at the top of
///   the forehead, the eyes at their image-left corner and along the upper lid first;
/// - open contours (eyebrows, lips) run from the subject's right end to their left end, which is
///   the image's left to right for an upright, non-mirrored face;
/// - the nose bridge runs from between the eyes down to the tip; the nose bottom starts at its
///   centre, as ML Kit's flattened contour table does, then the subject's right and left side.
///
/// The index chains are MediaPipe's own (face_mesh_connections: FACE_OVAL, LIPS, LEFT_EYE,
/// RIGHT_EYE, LEFT_EYEBROW, RIGHT_EYEBROW), where LEFT is the subject's left as in ML Kit.
enum MLKitContourMap {
    /// The mesh recipes for one contour's points, `type.pointCount` of them.
    static func points(for type: MLKitContourType) -> [MeshPoint] {
        switch type {
        case .face: face
        case .leftEyebrowTop: leftEyebrowTop
        case .leftEyebrowBottom: leftEyebrowBottom
        case .rightEyebrowTop: rightEyebrowTop
        case .rightEyebrowBottom: rightEyebrowBottom
        case .leftEye: leftEye
        case .rightEye: rightEye
        case .upperLipTop: upperLipTop
        case .upperLipBottom: upperLipBottom
        case .lowerLipTop: lowerLipTop
        case .lowerLipBottom: lowerLipBottom
        case .noseBridge: noseBridge
        case .noseBottom: noseBottom
        case .leftCheek: leftCheek
        case .rightCheek: rightCheek
        }
    }

    /// FACE_OVAL, 36 points, which is exactly ML Kit's count; 10 is the top of the forehead and
    /// 338 the next point toward the image's right.
    private static let face = vertices([
        10, 338, 297, 332, 284, 251, 389, 356, 454, 323, 361, 288,
        397, 365, 379, 378, 400, 377, 152, 148, 176, 149, 150, 136,
        172, 58, 132, 93, 234, 127, 162, 21, 54, 103, 67, 109,
    ])

    // The eyebrow chains have 5 points each, ML Kit's count. 300 / 276 are the outer ends of the
    // subject's left brow, 70 / 46 of the right one.
    private static let leftEyebrowTop = vertices([336, 296, 334, 293, 300])
    private static let leftEyebrowBottom = vertices([285, 295, 282, 283, 276])
    private static let rightEyebrowTop = vertices([70, 63, 105, 66, 107])
    private static let rightEyebrowBottom = vertices([46, 53, 52, 65, 55])

    /// The subject's left eye: inner corner 362, upper lid to the outer corner 263, lower lid back;
    /// MediaPipe's two 9-point lid chains share their corners, leaving ML Kit's 16 points.
    static let leftEyeOutline = [
        362, 398, 384, 385, 386, 387, 388, 466,
        263, 249, 390, 373, 374, 380, 381, 382,
    ]
    /// The subject's right eye: outer corner 33, upper lid to the inner corner 133, lower lid back.
    static let rightEyeOutline = [
        33, 246, 161, 160, 159, 158, 157, 173,
        133, 155, 154, 153, 145, 144, 163, 7,
    ]
    private static let leftEye = vertices(leftEyeOutline)
    private static let rightEye = vertices(rightEyeOutline)

    /// The outer upper-lip chain, corner 61 to corner 291: 11 points, ML Kit's count.
    private static let upperLipTop = vertices([61, 185, 40, 39, 37, 0, 267, 269, 270, 409, 291])
    // The other three lip chains also run corner to corner with 11 points; their corners (61 and
    // 291 outside, 78 and 308 inside) are dropped, since the upper lip's top already has the mouth
    // corners, leaving ML Kit's 9.
    private static let upperLipBottom = vertices([191, 80, 81, 82, 13, 312, 311, 310, 415])
    private static let lowerLipTop = vertices([95, 88, 178, 87, 14, 317, 402, 318, 324])
    private static let lowerLipBottom = vertices([146, 91, 181, 84, 17, 314, 405, 321, 375])

    /// 6 is the nasion, on the midline level with the inner eye corners; 4 is the nose tip, the
    /// canonical face's most forward point.
    private static let noseBridge = vertices([6, 4])
    /// 2 is the subnasale in the middle; 98 and 327 are the outer bottom points of the nostril
    /// ring, where the nose's wings meet the face.
    private static let noseBottom = vertices([2, 98, 327])

    // No mesh point is the cheek's centre, so it is the mean of the four that surround the
    // midpoint of the eye's outer corner and the mouth corner: 266, 425, 280, 330 on the subject's
    // left, their mirror images 36, 205, 50, 101 on the right.
    private static let leftCheek: [MeshPoint] = [.mean([266, 425, 280, 330])]
    private static let rightCheek: [MeshPoint] = [.mean([36, 205, 50, 101])]

    private static func vertices(_ indices: [Int]) -> [MeshPoint] {
        indices.map { .vertex($0) }
    }
}
