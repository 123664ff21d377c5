"""MediaPipe's legacy ``solutions.drawing_utils``: draws Solution results onto numpy images.

As mediapipe 0.10.14's module, drawn with Pillow instead of OpenCV
(``pip install 'faceworker[annotate]'``).
"""

from __future__ import annotations

from typing import Any, List, Mapping, Optional, Tuple, Union

from .._drawing_core import (
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
from .._drawing_core import draw_landmarks as _draw_landmarks
from .._drawing_core import plot_landmarks as _plot_landmarks
from ._formats import LocationData

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
    detection: Any,
    keypoint_drawing_spec: DrawingSpec = DrawingSpec(color=RED_COLOR),
    bbox_drawing_spec: DrawingSpec = DrawingSpec(),
) -> None:
    """Draws a Detection message's key points and relative box onto ``image``, in place.

    Raises:
        ValueError: When the image does not have three channels, or the
            location data is not relative.
    """
    if not detection.location_data:
        return
    check_three_channels(image)
    rows, columns = image.shape[0], image.shape[1]
    location = detection.location_data
    if location.format != LocationData.RELATIVE_BOUNDING_BOX:
        raise ValueError("LocationData must be relative for this drawing funtion to work.")
    with Canvas(image) as canvas:
        for keypoint in location.relative_keypoints:
            pixel = normalized_to_pixel_coordinates(keypoint.x, keypoint.y, columns, rows)
            if pixel is not None:
                canvas.circle(pixel, keypoint_drawing_spec.circle_radius, keypoint_drawing_spec.color,
                              keypoint_drawing_spec.thickness)
        if not location.HasField("relative_bounding_box"):
            return
        box = location.relative_bounding_box
        corner = normalized_to_pixel_coordinates(box.xmin, box.ymin, columns, rows)
        opposite = normalized_to_pixel_coordinates(box.xmin + box.width, box.ymin + box.height, columns, rows)
        # MediaPipe cannot draw a box that leaves the image either.
        if corner is not None and opposite is not None:
            canvas.rectangle(corner, opposite, bbox_drawing_spec.color, bbox_drawing_spec.thickness)


def _points(landmark_list: Any) -> List[Tuple[float, float, float, bool]]:
    return [
        (
            landmark.x,
            landmark.y,
            landmark.z,
            hidden(
                landmark.visibility if landmark.HasField("visibility") else None,
                landmark.presence if landmark.HasField("presence") else None,
            ),
        )
        for landmark in landmark_list.landmark
    ]


def draw_landmarks(
    image: Any,
    landmark_list: Any,
    connections: Optional[List[Tuple[int, int]]] = None,
    landmark_drawing_spec: Optional[Union[DrawingSpec, Mapping[int, DrawingSpec]]] = DrawingSpec(color=RED_COLOR),
    connection_drawing_spec: Union[DrawingSpec, Mapping[Tuple[int, int], DrawingSpec]] = DrawingSpec(),
    is_drawing_landmarks: bool = True,
) -> None:
    """Draws a NormalizedLandmarkList and the connections between its points onto ``image``, in place.

    Args:
        image: A three-channel numpy image.
        landmark_list: One face of ``results.multi_face_landmarks``.
        connections: (start, end) pairs, such as ``FACEMESH_TESSELATION``.
        landmark_drawing_spec: One spec for every point, or a spec per point
            index; None draws no points.
        connection_drawing_spec: One spec for every line, or a spec per
            connection; None draws no lines.
        is_drawing_landmarks: False draws the lines only.

    Raises:
        ValueError: When the image does not have three channels, or a
            connection names a point the list does not have.
    """
    if not landmark_list:
        return
    points = [(x, y, left_out) for x, y, _, left_out in _points(landmark_list)]
    _draw_landmarks(image, points, connections, landmark_drawing_spec, connection_drawing_spec, is_drawing_landmarks)


def plot_landmarks(
    landmark_list: Any,
    connections: Optional[List[Tuple[int, int]]] = None,
    landmark_drawing_spec: DrawingSpec = DrawingSpec(color=RED_COLOR, thickness=5),
    connection_drawing_spec: DrawingSpec = DrawingSpec(color=BLACK_COLOR, thickness=5),
    elevation: int = 10,
    azimuth: int = 10,
) -> None:
    """Plots a NormalizedLandmarkList and its connections in 3-D with matplotlib.

    Raises:
        ValueError: When a connection names a point the list does not have.
    """
    if not landmark_list:
        return
    _plot_landmarks(_points(landmark_list), connections, landmark_drawing_spec, connection_drawing_spec,
                    elevation, azimuth)
