import Foundation
import Imaging
import Inference

/// Runs BlazeFace on a whole image and returns the faces in the image's own
/// normalized coordinates, as MediaPipe's face detection graph does: letterbox
/// into the model input, decode the anchors, weighted NMS, remove the letterbox.
struct FaceDetector {
    let model: DetectorModel
    let compiled: CompiledModel
    let anchors: [(x: Float, y: Float)]

    static let shortRangeAnchors = DetectorModel.shortRange.anchors()
    static let fullRangeAnchors = DetectorModel.fullRange.anchors()

    init(performance: FaceOptions.PerformanceMode, models: FaceModels) {
        switch performance {
        case .fast:
            model = .shortRange
            compiled = models.shortRangeDetector
            anchors = Self.shortRangeAnchors
        case .accurate:
            model = .fullRange
            compiled = models.fullRangeDetector
            anchors = Self.fullRangeAnchors
        }
    }

    /// The Face Landmarker's own detector: BlazeFace short range as its bundle ships it.
    init(landmarkerDetector compiled: CompiledModel) {
        model = .shortRange
        self.compiled = compiled
        anchors = Self.shortRangeAnchors
    }

    /// Faces in the upright `frame`, best first, before any per-session filtering.
    func detect(_ frame: OrientedFrame, engine: FaceEngine, minScore: Float, suppressionThreshold: Float) throws -> [Detection] {
        let runtime = try engine.runtime(for: compiled)
        let size = model.inputSize
        let letterbox = Imaging.AffineTransform.letterbox(
            sourceWidth: frame.size.width, sourceHeight: frame.size.height, outputWidth: size, outputHeight: size)
        // Outside the image the detector sees black (BORDER_ZERO), i.e. -1 after value mapping.
        engine.sample(frame, size: size, transform: letterbox, border: .zero, valueRange: -1...1, into: runtime.input())
        try runtime.invoke()
        let candidates = decode(regressors: runtime.output(0), scores: runtime.output(1), minScore: minScore)
        let merged = weightedNonMaxSuppression(candidates, threshold: suppressionThreshold)
        return merged.map { removeLetterbox($0, transform: letterbox, image: frame.size) }
    }

    /// Anchor-relative regressions to detections in tensor-normalized coordinates.
    func decode(regressors: UnsafeBufferPointer<Float>, scores: UnsafeBufferPointer<Float>, minScore: Float) -> [Detection] {
        let scale = Float(model.inputSize)
        var detections: [Detection] = []
        for (index, anchor) in anchors.enumerated() {
            let score = 1 / (1 + expf(-min(max(scores[index], -100), 100)))
            guard score >= minScore else { continue }
            let raw = regressors.baseAddress! + index * 16
            // Box format XYWH (reverse_output_order), offsets and sizes in input pixels.
            let centreX = raw[0] / scale + anchor.x
            let centreY = raw[1] / scale + anchor.y
            let width = raw[2] / scale
            let height = raw[3] / scale
            guard width >= 0, height >= 0 else { continue }
            let keypoints = (0..<6).map { k in
                NormalizedLandmark(x: raw[4 + 2 * k] / scale + anchor.x, y: raw[5 + 2 * k] / scale + anchor.y)
            }
            detections.append(Detection(
                score: score,
                xMin: centreX - width / 2, yMin: centreY - height / 2,
                xMax: centreX + width / 2, yMax: centreY + height / 2,
                keypoints: keypoints))
        }
        return detections
    }

    /// Maps a detection from the letterboxed tensor back to the image.
    private func removeLetterbox(_ detection: Detection, transform: Imaging.AffineTransform, image: PixelSize) -> Detection {
        let size = Double(model.inputSize)
        let width = Double(image.width), height = Double(image.height)
        func project(_ x: Float, _ y: Float) -> (Float, Float) {
            let point = transform.apply(x: Double(x) * size, y: Double(y) * size)
            return (Float(point.x / width), Float(point.y / height))
        }
        var result = detection
        (result.xMin, result.yMin) = project(detection.xMin, detection.yMin)
        (result.xMax, result.yMax) = project(detection.xMax, detection.yMax)
        result.keypoints = detection.keypoints.map {
            let (x, y) = project($0.x, $0.y)
            return NormalizedLandmark(x: x, y: y)
        }
        return result
    }
}
