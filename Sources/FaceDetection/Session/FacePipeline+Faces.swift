import Foundation
import Imaging

extension FacePipeline {
    /// The ML Kit outputs the options ask for; head angles always, as ML Kit
    /// reports them whenever it can.
    var mlKitOutputs: MLKitOutputs {
        var outputs: MLKitOutputs = [.eulerAngles]
        if options.landmarks { outputs.insert(.landmarks) }
        if options.contours { outputs.insert(.contours) }
        if options.classification { outputs.insert(.classification) }
        if options.transformationMatrix { outputs.insert(.transformationMatrix) }
        return outputs
    }

    /// A face followed by its landmarks; `geometry` fits the head angles and
    /// the transformation matrix.
    func meshFace(_ landmarks: LegacyMeshStage.Result, detection: Detection?, score: Float, image: PixelSize,
                  geometry: FaceGeometry = FaceGeometry()) -> Face {
        let mesh = landmarks.mesh
        var xMin = Float.infinity, yMin = Float.infinity, xMax = -Float.infinity, yMax = -Float.infinity
        for point in mesh.prefix(MeshLayout.faceCount) {
            xMin = min(xMin, point.x); xMax = max(xMax, point.x)
            yMin = min(yMin, point.y); yMax = max(yMax, point.y)
        }
        let width = Float(image.width), height = Float(image.height)
        var features = MLKitFaceFeatures.compute(mesh: mesh, imageWidth: image.width, imageHeight: image.height, outputs: mlKitOutputs,
                                                  geometry: geometry)
        let euler = features.eulerAngles
        features.eulerAngles = nil
        return Face(
            boundingBox: PixelRect(x: xMin * width, y: yMin * height, width: (xMax - xMin) * width, height: (yMax - yMin) * height),
            score: score,
            keypoints: detection?.keypoints ?? Self.keypoints(fromMesh: mesh),
            trackingID: nil,
            presence: landmarks.presence,
            mesh: options.faceMesh ? mesh : nil,
            headEulerAngleX: euler?.x,
            headEulerAngleY: euler?.y,
            headEulerAngleZ: euler?.z,
            features: features)
    }

    /// A face's box as a normalized detection, for re-identifying it by overlap.
    static func box(of face: Face, image: PixelSize) -> Detection {
        let width = Float(image.width), height = Float(image.height)
        return Detection(score: face.score,
                         xMin: face.boundingBox.x / width, yMin: face.boundingBox.y / height,
                         xMax: (face.boundingBox.x + face.boundingBox.width) / width,
                         yMax: (face.boundingBox.y + face.boundingBox.height) / height,
                         keypoints: face.keypoints)
    }

    /// A face known only from the detector.
    func detectionFace(_ detection: Detection, image: PixelSize) -> Face {
        let width = Float(image.width), height = Float(image.height)
        let right = detection.keypoints[0], left = detection.keypoints[1]
        // Roll from the eye line, in pixels with y up: counter-clockwise positive, as ML Kit's Z.
        let roll = atan2(-(left.y - right.y) * height, (left.x - right.x) * width) * 180 / .pi
        return Face(
            boundingBox: PixelRect(x: detection.xMin * width, y: detection.yMin * height,
                                   width: detection.width * width, height: detection.height * height),
            score: detection.score,
            keypoints: detection.keypoints,
            trackingID: nil,
            presence: nil,
            mesh: nil,
            headEulerAngleX: nil,
            headEulerAngleY: nil,
            headEulerAngleZ: roll,
            features: nil)
    }

    /// The detector's six keypoints estimated from the mesh, for frames on which
    /// the detector did not run: iris centres for the eyes (the midpoints of the
    /// eye corners without iris points), the mesh's nose tip, the midpoint of
    /// the inner lips, and the face contour points beside the ears.
    static func keypoints(fromMesh mesh: [NormalizedLandmark]) -> [NormalizedLandmark] {
        func mid(_ a: Int, _ b: Int) -> NormalizedLandmark {
            NormalizedLandmark(x: (mesh[a].x + mesh[b].x) / 2, y: (mesh[a].y + mesh[b].y) / 2)
        }
        func flat(_ i: Int) -> NormalizedLandmark { NormalizedLandmark(x: mesh[i].x, y: mesh[i].y) }
        let eyes = mesh.count >= MeshLayout.withIrisCount
            ? [flat(MeshLayout.subjectRightIrisCentre), flat(MeshLayout.subjectLeftIrisCentre)]
            : [mid(33, 133), mid(362, 263)]
        return eyes + [flat(1), mid(13, 14), flat(234), flat(454)]
    }
}
