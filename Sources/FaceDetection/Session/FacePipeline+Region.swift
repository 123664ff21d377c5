import Imaging

extension FacePipeline {
    /// The largest share of the image worth decoding in part: the rows above
    /// a part are entropy-decoded anyway, about half of a whole decode's time,
    /// so a larger part saves too little.
    static let partShare = 0.4

    /// The stored pixels that the next frame's tensors will read, when the
    /// pipeline knows them before decoding it and they are less than
    /// `partShare` of the image: in a stream mode, the regions of the faces
    /// followed from the previous frame, on a frame that will not run the
    /// detector. Nil when the frame needs the whole image.
    ///
    /// It asks the same tracking state the same questions `process` will, so
    /// the frame's crops fall inside it; a crop that does not is caught by
    /// the engine (`FaceEngine.takeMissedPart()`) and the frame decoded whole.
    func partNeeded(tracker: FaceTracker, storedSize: PixelSize, orientation: ImageOrientation) -> PixelRegion? {
        guard options.runningMode != .image else { return nil }
        let rois: [RegionOfInterest], cropSize: Int
        if landmarkerStages != nil {
            let rects = tracker.landmarkerLoop.rects
            guard rects.count >= options.numFaces else { return nil }
            rois = rects.prefix(options.numFaces).map(\.roi)
            cropSize = LandmarkerMesh.inputSize
        } else {
            guard options.needsMesh, !tracker.shouldDetect(numFaces: options.numFaces, interval: options.detectorIntervalFrames) else {
                return nil
            }
            rois = tracker.followed.compactMap(\.roi)
            cropSize = LegacyMeshStage.inputSize
        }
        let image = orientation.uprightSize(of: storedSize)
        let regions = rois.map { roi in
            orientation.storedRegion(
                of: roi.transform(imageWidth: image.width, imageHeight: image.height, size: cropSize)
                    .sampledRegion(width: cropSize, height: cropSize, in: image),
                storedSize: storedSize)
        }
        guard let first = regions.first else { return nil }
        let region = regions.dropFirst().reduce(first) { $0.union($1) }
        guard Double(region.area) < Self.partShare * Double(storedSize.width * storedSize.height) else { return nil }
        return region
    }
}
