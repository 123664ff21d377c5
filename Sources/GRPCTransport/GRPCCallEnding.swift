import FaceWorkerProtocol
import NIOHPACK
import NIOHTTP2

extension HTTP2Frame.FramePayload {
    /// The frames a stream handler writes to end a gRPC call with `code` and
    /// `message` before the service has seen it: the status, then a reset.
    ///
    /// The client may still be sending. gRPC's HTTP/2 protocol asks a server
    /// that ends a call before the client half-closes to reset the stream with
    /// NO_ERROR, which frees the stream on both sides at once; closing the
    /// stream channel instead would reset it with CANCEL, and a client may
    /// then report a cancelled call in place of the status it was sent.
    static func endingCall(_ code: Faceworker_V1_Status.Code, _ message: String, responseStarted: Bool) -> [HTTP2Frame.FramePayload] {
        let headers = HPACKHeaders.grpcStatus(code, message, responseStarted: responseStarted)
        return [.headers(.init(headers: headers, endStream: true)), .rstStream(.noError)]
    }
}

extension HPACKHeaders {
    /// The headers that end a gRPC call with `code` and `message`: trailers
    /// after a response that started, or a whole trailers-only response.
    static func grpcStatus(_ code: Faceworker_V1_Status.Code, _ message: String, responseStarted: Bool) -> HPACKHeaders {
        var headers: HPACKHeaders = responseStarted ? [:] : [":status": "200", "content-type": "application/grpc"]
        headers.add(name: "grpc-status", value: "\(code.rawValue)")
        headers.add(name: "grpc-message", value: percentEncoded(message))
        return headers
    }

    /// gRPC's encoding of a status message: bytes outside printable ASCII,
    /// and `%`, as `%XX`.
    static func percentEncoded(_ message: String) -> String {
        var encoded = ""
        for byte in message.utf8 {
            if (0x20...0x7E).contains(byte) && byte != UInt8(ascii: "%") {
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                encoded += (hex.count == 1 ? "%0" : "%") + hex
            }
        }
        return encoded
    }
}
