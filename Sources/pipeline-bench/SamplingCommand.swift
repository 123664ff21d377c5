import ArgumentParser
import Foundation
import Imaging

/// Times the crop of a camera frame into a model's input tensor, the part of
/// a frame's cost that runs outside XNNPACK, on one thread: `Imaging`'s
/// sampler reading the frame's stored pixels in place.
struct SamplingCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sampling",
        abstract: "Time crops of camera-sized frames into model input tensors and print one JSON line.",
        discussion: """
            Each case is a source (an RGB image, or a raw RGB or NV12 frame, read in place as the worker \
            does), a crop (letterbox: the whole frame fitted, as the detectors take it; rotated: a tilted square \
            face, as the landmark models take it) and a square tensor size. The pixels are seeded noise: the \
            sampler's cost does not depend on them.
            """
    )

    @Option(help: "Untimed runs of each case before measuring.")
    var warmup = 5

    @Option(help: "Timed runs of each case.")
    var runs = 101

    func validate() throws {
        guard runs >= 1, warmup >= 0 else { throw ValidationError("--runs must be at least 1 and --warmup at least 0") }
    }

    func run() throws {
        var rows: [[String: Any]] = []
        for samplingCase in try SamplingCase.all() {
            rows.append(try measure(samplingCase))
        }
        let report: [String: Any] = ["bench": "sampling", "runs": runs, "rows": rows]
        print(String(decoding: try JSONSerialization.data(withJSONObject: report, options: [.sortedKeys]), as: UTF8.self))
    }

    private func measure(_ samplingCase: SamplingCase) throws -> [String: Any] {
        let size = samplingCase.tensorSize
        var tensor = [Float](repeating: 0, count: size * size * 3)
        let clock = ContinuousClock()
        var timings = Timings(capacity: runs)
        for run in 0..<(warmup + runs) {
            let sampled = try tensor.withUnsafeMutableBufferPointer { output in
                try clock.measure { try sample(samplingCase, into: output) }
            }
            if run >= warmup { timings.append(sampled) }
        }
        return [
            "case": samplingCase.name,
            "median_ms": timings.median,
            "p90_ms": timings.p90,
            "fastest_ms": timings.fastest,
        ]
    }

    private func sample(_ samplingCase: SamplingCase, into output: UnsafeMutableBufferPointer<Float>) throws {
        let size = samplingCase.tensorSize
        switch samplingCase.source {
        case .image(let image):
            image.sampleTensor(width: size, height: size, transform: samplingCase.transform, border: samplingCase.border,
                               valueRange: samplingCase.valueRange, into: output)
        case .frame(let frame):
            try frame.bytes.withUnsafeBytes { bytes in
                let view = try RawFrameView(format: frame.format, width: frame.width, height: frame.height, rowStride: frame.rowStride,
                                            bytes: bytes, maxPixels: frame.width * frame.height)
                OrientedFrame(view, orientation: .topLeft).sampleTensor(
                    width: size, height: size, transform: samplingCase.transform, border: samplingCase.border,
                    valueRange: samplingCase.valueRange, into: output)
            }
        }
    }
}
