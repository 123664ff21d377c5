import ArgumentParser
import FaceDetection
import Foundation

/// Times the face pipeline (JPEG decode included, no socket) per frame on a
/// directory of JPEG frames, for `make bench-pipeline`, which runs it beside
/// MediaPipe's Python solutions on the same bytes.
struct FramesCommand: ParsableCommand {
    enum Mode: String, ExpressibleByArgument, CaseIterable {
        /// Fast detection only, video mode.
        case detect
        /// The 478-point attention mesh, ML Kit landmarks, contours,
        /// classification and tracking, video mode: MediaPipe's FaceMesh with
        /// refined landmarks produces the same 478 points.
        case landmarks
    }

    /// The landmark models of `landmarks` mode.
    enum MeshModel: String, ExpressibleByArgument, CaseIterable {
        /// MediaPipe's legacy refined FaceMesh.
        case attentionMesh = "attention-mesh"
        /// MediaPipe Tasks' Face Landmarker, from its bundle.
        case faceLandmarker = "face-landmarker"

        var option: FaceOptions.MeshModel {
            switch self {
            case .attentionMesh: .attentionMesh
            case .faceLandmarker: .faceLandmarker
            }
        }
    }

    static let configuration = CommandConfiguration(
        commandName: "frames",
        abstract: "Time FaceWorker's face pipeline per frame and print one JSON line.")

    @Option(help: "Directory of JPEG frames, processed in name order, cycling.")
    var frames: String

    @Option(help: "What to compute: detect (fast, detection only) or landmarks (the 478-point mesh, ML Kit landmarks, contours, classification, tracking).")
    var mode: Mode = .detect

    @Option(help: "With landmarks: the landmark models, attention-mesh or face-landmarker.")
    var meshModel: MeshModel = .attentionMesh

    @Flag(help: "With landmarks and face-landmarker: the 52 blendshape scores too.")
    var blendshapes = false

    @Flag(help: "With landmarks: the facial transformation matrix too.")
    var matrix = false

    @Option(help: "Directory holding the models and their manifest.json.")
    var models = "models"

    @Option(help: "Send each frame raw instead of as JPEG: rgb or nv12, enlarged --scale times (the JPEG is decoded before timing).")
    var raw: RawFrames.Format?

    @Option(help: "With --raw, how many times each side of a frame is enlarged (3 makes 640x360 into 1920x1080).")
    var scale = 1

    @Option(help: "Untimed frames before measuring.")
    var warmup = 30

    @Option(help: "Timed frames.")
    var iterations = 300

    func validate() throws {
        guard iterations >= 1, warmup >= 0 else { throw ValidationError("--iterations must be at least 1 and --warmup at least 0") }
        guard scale >= 1 else { throw ValidationError("--scale must be at least 1") }
        guard mode == .landmarks || (meshModel == .attentionMesh && !blendshapes && !matrix) else {
            throw ValidationError("--mesh-model, --blendshapes and --matrix go with --mode landmarks")
        }
        guard !blendshapes || meshModel == .faceLandmarker else { throw ValidationError("--blendshapes needs --mesh-model face-landmarker") }
    }

    func run() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: frames).filter { $0.hasSuffix(".jpg") }.sorted()
        guard !files.isEmpty else { throw ValidationError("no .jpg files in \(frames)") }
        let jpegs = try files.map { [UInt8](try Data(contentsOf: URL(fileURLWithPath: "\(frames)/\($0)"))) }
        let rawFrames = try raw.map { try RawFrames.make(jpegs, format: $0, scale: scale) }
        var options = FaceOptions()
        options.runningMode = .video
        if mode == .landmarks {
            options.landmarks = true
            options.contours = true
            options.classification = true
            options.faceMesh = true
            options.trackingEnabled = true
            options.meshModel = meshModel.option
            options.faceBlendshapes = blendshapes
            options.transformationMatrix = matrix
        }
        let session = try FaceSession(models: try FaceModels(directory: models), options: options)
        var timestamp: Int64 = 0
        let clock = ContinuousClock()
        var timings = Timings(capacity: iterations)
        var stages: [String: [Double]] = ["decode_us": [], "detect_us": [], "landmarks_us": []]
        for index in 0..<(warmup + iterations) {
            let elapsed = try clock.measure {
                timestamp += 33
                let result = if let rawFrames {
                    try session.process(FrameInput(pixels: .raw(rawFrames[index % rawFrames.count]), timestampMs: timestamp))
                } else {
                    try session.process(jpeg: jpegs[index % jpegs.count], timestampMs: timestamp)
                }
                if index >= warmup {
                    stages["decode_us"]!.append(result.decodeTime / .microseconds(1))
                    stages["detect_us"]!.append(result.detectTime / .microseconds(1))
                    stages["landmarks_us"]!.append(result.landmarksTime / .microseconds(1))
                }
            }
            if index >= warmup { timings.append(elapsed) }
        }
        var report: [String: Any] = [
            "mode": mode.rawValue,
            "mesh_model": meshModel.rawValue,
            "blendshapes": blendshapes,
            "matrix": matrix,
            "input": raw.map { "\($0.rawValue) x\(scale)" } ?? "jpeg",
            "median_ms": timings.median,
            "p90_ms": timings.p90,
            "iterations": iterations,
        ]
        // Where the time goes: the median of each stage the pipeline reports.
        for (stage, values) in stages {
            report["median_\(stage)"] = values.sorted()[values.count / 2]
        }
        print(String(decoding: try JSONSerialization.data(withJSONObject: report, options: [.sortedKeys]), as: UTF8.self))
    }
}
