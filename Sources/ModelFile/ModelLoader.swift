import Foundation

/// Reads `.tflite` files into folded `Model`s.
///
/// Only the main subgraph is read, and only the operators listed in
/// `BuiltinOperator.supportedNames`; anything else is a thrown `ModelFileError`
/// naming the file and the problem.
package enum ModelLoader {
    /// Largest tensor the loader accepts, in elements; a guard against shapes
    /// that would make the engine allocate absurd amounts.
    static let maximumElements = 1 << 28

    /// Loads and folds the model at `path`.
    package static func load(path: String) throws -> Model {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ModelFileError(file: path, problem: "cannot be read (missing, or not a readable file); run `make models` to fetch the models")
        }
        return try load(bytes: [UInt8](data), file: path)
    }

    /// Loads and folds a model from bytes; `file` labels errors.
    package static func load(bytes: [UInt8], file: String) throws -> Model {
        let reader = FlatBufferReader(bytes: bytes, file: file)
        // A FlatBuffers file identifier is the 4 bytes after the root table's uint32 offset.
        let identifierRange = 4..<8
        guard bytes.count >= identifierRange.upperBound else {
            throw reader.fail("is \(bytes.count) bytes long, too short to be a TensorFlow Lite model")
        }
        let identifier = bytes[identifierRange]
        guard identifier.elementsEqual("TFL3".utf8) else {
            let shown = identifier.map { (0x20..<0x7F).contains($0) ? String(UnicodeScalar($0)) : "." }.joined()
            throw reader.fail("is not a TensorFlow Lite model (file identifier '\(shown)', expected 'TFL3')")
        }
        return try RawModel(reader: reader).folded()
    }
}
