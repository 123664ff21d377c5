/// A model file the worker loaded, as GetStats and the metrics name it.
struct LoadedModel: Sendable {
    /// The file's name in the models directory.
    var name: String
    /// Its SHA-256, in lowercase hex.
    var sha256: String
    /// Its size.
    var sizeBytes: Int
}
