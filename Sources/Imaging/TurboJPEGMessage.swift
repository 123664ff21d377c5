import CTurboJPEG

/// TurboJPEG's description of the last failure on `handle`, or of the last
/// failed `tjInit*` call when `handle` is nil (TurboJPEG keeps that one per thread).
/// Package-wide so the tests' JPEG encoder reports failures as the decoder does.
package func turboJPEGMessage(_ handle: tjhandle?) -> String {
    guard let message = tjGetErrorStr2(handle) else { return "unknown TurboJPEG error" }
    return String(cString: message)
}
