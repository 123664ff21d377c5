import CLibFuzzer
@testable import ModelFile

/// A custom operator's options, the FlexBuffer a model file carries for it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFlexBuffers(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    _ = try? FlexValue.decode(Array(UnsafeBufferPointer(start: start, count: count))[...], file: "fuzzed.tflite", context: "custom options")
    return 0
}

libfuzzer_main(CommandLine.argc, CommandLine.unsafeArgv)
