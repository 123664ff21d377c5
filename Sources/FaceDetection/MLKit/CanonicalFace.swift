/// The canonical face model's vertices as face points, in centimetres.
struct CanonicalFace: FacePoints {
    func point(_ index: Int) -> SIMD3<Float> {
        let positions = CanonicalFaceModel.positions
        return SIMD3(positions[3 * index], positions[3 * index + 1], positions[3 * index + 2])
    }
}
