import Crypto

/// SHA-256 as lowercase hexadecimal, for model fingerprints and for checking the members of a
/// `.task` bundle against their published digests.
///
/// swift-crypto's BoringSSL does the hashing: every worker start hashes about 10 MB of models,
/// and its assembly keeps that a few milliseconds even in a debug build. Named for what it is
/// used for, so that it does not shadow swift-crypto's `SHA256` where both are imported.
package enum ModelDigest {
    /// The digest of `bytes` as 64 lowercase hexadecimal digits.
    package static func hexDigest(of bytes: some Collection<UInt8>) -> String {
        var hasher = Crypto.SHA256()
        let hashedInPlace: Void? = bytes.withContiguousStorageIfAvailable { hasher.update(bufferPointer: UnsafeRawBufferPointer($0)) }
        if hashedInPlace == nil {
            hasher.update(data: Array(bytes))
        }
        let digits = Array("0123456789abcdef".utf8)
        var hex: [UInt8] = []
        hex.reserveCapacity(64)
        for byte in hasher.finalize() {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: hex, as: UTF8.self)
    }
}
