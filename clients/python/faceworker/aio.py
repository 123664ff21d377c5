"""MediaPipe's face tasks for asyncio programs: awaitable calls that never hold up the event loop.

In a FastAPI or aiohttp endpoint, the blocking tasks of :mod:`faceworker.vision`
would stop every other request while the worker works. These tasks are
awaited instead::

    from faceworker import aio, vision

    options = vision.FaceDetectorOptions(base_options=BaseOptions(), running_mode=vision.RunningMode.IMAGE)
    async with aio.FaceDetector.create_from_options(options) as detector:
        result = await detector.detect(mp.Image.create_from_file("photo.jpg"))

``detect`` (IMAGE) and ``detect_for_video`` (VIDEO) are coroutines; many may
be in flight at once, from any of the loop's coroutines. In LIVE_STREAM mode
``detect_async`` sends a frame and returns at once, and ``results()`` yields,
in the worker's order, each frame's result (a FaceDetectorResult or
FaceLandmarkerResult), or a :class:`FrameDropped` or :class:`FrameFailed`
event, and a :class:`WorkerRestarted` event after each worker restart. Live
tasks take no callbacks: leave ``result_callback`` unset.

The event loop only ever waits for a frame to be written to the socket:
answers are read by a thread of the client and handed to the loop. Every
task of one event loop on one socket shares one connection, each with its
own worker session. A task serves the loop that created it; calling it from
another loop raises RuntimeError.

Worker restarts: as the blocking tasks (see ``BaseOptions.reconnect``), a
task opens its session again on the new worker. A ``detect`` or
``detect_for_video`` in flight raises UNAVAILABLE once; live frames left
unanswered, and those sent before the task is back, come out of
``results()`` as FrameDropped with ``DropReason.WORKER_RESTARTED``, then
WorkerRestarted, then the new worker's answers.

Frames lying in shared memory are not supported here; send pixels or JPEG
bytes.
"""

from __future__ import annotations

import abc
import asyncio
import dataclasses
import functools
import time
import weakref
from concurrent.futures import Future
from typing import Any, AsyncIterator, Callable, Coroutine, Dict, Generator, Generic, Optional, Set, TypeVar, Union

from . import _convert, _reconnect
from ._connection import Connection
from ._proto import faceworker_pb2 as pb
from .errors import FaceWorkerError, FrameDroppedError, StatusCode
from .image import Image, as_image, frame_message
from .options import (
    FaceDetectorOptions,
    FaceLandmarkerOptions,
    ImageProcessingOptions,
    ReconnectPolicy,
    RunningMode,
)
from .results import DropReason, FaceDetectorResult, FaceLandmarkerResult, Outage
from .shared_memory import BufferRegion

__all__ = ["FaceDetector", "FaceLandmarker", "FrameDropped", "FrameFailed", "WorkerRestarted"]

# How long a worker that refused a frame as it stopped may take to hang up (its drain cuts off
# a connection after 1.5 s), as the blocking tasks wait.
_DRAIN_SECONDS = 5.0
# The worker's default --max-queued-frames: more frames of one session at once are refused.
FRAMES_IN_FLIGHT = 8

ImageInput = Union[Image, bytes, bytearray, memoryview]
ResultT = TypeVar("ResultT")
OptionsT = TypeVar("OptionsT", FaceDetectorOptions, FaceLandmarkerOptions)
TaskT = TypeVar("TaskT", bound="_AsyncTask")


@dataclasses.dataclass(frozen=True)
class FrameDropped:
    """A live frame the worker never processed (replaced by a newer one, or lost to a restart)."""

    reason: DropReason
    timestamp_ms: int


@dataclasses.dataclass(frozen=True)
class FrameFailed:
    """A live frame the worker refused; the task goes on."""

    error: FaceWorkerError
    timestamp_ms: int


@dataclasses.dataclass(frozen=True)
class WorkerRestarted:
    """The task lost its worker and is back on a new one, or gave up (``outage.error``).

    It comes once per outage, after the drops of the frames the outage left
    unanswered and before any answer of the new worker; tracking starts anew.
    """

    outage: Outage


class _End:
    """Ends ``results()`` once the task is closed."""


