import Foundation

/// The ranges of the conformance file's numeric session options.
struct ConformanceFile {
    struct Range {
        var min: Double
        var max: Double
        var isFloat: Bool
    }

    let ranges: [String: Range]

    static let shared: ConformanceFile = {
        do {
            let json = try JSONSerialization.jsonObject(with: Data(contentsOf: TestPaths.conformance)) as? [String: Any]
            let options = json?["session_options"] as? [String: [String: Any]] ?? [:]
            var ranges: [String: Range] = [:]
            for (name, spec) in options {
                guard let min = (spec["min"] as? NSNumber)?.doubleValue, let max = (spec["max"] as? NSNumber)?.doubleValue else { continue }
                ranges[name] = Range(min: min, max: max, isFloat: spec["type"] as? String == "float")
            }
            return ConformanceFile(ranges: ranges)
        } catch {
            fatalError("cannot read \(TestPaths.conformance.path): \(error)")
        }
    }()

    /// The ends of `option`'s range and the nearest values past each (the
    /// next float32, or the next integer), as (value, accepted) pairs.
    func cases(_ option: String) -> [(value: Double, accepted: Bool)] {
        guard let range = ranges[option] else { return [] }
        if range.isFloat {
            return [(range.min, true), (range.max, true),
                    (Double(Float(range.min).nextDown), false), (Double(Float(range.max).nextUp), false)]
        }
        return [(range.min, true), (range.max, true), (range.min - 1, false), (range.max + 1, false)]
    }
}
