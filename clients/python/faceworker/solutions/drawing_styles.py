"""MediaPipe's legacy ``solutions.drawing_styles``, for faces: the default looks of the mesh's lines."""

from __future__ import annotations

from typing import Dict, FrozenSet, Iterable, Mapping, Tuple

from .._drawing_core import DrawingSpec
from . import face_mesh_connections as _connections

_RED = (48, 48, 255)
_GREEN = (48, 255, 48)
_BLUE = (192, 101, 21)
_YELLOW = (0, 204, 255)
_GRAY = (128, 128, 128)
_WHITE = (224, 224, 224)
_CYAN = (192, 255, 48)
_MAGENTA = (192, 48, 255)

_THICKNESS_TESSELATION = 1
_THICKNESS_CONTOURS = 2

_Style = Iterable[Tuple[FrozenSet[Tuple[int, int]], DrawingSpec]]

_FACEMESH_CONTOURS_STYLE: _Style = (
    (_connections.FACEMESH_LIPS, DrawingSpec(color=_WHITE, thickness=_THICKNESS_CONTOURS)),
    (_connections.FACEMESH_LEFT_EYE, DrawingSpec(color=_GREEN, thickness=_THICKNESS_CONTOURS)),
    (_connections.FACEMESH_LEFT_EYEBROW, DrawingSpec(color=_GREEN, thickness=_THICKNESS_CONTOURS)),
    (_connections.FACEMESH_RIGHT_EYE, DrawingSpec(color=_RED, thickness=_THICKNESS_CONTOURS)),
    (_connections.FACEMESH_RIGHT_EYEBROW, DrawingSpec(color=_RED, thickness=_THICKNESS_CONTOURS)),
    (_connections.FACEMESH_FACE_OVAL, DrawingSpec(color=_WHITE, thickness=_THICKNESS_CONTOURS)),
)

_FACEMESH_CONTOURS_STYLE_1: _Style = (
    (_connections.FACEMESH_LIPS, DrawingSpec(color=_BLUE, thickness=_THICKNESS_CONTOURS)),
    (_connections.FACEMESH_LEFT_EYE, DrawingSpec(color=_CYAN, thickness=_THICKNESS_CONTOURS)),
    (_connections.FACEMESH_LEFT_EYEBROW, DrawingSpec(color=_GREEN, thickness=_THICKNESS_CONTOURS)),
    (_connections.FACEMESH_RIGHT_EYE, DrawingSpec(color=_MAGENTA, thickness=_THICKNESS_CONTOURS)),
    (_connections.FACEMESH_RIGHT_EYEBROW, DrawingSpec(color=_RED, thickness=_THICKNESS_CONTOURS)),
    (_connections.FACEMESH_FACE_OVAL, DrawingSpec(color=_WHITE, thickness=_THICKNESS_CONTOURS)),
    (_connections.FACEMESH_NOSE, DrawingSpec(color=_YELLOW, thickness=_THICKNESS_CONTOURS)),
)


def _by_connection(style: _Style) -> Dict[Tuple[int, int], DrawingSpec]:
    return {connection: spec for connections, spec in style for connection in connections}


def get_default_face_mesh_contours_style(i: int = 0) -> Mapping[Tuple[int, int], DrawingSpec]:
    """The spec of each contour connection: style 0 (MediaPipe's default) or style 1."""
    return _by_connection(_FACEMESH_CONTOURS_STYLE_1 if i == 1 else _FACEMESH_CONTOURS_STYLE)


def get_default_face_mesh_tesselation_style() -> DrawingSpec:
    """The spec of the tesselation's connections: thin and grey."""
    return DrawingSpec(color=_GRAY, thickness=_THICKNESS_TESSELATION)


def get_default_face_mesh_iris_connections_style() -> Mapping[Tuple[int, int], DrawingSpec]:
    """The spec of each iris connection: the person's left iris green, the right red."""
    return _by_connection((
        (_connections.FACEMESH_LEFT_IRIS, DrawingSpec(color=_GREEN, thickness=_THICKNESS_CONTOURS)),
        (_connections.FACEMESH_RIGHT_IRIS, DrawingSpec(color=_RED, thickness=_THICKNESS_CONTOURS)),
    ))
