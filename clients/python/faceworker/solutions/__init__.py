"""MediaPipe's legacy Solutions API for faces, served by the worker.

MediaPipe removed ``mp.solutions`` in 0.10.30; programs written for
``mp.solutions.face_detection`` and ``mp.solutions.face_mesh`` run here with
``import faceworker as mp`` in place of ``import mediapipe as mp``. Results
are MediaPipe's protobuf messages (Detection, NormalizedLandmarkList), with
MediaPipe's names and field numbers.

Each Solution holds one worker session until ``close()`` or the end of its
``with`` block. The worker is found by the socket rule of
:func:`faceworker.default_socket_path` (``$FACEWORKER_SOCKET`` first), or by
the ``base_options`` keyword.
"""

from . import drawing_styles, drawing_utils, face_detection, face_mesh, face_mesh_connections

__all__ = ["drawing_styles", "drawing_utils", "face_detection", "face_mesh", "face_mesh_connections"]
