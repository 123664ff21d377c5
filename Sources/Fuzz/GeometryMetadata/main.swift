import CLibFuzzer
@testable import FaceDetection

/// The Face Landmarker bundle's geometry metadata, read by the package's own
/// protobuf wire reader rather than generated code.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGeometryMetadata(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    _ = try? GeometryPipelineMetadata(bytes: Array(UnsafeBufferPointer(start: start, count: count)))
    return 0
}

libfuzzer_main(CommandLine.argc, CommandLine.unsafeArgv)
