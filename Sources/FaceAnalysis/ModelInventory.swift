import FaceDetection
import WorkerCore
import Foundation
import ModelFile

/// The model files a worker loaded, as GetStats reports them.
package enum ModelInventory {
    /// Name, SHA-256 and size of each of the files `models` were loaded from.
    package static func describe(_ models: FaceModels) throws(WorkerStartupError) -> [LoadedModel] {
        var infos: [LoadedModel] = []
        for file in models.files {
            let name = file.name, path = file.path
            guard let contents = FileManager.default.contents(atPath: path) else {
                throw WorkerStartupError("cannot read \(path); `make models` fetches the models")
            }
            infos.append(LoadedModel(name: name, sha256: ModelDigest.hexDigest(of: contents), sizeBytes: contents.count))
        }
        return infos
    }
}
