"""Draws a detector result onto a Pillow image, for people to check what the worker sees."""

from __future__ import annotations

from typing import Any, List, Tuple

from .results import ContourType, Detection, FaceDetectorResult, Point

BOX_COLOUR = (0, 230, 0)
KEYPOINT_COLOUR = (255, 40, 40)
LANDMARK_COLOUR = (255, 220, 0)
CONTOUR_COLOUR = (0, 200, 255)
LABEL_TEXT_COLOUR = (0, 0, 0)

# Outlines that go all the way round; the other contours are open lines.
_CLOSED_CONTOURS = frozenset([ContourType.FACE, ContourType.LEFT_EYE, ContourType.RIGHT_EYE])


def draw_result(image: Any, result: FaceDetectorResult) -> None:
    """Draws every face's box, label, contours, landmarks and keypoints onto ``image`` (RGB, in place)."""
    from PIL import ImageDraw

    draw = ImageDraw.Draw(image)
    # Lines and dots grow with the picture so they stay visible on large photos.
    line = max(1, round(min(image.size) / 256))
    for detection in result.detections:
        _draw_face(draw, detection, image.size, line)


def face_label(detection: Detection) -> str:
    """A short text naming the face: tracking ID, score, smile and eye-open probabilities."""
    parts = []
    if detection.tracking_id is not None:
        parts.append(f"id {detection.tracking_id}")
    score = detection.categories[0].score if detection.categories else None
    if score is not None:
        parts.append(f"score {score:.2f}")
    if detection.smiling_probability is not None:
        parts.append(f"smile {detection.smiling_probability:.2f}")
    if detection.left_eye_open_probability is not None and detection.right_eye_open_probability is not None:
        parts.append(f"eyes {detection.right_eye_open_probability:.2f}/{detection.left_eye_open_probability:.2f}")
    return "  ".join(parts)


def _draw_face(draw: Any, detection: Detection, size: Tuple[int, int], line: int) -> None:
    box = detection.bounding_box
    corners = [box.origin_x, box.origin_y, box.origin_x + box.width, box.origin_y + box.height]
    draw.rectangle(corners, outline=BOX_COLOUR, width=line)
    for contour in detection.contours:
        points = _xy(contour.points)
        if contour.type in _CLOSED_CONTOURS and len(points) > 2:
            points.append(points[0])
        if len(points) > 1:
            draw.line(points, fill=CONTOUR_COLOUR, width=line)
    for landmark in detection.landmarks:
        _dot(draw, landmark.position.x, landmark.position.y, 2 * line, LANDMARK_COLOUR)
    width, height = size
    for keypoint in detection.keypoints:
        _dot(draw, keypoint.x * width, keypoint.y * height, 2 * line, KEYPOINT_COLOUR)
    _label(draw, face_label(detection), box.origin_x, box.origin_y)


def _label(draw: Any, text: str, left: int, top: int) -> None:
    if not text:
        return
    x0, y0, x1, y1 = draw.textbbox((0, 0), text)
    # Above the box when there is room, else just inside its top edge.
    y = top - (y1 - y0) - 4 if top >= (y1 - y0) + 4 else top + 2
    draw.rectangle([left, y, left + (x1 - x0) + 4, y + (y1 - y0) + 4], fill=BOX_COLOUR)
    draw.text((left + 2 - x0, y + 2 - y0), text, fill=LABEL_TEXT_COLOUR)


def _dot(draw: Any, x: float, y: float, radius: int, colour: Tuple[int, int, int]) -> None:
    draw.ellipse([x - radius, y - radius, x + radius, y + radius], fill=colour)


def _xy(points: List[Point]) -> List[Tuple[float, float]]:
    return [(point.x, point.y) for point in points]
