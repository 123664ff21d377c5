/// MediaPipe's weighted non-maximum suppression, as its face detection graph
/// configures it (WEIGHTED, intersection over union).
///
/// Repeatedly takes the best remaining detection; every remaining detection
/// overlapping it by more than `threshold` (itself included) is merged into a
/// score-weighted average of boxes and keypoints, which keeps the best one's
/// score. Non-overlapping detections wait for later rounds.
func weightedNonMaxSuppression(_ detections: [Detection], threshold: Float) -> [Detection] {
    var remaining = detections.sorted { $0.score > $1.score }
    var kept: [Detection] = []
    while let best = remaining.first {
        var cluster: [Detection] = []
        var rest: [Detection] = []
        for candidate in remaining {
            if best.intersectionOverUnion(with: candidate) > threshold {
                cluster.append(candidate)
            } else {
                rest.append(candidate)
            }
        }
        // The best detection always overlaps itself fully, unless its box is empty.
        if cluster.isEmpty {
            kept.append(best)
            remaining = Array(rest.dropFirst())
            continue
        }
        var merged = best
        let total = cluster.reduce(Float(0)) { $0 + $1.score }
        merged.xMin = cluster.reduce(0) { $0 + $1.xMin * $1.score } / total
        merged.yMin = cluster.reduce(0) { $0 + $1.yMin * $1.score } / total
        merged.xMax = cluster.reduce(0) { $0 + $1.xMax * $1.score } / total
        merged.yMax = cluster.reduce(0) { $0 + $1.yMax * $1.score } / total
        for k in merged.keypoints.indices {
            merged.keypoints[k].x = cluster.reduce(0) { $0 + $1.keypoints[k].x * $1.score } / total
            merged.keypoints[k].y = cluster.reduce(0) { $0 + $1.keypoints[k].y * $1.score } / total
        }
        kept.append(merged)
        remaining = rest
    }
    return kept
}
