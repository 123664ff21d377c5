"""What MediaPipe's two ``drawing_utils`` modules share: specs, colours, and the drawing itself.

MediaPipe draws with OpenCV; this client draws the same circles, lines and
rectangles with Pillow (the ``annotate`` extra), onto the caller's numpy
image in place. Colours are tuples in the image's own channel order (BGR for
OpenCV frames), as in MediaPipe.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any, Dict, Iterable, Mapping, Optional, Sequence, Tuple, Union

from ._numpy import numpy

WHITE_COLOR = (224, 224, 224)
BLACK_COLOR = (0, 0, 0)
RED_COLOR = (0, 0, 255)
GREEN_COLOR = (0, 128, 0)
BLUE_COLOR = (255, 0, 0)

_PRESENCE_THRESHOLD = 0.5
_VISIBILITY_THRESHOLD = 0.5
_BGR_CHANNELS = 3

Pixel = Tuple[int, int]


@dataclasses.dataclass
class DrawingSpec:
    """How to draw: colour, line thickness (-1 fills circles), circle radius, in pixels."""

    color: Tuple[int, int, int] = WHITE_COLOR
    thickness: int = 2
    circle_radius: int = 2


def normalized_to_pixel_coordinates(
    normalized_x: float, normalized_y: float, image_width: int, image_height: int
) -> Optional[Pixel]:
    """The pixel of a normalized point, or None when the point lies outside the image (as MediaPipe)."""

    def inside(value: float) -> bool:
        return (value > 0 or math.isclose(0, value)) and (value < 1 or math.isclose(1, value))

    if not (inside(normalized_x) and inside(normalized_y)):
        return None
    return (
        min(math.floor(normalized_x * image_width), image_width - 1),
        min(math.floor(normalized_y * image_height), image_height - 1),
    )


def check_three_channels(image: Any) -> None:
    """MediaPipe's check, with its wording."""
    if image.ndim != 3 or image.shape[2] != _BGR_CHANNELS:
        raise ValueError("Input image must contain three channel bgr data.")


def hidden(visibility: Optional[float], presence: Optional[float]) -> bool:
    """Whether a landmark is left out: its visibility or presence is known and below 0.5."""
    return (visibility is not None and visibility < _VISIBILITY_THRESHOLD) or (
        presence is not None and presence < _PRESENCE_THRESHOLD
    )


class Canvas:
    """Draws onto a numpy image: ``with Canvas(image) as canvas: canvas.line(...)``; written back on exit."""

    def __init__(self, image: Any) -> None:
        self._image = image

    def __enter__(self) -> "Canvas":
        try:
            from PIL import Image, ImageDraw
        except ImportError:
            raise ImportError("drawing needs Pillow: pip install 'faceworker[annotate]'") from None
        self._picture = Image.fromarray(numpy.ascontiguousarray(self._image))
        self._draw = ImageDraw.Draw(self._picture)
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self._image[...] = numpy.asarray(self._picture)

    def circle(self, centre: Pixel, radius: int, colour: Tuple[int, int, int], thickness: int) -> None:
        x, y = centre
        if thickness < 0:
            self._draw.ellipse([x - radius, y - radius, x + radius, y + radius], fill=tuple(colour))
            return
        # OpenCV centres the ring's width on the radius; Pillow draws it inward from the box.
        outer = radius + thickness // 2
        self._draw.ellipse([x - outer, y - outer, x + outer, y + outer], outline=tuple(colour), width=max(thickness, 1))

    def line(self, start: Pixel, end: Pixel, colour: Tuple[int, int, int], thickness: int) -> None:
        self._draw.line([start, end], fill=tuple(colour), width=max(thickness, 1))

    def rectangle(self, corner: Pixel, opposite: Pixel, colour: Tuple[int, int, int], thickness: int) -> None:
        (x0, y0), (x1, y1) = corner, opposite
        box = [min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)]
        if thickness < 0:
            self._draw.rectangle(box, fill=tuple(colour))
        else:
            self._draw.rectangle(box, outline=tuple(colour), width=max(thickness, 1))

    def arrow(self, start: Pixel, end: Pixel, colour: Tuple[int, int, int], thickness: int) -> None:
        # OpenCV's arrowedLine: two tip strokes a tenth of the line long, 45 degrees off it.
        self.line(start, end, colour, thickness)
        angle = math.atan2(start[1] - end[1], start[0] - end[0])
        tip = 0.1 * math.hypot(end[0] - start[0], end[1] - start[1])
        for side in (math.pi / 4, -math.pi / 4):
            stroke = (round(end[0] + tip * math.cos(angle + side)), round(end[1] + tip * math.sin(angle + side)))
            self.line(end, stroke, colour, thickness)


