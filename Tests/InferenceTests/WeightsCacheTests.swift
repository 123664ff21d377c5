import Inference
import ModelFile
import SeededRandom
import XCTest

/// Runtimes that share one weights cache compute what a runtime with weights
/// of its own does, run only once the cache is finalized, and a model not
/// packed before finalizing is refused with a clear error.
final class WeightsCacheTests: XCTestCase {
    private func model(_ file: String) throws -> CompiledModel {
        try CompiledModel(path: modelsDirectory.appendingPathComponent(file).path)
    }

    func testRuntimesSharingACacheComputeWhatAnUncachedRuntimeDoes() throws {
        let detector = try model("face_detection_short_range.tflite")
        let mesh = try model("face_landmark_with_attention.tflite")
        let cache = try WeightsCache()
        let first = [try Runtime(model: detector, threadPool: nil, weightsCache: cache),
                     try Runtime(model: mesh, threadPool: nil, weightsCache: cache)]
        XCTAssertThrowsError(try first[0].invoke()) { error in
            XCTAssertTrue("\(error)".contains("weights cache is finalized"), "\(error)")
        }
        try cache.finalize()
        XCTAssertTrue(cache.isFinalized)
        for runtime in first { try runtime.rebind() }
        let second = [try Runtime(model: detector, threadPool: nil, weightsCache: cache),
                      try Runtime(model: mesh, threadPool: nil, weightsCache: cache)]
        for (index, compiled) in [detector, mesh].enumerated() {
            let uncached = try Runtime(model: compiled)
            let input = SplitMix64.floats(count: uncached.input().count, seed: UInt64(index + 1), lower: -1, upper: 1)
            let expected = try uncached.run(input)
            XCTAssertEqual(try first[index].run(input), expected, compiled.name)
            XCTAssertEqual(try second[index].run(input), expected, compiled.name)
        }
    }

    func testAModelNotPackedBeforeFinalizingIsRefused() throws {
        let cache = try WeightsCache()
        _ = try Runtime(model: try model("face_detection_short_range.tflite"), threadPool: nil, weightsCache: cache)
        try cache.finalize()
        XCTAssertThrowsError(try Runtime(model: try model("face_landmark.tflite"), threadPool: nil, weightsCache: cache)) { error in
            guard let error = error as? InferenceError else { return XCTFail("\(error)") }
            XCTAssertEqual(error.file.split(separator: "/").last, "face_landmark.tflite")
            XCTAssertTrue(error.problem.contains("could not create a runtime"), error.problem)
        }
    }
}
