/// Tracking state of one session: which faces are followed, under which IDs,
/// and where to look for them in the next frame.
///
/// IDs come from a counter that only grows, so a retired ID is never handed
/// out again in the session; `reset()` clears the faces but keeps the counter.
///
/// Opaque to its owner, who keeps one per session and passes it to
/// `FacePipeline.process` with each frame.
package struct FaceTracker: Sendable {
    /// One followed face.
    struct Track: Sendable {
        var id: Int
        /// Where the landmark model should look next frame; nil without landmarks
        /// or while the face is missing.
        var roi: RegionOfInterest?
        /// The face's last known box, for re-identifying it after a gap.
        var box: Detection
        /// The detector score the face was last seen with.
        var score: Float
        /// Consecutive frames the face has not been seen.
        var missed = 0
    }

    private(set) var tracks: [Track] = []
    private var nextID = 1
    /// Frames since the detector last ran; large so the first frame detects.
    private(set) var framesSinceDetection = Int.max / 2
    /// Set when a followed face was lost, so the detector runs on the next frame.
    private(set) var lostFace = false
    /// The Face Landmarker's regions and smoothing from the previous frame.
    var landmarkerLoop = LandmarkerLoop()

    /// No face followed yet.
    package init() {}

    /// Forgets every face (their IDs stay retired).
    package mutating func reset() {
        tracks = []
        framesSinceDetection = Int.max / 2
        lostFace = false
        landmarkerLoop = LandmarkerLoop()
    }

    /// Faces whose landmark ROI is known for this frame.
    var followed: [Track] { tracks.filter { $0.roi != nil && $0.missed == 0 } }

    /// Whether the detector should run this frame (landmark tracking mode).
    func shouldDetect(numFaces: Int, interval: Int) -> Bool {
        if lostFace { return true }
        return followed.count < numFaces && framesSinceDetection + 1 >= interval
    }

    mutating func noteDetector(ran: Bool) {
        framesSinceDetection = ran ? 0 : framesSinceDetection + 1
        if ran { lostFace = false }
    }

    /// Assigns IDs to this frame's faces and updates the tracks.
    ///
    /// `observations` are the faces seen this frame, each with the index of the
    /// track it continues (when known from its ROI) or nil for a face found by
    /// the detector. Unclaimed faces are matched to recently missed tracks by box
    /// overlap above `matchThreshold`; the rest get new IDs. Tracks not seen
    /// grow their miss count and retire after `maxMissed` frames.
    mutating func update(_ observations: [Observation], matchThreshold: Float, maxMissed: Int) -> [Int] {
        var seen = Set<Int>()
        var ids: [Int] = []
        var updated = tracks
        for observation in observations {
            var index = observation.track.flatMap { candidate in seen.contains(candidate) ? nil : candidate }
            if index == nil {
                var best: (index: Int, overlap: Float)?
                for (i, track) in updated.enumerated() where !seen.contains(i) {
                    let overlap = track.box.intersectionOverUnion(with: observation.box)
                    if overlap > matchThreshold, overlap > (best?.overlap ?? 0) { best = (i, overlap) }
                }
                index = best?.index
            }
            if let index {
                updated[index].box = observation.box
                updated[index].roi = observation.nextROI
                updated[index].score = observation.score
                updated[index].missed = 0
                seen.insert(index)
                ids.append(updated[index].id)
            } else {
                updated.append(Track(id: nextID, roi: observation.nextROI, box: observation.box, score: observation.score))
                seen.insert(updated.count - 1)
                ids.append(nextID)
                nextID += 1
            }
        }
        var kept: [Track] = []
        for (i, var track) in updated.enumerated() {
            if !seen.contains(i) {
                if track.roi != nil, track.missed == 0 { lostFace = true }
                track.missed += 1
                track.roi = nil
            }
            if track.missed <= maxMissed { kept.append(track) }
        }
        tracks = kept
        return ids
    }

    /// A face seen in the current frame.
    struct Observation {
        /// Index into `tracks` of the track this face continues, if known.
        var track: Int?
        var box: Detection
        var score: Float
        var nextROI: RegionOfInterest?
    }
}
