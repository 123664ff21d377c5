import Foundation
@testable import FaceDetection

/// A face mesh made from MediaPipe's canonical face model: turned by known angles, placed in front
/// of MediaPipe's camera, projected into an image and written in MediaPipe's normalized form, as
/// the face mesh model would report that face.
struct SyntheticFace {
    /// ML Kit's angles in degrees: pitch (up positive), yaw (toward the image's right positive),
    /// roll (counter-clockwise positive).
    var pitch: Double = 0
    var yaw: Double = 0
    var roll: Double = 0
    /// Distance from the camera, and offset from the optical axis (x right, y up), in centimetres.
    var distance: Double = 50
    var offsetX: Double = 0
    var offsetY: Double = 0
    var imageWidth = 640
    var imageHeight = 480
    /// Whether to append the ten iris points (468–477).
    var withIris = true

    /// The canonical face's vertices, with iris points at the middle of each eye outline.
    static let modelPoints: [SIMD3<Double>] = {
        var points = (0..<CanonicalFaceModel.vertexCount).map { SIMD3<Double>(CanonicalFace().point($0)) }
        for outline in [MLKitContourMap.rightEyeOutline, MLKitContourMap.leftEyeOutline] {
            let centre = outline.reduce(SIMD3<Double>.zero) { $0 + points[$1] } / Double(outline.count)
            points.append(centre)
            for (dx, dy) in [(0.6, 0.0), (0.0, 0.6), (-0.6, 0.0), (0.0, -0.6)] {
                points.append(centre + SIMD3(dx, dy, 0))
            }
        }
        return points
    }()

    /// The rotation Ry(yaw) · Rx(−pitch) · Rz(roll) in the camera frame (x right, y up, z toward
    /// the viewer), by rows.
    var rotation: [SIMD3<Double>] {
        let (a, b, c) = (yaw * .pi / 180, -pitch * .pi / 180, roll * .pi / 180)
        let ry = [SIMD3(cos(a), 0, sin(a)), SIMD3(0, 1, 0), SIMD3(-sin(a), 0, cos(a))]
        let rx = [SIMD3(1, 0, 0), SIMD3(0, cos(b), -sin(b)), SIMD3(0, sin(b), cos(b))]
        let rz = [SIMD3(cos(c), -sin(c), 0), SIMD3(sin(c), cos(c), 0), SIMD3(0, 0, 1)]
        return Self.product(Self.product(ry, rx), rz)
    }

    /// The mesh the face mesh model would report for this face.
    func mesh() -> [NormalizedLandmark] {
        mesh(points: Self.modelPoints)
    }

    /// The mesh for the given model points (the canonical ones, or an edited copy).
    func mesh(points: [SIMD3<Double>]) -> [NormalizedLandmark] {
        let r = rotation
        let planeHeight = 2 * tan(63.0 / 2 * .pi / 180)
        let planeWidth = planeHeight * Double(imageWidth) / Double(imageHeight)
        let count = withIris ? points.count : CanonicalFaceModel.vertexCount
        return points.prefix(count).map { vertex in
            let p = SIMD3((r[0] * vertex).sum() + offsetX, (r[1] * vertex).sum() + offsetY, (r[2] * vertex).sum() - distance)
            let depth = -p.z
            // MediaPipe's z: depth relative to the head, in the same units as x at the face's distance.
            return NormalizedLandmark(
                x: Float(p.x / depth / planeWidth + 0.5),
                y: Float(0.5 - p.y / depth / planeHeight),
                z: Float((depth - distance) / distance / planeWidth)
            )
        }
    }

    /// The mesh of the mirror image (the picture flipped left to right), as the face mesh model
    /// reports it: positions mirrored, and each point's label swapped with its mirror twin's,
    /// since the model labels the flipped face like any other face (33 is always the image-left
    /// eye's outer corner).
    static func mirrored(_ mesh: [NormalizedLandmark]) -> [NormalizedLandmark] {
        mesh.indices.map { index in
            let twin = mesh[mirrorTwins[index]]
            return NormalizedLandmark(x: 1 - twin.x, y: twin.y, z: twin.z)
        }
    }

    /// For each model point, the point at its mirror image (itself on the midline).
    static let mirrorTwins: [Int] = modelPoints.map { point in
        let mirror = SIMD3(-point.x, point.y, point.z)
        return modelPoints.indices.min { a, b in
            ((modelPoints[a] - mirror) * (modelPoints[a] - mirror)).sum() < ((modelPoints[b] - mirror) * (modelPoints[b] - mirror)).sum()
        }!
    }

    private static func product(_ a: [SIMD3<Double>], _ b: [SIMD3<Double>]) -> [SIMD3<Double>] {
        a.map { row in row.x * b[0] + row.y * b[1] + row.z * b[2] }
    }
}
