"""FaceSubscriber: another process's shared session, followed through result callbacks.

A task opened with ``session_name`` shares its session; any process that
reaches the worker may follow it by that name and receives, without sending
frames, every answer the producer's frames get, in the producer's order::

    def on_result(result, timestamp_ms):
        print(timestamp_ms, len(result.detections))

    options = vision.FaceSubscriberOptions(session_name="door-camera", result_callback=on_result)
    with vision.FaceSubscriber.create_from_options(options) as subscriber:
        reason = subscriber.wait_for_end()

Each subscriber holds one connection of its own. The worker keeps a bounded
queue of events for it: a subscriber that falls behind loses events (and is
told how many), and never slows the producer or other subscribers. An
exception raised by a callback is raised by ``wait_for_end`` or ``close``.

With ``BaseOptions.reconnect`` (the default) a worker restart does not end the
subscription: the WORKER_STOPPING end is held back, the subscriber subscribes
again once the new worker has the session (its producer re-opens it under
the same name), and ``session_reset_callback`` runs before the first event
from the new worker, since tracking starts anew there. Only when no worker
brings the session back before the policy's deadline does the subscription
end: ``wait_for_end`` and ``close`` raise why.
"""

from __future__ import annotations

import functools
import threading
import time
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeoutError
from typing import Any, Callable, Optional

from . import _convert, _reconnect
from ._connection import Connection, EventListener
from ._proto import faceworker_pb2 as pb
from .errors import FaceWorkerError, StatusCode
from .options import FaceSubscriberOptions
from .results import DropReason, Outage, SessionEndReason


def _enum(kind: Any, value: int) -> Any:
    # A value added to the API after this client reads as UNSPECIFIED.
    try:
        return kind(value)
    except ValueError:
        return kind.UNSPECIFIED


