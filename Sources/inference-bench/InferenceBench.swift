import ArgumentParser
import Foundation
import Inference
import ModelFile
import SeededRandom

/// Times `Runtime.invoke()` for one model, for `make bench-inference`, which
/// runs it beside LiteRT's interpreter on the same input.
@main
struct InferenceBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inference-bench",
        abstract: "Time FaceWorker's XNNPACK executor on one model and print one JSON line.",
        discussion: "The input is a seeded pseudo-random tensor (SplitMix64, seed 1), the same one the LiteRT side of `make bench-inference` feeds. A model inside a .task bundle is named <bundle>:<member>."
    )

    @Option(help: "Directory holding the .tflite files.")
    var models = "models"

    @Option(help: "Model file name inside --models, e.g. face_landmark.tflite, or a bundle member, e.g. face_landmarker.task:face_blendshapes.tflite.")
    var model: String

    @Option(help: "Lowest input value (default -1 for the detectors, else 0).")
    var lower: Double?

    @Option(help: "Highest input value (default 1).")
    var upper: Double?

    @Option(help: "Rows at the top and at the bottom of an image input that hold the lowest input value throughout, as the letterbox border of a frame fitted into a square input does (28 of 128 for a 16:9 frame). The model is then run as the worker runs a detector: its first convolution computes only the rows between after the first run.")
    var letterbox = 0

    @Option(help: "Inference threads (1 = the calling thread only).")
    var threads = 1

    @Option(help: "Untimed runs before measuring.")
    var warmup = 50

    @Option(help: "Timed runs.")
    var iterations = 500

    @Flag(help: "After the warm-up, read a count from each line of standard input, time that many runs and answer with one JSON line for them; stop at the end of the input. For a benchmark that alternates short bursts of this and another runtime, so both see the machine at the same speed.")
    var bursts = false

    @Flag(help: "Time every XNNPACK operator instead of whole runs: print the operators (after XNNPACK's own fusion) with their median time over the timed runs, slowest kinds first.")
    var profile = false

    func validate() throws {
        guard threads >= 1 else { throw ValidationError("--threads must be at least 1") }
        guard iterations >= 1, warmup >= 0 else { throw ValidationError("--iterations must be at least 1 and --warmup at least 0") }
        guard !(bursts && profile) else { throw ValidationError("--bursts and --profile cannot be combined") }
        guard letterbox >= 0 else { throw ValidationError("--letterbox must be at least 0") }
    }

    func run() throws {
        let compiled: CompiledModel
        if let separator = model.firstIndex(of: ":") {
            let bundle = try TaskBundle(path: "\(models)/\(model[..<separator])")
            compiled = try CompiledModel(bundle: bundle, member: String(model[model.index(after: separator)...]),
                                         letterboxedInput: letterbox > 0)
        } else {
            compiled = try CompiledModel(path: "\(models)/\(model)", letterboxedInput: letterbox > 0)
        }
        let runtime = try Runtime(model: compiled, threads: threads, profiling: profile)
        // The detectors take [-1, 1]; the landmark and iris models take [0, 1].
        let lower = self.lower ?? (model.hasPrefix("face_detection") ? -1 : 0)
        var input = SplitMix64.floats(count: runtime.input().count, seed: 1, lower: lower, upper: upper ?? 1)
        if letterbox > 0 {
            let shape = compiled.inputShapes[0]
            guard shape.count == 4, 2 * letterbox <= shape[1] else {
                throw ValidationError("--letterbox \(letterbox) needs an image input at least \(2 * letterbox) rows tall; this one is \(shape)")
            }
            let row = shape[2] * shape[3]
            for index in Array(0..<(letterbox * row)) + Array(((shape[1] - letterbox) * row)..<(shape[1] * row)) {
                input[index] = Float(lower)
            }
        }
        _ = runtime.input().update(fromContentsOf: input)
        for _ in 0..<warmup { try runtime.invoke() }
        if profile { return try printProfile(runtime, graphOperators: compiled.graph.operators.count) }
        guard bursts else { return try printTimes(runtime, iterations: iterations) }
        while let line = readLine() {
            guard let count = Int(line.trimmingCharacters(in: .whitespaces)), count >= 1 else {
                throw ValidationError("--bursts reads a positive count of runs per line, got \"\(line)\"")
            }
            try printTimes(runtime, iterations: count)
        }
    }

    /// Times `iterations` runs, each step (an XNNPACK segment, or the host
    /// operators after it) too, and prints one JSON line.
    private func printTimes(_ runtime: Runtime, iterations: Int) throws {
        var samples: [Double] = []
        samples.reserveCapacity(iterations)
        let names = runtime.stepNames
        var stepSamples = [[Double]](repeating: [], count: names.count)
        let clock = ContinuousClock()
        var stepTimes: [Duration] = []
        for _ in 0..<iterations {
            stepTimes = []
            let elapsed = try clock.measure { try runtime.invoke(stepTimes: &stepTimes) }
            samples.append(elapsed / .milliseconds(1))
            for (index, time) in stepTimes.enumerated() { stepSamples[index].append(time / .milliseconds(1)) }
        }
        var steps: [[String: Any]] = []
        for (name, var times) in zip(names, stepSamples) {
            times.sort()
            steps.append(["step": name, "median_ms": times[times.count / 2], "p90_ms": times[min(times.count - 1, times.count * 9 / 10)]])
        }
        samples.sort()
        let report: [String: Any] = [
            "model": model,
            "threads": threads,
            "median_ms": samples[samples.count / 2],
            "p90_ms": samples[min(samples.count - 1, samples.count * 9 / 10)],
            "iterations": iterations,
            "steps": steps,
        ]
        // Unbuffered, so a driver waiting on the line of each burst gets it at once.
        var json = try JSONSerialization.data(withJSONObject: report, options: [.sortedKeys])
        json.append(UInt8(ascii: "\n"))
        FileHandle.standardOutput.write(json)
    }

    /// Times each operator over the timed runs and prints one JSON line: the
    /// operator counts, every operator in run order with its median time, and
    /// the medians summed per kind. A median per operator keeps a burst of
    /// other work on a shared machine from landing on whichever operator ran.
    private func printProfile(_ runtime: Runtime, graphOperators: Int) throws {
        var samples: [[UInt64]] = []
        var operators: [OperatorTime] = []
        for _ in 0..<iterations {
            try runtime.invoke()
            operators = try runtime.operatorTimes()
            if samples.isEmpty { samples = Array(repeating: [], count: operators.count) }
            for (index, op) in operators.enumerated() { samples[index].append(op.microseconds) }
        }
        let medians = samples.map { times in times.sorted()[times.count / 2] }
        var kinds: [String: UInt64] = [:]
        for (op, median) in zip(operators, medians) { kinds[op.name, default: 0] += median }
        let report: [String: Any] = [
            "model": model,
            "threads": threads,
            "iterations": iterations,
            "graph_operators": graphOperators,
            "xnnpack_operators": operators.count,
            "total_us": medians.reduce(0, +),
            "kinds": kinds.sorted { $0.value > $1.value }.map { ["kind": $0.key, "median_us": $0.value] },
            "operators": zip(operators, medians).map { ["stage": $0.stage, "kind": $0.name, "median_us": $1] },
        ]
        let json = try JSONSerialization.data(withJSONObject: report, options: [.sortedKeys])
        print(String(decoding: json, as: UTF8.self))
    }
}
