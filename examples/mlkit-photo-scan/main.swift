// Scans photos for faces with ML Kit's API, as its iOS guide reads them:
//
//     swift run mlkit-photo-scan photo.jpg [more.jpg ...]
//
// The worker must be running (`make run`); FACEWORKER_SOCKET picks another one.

import FaceWorkerMLKit
import Foundation

let photos = CommandLine.arguments.dropFirst()
guard !photos.isEmpty else {
    print("usage: mlkit-photo-scan photo.jpg [more.jpg ...]")
    exit(2)
}

// High-accuracy landmark detection and face classification, with contours.
let options = FaceDetectorOptions()
options.performanceMode = .accurate
options.landmarkMode = .all
options.contourMode = .all
options.classificationMode = .all
let faceDetector = FaceDetector.faceDetector(options: options)

for photo in photos {
    let faces: [Face]
    do {
        faces = try faceDetector.results(in: VisionImage(contentsOf: URL(fileURLWithPath: photo)))
    } catch {
        print("\(photo): \(error)")
        continue
    }
    print("\(photo): \(faces.count) face(s)")
    for face in faces {
        let frame = face.frame
        print(String(format: "  frame x %.0f y %.0f, %.0f x %.0f px", frame.minX, frame.minY, frame.width, frame.height))
        if face.hasHeadEulerAngleY {
            print(String(format: "  head turned %.1f degrees to the right, tilted %.1f degrees", face.headEulerAngleY, face.headEulerAngleZ))
        }
        if let leftEye = face.landmark(ofType: .leftEye) {
            print(String(format: "  left eye at (%.1f, %.1f)", leftEye.position.x, leftEye.position.y))
        }
        if let upperLipBottom = face.contour(ofType: .upperLipBottom) {
            print("  upper lip's bottom edge: \(upperLipBottom.points.count) points")
        }
        if face.hasSmilingProbability {
            print(String(format: "  smiling %.2f, left eye open %.2f, right eye open %.2f",
                         face.smilingProbability, face.leftEyeOpenProbability, face.rightEyeOpenProbability))
        }
        if face.hasTrackingID {
            print("  tracking ID \(face.trackingID)")
        }
    }
}
await faceDetector.close()
