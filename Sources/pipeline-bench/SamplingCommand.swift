import ArgumentParser
import Foundation
import Imaging

/// Times the crop of a camera frame into a model's input tensor, the part of
/// a frame's cost that runs outside XNNPACK, on one thread: a raw frame's
/// conversion to RGB, then `Imaging`'s sampler.
struct SamplingCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sampling",
        abstract: "Time crops of camera-sized frames into model input tensors and print one JSON line.",
        discussion: """
            Each case is a source (an RGB image, or a raw RGB or NV12 frame, converted to RGB first as the worker \
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
        var total = Timings(capacity: runs), conversion = Timings(capacity: runs), sampling = Timings(capacity: runs)
        for run in 0..<(warmup + runs) {
            var image: RGBImage?
            let converted = try clock.measure { image = try samplingCase.source.rgbImage() }
            let sampled = clock.measure {
                image!.sampleTensor(width: size, height: size, transform: samplingCase.transform, border: samplingCase.border,
                                    valueRange: samplingCase.valueRange, into: &tensor)
            }
            if run >= warmup {
                total.append(converted + sampled)
                conversion.append(converted)
                sampling.append(sampled)
            }
        }
        return [
            "case": samplingCase.name,
            "median_ms": total.median,
            "p90_ms": total.p90,
            "fastest_ms": total.fastest,
            "median_convert_ms": conversion.median,
            "median_sample_ms": sampling.median,
        ]
    }
}
