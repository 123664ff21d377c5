import Imaging
import Inference

/// The Face Landmarker's blendshape stage: 146 of the 478 points, in pixels
/// of the whole image, into the bundle's blendshape model, whose 52 scores
/// are returned as they come (MediaPipe keeps them all, in model order).
struct LandmarkerBlendshapes {
    let model: CompiledModel

    /// The points the model reads, in its input order (face_blendshapes_graph.cc);
    /// the last ten are the irises.
    static let subset = [
        0, 1, 4, 5, 6, 7, 8, 10, 13, 14, 17, 21, 33, 37, 39, 40, 46, 52, 53, 54, 55, 58, 61, 63, 65, 66, 67, 70, 78, 80,
        81, 82, 84, 87, 88, 91, 93, 95, 103, 105, 107, 109, 127, 132, 133, 136, 144, 145, 146, 148, 149, 150, 152, 153, 154, 155,
        157, 158, 159, 160, 161, 162, 163, 168, 172, 173, 176, 178, 181, 185, 191, 195, 197, 234, 246, 249, 251, 263, 267, 269,
        270, 276, 282, 283, 284, 285, 288, 291, 293, 295, 296, 297, 300, 308, 310, 311, 312, 314, 317, 318, 321, 323, 324, 332,
        334, 336, 338, 356, 361, 362, 365, 373, 374, 375, 377, 378, 379, 380, 381, 382, 384, 385, 386, 387, 388, 389, 390, 397,
        398, 400, 402, 405, 409, 415, 454, 466, 468, 469, 470, 471, 472, 473, 474, 475, 476, 477,
    ]

    /// The model's input for a mesh: x times the image width and y times its
    /// height, point by point. Nil when a point is not finite, since the
    /// model would turn one bad value into 52 meaningless scores.
    static func input(mesh: [NormalizedLandmark], image: PixelSize) -> [Float]? {
        guard mesh.count >= MeshLayout.withIrisCount else { return nil }
        let width = Float(image.width), height = Float(image.height)
        var values: [Float] = []
        values.reserveCapacity(2 * subset.count)
        for index in subset {
            let x = mesh[index].x * width, y = mesh[index].y * height
            guard x.isFinite, y.isFinite else { return nil }
            values.append(x)
            values.append(y)
        }
        return values
    }

    /// The 52 scores of `input`.
    func scores(input: [Float], engine: FaceEngine) throws -> [Float] {
        let runtime = try engine.runtime(for: model)
        _ = runtime.input().update(from: input)
        try runtime.invoke()
        return Array(runtime.output(0))
    }
}
