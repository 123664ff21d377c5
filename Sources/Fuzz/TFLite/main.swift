import CLibFuzzer
import ModelFile

/// A damaged model file, however damaged, must be an error, never a crash:
/// the reader checks every offset, length and index of the flatbuffer, then
/// folds weights and decodes custom options.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTFLite(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    _ = try? ModelLoader.load(bytes: Array(UnsafeBufferPointer(start: start, count: count)), file: "fuzzed.tflite")
    return 0
}

libfuzzer_main(CommandLine.argc, CommandLine.unsafeArgv)
