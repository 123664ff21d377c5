/// Face points stored as x, y, z triples in mesh order, such as a canonical mesh parsed from
/// MediaPipe's geometry metadata.
struct MeshVertices: FacePoints {
    let positions: [Float]

    func point(_ index: Int) -> SIMD3<Float> {
        SIMD3(positions[3 * index], positions[3 * index + 1], positions[3 * index + 2])
    }
}
