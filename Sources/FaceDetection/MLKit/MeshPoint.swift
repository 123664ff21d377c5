/// How one ML Kit point is read from the face mesh.
enum MeshPoint: Sendable {
    /// One mesh point.
    case vertex(Int)
    /// The mean of several mesh points, for places no single mesh point marks.
    case mean([Int])
    /// An iris centre when the mesh has the irises; otherwise the mean of the points around the
    /// eye, which is where the iris sits when the eye looks ahead.
    case irisCentre(Int, eyeOutline: [Int])

    /// The point's position in pixels of the upright image.
    func pixel(in mesh: PixelSpaceMesh) -> PixelPoint {
        switch self {
        case .vertex(let index):
            return mesh.pixel(index)
        case .mean(let indices):
            return Self.mean(of: indices, in: mesh)
        case .irisCentre(let centre, let outline):
            return mesh.hasIris ? mesh.pixel(centre) : Self.mean(of: outline, in: mesh)
        }
    }

    private static func mean(of indices: [Int], in mesh: PixelSpaceMesh) -> PixelPoint {
        var x: Float = 0
        var y: Float = 0
        for index in indices {
            let point = mesh.pixel(index)
            x += point.x
            y += point.y
        }
        let count = Float(indices.count)
        return PixelPoint(x: x / count, y: y / count)
    }
}
