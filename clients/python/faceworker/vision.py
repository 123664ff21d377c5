"""Face tasks shaped like MediaPipe Tasks' ``mediapipe.tasks.python.vision``.

Code written for MediaPipe's FaceDetector or FaceLandmarker runs against the
worker with a changed import::

    import faceworker as mp
    from faceworker import BaseOptions, vision

    options = vision.FaceDetectorOptions(base_options=BaseOptions(), running_mode=vision.RunningMode.IMAGE)
    with vision.FaceDetector.create_from_options(options) as detector:
        result = detector.detect(mp.Image.create_from_file("photo.jpg"))

Each task holds one session on a connection of its own. Tasks are
thread-safe: several threads may call one task at once.

LIVE_STREAM: ``detect_async`` returns at once. Results arrive on the
connection's reader thread, which calls ``result_callback(result, image,
timestamp_ms)``; keep callbacks short, since they hold up later answers. A
frame that the worker drops because a newer one took its place gets no
result (as in MediaPipe); ``frame_dropped_callback``, when set, hears of it.
An error answer to a live frame, or an exception raised by a callback, is
raised in the caller's thread by the next ``detect_async`` or by ``close``.
``close`` first waits until every frame sent has been answered (processed,
or replaced by a newer one) and its callback has run, so the last frame
always gets its result.

Shared sessions: a task opened with ``session_name`` shares its session;
:class:`FaceSubscriber` follows it from any process (see
:mod:`faceworker._subscriber`'s documentation).

Shared memory: after ``register_buffer(buffer)``, frames whose pixels lie in
that :class:`~faceworker.shared_memory.SharedFrameBuffer` travel as their
region, not their bytes; the region is the worker's until the frame's answer
arrives (for ``detect_async``: its callback, its drop, or its error).

Worker restarts: by default a task reconnects when the worker goes away and
comes back (see :class:`~faceworker.options.ReconnectPolicy`): frames that
were never answered are dropped with ``DropReason.WORKER_RESTARTED``, a
blocking call in flight raises UNAVAILABLE once, and the next call runs on
the new worker.
"""

from __future__ import annotations

import abc
import functools
import threading
import time
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeoutError
from typing import Any, Callable, Dict, Generic, Optional, TypeVar, Union

from . import _convert, _handoff, _reconnect
from ._connection import Connection
from ._landmarks_connections import FaceLandmarksConnections
from ._subscriber import FaceSubscriber
from ._proto import faceworker_pb2 as pb
from .errors import FaceWorkerError, FrameDroppedError, StatusCode
from .image import Image, as_image, frame_message
from .shared_memory import BufferRegion, SharedFrameBuffer
from .options import (
    BaseOptions,
    ClassificationMode,
    ContourMode,
    FaceDetectorOptions,
    FaceLandmarkerOptions,
    FaceSubscriberOptions,
    FaceWorkerOptions,
    ImageProcessingOptions,
    LandmarkMode,
    MeshModel,
    PerformanceMode,
    ReconnectPolicy,
    RunningMode,
)
from .results import (
    Blendshapes,
    BoundingBox,
    Category,
    ContourType,
    Detection,
    DropReason,
    FaceContour,
    FaceDetectorResult,
    FaceLandmark,
    FaceLandmarkerResult,
    FaceMesh,
    LandmarkType,
    LazyList,
    NormalizedKeypoint,
    NormalizedLandmark,
    Outage,
    Point,
    SessionEndReason,
    StageTimings,
)

__all__ = [
    "BaseOptions",
    "Blendshapes",
    "BoundingBox",
    "Category",
    "ClassificationMode",
    "ContourMode",
    "ContourType",
    "Detection",
    "DropReason",
    "FaceContour",
    "FaceDetector",
    "FaceDetectorOptions",
    "FaceDetectorResult",
    "FaceLandmark",
    "FaceLandmarker",
    "FaceLandmarkerOptions",
    "FaceLandmarkerResult",
    "FaceLandmarksConnections",
    "FaceMesh",
    "FaceSubscriber",
    "FaceSubscriberOptions",
    "FaceWorkerOptions",
    "ImageProcessingOptions",
    "LandmarkMode",
    "LandmarkType",
    "LazyList",
    "MeshModel",
    "NormalizedKeypoint",
    "NormalizedLandmark",
    "Outage",
    "PerformanceMode",
    "Point",
    "ReconnectPolicy",
    "RunningMode",
    "SessionEndReason",
    "StageTimings",
]

# How long a worker that refused a frame as it stopped may take to hang up (its drain cuts off
# a connection after 1.5 s).
_DRAIN_SECONDS = 5.0