class FaceSubscriber:
    """Follows a shared session of the worker; see the module documentation."""

    def __init__(self, options: FaceSubscriberOptions) -> None:
        """Subscribes to ``options.session_name``; prefer :meth:`create_from_options`.

        Raises:
            ValueError: When no result callback is given.
            WorkerNotRunningError: When no worker listens on the socket.
            FaceWorkerError: When the worker refuses the subscription
                (see :meth:`create_from_options`).
        """
        if options.result_callback is None:
            raise ValueError("A subscriber needs a user-defined result callback.")
        self._options = options
        self._lock = threading.Lock()
        self._ended = threading.Event()
        self._end_reason: Optional[SessionEndReason] = None
        self._deferred: Optional[Exception] = None
        self._closed = False
        self._to_result: Callable[[pb.FrameResult], Any] = _convert.detector_result
        self._socket_path = options.base_options.resolved_socket_path()
        self._reconnect = options.base_options.resolved_reconnect()
        # True from a lost connection until the subscriber is back or gives up.
        self._reconnecting = False
        # Set first: the connection may be lost before it is known as this subscriber's.
        self._connection: Optional[Connection] = None
        self._connection = Connection(self._socket_path, on_lost=self._on_connection_lost)
        try:
            answer = self._subscribe(self._connection).result()
        except BaseException:
            self._connection.close()
            raise
        self._subscription = answer.subscribe

    def _subscribe(self, connection: Connection) -> Future:
        return connection.submit(
            pb.ClientMessage(subscribe=pb.SubscribeRequest(name=self._options.session_name)),
            on_done=self._on_subscribed,
            listener=EventListener(self._on_event, self._on_lost),
        )

    @classmethod
    def create_from_options(cls, options: FaceSubscriberOptions) -> "FaceSubscriber":
        """Subscribes to the shared session named in ``options``.

        Raises:
            ValueError: When no result callback is given.
            WorkerNotRunningError: When no worker listens on the socket.
            FaceWorkerError: NOT_FOUND when no open session has the name;
                INVALID_ARGUMENT for an empty name; RESOURCE_EXHAUSTED when
                the session already has as many subscribers as the worker
                allows. The message is the worker's.
        """
        return cls(options)

    @property
    def session_name(self) -> str:
        """The name of the session followed."""
        return self._subscription.name

    @property
    def session_id(self) -> int:
        """The worker's id of the session followed."""
        return self._subscription.session_id

    @property
    def subscription_id(self) -> int:
        """The worker's id of this subscription."""
        return self._subscription.subscription_id

    @property
    def queue_limit(self) -> int:
        """How many events may wait for this subscriber before it starts losing them."""
        return self._subscription.queue_limit

    @property
    def end_reason(self) -> Optional[SessionEndReason]:
        """Why the subscription ended; None while it goes on (or when its connection failed)."""
        return self._end_reason

    def wait_for_end(self, timeout: Optional[float] = None) -> Optional[SessionEndReason]:
        """Waits until the subscription ends and its ``session_ended_callback`` has run.

        Returns:
            Why it ended, or None when ``timeout`` seconds passed first.

        Raises:
            FaceWorkerError: When the connection to the worker failed first.
            Exception: Whatever a callback raised, not raised yet.
        """
        ended = self._ended.wait(timeout)
        self._raise_deferred()
        return self._end_reason if ended else None

    def close(self) -> None:
        """Unsubscribes and closes the connection; closing twice does nothing.

        Raises:
            FaceWorkerError: When the connection had failed, not raised yet.
            Exception: Whatever a callback raised, not raised yet.
        """
        self._close()
        self._raise_deferred()

    def __enter__(self) -> "FaceSubscriber":
        return self

    def __exit__(self, exc_type: Any, exc_value: Any, traceback: Any) -> None:
        self._close()
        if exc_type is None:
            self._raise_deferred()

    def _close(self) -> None:
        with self._lock:
            if self._closed:
                return
            self._closed = True
            # A reconnect still under way sees the subscriber closed and closes its own connection.
            reconnecting = self._reconnecting
        try:
            # From a callback, the worker ends the subscription when the connection closes.
            if not self._ended.is_set() and not reconnecting and not self._connection.on_reader_thread():
                request = pb.UnsubscribeRequest(subscription_id=self._subscription.subscription_id)
                self._connection.call(pb.ClientMessage(unsubscribe=request))
        except FaceWorkerError as error:
            # NOT_FOUND: the subscription ended while the request travelled.
            if error.code != StatusCode.NOT_FOUND:
                self._defer(error)
        finally:
            self._connection.close()

    def _on_subscribed(self, future: Future) -> None:
        # Runs on the reader thread before the first event is read.
        if future.exception() is not None:
            return
        if future.result().subscribe.options.output_face_mesh:
            names = tuple(future.result().subscribe.blendshape_names)
            self._to_result = functools.partial(_convert.landmarker_result, blendshape_names=names)
        if self._reconnecting and self._options.session_reset_callback is not None:
            # Back on a new worker, whose session tracks anew: told before its first event.
            try:
                self._options.session_reset_callback()
            except Exception as error:
                self._defer(error)

    def _on_event(self, event: pb.SessionEvent) -> None:
        kind = event.WhichOneof("event")
        options = self._options
        try:
            if kind == "frame_result":
                # create_from_options refuses options without a result callback.
                assert options.result_callback is not None
                options.result_callback(self._to_result(event.frame_result), event.frame_result.timestamp_ms)
            elif kind == "frame_dropped" and options.frame_dropped_callback is not None:
                dropped = event.frame_dropped
                options.frame_dropped_callback(_enum(DropReason, dropped.reason), dropped.timestamp_ms)
            elif kind == "frame_error" and options.frame_error_callback is not None:
                error = FaceWorkerError.from_status(event.frame_error)
                options.frame_error_callback(error, error.timestamp_ms)
            elif kind == "events_missed" and options.events_missed_callback is not None:
                options.events_missed_callback(event.events_missed.count)
            elif kind == "session_reset" and options.session_reset_callback is not None:
                options.session_reset_callback()
            elif kind == "session_ended" and self._restarting(event.session_ended.reason):
                # The worker is stopping, perhaps to restart: the cut that follows starts the reconnect,
                # and nothing is left to unsubscribe from meanwhile.
                with self._lock:
                    self._reconnecting = True
            elif kind == "session_ended":
                self._end_reason = _enum(SessionEndReason, event.session_ended.reason)
                if options.session_ended_callback is not None:
                    options.session_ended_callback(self._end_reason)
        except Exception as error:
            # The reader thread must go on; wait_for_end or close raises it.
            self._defer(error)
        finally:
            if kind == "session_ended" and self._end_reason is not None:
                self._ended.set()

    def _restarting(self, reason: int) -> bool:
        return (
            self._reconnect is not None
            and reason == SessionEndReason.WORKER_STOPPING
            and not self._closed
        )

    def _on_lost(self, error: FaceWorkerError) -> None:
        with self._lock:
            if self._reconnecting:
                return
            closing = self._closed
        if not closing:
            self._defer(error)
        self._ended.set()

    def _on_connection_lost(self, connection: Connection, error: FaceWorkerError, _: int) -> None:
        # On the lost connection's reader thread, before the subscription hears of it.
        with self._lock:
            if self._reconnect is None or self._closed or self._ended.is_set() or connection is not self._connection:
                return
            if error.code != StatusCode.UNAVAILABLE:
                # Not a worker going away; a WORKER_STOPPING end held back for a restart ends it now.
                held_back, self._reconnecting = self._reconnecting, False
                if held_back:
                    self._deferred = self._deferred or error
                    self._ended.set()
                return
            self._reconnecting = True
        lost_at = time.monotonic()
        threading.Thread(target=self._restore, args=(error, lost_at), name="faceworker-reconnect", daemon=True).start()

    def _restore(self, cause: FaceWorkerError, lost_at: float) -> None:
        policy = self._reconnect
        assert policy is not None
        error: Optional[FaceWorkerError] = None
        try:
            # NOT_FOUND: the new worker is up, but the producer has not opened its session there yet.
            connection, answer = _reconnect.attempt_until_deadline(
                self._resubscribe, policy, lost_at, self._socket_path, also_retry={StatusCode.NOT_FOUND}
            )
        except FaceWorkerError as failure:
            error = failure
        with self._lock:
            closed = self._closed
            old = self._connection
            if error is None and not closed:
                self._connection = connection
                self._subscription = answer.subscribe
            self._reconnecting = False
        if error is None:
            (connection if closed else old).close()
        elif not closed:
            self._defer(error)
            self._ended.set()
        if not closed:
            _reconnect.tell(policy, Outage(cause, time.monotonic() - lost_at, 0, error), "FaceSubscriber")

    def _resubscribe(self, seconds_left: float) -> tuple:
        connection = Connection(self._socket_path, on_lost=self._on_connection_lost)
        try:
            try:
                answer = self._subscribe(connection).result(timeout=seconds_left)
            except FutureTimeoutError:
                raise _reconnect.deadline_exceeded(self._socket_path, seconds_left) from None
        except BaseException:
            connection.close()
            raise
        return connection, answer

    def _defer(self, error: Exception) -> None:
        with self._lock:
            if self._deferred is None:
                self._deferred = error

    def _raise_deferred(self) -> None:
        with self._lock:
            error, self._deferred = self._deferred, None
        if error is not None:
            raise error
