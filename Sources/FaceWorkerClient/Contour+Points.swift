import FaceWorkerProtocol

extension Faceworker_V1_Contour {
    /// The contour's points in pixels, read out of the packed `pointsXy`; a
    /// trailing partial point is not a point.
    package var points: [Faceworker_V1_Point] {
        (0..<pointsXy.count / 2).map { i in
            var point = Faceworker_V1_Point()
            point.x = pointsXy[2 * i]
            point.y = pointsXy[2 * i + 1]
            return point
        }
    }
}
