"""MediaPipe Tasks' FaceLandmarksConnections: the face mesh's lines as Connection(start, end) lists."""

from __future__ import annotations

import dataclasses
from typing import Any, List, Sequence, Tuple

from . import _mesh_connections as _pairs


def _connections(connection: Any, pairs: Sequence[Tuple[int, int]]) -> List[Any]:
    return [connection(start, end) for start, end in pairs]


class FaceLandmarksConnections:
    """The connections between face landmarks, as MediaPipe Tasks lists them.

    Each list is in MediaPipe's order; ``FACE_LANDMARKS_CONTOURS`` joins the
    lips, eyes, eyebrows and face oval as MediaPipe does. Left and right are
    the person's own.
    """

    @dataclasses.dataclass
    class Connection:
        """One line of the face mesh: from point ``start`` to point ``end``."""

        start: int
        end: int

    FACE_LANDMARKS_LIPS: List[Connection] = _connections(Connection, _pairs.LIPS)
    FACE_LANDMARKS_LEFT_EYE: List[Connection] = _connections(Connection, _pairs.LEFT_EYE)
    FACE_LANDMARKS_LEFT_EYEBROW: List[Connection] = _connections(Connection, _pairs.LEFT_EYEBROW)
    FACE_LANDMARKS_LEFT_IRIS: List[Connection] = _connections(Connection, _pairs.LEFT_IRIS)
    FACE_LANDMARKS_RIGHT_EYE: List[Connection] = _connections(Connection, _pairs.RIGHT_EYE)
    FACE_LANDMARKS_RIGHT_EYEBROW: List[Connection] = _connections(Connection, _pairs.RIGHT_EYEBROW)
    FACE_LANDMARKS_RIGHT_IRIS: List[Connection] = _connections(Connection, _pairs.RIGHT_IRIS)
    FACE_LANDMARKS_FACE_OVAL: List[Connection] = _connections(Connection, _pairs.FACE_OVAL)
    FACE_LANDMARKS_NOSE: List[Connection] = _connections(Connection, _pairs.NOSE)
    FACE_LANDMARKS_CONTOURS: List[Connection] = (
        FACE_LANDMARKS_LIPS
        + FACE_LANDMARKS_LEFT_EYE
        + FACE_LANDMARKS_LEFT_EYEBROW
        + FACE_LANDMARKS_RIGHT_EYE
        + FACE_LANDMARKS_RIGHT_EYEBROW
        + FACE_LANDMARKS_FACE_OVAL
    )
    FACE_LANDMARKS_TESSELATION: List[Connection] = _connections(Connection, _pairs.TESSELATION)
