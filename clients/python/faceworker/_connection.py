"""One Unix-socket connection to the worker, shared by every call of a task.

Messages are framed as gRPC length-prefixed messages: a flag byte (0,
uncompressed), the payload length as a 4-byte big-endian integer, then the
serialized protobuf. Each call gets a fresh ``call_id``; a reader thread
matches the worker's answers to their calls by that id, so many calls can be
in flight at once and answers may arrive in any order. A Subscribe call is
answered once, then goes on: its session events follow under its id until
the one that ends the subscription.
"""

from __future__ import annotations

import itertools
import os
import socket
import struct
import threading
from concurrent.futures import Future
from typing import Callable, Dict, NamedTuple, Optional, Protocol, Tuple

from google.protobuf.message import DecodeError

from ._proto import faceworker_pb2 as pb
from .errors import ConnectionLostError, FaceWorkerError, ProtocolError, StatusCode, WorkerNotRunningError

_HEADER = struct.Struct(">BI")
_UNCOMPRESSED = 0
MAX_ANSWER_BYTES = 64 * 1024 * 1024
"""The longest message this client accepts from the worker: 64 MiB, the
``client.max_answer_bytes`` of proto/faceworker/v1/defaults.json. A longer
length in a header means the stream is corrupt; it is refused before anything
is read or allocated for it."""

# The kinds of WorkerMessage that answer each kind of ClientMessage, besides
# an error.
_ANSWERS = {
    "open_session": ("open_session",),
    "process_frame": ("frame_result", "frame_dropped"),
    "close_session": ("close_session",),
    "reset_session": ("reset_session",),
    "ping": ("ping",),
    "get_stats": ("get_stats",),
    "subscribe": ("subscribe",),
    "unsubscribe": ("unsubscribe",),
    "register_buffer": ("register_buffer",),
    "unregister_buffer": ("unregister_buffer",),
}
# The most the reader takes from the socket at once.
_RECEIVE_BYTES = 64 * 1024
# How long a failed send waits for the reader to learn why the worker closed.
_CLOSING_GRACE_SECONDS = 5.0

# Builds a fresh exception for each failed call, so that no two threads raise
# (and append tracebacks to) the same exception object.
_ErrorFactory = Callable[[], FaceWorkerError]


class EventListener(NamedTuple):
    """What hears a subscription, on the reader thread."""

    on_event: Callable[[pb.SessionEvent], None]
    """Hears each event; the connection stops listening after a ``session_ended``."""
    on_lost: Callable[[FaceWorkerError], None]
    """Hears why the connection failed, or that it was closed, before the subscription ended."""


def default_socket_path() -> str:
    """The socket the client connects to when it is given none.

    The socket rule of proto/faceworker/v1/defaults.json, which the worker
    follows too:

    1. ``$FACEWORKER_SOCKET``, when it is set and not empty, so that a
       program that names no socket (MediaPipe's ``create_from_model_path``
       has no place for one) can still be pointed at its worker;
    2. else ``$XDG_RUNTIME_DIR/faceworker.sock``, when that variable holds an
       absolute path;
    3. else ``/tmp/faceworker-<euid>.sock``.

    A path given explicitly (``BaseOptions(socket_path=...)``) comes first.
    """
    chosen = os.environ.get("FACEWORKER_SOCKET", "")
    if chosen:
        return chosen
    runtime = os.environ.get("XDG_RUNTIME_DIR", "")
    if runtime.startswith("/"):
        return os.path.join(runtime, "faceworker.sock")
    return f"/tmp/faceworker-{os.geteuid()}.sock"


def socket_path_for(explicit: Optional[str]) -> str:
    """``explicit`` when given, else :func:`default_socket_path`."""
    return explicit or default_socket_path()


def _connect(socket_path: str) -> socket.socket:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.connect(socket_path)
    except (FileNotFoundError, ConnectionRefusedError) as error:
        # A missing file, or a file left behind by a worker that has exited.
        sock.close()
        raise WorkerNotRunningError(socket_path) from error
    except PermissionError as error:
        sock.close()
        raise FaceWorkerError(
            StatusCode.PERMISSION_DENIED,
            f"not allowed to connect to {socket_path}: the worker's socket admits only its owner",
        ) from error
    except OSError as error:
        sock.close()
        raise FaceWorkerError(StatusCode.UNAVAILABLE, f"cannot connect to {socket_path}: {error}") from error
    return sock