ImageInput = Union[Image, bytes, bytearray, memoryview, BufferRegion]
ResultT = TypeVar("ResultT")
OptionsT = TypeVar("OptionsT", FaceDetectorOptions, FaceLandmarkerOptions)
TaskT = TypeVar("TaskT", bound="_FaceTask")


def _drop_reason(value: int) -> DropReason:
    try:
        return DropReason(value)
    except ValueError:
        return DropReason.UNSPECIFIED


class _FaceTask(abc.ABC, Generic[OptionsT, ResultT]):
    """A worker session behind MediaPipe's task methods; see the module documentation."""

    _options_type: Callable[..., OptionsT]

    def __init__(self, options: OptionsT) -> None:
        """Opens a session with ``options``; prefer :meth:`create_from_options`.

        Raises:
            ValueError: When the options contradict MediaPipe's rules.
            WorkerNotRunningError: When no worker listens on the socket.
            FaceWorkerError: When the worker refuses the options.
        """
        session_options = options._to_proto()
        self._running_mode = RunningMode(options.running_mode)
        self._result_callback: Optional[Callable[[Any, Image, int], None]] = options.result_callback
        self._dropped_callback: Optional[Callable[[DropReason, Image, int], None]] = options.frame_dropped_callback
        self._lock = threading.Lock()
        self._live_frames_settled = threading.Condition(self._lock)
        self._live_frames_in_flight = 0
        self._closed = False
        self._deferred: Optional[Exception] = None
        self._buffer_ids: Dict[SharedFrameBuffer, int] = {}
        self._open_request = pb.OpenSessionRequest(options=session_options)
        if options.session_name is not None:
            self._open_request.name = options.session_name
        self._socket_path = options.base_options.resolved_socket_path()
        self._reconnect = options.base_options.resolved_reconnect()
        # Cleared while the task reconnects; calls wait on it for the new connection.
        self._back = threading.Event()
        self._back.set()
        self._gave_up: Optional[FaceWorkerError] = None
        self._restarted = False
        # Set first: the connection may be lost before it is known as the task's.
        self._connection: Optional[Connection] = None
        self._connection = Connection(self._socket_path, on_lost=self._on_lost)
        try:
            answer = self._connection.call(pb.ClientMessage(open_session=self._open_request))
        except BaseException:
            self._connection.close()
            raise
        self._adopt(answer.open_session)

    def _adopt(self, opened: pb.OpenSessionResponse) -> None:
        self._session_id = opened.session_id
        self._session_name = opened.name or None
        self._to_result = self._result_converter(opened)

    @staticmethod
    @abc.abstractmethod
    def _result_converter(opened: pb.OpenSessionResponse) -> Callable[[pb.FrameResult], ResultT]:
        """How the opened session's frame results become this task's results: each task says."""

    @classmethod
    def create_from_options(cls: type[TaskT], options: OptionsT) -> TaskT:
        """Opens a task on the worker with ``options``.

        Raises:
            ValueError: When the options contradict MediaPipe's rules (a
                result callback outside LIVE_STREAM mode, for one).
            WorkerNotRunningError: When no worker listens on the socket.
            FaceWorkerError: When the worker refuses the options
                (INVALID_ARGUMENT for an out-of-range value).
        """
        return cls(options)

    @classmethod
    def create_from_model_path(cls: type[TaskT], model_path: str) -> TaskT:
        """Opens an IMAGE-mode task with default options, as MediaPipe's method does.

        ``model_path`` is accepted for compatibility and ignored: the worker
        holds the models.
        """
        return cls(cls._options_type(base_options=BaseOptions(model_asset_path=model_path)))

    @property
    def session_name(self) -> Optional[str]:
        """The name subscribers follow the session by; None for a private session."""
        return self._session_name

    def detect(self, image: ImageInput, image_processing_options: Optional[ImageProcessingOptions] = None) -> ResultT:
        """Finds the faces on one image (IMAGE mode) and waits for the result.

        Args:
            image: An :class:`~faceworker.Image`, or a JPEG file's bytes or
                their region in a registered shared buffer.
            image_processing_options: The image's rotation or orientation.

        Raises:
            ValueError: When the task is closed or not in IMAGE mode, or the
                image lies in a shared buffer not registered on this task.
            FaceWorkerError: When the worker refuses the frame
                (INVALID_ARGUMENT for an image it cannot decode; for a
                shared-memory region, OUT_OF_RANGE when it passes the end of
                its buffer).
        """
        self._check(RunningMode.IMAGE, "image")
        return self._process(as_image(image), 0, image_processing_options)

    def detect_for_video(
        self,
        image: ImageInput,
        timestamp_ms: int,
        image_processing_options: Optional[ImageProcessingOptions] = None,
    ) -> ResultT:
        """Finds the faces on one video frame (VIDEO mode) and waits for the result.

        Raises:
            ValueError: When the task is closed or not in VIDEO mode.
            FaceWorkerError: INVALID_ARGUMENT when ``timestamp_ms`` is not
                greater than the previous frame's; the task stays usable.
            FrameDroppedError: When another thread closed or reset the task
                before the frame was processed.
        """
        self._check(RunningMode.VIDEO, "video")
        return self._process(as_image(image), timestamp_ms, image_processing_options)

    def detect_async(
        self,
        image: ImageInput,
        timestamp_ms: int,
        image_processing_options: Optional[ImageProcessingOptions] = None,
    ) -> None:
        """Sends one live frame (LIVE_STREAM mode) and returns at once.

        The result goes to ``result_callback``; see the module documentation
        for dropped frames and errors.

        Raises:
            ValueError: When the task is closed or not in LIVE_STREAM mode.
            FaceWorkerError: An earlier live frame's error, not raised yet.
            Exception: Whatever an earlier callback raised, not raised yet.
        """
        self._check(RunningMode.LIVE_STREAM, "live stream")
        self._raise_deferred()
        image = as_image(image)
        with self._lock:
            if self._closed:
                raise ValueError(f"{type(self).__name__} is closed")
            self._live_frames_in_flight += 1
        try:
            if self._reconnect is not None and not self._back.is_set():
                # A camera must not stall while the worker restarts: the frame is dropped as if sent.
                self._drop_restarted(image, timestamp_ms)
                return
            connection = self._current()
            message = self._frame_message(image, timestamp_ms, image_processing_options)
            connection.submit(message, on_done=functools.partial(self._on_live_answer, image, timestamp_ms))
        except FaceWorkerError as error:
            if not self._lost_to_restart(error):
                self._settle_live_frame()
                raise
            self._drop_restarted(image, timestamp_ms)
        except BaseException:
            self._settle_live_frame()
            raise

    def register_buffer(self, buffer: SharedFrameBuffer) -> None:
        """Lets this task's frames lie in ``buffer``: the worker maps it and reads them in place.

        A buffer registered already is left as it is. The worker unmaps it
        on :meth:`unregister_buffer` or when the task closes.

        Raises:
            ValueError: When the task or the buffer is closed.
            FaceWorkerError: RESOURCE_EXHAUSTED when the task already has as
                many buffers, or mapped bytes, as the worker allows.
        """
        self._check_open()
        with self._lock:
            if buffer in self._buffer_ids:
                return
        registered = _handoff.register(self._current(), buffer.fileno())
        with self._lock:
            self._buffer_ids[buffer] = registered.buffer_id

    def unregister_buffer(self, buffer: SharedFrameBuffer) -> None:
        """Tells the worker to forget ``buffer``; it unmaps it once the frames sent from it are answered.

        Raises:
            ValueError: When the task is closed or ``buffer`` is not registered on it.
        """
        self._check_open()
        with self._lock:
            buffer_id = self._buffer_ids.pop(buffer, None)
        if buffer_id is None:
            raise ValueError(f"{buffer!r} is not registered on this {type(self).__name__}")
        _handoff.unregister(self._current(), buffer_id)

    def reset(self) -> None:
        """Forgets tracked faces, tracking IDs and the last timestamp; keeps the options.

        Use it when a video jumps (a seek, a new file). Frames still waiting
        are dropped (DropReason.SESSION_RESET).
        """
        self._check_open()
        connection = self._current()
        connection.call(pb.ClientMessage(reset_session=pb.ResetSessionRequest(session_id=self._session_id)))

    def close(self) -> None:
        """Closes the session and its connection; later calls raise ValueError.

        In LIVE_STREAM mode it first waits until every frame sent has been
        answered and its callback has run. Closing twice does nothing.

        Raises:
            FaceWorkerError: A live frame's error not raised yet.
            Exception: Whatever a callback raised, not raised yet.
        """
        self._close()
        self._raise_deferred()

    def __enter__(self: TaskT) -> TaskT:
        return self

    def __exit__(self, exc_type: Any, exc_value: Any, traceback: Any) -> None:
        self._close()
        if exc_type is None:
            self._raise_deferred()

    def _close(self) -> None:
        with self._lock:
            if not self._connection.on_reader_thread():
                # The worker would drop a frame still waiting; let it be processed first.
                self._live_frames_settled.wait_for(lambda: self._live_frames_in_flight == 0)
            if self._closed:
                return
            self._closed = True
            # A reconnect still under way sees the task closed and closes its own connection.
            back = self._back.is_set()
        try:
            if back and not self._connection.on_reader_thread():
                # The worker answers every frame of the session before this answer.
                self._connection.call(
                    pb.ClientMessage(close_session=pb.CloseSessionRequest(session_id=self._session_id))
                )
        except FaceWorkerError:
            pass  # the connection is gone, and the worker closes its sessions with it
        finally:
            self._connection.close()

    def _check_open(self) -> None:
        if self._closed:
            raise ValueError(f"{type(self).__name__} is closed")

    def _check(self, running_mode: RunningMode, name: str) -> None:
        self._check_open()
        if self._running_mode != running_mode:
            raise ValueError(
                f"Task is not initialized with the {name} mode. Current running mode:{self._running_mode.name}"
            )

    def _frame_message(
        self, image: Image, timestamp_ms: int, image_processing_options: Optional[ImageProcessingOptions]
    ) -> pb.ClientMessage:
        orientation = (image_processing_options or ImageProcessingOptions()).resolved_orientation()
        return frame_message(self._session_id, image, timestamp_ms, int(orientation), self._wire_region)

    def _wire_region(self, region: BufferRegion) -> pb.BufferRegion:
        with self._lock:
            buffer_id = self._buffer_ids.get(region.buffer)
        if buffer_id is None:
            raise ValueError(
                f"the image lies in {region.buffer!r}, which is not registered on this {type(self).__name__}: "
                "call register_buffer(buffer) first"
            )
        return pb.BufferRegion(buffer_id=buffer_id, offset=region.offset, length=region.length)

    def _process(
        self, image: Image, timestamp_ms: int, image_processing_options: Optional[ImageProcessingOptions]
    ) -> ResultT:
        connection = self._current()
        try:
            answer = connection.call(self._frame_message(image, timestamp_ms, image_processing_options))
        except FaceWorkerError as error:
            if self._lost_to_restart(error):
                # A draining worker refuses the frame, then hangs up: once it has, the next call
                # waits for the new worker instead of being refused by the old one too.
                connection.wait_until_lost(_DRAIN_SECONDS)
            raise
        if answer.WhichOneof("kind") == "frame_dropped":
            raise FrameDroppedError(_drop_reason(answer.frame_dropped.reason), answer.frame_dropped.timestamp_ms)
        return self._result(answer.frame_result)

    def _result(self, frame: pb.FrameResult) -> ResultT:
        result = self._to_result(frame)
        with self._lock:
            restarted, self._restarted = self._restarted, False
        if restarted:
            result.session_restarted = True
        return result

    def _on_live_answer(self, image: Image, timestamp_ms: int, future: Future) -> None:
        failure = future.exception()
        if failure is not None and self._lost_to_restart(failure):
            self._drop_restarted(image, timestamp_ms)
            return
        try:
            answer = future.result()
            if answer.WhichOneof("kind") == "frame_dropped":
                if self._dropped_callback is not None:
                    self._dropped_callback(_drop_reason(answer.frame_dropped.reason), image, timestamp_ms)
            else:
                # LIVE_STREAM options cannot be created without a result callback.
                assert self._result_callback is not None
                self._result_callback(self._result(answer.frame_result), image, timestamp_ms)
        except Exception as error:
            # This runs on the reader thread, which must go on; the caller's
            # thread raises the error instead.
            self._defer(error)
        finally:
            self._settle_live_frame()

    def _drop_restarted(self, image: Image, timestamp_ms: int) -> None:
        """Reports a live frame the worker will never answer, and settles it."""
        try:
            if self._dropped_callback is not None:
                self._dropped_callback(DropReason.WORKER_RESTARTED, image, timestamp_ms)
        except Exception as error:
            self._defer(error)
        finally:
            self._settle_live_frame()

    def _defer(self, error: Exception) -> None:
        with self._lock:
            if self._deferred is None:
                self._deferred = error

    def _lost_to_restart(self, error: BaseException) -> bool:
        """Whether ``error`` is the worker going away under a task that reconnects.

        UNAVAILABLE is the cut connection, or a frame the draining worker
        refused; once the task has given up, it is that final error.
        """
        return (
            self._reconnect is not None
            and isinstance(error, FaceWorkerError)
            and error.code == StatusCode.UNAVAILABLE
            and self._gave_up is None
        )

    def _current(self) -> Connection:
        """The connection to call on; during an outage, the one the reconnect opens, once it is up.

        Raises:
            FaceWorkerError: Why the reconnect gave up, when it did.
        """
        self._back.wait()
        with self._lock:
            if self._gave_up is not None:
                raise FaceWorkerError(self._gave_up.code, self._gave_up.message)
            return self._connection

    def _on_lost(self, connection: Connection, error: FaceWorkerError, unanswered_frames: int) -> None:
        # On the lost connection's reader thread, before its calls fail: from
        # here on, a new call waits for the reconnect.
        with self._lock:
            if (
                self._reconnect is None
                or self._closed
                or connection is not self._connection
                or error.code != StatusCode.UNAVAILABLE
            ):
                return
            self._back.clear()
        lost_at = time.monotonic()
        threading.Thread(
            target=self._restore, args=(error, unanswered_frames, lost_at), name="faceworker-reconnect", daemon=True
        ).start()

    def _restore(self, cause: FaceWorkerError, unanswered_frames: int, lost_at: float) -> None:
        policy = self._reconnect
        assert policy is not None
        error: Optional[FaceWorkerError] = None
        try:
            connection, opened, buffer_ids = _reconnect.attempt_until_deadline(
                self._reopen, policy, lost_at, self._socket_path
            )
        except FaceWorkerError as failure:
            error = failure
        with self._lock:
            closed = self._closed
            old = self._connection
            if error is not None:
                self._gave_up = error
            elif not closed:
                self._connection = connection
                self._adopt(opened)
                self._buffer_ids = buffer_ids
                self._restarted = True
        self._back.set()
        if error is None:
            (connection if closed else old).close()
        if not closed:
            outage = Outage(cause, time.monotonic() - lost_at, unanswered_frames, error)
            _reconnect.tell(policy, outage, type(self).__name__)

    def _reopen(self, seconds_left: float) -> tuple:
        """A new connection with the session opened again and the buffers registered again."""
        connection = Connection(self._socket_path, on_lost=self._on_lost)
        try:
            opening = connection.submit(pb.ClientMessage(open_session=self._open_request))
            try:
                # Under socket activation the connection waits in the listen queue until a worker accepts it.
                answer = opening.result(timeout=seconds_left)
            except FutureTimeoutError:
                raise _reconnect.deadline_exceeded(self._socket_path, seconds_left) from None
            with self._lock:
                buffers = list(self._buffer_ids)
            buffer_ids = {buffer: _handoff.register(connection, buffer.fileno()).buffer_id for buffer in buffers}
        except BaseException:
            connection.close()
            raise
        return connection, answer.open_session, buffer_ids

    def _settle_live_frame(self) -> None:
        with self._lock:
            self._live_frames_in_flight -= 1
            self._live_frames_settled.notify_all()

    def _raise_deferred(self) -> None:
        with self._lock:
            error, self._deferred = self._deferred, None
        if error is not None:
            raise error


