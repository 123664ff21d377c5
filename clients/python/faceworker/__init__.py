"""FaceWorker's Python client: MediaPipe Tasks' face API, run by a local face-worker.

``faceworker`` stands in for ``mediapipe``, under MediaPipe's own module
paths: ``faceworker.tasks`` (``mp.tasks.vision.FaceLandmarker``,
``from faceworker.tasks.python import vision``) for MediaPipe Tasks, and
``faceworker.solutions`` for the legacy Solutions API (``face_detection``,
``face_mesh``). ``faceworker.vision`` is the shorter path to the same tasks,
and ``faceworker.aio`` has them for asyncio programs::

    import faceworker as mp
    from faceworker.tasks import python
    from faceworker.tasks.python import vision

The worker must be running (``make run`` in the FaceWorker repository).
"""

from . import framework, solutions, tasks, vision
from ._connection import MAX_ANSWER_BYTES, default_socket_path
from .errors import (
    ConnectionLostError,
    FaceWorkerError,
    FrameDroppedError,
    ProtocolError,
    StatusCode,
    WorkerNotRunningError,
    WorkerStoppingError,
)
from .image import Image, ImageFormat, Orientation
from .options import BaseOptions, ReconnectPolicy
from .shared_memory import BufferRegion, SharedFrameBuffer
from .worker import ModelInfo, StageLatency, WorkerStats, get_stats, ping

__version__ = "0.1.0"

__all__ = [
    "BaseOptions",
    "BufferRegion",
    "ConnectionLostError",
    "FaceWorkerError",
    "FrameDroppedError",
    "Image",
    "ImageFormat",
    "MAX_ANSWER_BYTES",
    "ModelInfo",
    "Orientation",
    "ProtocolError",
    "ReconnectPolicy",
    "SharedFrameBuffer",
    "StageLatency",
    "StatusCode",
    "WorkerNotRunningError",
    "WorkerStoppingError",
    "WorkerStats",
    "default_socket_path",
    "framework",
    "get_stats",
    "ping",
    "solutions",
    "tasks",
    "vision",
]
