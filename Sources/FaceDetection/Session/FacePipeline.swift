import Foundation
import Imaging

/// The face pipeline for one session's options: detector, landmarks, ML Kit
/// outputs and tracking, run on the calling thread's `FaceEngine`.
///
/// The pipeline itself is an immutable value; everything that changes from
/// frame to frame lives in `FaceSessionState`, so a session's state can move
/// between inference threads while each thread keeps its own runtimes.
public struct FacePipeline: Sendable {
    /// The session's options, validated.
    public let options: FaceOptions
    let detector: FaceDetector
    let landmarker: FaceLandmarker

    /// Validates `options` and prepares the pipeline.
    public init(models: FaceModels, options: FaceOptions) throws(FaceError) {
        try options.validate()
        self.options = options
        detector = FaceDetector(performance: options.performanceMode, models: models)
        landmarker = FaceLandmarker(models: models)
    }

    /// Processes one upright frame.
    ///
    /// In video and live-stream modes `timestampMs` must be given and exceed the
    /// previous frame's; otherwise the frame is refused with `invalidArgument`
    /// and the state is left as it was, so the session stays usable.
    public func process(_ image: RGBImage, timestampMs: Int64?, state: inout FaceSessionState, engine: FaceEngine) throws(FaceError) -> FaceResult {
        let tracking = options.runningMode != .image
        if tracking {
            guard let timestampMs else {
                throw .invalidArgument("a timestamp in milliseconds is required in \(options.runningMode) mode")
            }
            if let last = state.lastTimestampMs, timestampMs <= last {
                throw .invalidArgument("Input timestamp must be monotonically increasing: got \(timestampMs) ms after \(last) ms")
            }
        }
        var scratch = tracking ? state.tracker : FaceTracker()
        let result: FaceResult
        do {
            result = try run(image, timestampMs: timestampMs, tracker: &scratch, engine: engine)
        } catch let error as FaceError {
            throw error
        } catch {
            throw .internalError("inference failed: \(error)")
        }
        if tracking {
            state.tracker = scratch
            state.lastTimestampMs = timestampMs
        }
        return result
    }

    private func run(_ image: RGBImage, timestampMs: Int64?, tracker: inout FaceTracker, engine: FaceEngine) throws -> FaceResult {
        let clock = ContinuousClock()
        let start = clock.now
        let useMesh = options.needsMesh
        let keepsIDs = options.trackingEnabled && options.runningMode != .image

        // Landmark tracking follows faces by their previous-frame ROIs and runs the
        // detector only when needed; without landmarks the detector runs every frame.
        let followed = useMesh ? tracker.followed : []
        let runDetector = options.runningMode == .image || !useMesh
            || tracker.shouldDetect(numFaces: options.numFaces, interval: options.detectorIntervalFrames)
        var detections: [Detection] = []
        if runDetector {
            detections = try detector.detect(image, engine: engine, minScore: options.minDetectionConfidence,
                                             suppressionThreshold: options.minSuppressionThreshold)
            detections = Array(detections.filter { $0.width >= options.minFaceSize }.prefix(options.numFaces))
        }
        tracker.noteDetector(ran: runDetector)
        let detected = clock.now

        var candidates: [Candidate] = []
        if useMesh {
            for track in followed {
                guard let roi = track.roi else { continue }
                candidates.append(Candidate(track: tracker.tracks.firstIndex { $0.id == track.id }, roi: roi, detection: nil, score: track.score))
            }
            for detection in detections {
                let roi = RegionOfInterest(detection: detection, imageWidth: image.width, imageHeight: image.height)
                // A detection over a followed face replaces its ROI, as in MediaPipe's
                // Face Landmarker, where min_tracking_confidence is this overlap threshold.
                if let match = candidates.firstIndex(where: { ($0.roi?.intersectionOverUnion(with: roi) ?? 0) > options.minTrackingConfidence }) {
                    candidates[match].roi = roi
                    candidates[match].detection = detection
                    candidates[match].score = detection.score
                } else if candidates.count < options.numFaces {
                    candidates.append(Candidate(track: nil, roi: roi, detection: detection, score: detection.score))
                }
            }
        } else {
            candidates = detections.map { Candidate(track: nil, roi: nil, detection: $0, score: $0.score) }
        }

        var faces: [Face] = []
        var observations: [FaceTracker.Observation] = []
        for candidate in candidates {
            var face: Face
            var nextROI: RegionOfInterest?
            if useMesh, let roi = candidate.roi {
                guard let landmarks = try landmarker.landmarks(in: image, roi: roi, engine: engine, minPresence: options.minFacePresenceConfidence,
                                                               refined: options.faceMesh) else { continue }
                face = meshFace(landmarks, detection: candidate.detection, score: candidate.score, image: image)
                // MediaPipe takes the next frame's region from every point the model gave, irises included.
                nextROI = RegionOfInterest(points: landmarks.mesh, from: landmarks.mesh[33], to: landmarks.mesh[263],
                                           imageWidth: image.width, imageHeight: image.height, scale: 1.5)
            } else if let detection = candidate.detection {
                face = detectionFace(detection, image: image)
            } else {
                continue
            }
            let box = Detection(score: face.score,
                                xMin: face.boundingBox.x / Float(image.width), yMin: face.boundingBox.y / Float(image.height),
                                xMax: (face.boundingBox.x + face.boundingBox.width) / Float(image.width),
                                yMax: (face.boundingBox.y + face.boundingBox.height) / Float(image.height),
                                keypoints: face.keypoints)
            observations.append(.init(track: candidate.track, box: box, score: face.score, nextROI: nextROI))
            faces.append(face)
        }
        let ids = tracker.update(observations, matchThreshold: options.minTrackingConfidence / 2, maxMissed: options.maxMissedFrames)
        if keepsIDs {
            for index in faces.indices { faces[index].trackingID = ids[index] }
        }
        let finished = clock.now
        return FaceResult(
            timestampMs: timestampMs, imageWidth: image.width, imageHeight: image.height, faces: faces,
            detectorRan: runDetector,
            detectMicros: (detected - start).microseconds, landmarksMicros: useMesh ? (finished - detected).microseconds : 0)
    }

    /// A face about to be processed this frame.
    private struct Candidate {
        var track: Int?
        var roi: RegionOfInterest?
        var detection: Detection?
        var score: Float
    }
}

/// What a session remembers between frames.
public struct FaceSessionState: Sendable {
    var tracker = FaceTracker()
    /// The last accepted frame's timestamp (video and live stream).
    public internal(set) var lastTimestampMs: Int64?

    /// A fresh state.
    public init() {}

    /// Forgets tracked faces and the last timestamp; tracking IDs already handed
    /// out are not reused.
    public mutating func reset() {
        tracker.reset()
        lastTimestampMs = nil
    }
}

extension Duration {
    /// Whole microseconds.
    var microseconds: Int64 {
        components.seconds * 1_000_000 + components.attoseconds / 1_000_000_000_000
    }
}
