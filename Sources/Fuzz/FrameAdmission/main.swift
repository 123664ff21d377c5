import CLibFuzzer
import FaceDetection
@testable import WorkerCore
import FaceWorkerProtocol
import Foundation
import Imaging

/// A raw frame as a client describes it (any pixel format, any orientation,
/// any size and row stride, any number of bytes) through the worker's
/// admission, then, when admitted, sampled into tensors as the detector and
/// the landmark crops sample it: admission must refuse every description
/// whose pixels would be read outside the bytes sent.
///
/// The input's first 8 bytes are the description: format, orientation,
/// width, height, row stride (16 bits each for the last three); the rest is
/// the pixels.
private enum Fuzz {
    /// One admission for every input, as a connection keeps one.
    static let admission = FrameAdmission(maxPixels: 1 << 14, buffers: nil)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFrameAdmission(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let input = UnsafeBufferPointer(start: start, count: count)
    guard input.count >= 8 else { return 0 }
    func field(_ at: Int) -> UInt32 { UInt32(input[at]) << 8 | UInt32(input[at + 1]) }
    var raw = Faceworker_V1_RawImage()
    // Every format, PIXEL_FORMAT_UNSPECIFIED and one unknown value.
    raw.format = Faceworker_V1_PixelFormat(rawValue: Int(input[0] % 10)) ?? .unspecified
    raw.width = field(2)
    raw.height = field(4)
    raw.rowStride = field(6)
    raw.data = Data(input[8...])
    var frame = Faceworker_V1_Frame()
    // Every orientation and one unknown value.
    frame.orientation = Faceworker_V1_Orientation(rawValue: Int(input[1] % 9)) ?? .topLeft
    frame.raw = raw
    guard case .success(let admitted) = Fuzz.admission.admit(frame) else { return 0 }
    var tensor = [Float](repeating: 0, count: 16 * 16 * 3)
    _ = try? admitted.withPixels { (pixels) throws(FaceError) in
        guard case .raw(let view) = pixels else { return }
        let oriented = OrientedFrame(view, orientation: admitted.orientation)
        let upright = oriented.size
        tensor.withUnsafeMutableBufferPointer { output in
            oriented.sampleTensor(
                width: 16, height: 16,
                transform: .letterbox(sourceWidth: upright.width, sourceHeight: upright.height, outputWidth: 16, outputHeight: 16),
                border: .zero, valueRange: -1...1, into: output)
            // A rotated crop reaching past the image's edges, as a landmark crop of a face at the border does.
            oriented.sampleTensor(
                width: 16, height: 16,
                transform: .rotatedRect(centerX: 0, centerY: Double(upright.height), width: Double(upright.width), height: Double(upright.height),
                                        rotation: Double(input[1]) / 40, flipHorizontally: input[0] >= 128, outputWidth: 16, outputHeight: 16),
                border: .replicate, valueRange: 0...1, into: output)
        }
    }
    return 0
}

libfuzzer_main(CommandLine.argc, CommandLine.unsafeArgv)
