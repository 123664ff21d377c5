/// How the iris model's 71 eye-contour points replace face-mesh points, from
/// MediaPipe's iris tracking graph (update_face_landmarks_calculator). The
/// lists run in the iris model's output order: lower lid 9 (corner to corner),
/// upper lid 7, then four halos around the eye and the eyebrow.
enum IrisRefinement {
    /// Mesh indices of the image-left eye (subject's right; corners 33 and 133).
    static let imageLeftEye: [Int] = [
        33, 7, 163, 144, 145, 153, 154, 155, 133, 246, 161, 160, 159, 158, 157, 173,
        130, 25, 110, 24, 23, 22, 26, 112, 243, 247, 30, 29, 27, 28, 56, 190,
        226, 31, 228, 229, 230, 231, 232, 233, 244, 113, 225, 224, 223, 222, 221, 189,
        35, 124, 46, 53, 52, 65, 143, 111, 117, 118, 119, 120, 121, 128, 245,
        156, 70, 63, 105, 66, 107, 55, 193,
    ]

    /// Mesh indices of the image-right eye (subject's left; corners 362 and 263).
    static let imageRightEye: [Int] = [
        263, 249, 390, 373, 374, 380, 381, 382, 362, 466, 388, 387, 386, 385, 384, 398,
        359, 255, 339, 254, 253, 252, 256, 341, 463, 467, 260, 259, 257, 258, 286, 414,
        446, 261, 448, 449, 450, 451, 452, 453, 464, 342, 445, 444, 443, 442, 441, 413,
        265, 353, 276, 283, 282, 295, 372, 340, 346, 347, 348, 349, 350, 357, 465,
        383, 300, 293, 334, 296, 336, 285, 417,
    ]

    /// Order in which the five iris points are appended (centre, then the
    /// image-right, top, image-left and bottom edges, as MediaPipe's 478-point
    /// layout has them). The iris model reports edges as (centre, right, top,
    /// left, bottom) of the eye it sees; the image-right eye is fed mirrored, so
    /// its left and right edges swap back.
    static let unflippedIrisOrder = [0, 1, 2, 3, 4]
    static let flippedIrisOrder = [0, 3, 2, 1, 4]
}
