"""MediaPipe Tasks' ``vision.drawing_utils``: draws detections and face landmarks onto numpy images.

As ``mediapipe.tasks.python.vision.drawing_utils`` (mediapipe 1.2.3), drawn
with Pillow instead of OpenCV (``pip install 'faceworker[annotate]'``).
"""

from __future__ import annotations

from typing import Any, List, Mapping, Optional, Sequence, Tuple, Union

from ...._drawing_core import (
    BLACK_COLOR,
    BLUE_COLOR,
    GREEN_COLOR,
    RED_COLOR,
    WHITE_COLOR,
    Canvas,
    DrawingSpec,
    check_three_channels,
    draw_axis,
    hidden,
    normalized_to_pixel_coordinates,
)
from ...._drawing_core import draw_landmarks as _draw_landmarks
from ...._drawing_core import plot_landmarks as _plot_landmarks
from ....results import Detection, NormalizedLandmark

__all__ = [
    "BLACK_COLOR",
    "BLUE_COLOR",
    "DrawingSpec",
    "GREEN_COLOR",
    "RED_COLOR",
    "WHITE_COLOR",
    "draw_axis",
    "draw_detection",
    "draw_landmarks",
    "plot_landmarks",
]


def draw_detection(
    image: Any,
    detection: Detection,
    keypoint_drawing_spec: DrawingSpec = DrawingSpec(color=RED_COLOR),
    bbox_drawing_spec: DrawingSpec = DrawingSpec(),
) -> None:
    """Draws a detection's box (in pixels) and keypoints (normalized) onto ``image``, in place.

    Raises:
        ValueError: When the image does not have three channels.
    """
    check_three_channels(image)
    rows, columns = image.shape[0], image.shape[1]
    box = detection.bounding_box
    with Canvas(image) as canvas:
        for keypoint in detection.keypoints or ():
            pixel = normalized_to_pixel_coordinates(keypoint.x, keypoint.y, columns, rows)
            if pixel is not None:
                canvas.circle(pixel, keypoint_drawing_spec.circle_radius, keypoint_drawing_spec.color,
                              keypoint_drawing_spec.thickness)
        canvas.rectangle((box.origin_x, box.origin_y), (box.origin_x + box.width, box.origin_y + box.height),
                         bbox_drawing_spec.color, bbox_drawing_spec.thickness)


def draw_landmarks(
    image: Any,
    landmark_list: Sequence[NormalizedLandmark],
    connections: Optional[List[Any]] = None,
    landmark_drawing_spec: Optional[Union[DrawingSpec, Mapping[int, DrawingSpec]]] = DrawingSpec(color=RED_COLOR),
    connection_drawing_spec: Union[DrawingSpec, Mapping[Tuple[int, int], DrawingSpec]] = DrawingSpec(),
    is_drawing_landmarks: bool = True,
) -> None:
    """Draws landmarks and the connections between them onto ``image``, in place.

    Args:
        image: A three-channel numpy image.
        landmark_list: One face's landmarks (``result.face_landmarks[i]``).
        connections: ``FaceLandmarksConnections`` lists; each is drawn when
            both its points are in the image.
        landmark_drawing_spec: One spec for every point, or a spec per point
            index; None draws no points.
        connection_drawing_spec: One spec for every line, or a spec per
            (start, end); None draws no lines.
        is_drawing_landmarks: False draws the lines only.

    Raises:
        ValueError: When the image does not have three channels, or a
            connection names a point the list does not have.
    """
    if not landmark_list:
        return
    points = [(point.x, point.y, hidden(point.visibility, point.presence)) for point in landmark_list]
    pairs = [(connection.start, connection.end) for connection in connections] if connections else None
    _draw_landmarks(image, points, pairs, landmark_drawing_spec, connection_drawing_spec, is_drawing_landmarks)


def plot_landmarks(
    landmark_list: Sequence[NormalizedLandmark],
    connections: Optional[List[Tuple[int, int]]] = None,
    landmark_drawing_spec: DrawingSpec = DrawingSpec(color=RED_COLOR, thickness=5),
    connection_drawing_spec: DrawingSpec = DrawingSpec(color=BLACK_COLOR, thickness=5),
    elevation: int = 10,
    azimuth: int = 10,
) -> None:
    """Plots landmarks and their connections in 3-D with matplotlib.

    Raises:
        ValueError: When a connection names a point the list does not have.
    """
    if not landmark_list:
        return
    points = [(point.x, point.y, point.z, hidden(point.visibility, point.presence)) for point in landmark_list]
    _plot_landmarks(points, connections, landmark_drawing_spec, connection_drawing_spec, elevation, azimuth)