def read_framed(header: bytes, read_payload: Callable[[int], bytes], sender: str) -> pb.WorkerMessage:
    """The WorkerMessage behind a 5-byte ``header``, its payload read with ``read_payload(length)``;
    a message this client cannot take is a ProtocolError naming ``sender``."""
    flag, length = _HEADER.unpack(header)
    if flag != _UNCOMPRESSED:
        raise ProtocolError(
            f"{sender} sent a message with flag byte 0x{flag:02x}, which this client does not support "
            "(only 0x00, uncompressed)"
        )
    if length > MAX_ANSWER_BYTES:
        raise ProtocolError(
            f"{sender} sent a message of {length} bytes, over this client's limit of {MAX_ANSWER_BYTES} bytes"
        )
    payload = read_payload(length)
    try:
        return pb.WorkerMessage.FromString(payload)
    except DecodeError:
        raise ProtocolError(f"{sender} sent a message of {length} bytes that is not a WorkerMessage") from None


class Connection:
    """A connection to the worker with any number of calls in flight.

    Thread-safe: any thread may submit calls. Answers are delivered on the
    connection's reader thread, which also runs the callbacks attached with
    ``on_done``.
    """

    def __init__(
        self,
        socket_path: Optional[str],
        on_lost: Optional[Callable[["Connection", FaceWorkerError, int], None]] = None,
    ) -> None:
        """Connects to ``socket_path``, or to :func:`default_socket_path` when it is None.

        ``on_lost(connection, error, unanswered_frames)`` runs on the reader
        thread when the connection fails without being closed here, before
        the calls still waiting (``unanswered_frames`` of them frames) fail
        with ``error``: a reconnecting task learns of the outage before any
        caller can make its next call.
        """
        self.socket_path = socket_path_for(socket_path)
        self._on_lost = on_lost
        self._socket = _connect(self.socket_path)
        self._call_ids = itertools.count(1)
        self._pending: Dict[int, Tuple[_Settable, Tuple[str, ...], Optional[EventListener]]] = {}
        # Subscriptions whose Subscribe call was answered and whose end has not come yet.
        self._listeners: Dict[int, EventListener] = {}
        self._lock = threading.Lock()
        self._send_lock = threading.Lock()
        self._failure: Optional[_ErrorFactory] = None
        # Bytes received and not read yet; the reader's alone. Reading whatever has arrived,
        # rather than a header and then its payload, takes one system call per answer.
        self._inbox = bytearray()
        self._chunk = memoryview(bytearray(_RECEIVE_BYTES))
        self._reader = threading.Thread(target=self._read_answers, name="faceworker-reader", daemon=True)
        self._reader.start()

    def submit(
        self,
        message: pb.ClientMessage,
        on_done: Optional[Callable[[Future], None]] = None,
        listener: Optional[EventListener] = None,
    ) -> Future:
        """Sends ``message`` as a new call and returns the future of its answer.

        The future's result is the answering ``WorkerMessage``; an answer that
        carries an error, or a connection that fails first, sets a
        :class:`FaceWorkerError` instead. ``on_done`` runs on the reader thread
        once the answer is in. If the message cannot be sent the error is
        raised here and ``on_done`` never runs. For a Subscribe call,
        ``listener`` hears the events that follow a successful answer; they
        come after ``on_done`` has run.
        """
        future: Future = Future()
        if on_done is not None:
            # Attached before sending so that it always runs on the reader thread.
            future.add_done_callback(on_done)
        self._send(message, future, listener)
        return future

    def call(self, message: pb.ClientMessage) -> pb.WorkerMessage:
        """Sends ``message`` and waits for its answer (see :meth:`submit`)."""
        if self.on_reader_thread():
            # The reader would wait for an answer that only it can read.
            raise RuntimeError(
                "a FaceWorker call that waits for its answer cannot be made from a result "
                "callback; use detect_async there, or hand the work to another thread"
            )
        answer = _Answer()
        self._send(message, answer, None)
        return answer.result()

    def _send(self, message: pb.ClientMessage, future: _Settable, listener: Optional[EventListener]) -> None:
        with self._lock:
            if self._failure is not None:
                raise self._failure()
            call_id = next(self._call_ids)
            self._pending[call_id] = (future, _ANSWERS.get(message.WhichOneof("kind") or "", ()), listener)
        message.call_id = call_id
        payload = message.SerializeToString()
        try:
            with self._send_lock:
                _send_framed(self._socket, payload)
        except OSError as error:
            # The worker closed the connection, perhaps after saying why (a
            # message too large, for one): let the reader read that first.
            if not self.on_reader_thread():
                self._reader.join(timeout=_CLOSING_GRACE_SECONDS)
            with self._lock:
                unanswered = self._pending.pop(call_id, None) is not None
                failure = self._failure or self._lost(error)
            # When the reader already failed the call, the future reports it.
            if unanswered:
                raise failure() from error

    def wait_until_lost(self, timeout: float) -> None:
        """Waits, at most ``timeout`` seconds, until the connection has failed and its calls with it."""
        if not self.on_reader_thread():
            self._reader.join(timeout)

    def on_reader_thread(self) -> bool:
        """Whether the caller runs on this connection's reader thread (in a callback)."""
        return threading.current_thread() is self._reader

    def close(self) -> None:
        """Closes the socket; calls still waiting fail with CANCELLED."""
        with self._lock:
            if self._failure is None:
                self._failure = lambda: FaceWorkerError(StatusCode.CANCELLED, "the connection was closed")
        try:
            self._socket.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass  # already shut down by the worker
        if not self.on_reader_thread():
            self._reader.join()
        self._socket.close()

    def _lost(self, error: Optional[BaseException] = None, cut: str = "") -> _ErrorFactory:
        detail = f": {error}" if error is not None else ""
        path = self.socket_path
        return lambda: ConnectionLostError(f"the worker at {path} closed the connection{cut}{detail}")

    def _read_answers(self) -> None:
        # A connection-level status (call_id 0) says why the worker is about to
        # close the connection; the calls it leaves unanswered fail with it.
        last_status: Optional[pb.Status] = None
        try:
            while True:
                message = self._read_message()
                if message.call_id == 0:
                    if message.WhichOneof("kind") == "error":
                        last_status = message.error
                    continue
                self._answer(message)
        except _StreamEnded as ended:
            status = last_status
            if status is not None:
                failure = lambda: FaceWorkerError.from_status(status)  # noqa: E731
            else:
                failure = self._lost(cut=ended.cut)
        except ProtocolError as error:
            failure = _raising(error)
        except OSError as error:
            failure = self._lost(error)
        except Exception as error:  # a fault of this client: the calls must still end, and say so
            failure = _internal(error)
        self._fail_pending(failure)

    def _read_message(self) -> pb.WorkerMessage:
        return read_framed(
            self._read_exactly(_HEADER.size, 0, None),
            lambda length: self._read_exactly(length, _HEADER.size, _HEADER.size + length),
            "the worker",
        )

    def _answer(self, message: pb.WorkerMessage) -> None:
        kind = message.WhichOneof("kind")
        with self._lock:
            call = self._pending.pop(message.call_id, None)
            listener = self._listeners.get(message.call_id) if call is None and kind == "session_event" else None
        if listener is not None:
            if message.session_event.WhichOneof("event") == "session_ended":
                with self._lock:
                    del self._listeners[message.call_id]
            listener.on_event(message.session_event)
            return
        if call is None:
            raise ProtocolError(
                f"the worker answered call {message.call_id} with {kind or 'a message of no kind'}, "
                "but this client is not waiting for that call"
            )
        future, expected, listener = call
        if kind == "error":
            future.set_exception(FaceWorkerError.from_status(message.error))
        elif kind in expected:
            if listener is not None:
                with self._lock:
                    self._listeners[message.call_id] = listener
            future.set_result(message)
        else:
            error = ProtocolError(
                f"the worker answered call {message.call_id} with {kind or 'a message of no kind'} "
                f"where {' or '.join(expected + ('error',))} was due"
            )
            future.set_exception(error)
            raise error

    def _fail_pending(self, failure: _ErrorFactory) -> None:
        with self._lock:
            lost = self._failure is None
            if lost:
                self._failure = failure
            pending, self._pending = self._pending, {}
            listeners, self._listeners = self._listeners, {}
            failure = self._failure
        if lost and self._on_lost is not None:
            frames = sum(1 for _, expected, _ in pending.values() if expected == _ANSWERS["process_frame"])
            self._on_lost(self, failure(), frames)
        for future, _, _ in pending.values():
            future.set_exception(failure())
        for listener in listeners.values():
            listener.on_lost(failure())

    def _read_exactly(self, count: int, before: int, message_bytes: Optional[int]) -> bytes:
        """``count`` bytes; ``before`` bytes of the message came before them.

        Raises _StreamEnded when the stream ends first, saying where a
        message (of ``message_bytes`` bytes, None while its header is read)
        was cut.
        """
        inbox = self._inbox
        while len(inbox) < count:
            got = self._socket.recv_into(self._chunk)
            if got == 0:
                raise _StreamEnded(_cut_at(before + len(inbox), message_bytes))
            inbox += self._chunk[:got]
        with memoryview(inbox) as received:
            data = bytes(received[:count])
        del inbox[:count]
        return data


