import CLibFuzzer
import FaceWorkerProtocol
import NIOCore

/// The lean socket's framing: the bytes arrive cut at random points, as a
/// socket may deliver them, and each payload the decoder yields must lie
/// inside what arrived and be exactly as long as its header said.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFrameDecoder(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let input = UnsafeBufferPointer(start: start, count: count)
    guard let cuts = input.first else { return 0 }
    let stream = input.dropFirst()
    // A small limit, so the fuzzer reaches both sides of it.
    let decoder = LengthPrefixedMessageDecoder(maximumMessageLength: 1 << 12)
    var buffer = ByteBufferAllocator().buffer(capacity: stream.count)
    var delivered = 0
    var chunk = max(1, Int(cuts))
    while delivered < stream.count {
        let end = min(stream.count, delivered + chunk)
        buffer.writeBytes(UnsafeBufferPointer(rebasing: stream[(stream.startIndex + delivered)..<(stream.startIndex + end)]))
        delivered = end
        chunk = chunk * 3 % 251 + 1
        do {
            while let payload = try decoder.nextPayload(from: &buffer) {
                precondition(payload.readableBytes <= decoder.maximumMessageLength)
            }
        } catch {
            // Broken framing ends the connection: nothing after it is read.
            return 0
        }
    }
    return 0
}

libfuzzer_main(CommandLine.argc, CommandLine.unsafeArgv)