_END = _End()


class _Link:
    """The one connection an event loop's tasks share on one socket, made again after a loss."""

    def __init__(self, loop: asyncio.AbstractEventLoop, socket_path: str) -> None:
        self._loop = loop
        self.socket_path = socket_path
        self._connection: Optional[Connection] = None
        self._connecting = asyncio.Lock()
        self._tasks: Set["_AsyncTask[Any, Any]"] = set()
        # Set when that connection has failed: a call the worker refused as it stopped waits for it.
        self._lost: "weakref.WeakKeyDictionary[Connection, asyncio.Event]" = weakref.WeakKeyDictionary()

    async def connection(self) -> Connection:
        """The live connection, connected first when there is none (off the loop: connect may wait)."""
        async with self._connecting:
            if self._connection is None:
                self._connection = await self._loop.run_in_executor(
                    None, functools.partial(Connection, self.socket_path, on_lost=self._on_lost)
                )
                self._lost[self._connection] = asyncio.Event()
            return self._connection

    def join(self, task: "_AsyncTask[Any, Any]") -> None:
        self._tasks.add(task)

    async def leave(self, task: "_AsyncTask[Any, Any]") -> None:
        """Forgets ``task``; the last task to leave closes the connection."""
        self._tasks.discard(task)
        if self._tasks:
            return
        _forget_link(self._loop, self.socket_path, self)
        connection, self._connection = self._connection, None
        if connection is not None:
            # Closing joins the reader thread: off the loop.
            await self._loop.run_in_executor(None, connection.close)

    async def wait_lost(self, connection: Connection, timeout: float) -> None:
        lost = self._lost.get(connection)
        if lost is not None:
            try:
                await asyncio.wait_for(lost.wait(), timeout)
            except asyncio.TimeoutError:
                pass

    def _on_lost(self, connection: Connection, error: FaceWorkerError, unanswered_frames: int) -> None:
        # On the connection's reader thread, before its calls fail: the loop hears of the loss first.
        try:
            self._loop.call_soon_threadsafe(self._lose, connection, error)
        except RuntimeError:
            pass  # the loop is closed, and nothing waits on it any more

    def _lose(self, connection: Connection, error: FaceWorkerError) -> None:
        if connection is self._connection:
            self._connection = None
        lost = self._lost.get(connection)
        if lost is not None:
            lost.set()
        for task in list(self._tasks):
            task._on_lost(connection, error)


_links: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Dict[str, _Link]]" = weakref.WeakKeyDictionary()


def _link_for(loop: asyncio.AbstractEventLoop, socket_path: str) -> _Link:
    links = _links.setdefault(loop, {})
    link = links.get(socket_path)
    if link is None:
        link = links[socket_path] = _Link(loop, socket_path)
    return link


def _forget_link(loop: asyncio.AbstractEventLoop, socket_path: str, link: _Link) -> None:
    links = _links.get(loop, {})
    if links.get(socket_path) is link:
        del links[socket_path]


def _session_options(options: Union[FaceDetectorOptions, FaceLandmarkerOptions]) -> pb.SessionOptions:
    if options.result_callback is not None or options.frame_dropped_callback is not None:
        raise ValueError(
            "an asyncio task delivers live results, drops and restarts through results(); "
            "leave result_callback and frame_dropped_callback unset"
        )
    # The options' own check asks for a callback in LIVE_STREAM mode, where results() takes its place.
    session_options = dataclasses.replace(options, running_mode=RunningMode.IMAGE)._to_proto()
    session_options.running_mode = int(options.running_mode)
    return session_options


def _relay(loop: asyncio.AbstractEventLoop, handle: Callable[[Future], None]) -> Callable[[Future], None]:
    """An ``on_done`` for the reader thread that runs ``handle(answer)`` on ``loop`` instead."""

    def on_reader_thread(answer: Future) -> None:
        try:
            loop.call_soon_threadsafe(handle, answer)
        except RuntimeError:
            pass  # the loop is closed, and nothing waits on it any more

    return on_reader_thread


def _settle(waiter: "asyncio.Future[pb.WorkerMessage]", answer: Future) -> None:
    if waiter.done():
        return  # the caller was cancelled
    error = answer.exception()
    if error is not None:
        waiter.set_exception(error)
    else:
        waiter.set_result(answer.result())


