import FaceDetection
import FaceWorkerProtocol

extension Faceworker_V1_Face {
    /// Adds the ML Kit outputs the session asked for (landmarks, contours,
    /// probabilities) and MediaPipe's transformation matrix.
    package mutating func add(_ features: MLKitFaceFeatures) {
        if let landmarks = features.landmarks {
            self.landmarks = landmarks.map { landmark in
                var wire = Faceworker_V1_Landmark()
                wire.type = Faceworker_V1_LandmarkType(landmark.type)
                wire.position = Faceworker_V1_Point(landmark.position)
                return wire
            }
        }
        if let contours = features.contours {
            self.contours = contours.map { contour in
                var wire = Faceworker_V1_Contour()
                wire.type = Faceworker_V1_ContourType(contour.type)
                wire.pointsXy.reserveCapacity(contour.points.count * 2)
                for point in contour.points {
                    wire.pointsXy.append(point.x)
                    wire.pointsXy.append(point.y)
                }
                return wire
            }
        }
        if let probability = features.smilingProbability { smilingProbability = probability }
        if let probability = features.leftEyeOpenProbability { leftEyeOpenProbability = probability }
        if let probability = features.rightEyeOpenProbability { rightEyeOpenProbability = probability }
        if let matrix = features.transformationMatrix { transformationMatrix = matrix }
    }
}

extension Faceworker_V1_Point {
    /// A pixel position.
    package init(_ point: PixelPoint) {
        self.init()
        x = point.x
        y = point.y
    }
}

extension Faceworker_V1_LandmarkType {
    /// The wire type of an ML Kit landmark; the API numbers them its own way,
    /// so they are matched by name.
    package init(_ type: MLKitLandmarkType) {
        switch type {
        case .mouthBottom: self = .mouthBottom
        case .mouthLeft: self = .mouthLeft
        case .mouthRight: self = .mouthRight
        case .leftEye: self = .leftEye
        case .rightEye: self = .rightEye
        case .leftEar: self = .leftEar
        case .rightEar: self = .rightEar
        case .leftCheek: self = .leftCheek
        case .rightCheek: self = .rightCheek
        case .noseBase: self = .noseBase
        }
    }
}

extension Faceworker_V1_ContourType {
    /// The wire type of an ML Kit contour.
    package init(_ type: MLKitContourType) {
        switch type {
        case .face: self = .face
        case .leftEyebrowTop: self = .leftEyebrowTop
        case .leftEyebrowBottom: self = .leftEyebrowBottom
        case .rightEyebrowTop: self = .rightEyebrowTop
        case .rightEyebrowBottom: self = .rightEyebrowBottom
        case .leftEye: self = .leftEye
        case .rightEye: self = .rightEye
        case .upperLipTop: self = .upperLipTop
        case .upperLipBottom: self = .upperLipBottom
        case .lowerLipTop: self = .lowerLipTop
        case .lowerLipBottom: self = .lowerLipBottom
        case .noseBridge: self = .noseBridge
        case .noseBottom: self = .noseBottom
        case .leftCheek: self = .leftCheek
        case .rightCheek: self = .rightCheek
        }
    }
}
