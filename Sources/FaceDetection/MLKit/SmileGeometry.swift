/// The two mouth measures of a smile, in the face's own frame.
///
/// Both are lengths over the distance between the outer eye corners (33, 263), so they do not
/// change with the face's size, and both are measured along directions taken from the face itself,
/// so they do not change with its rotation in the image.
struct SmileGeometry: Sendable {
    /// The mouth's width (corner 61 to corner 291) over the outer eye corners' distance.
    let widthRatio: Float
    /// How far the mouth corners sit above the centre of the lips (the midpoint of 13 and 14, the
    /// inner lip edges on the midline), along the face's up direction, over the outer eye
    /// corners' distance. The face's up direction is chin (152) to forehead (10), made
    /// perpendicular to the line between the eye corners.
    let cornerLift: Float

    /// Measures a face.
    init<Points: FacePoints>(of face: Points) {
        let eyeSpan = face.point(263) - face.point(33)
        let scale = eyeSpan.norm
        guard scale > 0 else {
            widthRatio = 0
            cornerLift = 0
            return
        }
        let across = eyeSpan / scale
        let chinToForehead = face.point(10) - face.point(152)
        let upright = chinToForehead - (chinToForehead * across).sum() * across
        let uprightLength = upright.norm
        let up = uprightLength > 0 ? upright / uprightLength : .zero
        let lipCentre = (face.point(13) + face.point(14)) / 2
        let corners = (face.point(61) + face.point(291)) / 2
        widthRatio = face.distance(61, 291) / scale
        cornerLift = ((corners - lipCentre) * up).sum() / scale
    }
}
