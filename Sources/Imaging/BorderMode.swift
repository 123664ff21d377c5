/// What the sampler reads for source positions outside the image.
package enum BorderMode: Sendable, Hashable {
    /// Outside pixels are 0 before value mapping (so the range's lower bound
    /// after it): OpenCV's `BORDER_CONSTANT`, MediaPipe's `BORDER_ZERO`, used
    /// for the detectors' letterbox padding.
    case zero
    /// Outside positions read the nearest edge pixel: OpenCV's
    /// `BORDER_REPLICATE`, MediaPipe's default, used for landmark crops.
    case replicate
}
