import Foundation
import Inference
import ModelFile

/// Loads the Face Landmarker bundle (`face_landmarker.task`) as the manifest
/// describes it: the bundle's SHA-256, then each member the manifest lists,
/// found by name and checked against its own SHA-256, handed on by role.
enum FaceLandmarkerBundle {
    /// The member roles the manifest gives the bundle's files.
    static let detectorRole = "detector", landmarksRole = "landmarks", blendshapesRole = "blendshapes", geometryRole = "geometry"

    /// The bundle's models; every error names the bundle (and the member) and what is wrong.
    static func load(path: String, file: ModelManifest.File) throws -> FaceLandmarkerModels {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ModelManifestError(file: path, problem: "cannot be read (missing, or not a readable file); `make models` fetches it")
        }
        let bytes = [UInt8](data)
        let digest = ModelDigest.hexDigest(of: bytes)
        guard digest == file.sha256 else {
            throw ModelManifestError(file: path, problem: "has SHA-256 \(digest), the manifest says \(file.sha256): the file is damaged or another version")
        }
        let bundle = try TaskBundle(bytes: bytes, file: path)
        func member(_ role: String) throws -> ModelManifest.Member {
            guard let entry = file.members?.first(where: { $0.role == role }) else {
                throw ModelManifestError(file: path, problem: "the manifest lists no member with role \(role)")
            }
            return entry
        }
        func model(_ role: String) throws -> CompiledModel {
            let entry = try member(role)
            // The detector sees whole frames letterboxed into its input.
            return try CompiledModel(bundle: bundle, member: entry.name, sha256: entry.sha256, letterboxedInput: role == detectorRole)
        }
        let geometry = try member(geometryRole)
        let metadata: GeometryPipelineMetadata
        do {
            metadata = try GeometryPipelineMetadata(bytes: bundle.bytes(of: geometry.name, sha256: geometry.sha256))
        } catch let error as ProtobufWireError {
            throw ModelManifestError(file: "\(path):\(geometry.name)", problem: "is not face geometry metadata: \(error)")
        }
        // The blendshape member is checked like the others, but a model the runtime
        // cannot prepare only costs the blendshapes: MediaPipe treats them as optional.
        let blendshapes = try member(blendshapesRole)
        let blendshapeBytes = try bundle.bytes(of: blendshapes.name, sha256: blendshapes.sha256)
        let blendshapeModel = Result<CompiledModel, any Error> {
            try CompiledModel(graph: ModelLoader.load(bytes: blendshapeBytes, file: "\(path):\(blendshapes.name)"))
        }
        return try FaceLandmarkerModels(detector: model(detectorRole), landmarks: model(landmarksRole),
                                        blendshapes: blendshapeModel, geometry: metadata)
    }
}