class FaceDetector(_FaceTask[FaceDetectorOptions, FaceDetectorResult]):
    """MediaPipe's FaceDetector, run by the worker: boxes, scores, six keypoints.

    With ML Kit's options it also reports landmarks, contours, head angles,
    probabilities and tracking IDs. Results are :class:`FaceDetectorResult`.
    """

    _options_type = FaceDetectorOptions

    @staticmethod
    def _result_converter(opened: pb.OpenSessionResponse) -> Callable[[pb.FrameResult], FaceDetectorResult]:
        return _convert.detector_result


class FaceLandmarker(_FaceTask[FaceLandmarkerOptions, FaceLandmarkerResult]):
    """MediaPipe's FaceLandmarker, run by the worker: the 478-point mesh of each face.

    By default it runs MediaPipe Tasks' Face Landmarker (``MeshModel.FACE_LANDMARKER``),
    so points, blendshapes (``output_face_blendshapes``) and matrices are MediaPipe
    Tasks'; ``mesh_model=MeshModel.ATTENTION_MESH`` runs the cheaper legacy mesh.
    Each face's box, keypoints and ML Kit outputs are in the result's
    ``detections``. Results are :class:`FaceLandmarkerResult`.
    """

    _options_type = FaceLandmarkerOptions

    @staticmethod
    def _result_converter(opened: pb.OpenSessionResponse) -> Callable[[pb.FrameResult], FaceLandmarkerResult]:
        # The names come once, with the session; every result pairs them with its scores.
        return functools.partial(_convert.landmarker_result, blendshape_names=tuple(opened.blendshape_names))
