extension MLKitFaceFeatures {
    /// Computes the requested ML Kit outputs of one face from its face mesh.
    ///
    /// Unlike ML Kit, which gives contours only for the most prominent face, this works the same
    /// for every face it is called for.
    /// - Parameters:
    ///   - mesh: the face's landmarks in MediaPipe's normalized form and 478-point numbering; 468
    ///     points (no irises) also work, the eye landmarks then come from the eye outlines.
    ///   - imageWidth: the upright image's width in pixels.
    ///   - imageHeight: the upright image's height in pixels.
    ///   - outputs: which outputs to compute; the others stay nil.
    ///   - geometry: the face geometry behind the Euler angles and the transformation matrix.
    /// - Returns: the outputs; all nil when the mesh has fewer than 468 points or the image is empty.
    package static func compute(
        mesh: [NormalizedLandmark],
        imageWidth: Int,
        imageHeight: Int,
        outputs: MLKitOutputs,
        geometry: FaceGeometry = FaceGeometry()
    ) -> MLKitFaceFeatures {
        var features = MLKitFaceFeatures()
        guard mesh.count >= MeshLayout.faceCount, imageWidth > 0, imageHeight > 0 else { return features }
        let face = PixelSpaceMesh(landmarks: mesh, width: Float(imageWidth), height: Float(imageHeight))

        if outputs.contains(.landmarks) {
            features.landmarks = landmarkTypes.map { type in
                MLKitLandmark(type: type, position: MLKitLandmarkMap.point(for: type).pixel(in: face))
            }
        }
        if outputs.contains(.contours) {
            features.contours = contourTypes.map { type in
                MLKitContour(type: type, points: MLKitContourMap.points(for: type).map { $0.pixel(in: face) })
            }
        }
        let needsFit = !outputs.isDisjoint(with: [.classification, .eulerAngles, .transformationMatrix])
        let fit = needsFit ? geometry.fit(mesh, imageWidth: imageWidth, imageHeight: imageHeight) : nil
        if outputs.contains(.classification) {
            // The metric face has no perspective, so the measures hold as the head turns; a face
            // too small to fit is measured in the image instead.
            if let fit {
                classify(fit.metricFace, into: &features)
            } else {
                classify(face, into: &features)
            }
        }
        if let fit {
            if outputs.contains(.eulerAngles) {
                features.eulerAngles = fit.pose.eulerAngles
            }
            if outputs.contains(.transformationMatrix) {
                features.transformationMatrix = fit.pose.transformationMatrix
            }
        }
        return features
    }

    private static func classify<Points: FacePoints>(_ face: Points, into features: inout MLKitFaceFeatures) {
        features.smilingProbability = SmileProbability.probability(of: SmileGeometry(of: face))
        features.leftEyeOpenProbability = EyeOpenProbability.probability(of: .subjectLeft, in: face)
        features.rightEyeOpenProbability = EyeOpenProbability.probability(of: .subjectRight, in: face)
    }

    // Kept once: a CaseIterable enum builds a new allCases array on every access.
    private static let landmarkTypes = MLKitLandmarkType.allCases
    private static let contourTypes = MLKitContourType.allCases
}
