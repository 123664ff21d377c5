import FaceDetection
import FaceWorkerProtocol
import Foundation
import ModelFile

/// The model files a worker loaded, as GetStats reports them.
enum ModelInventory {
    /// Name, SHA-256 and size of each of the files `models` were loaded from.
    static func describe(_ models: FaceModels) throws(WorkerStartupError) -> [Faceworker_V1_ModelInfo] {
        var infos: [Faceworker_V1_ModelInfo] = []
        for file in models.files {
            let name = file.name, path = file.path
            guard let contents = FileManager.default.contents(atPath: path) else {
                throw WorkerStartupError("cannot read \(path); `make models` fetches the models")
            }
            var info = Faceworker_V1_ModelInfo()
            info.name = name
            info.sha256 = SHA256.hexDigest(of: contents)
            info.sizeBytes = UInt64(contents.count)
            infos.append(info)
        }
        return infos
    }
}