def draw_landmarks(
    image: Any,
    points: Sequence[Tuple[float, float, bool]],
    connections: Optional[Iterable[Tuple[int, int]]],
    landmark_drawing_spec: Optional[Union[DrawingSpec, Mapping[int, DrawingSpec]]],
    connection_drawing_spec: Optional[Union[DrawingSpec, Mapping[Tuple[int, int], DrawingSpec]]],
    is_drawing_landmarks: bool,
) -> None:
    """MediaPipe's draw_landmarks on ``points`` given as (x, y, hidden), connections as (start, end)."""
    check_three_channels(image)
    rows, columns = image.shape[0], image.shape[1]
    pixels: Dict[int, Pixel] = {}
    for index, (x, y, left_out) in enumerate(points):
        if left_out:
            continue
        pixel = normalized_to_pixel_coordinates(x, y, columns, rows)
        if pixel:
            pixels[index] = pixel
    with Canvas(image) as canvas:
        if connections and connection_drawing_spec:
            for start, end in connections:
                if not (0 <= start < len(points) and 0 <= end < len(points)):
                    raise ValueError(
                        f"Landmark index is out of range. Invalid connection from landmark #{start} to landmark #{end}."
                    )
                if start in pixels and end in pixels:
                    spec = (
                        connection_drawing_spec[(start, end)]
                        if isinstance(connection_drawing_spec, Mapping)
                        else connection_drawing_spec
                    )
                    canvas.line(pixels[start], pixels[end], spec.color, spec.thickness)
        # Points after lines, so that lines do not cross them.
        if is_drawing_landmarks and landmark_drawing_spec:
            for index, pixel in pixels.items():
                spec = (
                    landmark_drawing_spec[index]
                    if isinstance(landmark_drawing_spec, Mapping)
                    else landmark_drawing_spec
                )
                border = max(spec.circle_radius + 1, int(spec.circle_radius * 1.2))
                canvas.circle(pixel, border, WHITE_COLOR, spec.thickness)
                canvas.circle(pixel, spec.circle_radius, spec.color, spec.thickness)


def draw_axis(
    image: Any,
    rotation: Any,
    translation: Any,
    focal_length: Tuple[float, float] = (1.0, 1.0),
    principal_point: Tuple[float, float] = (0.0, 0.0),
    axis_length: float = 0.1,
    axis_drawing_spec: DrawingSpec = DrawingSpec(),
) -> None:
    """Draws an object's x, y and z axes (red, green, blue) from its pose in camera space.

    Args:
        image: A three-channel numpy image, drawn on in place.
        rotation: 3x3 rotation from object to camera coordinates.
        translation: Translation from object to camera coordinates.
        focal_length: The camera's focal length in x and y (NDC).
        principal_point: The camera's principal point in x and y (NDC).
        axis_length: Each axis's length, in object units.
        axis_drawing_spec: The lines' thickness.

    Raises:
        ValueError: When the image does not have three channels.
    """
    check_three_channels(image)
    rows, columns = image.shape[0], image.shape[1]
    axes = numpy.float32([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]])
    camera = numpy.matmul(rotation, axis_length * axes.T).T + translation
    x, y, z = camera[..., 0], camera[..., 1], camera[..., 2]
    fx, fy = focal_length
    px, py = principal_point
    x_ndc = numpy.clip(-fx * x / (z + 1e-5) + px, -1.0, 1.0)
    y_ndc = numpy.clip(-fy * y / (z + 1e-5) + py, -1.0, 1.0)
    xs = numpy.int32((1 + x_ndc) * 0.5 * columns)
    ys = numpy.int32((1 - y_ndc) * 0.5 * rows)
    origin = (int(xs[0]), int(ys[0]))
    with Canvas(image) as canvas:
        for axis, colour in ((1, RED_COLOR), (2, GREEN_COLOR), (3, BLUE_COLOR)):
            canvas.arrow(origin, (int(xs[axis]), int(ys[axis])), colour, axis_drawing_spec.thickness)


def plot_landmarks(
    points: Sequence[Tuple[float, float, float, bool]],
    connections: Optional[Iterable[Tuple[int, int]]],
    landmark_drawing_spec: DrawingSpec,
    connection_drawing_spec: DrawingSpec,
    elevation: int,
    azimuth: int,
) -> None:
    """MediaPipe's plot_landmarks on ``points`` given as (x, y, z, hidden): a matplotlib 3-D plot."""
    import matplotlib.pyplot as plt

    def colour(spec: DrawingSpec) -> Tuple[float, ...]:
        # Specs are BGR; matplotlib takes RGB in [0, 1].
        return tuple(value / 255.0 for value in spec.color[::-1])

    plt.figure(figsize=(10, 10))
    axes = plt.axes(projection="3d")
    axes.view_init(elev=elevation, azim=azimuth)
    plotted: Dict[int, Tuple[float, float, float]] = {}
    for index, (x, y, z, left_out) in enumerate(points):
        if left_out:
            continue
        axes.scatter3D(xs=[-z], ys=[x], zs=[-y], color=colour(landmark_drawing_spec),
                       linewidth=landmark_drawing_spec.thickness)
        plotted[index] = (-z, x, -y)
    for start, end in connections or ():
        if not (0 <= start < len(points) and 0 <= end < len(points)):
            raise ValueError(
                f"Landmark index is out of range. Invalid connection from landmark #{start} to landmark #{end}."
            )
        if start in plotted and end in plotted:
            pair = (plotted[start], plotted[end])
            axes.plot3D(xs=[pair[0][0], pair[1][0]], ys=[pair[0][1], pair[1][1]], zs=[pair[0][2], pair[1][2]],
                        color=colour(connection_drawing_spec), linewidth=connection_drawing_spec.thickness)
    plt.show()
