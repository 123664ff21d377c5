import FaceWorkerProtocol
import Foundation

extension Face {
    /// The face a worker's answer describes; types this client does not know
    /// are left out, as the .proto allows.
    init(_ face: Faceworker_V1_Face) {
        let box = face.boundingBox
        frame = CGRect(x: CGFloat(box.x), y: CGFloat(box.y), width: CGFloat(box.width), height: CGFloat(box.height))
        landmarks = face.landmarks.compactMap { landmark in
            landmark.type.mlKit.map { FaceLandmark(type: $0, position: VisionPoint(x: CGFloat(landmark.position.x), y: CGFloat(landmark.position.y))) }
        }
        contours = face.contours.compactMap { contour in
            let xy = contour.pointsXy
            return contour.type.mlKit.map { type in
                FaceContour(type: type, points: (0..<xy.count / 2).map { VisionPoint(x: CGFloat(xy[2 * $0]), y: CGFloat(xy[2 * $0 + 1])) })
            }
        }
        (hasHeadEulerAngleX, headEulerAngleX) = Self.value(face.optionalHeadEulerAngleX != nil, face.headEulerAngleX)
        (hasHeadEulerAngleY, headEulerAngleY) = Self.value(face.optionalHeadEulerAngleY != nil, face.headEulerAngleY)
        (hasHeadEulerAngleZ, headEulerAngleZ) = Self.value(face.optionalHeadEulerAngleZ != nil, face.headEulerAngleZ)
        (hasSmilingProbability, smilingProbability) = Self.value(face.optionalSmilingProbability != nil, face.smilingProbability)
        (hasLeftEyeOpenProbability, leftEyeOpenProbability) = Self.value(face.optionalLeftEyeOpenProbability != nil, face.leftEyeOpenProbability)
        (hasRightEyeOpenProbability, rightEyeOpenProbability) = Self.value(face.optionalRightEyeOpenProbability != nil, face.rightEyeOpenProbability)
        hasTrackingID = face.optionalTrackingID != nil
        trackingID = Int(face.trackingID)
    }

    private static func value(_ isSet: Bool, _ value: Float) -> (Bool, CGFloat) {
        (isSet, isSet ? CGFloat(value) : 0)
    }
}

extension Faceworker_V1_LandmarkType {
    var mlKit: FaceLandmarkType? {
        switch self {
        case .mouthBottom: .mouthBottom
        case .mouthLeft: .mouthLeft
        case .mouthRight: .mouthRight
        case .leftEye: .leftEye
        case .rightEye: .rightEye
        case .leftEar: .leftEar
        case .rightEar: .rightEar
        case .leftCheek: .leftCheek
        case .rightCheek: .rightCheek
        case .noseBase: .noseBase
        case .unspecified, .UNRECOGNIZED: nil
        }
    }
}

extension Faceworker_V1_ContourType {
    var mlKit: FaceContourType? {
        switch self {
        case .face: .face
        case .leftEyebrowTop: .leftEyebrowTop
        case .leftEyebrowBottom: .leftEyebrowBottom
        case .rightEyebrowTop: .rightEyebrowTop
        case .rightEyebrowBottom: .rightEyebrowBottom
        case .leftEye: .leftEye
        case .rightEye: .rightEye
        case .upperLipTop: .upperLipTop
        case .upperLipBottom: .upperLipBottom
        case .lowerLipTop: .lowerLipTop
        case .lowerLipBottom: .lowerLipBottom
        case .noseBridge: .noseBridge
        case .noseBottom: .noseBottom
        case .leftCheek: .leftCheek
        case .rightCheek: .rightCheek
        case .unspecified, .UNRECOGNIZED: nil
        }
    }
}
