import FaceWorkerProtocol
import Foundation

extension FaceDetectorResult {
    /// The result a worker's answer describes, as the Python client reads it.
    init(_ frame: Faceworker_V1_FrameResult) {
        self.init(detections: frame.faces.map(Detection.init), timestampInMilliseconds: Int(frame.timestampMs))
    }
}

extension Detection {
    init(_ face: Faceworker_V1_Face) {
        let box = face.boundingBox
        self.init(
            categories: [ResultCategory(index: 0, score: face.score, categoryName: nil, displayName: nil)],
            boundingBox: CGRect(x: Self.whole(box.x), y: Self.whole(box.y), width: Self.whole(box.width), height: Self.whole(box.height)),
            keypoints: face.keypoints.map { keypoint in
                NormalizedKeypoint(location: CGPoint(x: CGFloat(keypoint.normalized.x), y: CGFloat(keypoint.normalized.y)), label: keypoint.type.label, score: 0)
            })
    }

    /// MediaPipe's boxes are whole pixels; halves go to the even neighbour,
    /// as the Python client rounds them.
    private static func whole(_ value: Float) -> CGFloat {
        CGFloat(value.rounded(.toNearestOrEven))
    }
}

extension Faceworker_V1_KeypointType {
    /// MediaPipe's keypoint label; nil for a type this client does not know.
    var label: String? {
        switch self {
        case .rightEye: "RIGHT_EYE"
        case .leftEye: "LEFT_EYE"
        case .noseTip: "NOSE_TIP"
        case .mouthCenter: "MOUTH_CENTER"
        case .rightEarTragion: "RIGHT_EAR_TRAGION"
        case .leftEarTragion: "LEFT_EAR_TRAGION"
        case .unspecified, .UNRECOGNIZED: nil
        }
    }
}

extension FaceLandmarkerResult {
    /// The result a worker's answer describes; `blendshapeNames` are the
    /// session's names of the scores.
    init(_ frame: Faceworker_V1_FrameResult, blendshapeNames: [String]) {
        self.init(
            faceLandmarks: frame.faces.map { face in
                let xyz = face.meshXyz
                return (0..<xyz.count / 3).map { NormalizedLandmark(x: xyz[3 * $0], y: xyz[3 * $0 + 1], z: xyz[3 * $0 + 2]) }
            },
            faceBlendshapes: frame.faces.filter { !$0.blendshapes.isEmpty }.map { face in
                Classifications(headIndex: 0, headName: nil, categories: zip(blendshapeNames, face.blendshapes).enumerated().map { index, pair in
                    ResultCategory(index: index, score: pair.1, categoryName: pair.0, displayName: "")
                })
            },
            facialTransformationMatrixes: frame.faces.compactMap { face in
                face.transformationMatrix.count == 16 ? TransformMatrix(rows: 4, columns: 4, data: face.transformationMatrix) : nil
            },
            timestampInMilliseconds: Int(frame.timestampMs))
    }
}
