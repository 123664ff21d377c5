import Foundation

/// Where `make models` puts the model files: `models/` at the repository root.
func modelPath(_ name: String) -> String {
    URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("models").appendingPathComponent(name).path
}

let allModelNames = [
    "face_detection_short_range.tflite",
    "face_detection_full_range_sparse.tflite",
    "face_landmark.tflite",
    "face_landmark_with_attention.tflite",
]
