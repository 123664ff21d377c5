import Foundation
import Imaging

extension FacePipeline {
    /// One frame through MediaPipe Tasks' Face Landmarker graph.
    ///
    /// In image mode every frame is detected afresh. In stream modes the
    /// previous frame's landmark regions are followed; the detector runs only
    /// while fewer than `numFaces` faces are followed, and its regions replace
    /// followed ones they overlap by more than `minTrackingConfidence` (IoU).
    /// With one face the points are smoothed before blendshapes and geometry;
    /// the next frame's region comes from the unsmoothed points. The legacy
    /// path's `minSuppressionThreshold` and `detectorIntervalFrames` do not
    /// apply: the Tasks graph suppresses at 0.5 and detects whenever a face is
    /// missing. ML Kit's `minFaceSize` still filters the detections, as the
    /// session's option says, though the Tasks graph has no such filter.
    func runLandmarker(_ stages: LandmarkerStages, frame: OrientedFrame, timestampMs: Int64?, tracker: inout FaceTracker,
                       engine: FaceEngine) throws -> FaceResult {
        let image = frame.size
        let clock = ContinuousClock()
        let start = clock.now
        let stream = options.runningMode != .image
        let previous = stream ? tracker.landmarkerLoop.rects : []
        let runDetector = previous.count < options.numFaces
        var rects = previous
        if runDetector {
            let detections = try stages.detector.detect(frame, engine: engine, minScore: options.minDetectionConfidence,
                                                        suppressionThreshold: LandmarkerStages.suppressionThreshold)
            let detected = detections.filter { $0.width >= options.minFaceSize }.prefix(options.numFaces).map { detection in
                LandmarkerLoop.Rect(roi: RegionOfInterest(detection: detection, imageWidth: image.width, imageHeight: image.height, squareLong: false),
                                    trackID: nil, detection: detection, score: detection.score)
            }
            // Image mode takes the detector's regions as they are; only stream modes associate.
            rects = stream ? LandmarkerLoop.associate([previous, detected], threshold: options.minTrackingConfidence) : detected
        }
        rects = Array(rects.prefix(options.numFaces))
        let detectedTime = clock.now

        var found: [(rect: LandmarkerLoop.Rect, landmarks: LegacyMeshStage.Result)] = []
        for rect in rects {
            if let landmarks = try stages.mesh.landmarks(in: frame, roi: rect.roi, engine: engine, minPresence: options.minFacePresenceConfidence) {
                found.append((rect, landmarks))
            }
        }
        var meshes = found.map(\.landmarks.mesh)
        if stream && options.numFaces == 1, let timestampMs {
            if meshes.isEmpty {
                tracker.landmarkerLoop.smoother.reset()
            } else {
                meshes[0] = tracker.landmarkerLoop.smoother.smooth(meshes[0], timestampMs: timestampMs, image: image)
            }
        }

        var warnings: [String] = []
        var faces: [Face] = []
        var observations: [FaceTracker.Observation] = []
        for (index, entry) in found.enumerated() {
            var landmarks = entry.landmarks
            landmarks.mesh = meshes[index]
            var face = meshFace(landmarks, detection: entry.rect.detection, score: entry.rect.score, image: image, geometry: stages.geometry)
            if let blendshapes = stages.blendshapes {
                face.blendshapes = try Self.blendshapes(of: landmarks.mesh, image: image, stage: blendshapes, engine: engine,
                                                        face: index, warnings: &warnings)
            }
            faces.append(face)
            observations.append(.init(track: entry.rect.trackID.flatMap { id in tracker.tracks.firstIndex { $0.id == id } },
                                      box: Self.box(of: face, image: image), score: face.score, nextROI: nil))
        }
        let ids = tracker.update(observations, matchThreshold: options.minTrackingConfidence / 2, maxMissed: options.maxMissedFrames)
        if options.trackingEnabled && stream {
            for index in faces.indices { faces[index].trackingID = ids[index] }
        }
        tracker.landmarkerLoop.rects = zip(found, ids).map { entry, id in
            LandmarkerLoop.Rect(roi: RegionOfInterest(mesh: entry.landmarks.mesh, imageWidth: image.width, imageHeight: image.height),
                                trackID: id, detection: nil, score: entry.rect.score)
        }
        let finished = clock.now
        return FaceResult(
            timestampMs: timestampMs, imageWidth: image.width, imageHeight: image.height, faces: faces,
            detectorRan: runDetector, warnings: warnings,
            detectTime: detectedTime - start, landmarksTime: finished - detectedTime)
    }

    /// A face's blendshape scores, or nil with a warning when its points
    /// cannot feed the model (a non-finite point): the face is still reported.
    static func blendshapes(of mesh: [NormalizedLandmark], image: PixelSize, stage: LandmarkerBlendshapes, engine: FaceEngine,
                            face: Int, warnings: inout [String]) throws -> [Float]? {
        guard let input = LandmarkerBlendshapes.input(mesh: mesh, image: image) else {
            warnings.append("face \(face): no blendshapes this frame: a landmark the blendshape model reads is not finite")
            return nil
        }
        return try stage.scores(input: input, engine: engine)
    }
}
