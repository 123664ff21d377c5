/// How MediaPipe's attention mesh assembles its 478 points
/// (tensors_to_face_landmarks_with_attention): the 468 mesh points, then the
/// lips and both eye regions overwrite the x and y of the mesh points listed
/// here (keeping the mesh's z), and the two irises are appended with the mean
/// z of their eye's contour.
///
/// "Left" and "right" are the image's sides: the image-left eye is the
/// subject's right eye (corners 33 and 133).
enum MeshRefinement {
    /// Mesh indices of the 80 lip points, in the lips head's output order.
    static let lips: [Int] = [
        61, 146, 91, 181, 84, 17, 314, 405, 321, 375, 291, 185, 40, 39, 37, 0, 267, 269, 270, 409,
        78, 95, 88, 178, 87, 14, 317, 402, 318, 324, 308, 191, 80, 81, 82, 13, 312, 311, 310, 415,
        76, 77, 90, 180, 85, 16, 315, 404, 320, 307, 306, 184, 74, 73, 72, 11, 302, 303, 304, 408,
        62, 96, 89, 179, 86, 15, 316, 403, 319, 325, 292, 183, 42, 41, 38, 12, 268, 271, 272, 407,
    ]

    /// Mesh indices of the image-left eye's 71 points: lower lid 9 (corner to
    /// corner), upper lid 7, then four halos around the eye and the eyebrow.
    static let imageLeftEye: [Int] = [
        33, 7, 163, 144, 145, 153, 154, 155, 133, 246, 161, 160, 159, 158, 157, 173,
        130, 25, 110, 24, 23, 22, 26, 112, 243, 247, 30, 29, 27, 28, 56, 190,
        226, 31, 228, 229, 230, 231, 232, 233, 244, 113, 225, 224, 223, 222, 221, 189,
        35, 124, 46, 53, 52, 65, 143, 111, 117, 118, 119, 120, 121, 128, 245,
        156, 70, 63, 105, 66, 107, 55, 193,
    ]

    /// Mesh indices of the image-right eye's 71 points, in the same order.
    static let imageRightEye: [Int] = [
        263, 249, 390, 373, 374, 380, 381, 382, 362, 466, 388, 387, 386, 385, 384, 398,
        359, 255, 339, 254, 253, 252, 256, 341, 463, 467, 260, 259, 257, 258, 286, 414,
        446, 261, 448, 449, 450, 451, 452, 453, 464, 342, 445, 444, 443, 442, 441, 413,
        265, 353, 276, 283, 282, 295, 372, 340, 346, 347, 348, 349, 350, 357, 465,
        383, 300, 293, 334, 296, 336, 285, 417,
    ]

    /// The first index of each iris's five points (centre, then four edge points).
    static let imageLeftIris = 468
    static let imageRightIris = 473

    /// The eye contour points whose mean z each iris takes: the first 16 of its eye's list (both lids).
    static let imageLeftIrisDepth = Array(imageLeftEye.prefix(16))
    static let imageRightIrisDepth = Array(imageRightEye.prefix(16))
}
