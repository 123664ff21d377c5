import CLibFuzzer
import ModelFile

/// A `.task` bundle is a zip archive: its central directory is read, then
/// every member it lists is taken out (bounds, method, sizes, CRC-32).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTaskBundle(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard let bundle = try? TaskBundle(bytes: Array(UnsafeBufferPointer(start: start, count: count)), file: "fuzzed.task") else {
        return 0
    }
    for name in bundle.memberNames {
        _ = try? bundle.bytes(of: name)
    }
    return 0
}

libfuzzer_main(CommandLine.argc, CommandLine.unsafeArgv)
