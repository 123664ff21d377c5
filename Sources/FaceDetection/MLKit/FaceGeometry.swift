/// MediaPipe's face geometry: the pose of the canonical face model that explains a face mesh,
/// computed the way MediaPipe's face_geometry module (geometry_pipeline.cc) does for its facial
/// transformation matrix.
///
/// The normalized landmarks only fix x and y up to the unknown distance and give depth relative to
/// the face, so MediaPipe reconstructs metric 3-D points in steps:
/// 1. put x and y on the camera's near plane (y flipped: the image origin is the top-left corner),
///    with z scaled like x;
/// 2. fit the canonical face to those flat points; the fit's scale is the face's size on the near
///    plane relative to the model;
/// 3. push every point to the depth that size implies (depth = near plane + relative depth, over
///    the scale) and back-project x and y along the camera's rays;
/// 4. fit again, and use the product of the two scales to back-project the screen points once more;
/// 5. the last fit, from the canonical model to these metric points, is the pose.
/// Metric space is right-handed, in centimetres: x toward the image's right, y up, z toward the
/// viewer, so faces in front of the camera have negative z.
package struct FaceGeometry: Sendable {
    /// The camera assumed to have taken the picture.
    package var camera: PerspectiveCamera
    /// The canonical face and the weights the fit uses.
    let basis: ProcrustesBasis

    /// Creates a face geometry for a camera; MediaPipe's default camera unless told otherwise.
    /// The canonical face is the one generated from MediaPipe's metadata (`CanonicalFaceModel`).
    package init(camera: PerspectiveCamera = .mediaPipe) {
        self.camera = camera
        basis = .canonicalFace
    }

    /// A face geometry whose canonical face and weights come from parsed metadata, such as the
    /// Face Landmarker bundle's, so the matrix is computed from the very file MediaPipe loads.
    package init(camera: PerspectiveCamera = .mediaPipe, metadata: GeometryPipelineMetadata) {
        self.camera = camera
        basis = ProcrustesBasis(points: MeshVertices(positions: metadata.positions),
                                basis: metadata.procrustesBasis.map { (index: $0.index, weight: $0.weight) })
    }

    /// The pose of a face, or nil when it cannot be fitted: fewer than 468 landmarks, an empty
    /// image, or a face so small (all landmarks within 0.001 of their centre, in normalized units)
    /// that MediaPipe skips it as numerically unstable.
    /// - Parameters:
    ///   - mesh: the face mesh in MediaPipe's normalized form; only points 0–467 are used (MediaPipe
    ///     drops the iris points before fitting, the canonical model has none).
    ///   - imageWidth: the upright image's width in pixels.
    ///   - imageHeight: the upright image's height in pixels.
    package func pose(of mesh: [NormalizedLandmark], imageWidth: Int, imageHeight: Int) -> FacePose? {
        fit(mesh, imageWidth: imageWidth, imageHeight: imageHeight)?.pose
    }

    /// The pose and the metric face behind it, under the same conditions as `pose(of:imageWidth:imageHeight:)`.
    func fit(_ mesh: [NormalizedLandmark], imageWidth: Int, imageHeight: Int) -> FaceFit? {
        guard mesh.count >= MeshLayout.faceCount, imageWidth > 0, imageHeight > 0,
              !Self.isTooCompact(mesh)
        else { return nil }
        let plane = camera.nearPlaneSize(imageWidth: imageWidth, imageHeight: imageHeight)
        let screen = NearPlaneProjection(mesh: mesh, planeWidth: plane.width, planeHeight: plane.height, near: Double(camera.near))
        guard let flat = basis.fit(target: { screen.flatPoint($0) }),
              let intermediate = basis.fit(target: { screen.metricPoint($0, scale: flat.scale) }),
              case let metricScale = flat.scale * intermediate.scale,
              let final = basis.fit(target: { screen.metricPoint($0, scale: metricScale) })
        else { return nil }
        return FaceFit(pose: FacePose(final), metricFace: MetricFace(projection: screen, scale: metricScale))
    }

    /// MediaPipe's filter for faces too small to fit: every landmark within 1e-3 of the mean.
    private static func isTooCompact(_ mesh: [NormalizedLandmark]) -> Bool {
        var meanX: Float = 0
        var meanY: Float = 0
        for index in 0..<MeshLayout.faceCount {
            meanX += mesh[index].x
            meanY += mesh[index].y
        }
        meanX /= Float(MeshLayout.faceCount)
        meanY /= Float(MeshLayout.faceCount)
        var largest: Float = 0
        for index in 0..<MeshLayout.faceCount {
            let dx = mesh[index].x - meanX
            let dy = mesh[index].y - meanY
            largest = max(largest, dx * dx + dy * dy)
        }
        return largest.squareRoot() <= 1e-3
    }
}
