/// Where each ML Kit landmark is read from MediaPipe's face mesh.
///
/// ML Kit's left and right are the subject's; in the mesh the subject's left side is the one of
/// points 263 and 362 (the image's right for an upright face) and the subject's right side that of
/// points 33 and 133. The mesh is mirror-symmetric, so every left choice below has its right twin.
enum MLKitLandmarkMap {
    /// The mesh recipe for one landmark.
    static func point(for type: MLKitLandmarkType) -> MeshPoint {
        switch type {
        // 17 is the lower lip's outer edge on the midline, the bottom of the lip's centre.
        case .mouthBottom: .vertex(17)
        // ML Kit defines the cheek landmark as the midpoint of the mouth corner (291 / 61) and the
        // eye's outer corner (263 / 33).
        case .leftCheek: .mean(leftCheek)
        case .rightCheek: .mean(rightCheek)
        // The mesh ends at the face outline in front of the ear. The outline points 356, 454 and
        // 323 run from eye level to the nose's base, the span the ear is attached along; their
        // mean sits at the tragus, halfway between the ear's tip and lobe. 127, 234, 93 mirror them.
        case .leftEar: .mean(leftEar)
        case .rightEar: .mean(rightEar)
        // The iris centre (473 / 468) when the mesh has irises, else the middle of the eye outline.
        case .leftEye: .irisCentre(MeshLayout.subjectLeftIrisCentre, eyeOutline: MLKitContourMap.leftEyeOutline)
        case .rightEye: .irisCentre(MeshLayout.subjectRightIrisCentre, eyeOutline: MLKitContourMap.rightEyeOutline)
        // 291 and 61 are the outer mouth corners, where the upper and lower lip outlines meet.
        case .mouthLeft: .vertex(291)
        case .mouthRight: .vertex(61)
        // 2 is the subnasale: the bottom of the nose's midline chain (168 … 94, 2), where the
        // columella meets the lip, between the nostrils.
        case .noseBase: .vertex(2)
        }
    }

    private static let leftCheek = [291, 263]
    private static let rightCheek = [61, 33]
    private static let leftEar = [356, 454, 323]
    private static let rightEar = [127, 234, 93]
}
