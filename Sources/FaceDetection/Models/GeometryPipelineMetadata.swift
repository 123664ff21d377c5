/// The face geometry metadata in the Face Landmarker bundle
/// (`geometry_pipeline_metadata_landmarks.binarypb`): MediaPipe's
/// `GeometryPipelineMetadata` message, read from its wire format.
///
/// Only what the facial transformation matrix needs is kept: the canonical
/// mesh's vertex positions and the weighted landmarks of the Procrustes fit.
/// Field numbers follow `face_geometry/proto/geometry_pipeline_metadata.proto`
/// and `mesh_3d.proto`.
package struct GeometryPipelineMetadata: Sendable, Equatable {
    /// The canonical face's vertex positions in centimetres, x, y, z per vertex.
    package var positions: [Float]
    /// The landmarks the fit weighs, with their weights.
    package var procrustesBasis: [ProcrustesLandmark]

    /// One weighted landmark of the Procrustes fit.
    package struct ProcrustesLandmark: Sendable, Equatable {
        /// The mesh point (and canonical vertex) index.
        package var index: Int
        /// Its weight in the fit.
        package var weight: Float
    }

    /// The number of canonical vertices.
    package var vertexCount: Int { positions.count / 3 }

    // The message's and Mesh3d's field numbers.
    private static let canonicalMeshField = 1, basisField = 2
    private static let vertexTypeField = 1, vertexBufferField = 3
    private static let landmarkIDField = 1, weightField = 2
    /// VERTEX_PT: position then texture coordinate, five floats a vertex.
    private static let floatsPerVertex = 5

    /// Parses the message; the error says what is missing or malformed.
    init(bytes: [UInt8]) throws(ProtobufWireError) {
        var reader = ProtobufWireReader(bytes[...])
        var vertexBuffer: [Float] = []
        var basis: [ProcrustesLandmark] = []
        while let (field, value) = try reader.next() {
            switch (field, value) {
            case (Self.canonicalMeshField, .bytes(let mesh)):
                vertexBuffer += try Self.vertexBuffer(of: mesh)
            case (Self.basisField, .bytes(let entry)):
                basis.append(try Self.landmark(entry))
            default:
                continue
            }
        }
        guard !vertexBuffer.isEmpty, vertexBuffer.count % Self.floatsPerVertex == 0 else {
            throw ProtobufWireError("canonical_mesh has \(vertexBuffer.count) vertex floats, not a positive multiple of \(Self.floatsPerVertex)")
        }
        guard !basis.isEmpty else { throw ProtobufWireError("procrustes_landmark_basis is empty") }
        let vertices = vertexBuffer.count / Self.floatsPerVertex
        guard let outside = basis.first(where: { $0.index >= vertices }) else {
            positions = (0..<vertices).flatMap { vertexBuffer[Self.floatsPerVertex * $0..<Self.floatsPerVertex * $0 + 3] }
            procrustesBasis = basis
            return
        }
        throw ProtobufWireError("procrustes_landmark_basis names landmark \(outside.index), the mesh has \(vertices) vertices")
    }

    private static func vertexBuffer(of mesh: ArraySlice<UInt8>) throws(ProtobufWireError) -> [Float] {
        var reader = ProtobufWireReader(mesh)
        var floats: [Float] = []
        while let (field, value) = try reader.next() {
            if field == vertexTypeField, case .varint(let type) = value, type != 0 {
                throw ProtobufWireError("canonical_mesh has vertex type \(type), only VERTEX_PT (0) is known")
            }
            guard field == vertexBufferField else { continue }
            guard let bits = value.fixed32s() else { throw ProtobufWireError("canonical_mesh.vertex_buffer is not a float field") }
            floats += bits.map(Float.init(bitPattern:))
        }
        return floats
    }

    private static func landmark(_ entry: ArraySlice<UInt8>) throws(ProtobufWireError) -> ProcrustesLandmark {
        var reader = ProtobufWireReader(entry)
        var index: Int?
        var weight: Float?
        while let (field, value) = try reader.next() {
            switch (field, value) {
            case (landmarkIDField, .varint(let id)): index = Int(truncatingIfNeeded: id)
            case (weightField, .fixed32(let bits)): weight = Float(bitPattern: bits)
            default: continue
            }
        }
        guard let index, let weight, weight >= 0, weight.isFinite else {
            throw ProtobufWireError("a procrustes_landmark_basis entry lacks a landmark_id or a finite weight ≥ 0")
        }
        return ProcrustesLandmark(index: index, weight: weight)
    }
}
