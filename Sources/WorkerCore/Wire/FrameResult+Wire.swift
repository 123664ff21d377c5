import FaceDetection
import FaceWorkerProtocol

extension Faceworker_V1_FrameResult {
    /// The wire form of a processed frame of `sessionID`, with the worker's
    /// stage timings.
    package init(_ processed: ProcessedFrame, sessionID: UInt64) {
        self.init()
        let result = processed.result
        self.sessionID = sessionID
        timestampMs = processed.timestampMs
        imageWidth = UInt32(result.imageWidth)
        imageHeight = UInt32(result.imageHeight)
        detectorRan = result.detectorRan
        warnings = result.warnings
        timings = Faceworker_V1_StageTimings(processed.timings)
        faces = result.faces.map { Faceworker_V1_Face($0, imageWidth: result.imageWidth, imageHeight: result.imageHeight) }
    }
}

extension Faceworker_V1_Face {
    /// The detector's keypoint types, in the order `Face.keypoints` holds them.
    package static let keypointTypes: [Faceworker_V1_KeypointType] = [
        .rightEye, .leftEye, .noseTip, .mouthCenter, .rightEarTragion, .leftEarTragion,
    ]

    /// The wire form of one face of an image `imageWidth` x `imageHeight`.
    package init(_ face: Face, imageWidth: Int, imageHeight: Int) {
        self.init()
        boundingBox.x = face.boundingBox.x
        boundingBox.y = face.boundingBox.y
        boundingBox.width = face.boundingBox.width
        boundingBox.height = face.boundingBox.height
        score = face.score
        keypoints = zip(Self.keypointTypes, face.keypoints).map { type, point in
            var keypoint = Faceworker_V1_Keypoint()
            keypoint.type = type
            keypoint.normalized.x = point.x
            keypoint.normalized.y = point.y
            let pixel = point.pixel(width: imageWidth, height: imageHeight)
            keypoint.position.x = pixel.x
            keypoint.position.y = pixel.y
            return keypoint
        }
        if let id = face.trackingID { trackingID = Int32(clamping: id) }
        if let presence = face.presence { presenceScore = presence }
        if let mesh = face.mesh { meshXyz = Self.packed(mesh) }
        if let scores = face.blendshapes { blendshapes = scores }
        if let angle = face.headEulerAngleX { headEulerAngleX = angle }
        if let angle = face.headEulerAngleY { headEulerAngleY = angle }
        if let angle = face.headEulerAngleZ { headEulerAngleZ = angle }
        if let features = face.features { add(features) }
    }

    /// The mesh as `Face.mesh_xyz` lays it out: x, y, z of each point in turn.
    package static func packed(_ mesh: [NormalizedLandmark]) -> [Float] {
        var xyz: [Float] = []
        xyz.reserveCapacity(mesh.count * 3)
        for point in mesh {
            xyz.append(point.x)
            xyz.append(point.y)
            xyz.append(point.z)
        }
        return xyz
    }
}
