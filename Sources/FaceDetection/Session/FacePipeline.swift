import Foundation
import Imaging

/// The face pipeline for one session's options: detector, landmarks, ML Kit
/// outputs and tracking, run on the calling thread's `FaceEngine`.
///
/// A pure function of (tracking state, frame): the pipeline is an immutable
/// value with no threads and no timestamp policy of its own, and everything
/// that changes from frame to frame lives in the `FaceTracker` its owner
/// passes in, so a session's state can move between inference threads while
/// each thread keeps its own runtimes. Whoever owns the session checks the
/// running mode's timestamp rule (`FrameTimestamps`) before a frame gets here.
package struct FacePipeline: Sendable {
    /// The session's options, validated.
    package let options: FaceOptions
    let detector: FaceDetector
    let legacyMesh: LegacyMeshStage
    /// The Face Landmarker's stages, for sessions whose outputs need the mesh
    /// and whose mesh model is the Face Landmarker.
    let landmarkerStages: LandmarkerStages?

    /// Validates `options` and prepares the pipeline; a session that wants the
    /// Face Landmarker fails when the models have no usable bundle.
    package init(models: FaceModels, options: FaceOptions) throws(FaceError) {
        try options.validate()
        self.options = options
        detector = FaceDetector(performance: options.performanceMode, models: models)
        legacyMesh = LegacyMeshStage(models: models)
        if options.meshModel == .faceLandmarker {
            guard let bundle = models.faceLandmarker else {
                throw .failedPrecondition("mesh_model FACE_LANDMARKER: the worker has no Face Landmarker bundle: \(models.faceLandmarkerProblem ?? "it was not loaded")")
            }
            landmarkerStages = options.needsMesh
                ? try LandmarkerStages(models: bundle, options: options, fullRangeDetector: FaceDetector(performance: .accurate, models: models))
                : nil
        } else {
            landmarkerStages = nil
        }
    }

    /// Processes one upright image, read in place.
    package func process(_ image: RGBImage, timestampMs: Int64?, tracker: inout FaceTracker, engine: FaceEngine) throws(FaceError) -> FaceResult {
        try image.withView { (view) throws(FaceError) in
            try process(OrientedFrame(view, orientation: .topLeft), timestampMs: timestampMs, tracker: &tracker, engine: engine)
        }
    }

    /// Processes one frame, its model inputs sampled from the stored pixels.
    /// In image mode frames are unrelated and `tracker` is left alone;
    /// otherwise it is updated only when the frame succeeds, so a failed
    /// frame leaves the session as it was.
    func process(_ frame: OrientedFrame, timestampMs: Int64?, tracker: inout FaceTracker, engine: FaceEngine) throws(FaceError) -> FaceResult {
        let tracking = options.runningMode != .image
        var scratch = tracking ? tracker : FaceTracker()
        let result: FaceResult
        do {
            result = try run(frame, timestampMs: timestampMs, tracker: &scratch, engine: engine)
        } catch let error as FaceError {
            throw error
        } catch {
            throw .internalError("a model run failed: \(error)")
        }
        if tracking { tracker = scratch }
        return result
    }

    private func run(_ frame: OrientedFrame, timestampMs: Int64?, tracker: inout FaceTracker, engine: FaceEngine) throws -> FaceResult {
        if let landmarkerStages {
            return try runLandmarker(landmarkerStages, frame: frame, timestampMs: timestampMs, tracker: &tracker, engine: engine)
        }
        let image = frame.size
        let clock = ContinuousClock()
        let start = clock.now
        // Landmark tracking follows faces by their previous-frame ROIs and runs the
        // detector only when needed; without landmarks the detector runs every frame.
        let runDetector = options.runningMode == .image || !options.needsMesh
            || tracker.shouldDetect(numFaces: options.numFaces, interval: options.detectorIntervalFrames)
        let detections = runDetector ? try detect(frame, engine: engine) : []
        tracker.noteDetector(ran: runDetector)
        let detected = clock.now

        let found = try faces(of: candidates(detections, tracker: tracker, image: image), in: frame, engine: engine)
        let ids = tracker.update(found.map(\.observation), matchThreshold: options.minTrackingConfidence / 2, maxMissed: options.maxMissedFrames)
        var faces = found.map(\.face)
        if options.trackingEnabled && options.runningMode != .image {
            for index in faces.indices { faces[index].trackingID = ids[index] }
        }
        let finished = clock.now
        return FaceResult(
            timestampMs: timestampMs, imageWidth: image.width, imageHeight: image.height, faces: faces,
            detectorRan: runDetector,
            detectTime: detected - start, landmarksTime: options.needsMesh ? finished - detected : .zero)
    }

    /// The detector's faces that pass the size and count options, best first.
    private func detect(_ frame: OrientedFrame, engine: FaceEngine) throws -> [Detection] {
        let detections = try detector.detect(frame, engine: engine, minScore: options.minDetectionConfidence,
                                             suppressionThreshold: options.minSuppressionThreshold)
        return Array(detections.filter { $0.width >= options.minFaceSize }.prefix(options.numFaces))
    }

    /// The faces to process this frame: with the mesh, the followed faces and
    /// then the new detections; without it, the detections alone.
    private func candidates(_ detections: [Detection], tracker: FaceTracker, image: PixelSize) -> [Candidate] {
        guard options.needsMesh else {
            return detections.map { Candidate(track: nil, roi: nil, detection: $0, score: $0.score) }
        }
        var candidates = tracker.followed.compactMap { track in
            track.roi.map { Candidate(track: tracker.tracks.firstIndex { $0.id == track.id }, roi: $0, detection: nil, score: track.score) }
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
        return candidates
    }

    /// Each candidate's face and what the tracker learns from it; a followed
    /// face whose landmarks fall below the presence threshold is left out.
    private func faces(of candidates: [Candidate], in frame: OrientedFrame, engine: FaceEngine) throws -> [(face: Face, observation: FaceTracker.Observation)] {
        let image = frame.size
        var found: [(face: Face, observation: FaceTracker.Observation)] = []
        for candidate in candidates {
            let face: Face
            var nextROI: RegionOfInterest?
            if options.needsMesh, let roi = candidate.roi {
                guard let landmarks = try legacyMesh.landmarks(in: frame, roi: roi, engine: engine, minPresence: options.minFacePresenceConfidence,
                                                               refined: options.faceMesh && options.meshModel == .attentionMesh) else { continue }
                face = meshFace(landmarks, detection: candidate.detection, score: candidate.score, image: image)
                nextROI = RegionOfInterest(mesh: landmarks.mesh, imageWidth: image.width, imageHeight: image.height)
            } else if let detection = candidate.detection {
                face = detectionFace(detection, image: image)
            } else {
                continue
            }
            found.append((face, .init(track: candidate.track, box: Self.box(of: face, image: image), score: face.score, nextROI: nextROI)))
        }
        return found
    }

    /// A face about to be processed this frame.
    private struct Candidate {
        var track: Int?
        var roi: RegionOfInterest?
        var detection: Detection?
        var score: Float
    }
}