def _no_shared_memory(region: BufferRegion) -> pb.BufferRegion:
    raise ValueError("the asyncio tasks send pixels or JPEG bytes, not shared-memory regions")


class _Opening(Generic[TaskT]):
    """What ``create_from_options`` returns: await it for the task, or ``async with`` it to close it too."""

    def __init__(self, opening: Coroutine[Any, Any, TaskT]) -> None:
        self._opening = opening

    def __await__(self) -> Generator[Any, None, TaskT]:
        return self._opening.__await__()

    async def __aenter__(self) -> TaskT:
        self._task = await self._opening
        return self._task

    async def __aexit__(self, *exc_info: Any) -> None:
        await self._task.close()


class _AsyncTask(abc.ABC, Generic[OptionsT, ResultT]):
    """A worker session behind awaitable task methods; see the module documentation."""

    def __init__(self, options: OptionsT, loop: asyncio.AbstractEventLoop, frames_in_flight: int) -> None:
        """Use :meth:`create_from_options`, which opens the session."""
        if frames_in_flight < 1:
            raise ValueError(f"frames_in_flight must be at least 1, got {frames_in_flight}")
        self._open_request = pb.OpenSessionRequest(options=_session_options(options))
        if options.session_name is not None:
            self._open_request.name = options.session_name
        self._running_mode = RunningMode(options.running_mode)
        self._reconnect: Optional[ReconnectPolicy] = options.base_options.resolved_reconnect()
        self._loop = loop
        self._link = _link_for(loop, options.base_options.resolved_socket_path())
        self._connection: Optional[Connection] = None
        self._closed = False
        # Cleared while the task reconnects; calls wait on it for the new session.
        self._back = asyncio.Event()
        self._back.set()
        self._gave_up: Optional[FaceWorkerError] = None
        self._restarted = False
        self._restoring: Optional["asyncio.Task[None]"] = None
        # Frames sent and not answered yet; close waits until there are none.
        self._frames_in_flight = 0
        self._idle = asyncio.Event()
        self._idle.set()
        # detect and detect_for_video calls beyond the worker's queue wait here, in order.
        self._window = asyncio.Semaphore(frames_in_flight)
        self._events: "asyncio.Queue[Any]" = asyncio.Queue()

    @classmethod
    def create_from_options(cls: type[TaskT], options: OptionsT, *,
                            frames_in_flight: int = FRAMES_IN_FLIGHT) -> "_Opening[TaskT]":
        """Opens a task on the worker: ``task = await ...create_from_options(options)``, or ``async with``.

        ``frames_in_flight`` is how many ``detect`` or ``detect_for_video``
        frames the task hands the worker at once; more calls wait their turn
        in the client, in the order made. It must not exceed the worker's
        ``--max-queued-frames`` (8 unless set otherwise), which refuses more
        with RESOURCE_EXHAUSTED.

        Raises (when awaited):
            ValueError: When the options contradict MediaPipe's rules, or set
                a callback (live results come from ``results()``).
            WorkerNotRunningError: When no worker listens on the socket.
            FaceWorkerError: When the worker refuses the options.
        """
        return _Opening(cls._open(options, frames_in_flight))

    @classmethod
    async def _open(cls: type[TaskT], options: OptionsT, frames_in_flight: int) -> TaskT:
        task = cls(options, asyncio.get_running_loop(), frames_in_flight)
        # Joined first, so that the connection is not closed under the opening by another task's leaving.
        task._link.join(task)
        try:
            connection = await task._link.connection()
            answer = await task._call(connection, pb.ClientMessage(open_session=task._open_request))
        except BaseException:
            await task._link.leave(task)
            raise
        task._connection = connection
        task._adopt(answer.open_session)
        return task

    def _adopt(self, opened: pb.OpenSessionResponse) -> None:
        self._session_id = opened.session_id
        self._to_result = self._result_converter(opened)

    @staticmethod
    @abc.abstractmethod
    def _result_converter(opened: pb.OpenSessionResponse) -> Callable[[pb.FrameResult], Any]:
        """How this task turns the session's frame results into its own result type."""

    async def detect(self, image: ImageInput,
                     image_processing_options: Optional[ImageProcessingOptions] = None) -> ResultT:
        """Finds the faces on one image (IMAGE mode).

        Raises:
            ValueError: When the task is closed or not in IMAGE mode.
            RuntimeError: When called from another event loop than the task's.
            FaceWorkerError: When the worker refuses the frame.
        """
        self._check(RunningMode.IMAGE, "image")
        return await self._process(as_image(image), 0, image_processing_options)

    async def detect_for_video(self, image: ImageInput, timestamp_ms: int,
                               image_processing_options: Optional[ImageProcessingOptions] = None) -> ResultT:
        """Finds the faces on one video frame (VIDEO mode); frames are processed in the order sent.

        Raises:
            ValueError: When the task is closed or not in VIDEO mode.
            RuntimeError: When called from another event loop than the task's.
            FaceWorkerError: INVALID_ARGUMENT when ``timestamp_ms`` is not
                greater than the previous frame's.
            FrameDroppedError: When the task was reset or closed before the
                frame was processed.
        """
        self._check(RunningMode.VIDEO, "video")
        return await self._process(as_image(image), timestamp_ms, image_processing_options)

    def detect_async(self, image: ImageInput, timestamp_ms: int,
                     image_processing_options: Optional[ImageProcessingOptions] = None) -> None:
        """Sends one live frame (LIVE_STREAM mode) and returns once it is written; see :meth:`results`.

        Raises:
            ValueError: When the task is closed or not in LIVE_STREAM mode.
            RuntimeError: When called from another event loop than the task's.
            FaceWorkerError: Why the task gave up reconnecting, once it has.
        """
        self._check(RunningMode.LIVE_STREAM, "live stream")
        if self._gave_up is not None:
            raise FaceWorkerError(self._gave_up.code, self._gave_up.message)
        message = self._frame_message(as_image(image), timestamp_ms, image_processing_options)
        if not self._back.is_set():
            # A camera must not stall while the worker restarts: the frame is dropped as if sent.
            self._events.put_nowait(FrameDropped(DropReason.WORKER_RESTARTED, timestamp_ms))
            return
        assert self._connection is not None
        try:
            self._send_frame(self._connection, message, functools.partial(self._live_answer, timestamp_ms))
        except FaceWorkerError as error:
            if not self._lost_to_restart(error):
                raise
            self._events.put_nowait(FrameDropped(DropReason.WORKER_RESTARTED, timestamp_ms))

    async def results(self) -> AsyncIterator[Any]:
        """The live stream's events, in the worker's order, until the task is closed.

        Yields:
            A FaceDetectorResult or FaceLandmarkerResult for each processed
            frame (its ``timestamp_ms`` names the frame), :class:`FrameDropped`
            for each frame not processed, :class:`FrameFailed` for each frame
            refused, and :class:`WorkerRestarted` after a worker restart.

        Raises:
            ValueError: When the task is not in LIVE_STREAM mode.
            RuntimeError: When called from another event loop than the task's.
        """
        self._check_loop()
        if self._running_mode != RunningMode.LIVE_STREAM:
            raise ValueError(
                f"results() is for the live stream mode. Current running mode:{self._running_mode.name}"
            )
        while True:
            event = await self._events.get()
            if event is _END:
                # Any other reader of the stream ends too.
                self._events.put_nowait(_END)
                return
            yield event

    async def reset(self) -> None:
        """Forgets tracked faces, tracking IDs and the last timestamp; frames still waiting are dropped.

        Raises:
            ValueError: When the task is closed.
            RuntimeError: When called from another event loop than the task's.
        """
        self._check_open()
        connection = await self._current()
        reset = pb.ResetSessionRequest(session_id=self._session_id)
        await self._call(connection, pb.ClientMessage(reset_session=reset))

    async def close(self) -> None:
        """Closes the session once every live frame sent has been answered; ends ``results()``.

        The loop's connection closes with its last task. Closing twice does nothing.

        Raises:
            RuntimeError: When called from another event loop than the task's.
        """
        self._check_loop()
        if self._closed:
            return
        await self._idle.wait()
        self._closed = True
        if self._restoring is not None:
            self._restoring.cancel()
        if self._back.is_set() and self._gave_up is None and self._connection is not None:
            try:
                await self._call(self._connection,
                                 pb.ClientMessage(close_session=pb.CloseSessionRequest(session_id=self._session_id)))
            except FaceWorkerError:
                pass  # the connection is gone, and the worker closes its sessions with it
        self._events.put_nowait(_END)
        await self._link.leave(self)

    async def __aenter__(self: TaskT) -> TaskT:
        return self

    async def __aexit__(self, *exc_info: Any) -> None:
        await self.close()

    def _check_loop(self) -> None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        if loop is not self._loop:
            raise RuntimeError(
                f"this {type(self).__name__} belongs to the event loop that created it and is used here "
                f"{'from another event loop' if loop is not None else 'outside any running event loop'}; "
                "create a task in each event loop that needs one"
            )

    def _check_open(self) -> None:
        self._check_loop()
        if self._closed:
            raise ValueError(f"{type(self).__name__} is closed")

    def _check(self, running_mode: RunningMode, name: str) -> None:
        self._check_open()
        if self._running_mode != running_mode:
            raise ValueError(
                f"Task is not initialized with the {name} mode. Current running mode:{self._running_mode.name}"
            )

    async def _current(self) -> Connection:
        await self._back.wait()
        if self._gave_up is not None:
            raise FaceWorkerError(self._gave_up.code, self._gave_up.message)
        assert self._connection is not None
        return self._connection

    def _call(self, connection: Connection, message: pb.ClientMessage,
              on_answer: Optional[Callable[[], None]] = None) -> "asyncio.Future[pb.WorkerMessage]":
        waiter: "asyncio.Future[pb.WorkerMessage]" = self._loop.create_future()
        handle = functools.partial(_settle, waiter)
        if message.WhichOneof("kind") == "process_frame":
            self._send_frame(connection, message, handle, on_answer)
        else:
            connection.submit(message, on_done=_relay(self._loop, handle))
        return waiter

    def _send_frame(self, connection: Connection, message: pb.ClientMessage, handle: Callable[[Future], None],
                    on_answer: Optional[Callable[[], None]] = None) -> None:
        """Sends a frame, counted in flight until ``handle`` has its answer on the loop."""

        def answered(answer: Future) -> None:
            self._frames_in_flight -= 1
            if self._frames_in_flight == 0:
                self._idle.set()
            if on_answer is not None:
                on_answer()
            handle(answer)

        connection.submit(message, on_done=_relay(self._loop, answered))
        self._frames_in_flight += 1
        self._idle.clear()

    def _frame_message(self, image: Image, timestamp_ms: int,
                       image_processing_options: Optional[ImageProcessingOptions]) -> pb.ClientMessage:
        orientation = (image_processing_options or ImageProcessingOptions()).resolved_orientation()
        return frame_message(self._session_id, image, timestamp_ms, int(orientation), _no_shared_memory)

    async def _process(self, image: Image, timestamp_ms: int,
                       image_processing_options: Optional[ImageProcessingOptions]) -> ResultT:
        message = self._frame_message(image, timestamp_ms, image_processing_options)
        # The turn is given back when the worker answers, even when the caller is cancelled first.
        await self._window.acquire()
        try:
            connection = await self._current()
            try:
                waiter = self._call(connection, message, on_answer=self._window.release)
            except FaceWorkerError as error:
                if not self._lost_to_restart(error):
                    raise
                # Never sent: the loss was not known yet. Once it is, the frame goes to the new session.
                await self._link.wait_lost(connection, _DRAIN_SECONDS)
                connection = await self._current()
                waiter = self._call(connection, message, on_answer=self._window.release)
        except BaseException:
            self._window.release()
            raise
        try:
            answer = await waiter
        except FaceWorkerError as error:
            if self._lost_to_restart(error):
                # A draining worker refuses the frame, then hangs up: once it has, the next call
                # waits for the new worker instead of being refused by the old one too.
                await self._link.wait_lost(connection, _DRAIN_SECONDS)
            raise
        if answer.WhichOneof("kind") == "frame_dropped":
            raise FrameDroppedError(DropReason(answer.frame_dropped.reason), answer.frame_dropped.timestamp_ms)
        return self._result(answer.frame_result)

    def _result(self, frame: pb.FrameResult) -> ResultT:
        result = self._to_result(frame)
        if self._restarted:
            self._restarted = False
            result.session_restarted = True
        return result

    def _live_answer(self, timestamp_ms: int, answer: Future) -> None:
        error = answer.exception()
        if error is not None:
            lost = self._lost_to_restart(error)
            self._events.put_nowait(
                FrameDropped(DropReason.WORKER_RESTARTED, timestamp_ms) if lost else FrameFailed(error, timestamp_ms)
            )
            return
        message = answer.result()
        if message.WhichOneof("kind") == "frame_dropped":
            self._events.put_nowait(FrameDropped(DropReason(message.frame_dropped.reason), timestamp_ms))
        else:
            self._events.put_nowait(self._result(message.frame_result))

    def _lost_to_restart(self, error: BaseException) -> bool:
        """Whether ``error`` is the worker going away under a task that reconnects."""
        return (
            self._reconnect is not None
            and isinstance(error, FaceWorkerError)
            and error.code == StatusCode.UNAVAILABLE
            and self._gave_up is None
        )

    def _on_lost(self, connection: Connection, error: FaceWorkerError) -> None:
        # On the loop, before the lost connection's calls fail.
        if (
            self._reconnect is None
            or self._closed
            or connection is not self._connection
            or error.code != StatusCode.UNAVAILABLE
            or not self._back.is_set()
        ):
            return
        self._back.clear()
        self._restoring = self._loop.create_task(self._restore(error, self._frames_in_flight, time.monotonic()))

    async def _restore(self, cause: FaceWorkerError, unanswered_frames: int, lost_at: float) -> None:
        policy = self._reconnect
        assert policy is not None
        deadline = lost_at + policy.deadline_seconds
        delay = policy.initial_delay_seconds
        error: Optional[FaceWorkerError] = None
        while True:
            left = deadline - time.monotonic()
            try:
                connection = await self._link.connection()
                # Under socket activation the session opens once a new worker accepts the connection.
                answer = await asyncio.wait_for(
                    self._call(connection, pb.ClientMessage(open_session=self._open_request)), max(left, 0.0)
                )
                break
            except asyncio.TimeoutError:
                last = _reconnect.deadline_exceeded(self._link.socket_path, max(left, 0.0))
            except FaceWorkerError as failure:
                if not _reconnect.retryable(failure):
                    error = failure
                    break
                last = failure
            left = deadline - time.monotonic()
            if left <= 0:
                error = _reconnect.gave_up(policy, self._link.socket_path, last)
                break
            await asyncio.sleep(min(delay, left))
            delay = min(delay * 2, policy.max_delay_seconds)
        if error is None:
            self._connection = connection
            self._adopt(answer.open_session)
            self._restarted = True
        else:
            self._gave_up = error
        self._back.set()
        outage = Outage(cause, time.monotonic() - lost_at, unanswered_frames, error)
        if self._running_mode == RunningMode.LIVE_STREAM:
            self._events.put_nowait(WorkerRestarted(outage))
        _reconnect.tell(policy, outage, type(self).__name__)


class FaceDetector(_AsyncTask[FaceDetectorOptions, FaceDetectorResult]):
    """MediaPipe's FaceDetector for asyncio; options and results as :class:`faceworker.vision.FaceDetector`'s."""

    @staticmethod
    def _result_converter(opened: pb.OpenSessionResponse) -> Callable[[pb.FrameResult], FaceDetectorResult]:
        return _convert.detector_result


class FaceLandmarker(_AsyncTask[FaceLandmarkerOptions, FaceLandmarkerResult]):
    """MediaPipe's FaceLandmarker for asyncio; options and results as :class:`faceworker.vision.FaceLandmarker`'s."""

    @staticmethod
    def _result_converter(opened: pb.OpenSessionResponse) -> Callable[[pb.FrameResult], FaceLandmarkerResult]:
        return functools.partial(_convert.landmarker_result, blendshape_names=tuple(opened.blendshape_names))
