/// A model file the worker loaded, as GetStats and the metrics name it.
package struct LoadedModel: Sendable {
    /// The file's name in the models directory.
    package var name: String
    /// Its SHA-256, in lowercase hex.
    package var sha256: String
    /// Its size.
    package var sizeBytes: Int

    package init(name: String, sha256: String, sizeBytes: Int) {
        self.name = name
        self.sha256 = sha256
        self.sizeBytes = sizeBytes
    }
}
