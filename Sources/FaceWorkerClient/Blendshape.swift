import FaceWorkerProtocol

/// One of a face's blendshape scores with its name, as MediaPipe Tasks'
/// `Category`: `index` is its position in `Face.blendshapes`.
package struct Blendshape: Sendable, Equatable {
    /// The position in the face's scores and in the session's names.
    package let index: Int
    /// MediaPipe's category name, such as "jawOpen".
    package let name: String
    /// The score, in [0, 1].
    package let score: Float
}

extension Faceworker_V1_Face {
    /// The face's blendshape scores, each paired with its name from `names`
    /// (a session's or subscription's `blendshapeNames`), in order; empty
    /// without `outputFaceBlendshapes`. Scores past the end of `names` are
    /// left out.
    package func blendshapes(named names: [String]) -> [Blendshape] {
        zip(names, blendshapes).enumerated().map { index, pair in
            Blendshape(index: index, name: pair.0, score: pair.1)
        }
    }
}