def _send_framed(sock: socket.socket, payload: bytes) -> None:
    """Sends ``payload`` behind its header, without first joining the two:
    the join copied the whole message, a frame's JPEG and all, once more."""
    header = _HEADER.pack(_UNCOMPRESSED, len(payload))
    sent = sock.sendmsg((header, payload))
    if sent < len(header) + len(payload):
        # A blocking send stops short only when a signal interrupts it.
        with memoryview(header + payload) as rest:
            sock.sendall(rest[sent:])


class _Settable(Protocol):
    """Where the reader puts a call's answer: a Future, or a waiting call's :class:`_Answer`."""

    def set_result(self, result: pb.WorkerMessage) -> None: ...

    def set_exception(self, exception: BaseException) -> None: ...


class _Answer:
    """The answer a waiting call blocks on, set once by the reader thread.

    A Future would do, but its condition, lock and callbacks cost a waiting
    call time at the moment it wakes, when nothing of the client is in the
    caches; one lock, released when the answer is in, is all the call needs.
    """

    __slots__ = ("_in", "_result", "_exception")

    def __init__(self) -> None:
        self._in = threading.Lock()
        self._in.acquire()
        self._result: Optional[pb.WorkerMessage] = None
        self._exception: Optional[BaseException] = None

    def set_result(self, result: pb.WorkerMessage) -> None:
        self._result = result
        self._in.release()

    def set_exception(self, exception: BaseException) -> None:
        self._exception = exception
        self._in.release()

    def result(self) -> pb.WorkerMessage:
        """Waits for the answer; raises the call's error instead, if it failed."""
        self._in.acquire()
        if self._exception is not None:
            raise self._exception
        assert self._result is not None
        return self._result


class _StreamEnded(Exception):
    """The worker closed the connection; ``cut`` says where in a message, if inside one."""

    def __init__(self, cut: str) -> None:
        super().__init__(cut)
        self.cut = cut


def _cut_at(received: int, message_bytes: Optional[int]) -> str:
    if received == 0:
        return ""
    if message_bytes is None:
        return f" inside a message header ({received} of {_HEADER.size} bytes received)"
    return f" inside a message ({received} of {message_bytes} bytes received)"


def _raising(error: ProtocolError) -> _ErrorFactory:
    """A factory of copies of ``error``, one for each call it fails."""
    return lambda: ProtocolError(error.message)


def _internal(error: Exception) -> _ErrorFactory:
    return lambda: FaceWorkerError(StatusCode.INTERNAL, f"the client failed while reading the worker's answers: {error!r}")
