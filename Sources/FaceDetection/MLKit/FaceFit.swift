/// The outcome of fitting the canonical face to a face mesh: its pose, and the face's points in
/// the metric space the pose was fitted in.
struct FaceFit: Sendable {
    let pose: FacePose
    let metricFace: MetricFace
}
