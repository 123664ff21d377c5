"""One Unix-socket connection to the worker, shared by every call of a task.

Messages are framed as gRPC length-prefixed messages: a flag byte (0,
uncompressed), the payload length as a 4-byte big-endian integer, then the
serialized protobuf. Each call gets a fresh ``call_id``; a reader thread
matches the worker's answers to their calls by that id, so many calls can be
in flight at once and answers may arrive in any order.
"""

from __future__ import annotations

import itertools
import os
import socket
import struct
import threading
from concurrent.futures import Future
from typing import Callable, Dict, Optional

from google.protobuf.message import DecodeError

from ._proto import faceworker_pb2 as pb
from .errors import FaceWorkerError, StatusCode, WorkerNotRunningError

_HEADER = struct.Struct(">BI")
# How long a failed send waits for the reader to learn why the worker closed.
_CLOSING_GRACE_SECONDS = 5.0

# Builds a fresh exception for each failed call, so that no two threads raise
# (and append tracebacks to) the same exception object.
_ErrorFactory = Callable[[], FaceWorkerError]


def default_socket_path() -> str:
    """The socket a worker started without ``--socket`` listens on.

    ``$XDG_RUNTIME_DIR/faceworker.sock`` when that variable holds an absolute
    path, else ``/tmp/faceworker-<uid>.sock`` (the worker's own rule).
    """
    runtime = os.environ.get("XDG_RUNTIME_DIR", "")
    if runtime.startswith("/"):
        return os.path.join(runtime, "faceworker.sock")
    return f"/tmp/faceworker-{os.geteuid()}.sock"


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


class Connection:
    """A connection to the worker with any number of calls in flight.

    Thread-safe: any thread may submit calls. Answers are delivered on the
    connection's reader thread, which also runs the callbacks attached with
    ``on_done``.
    """

    def __init__(self, socket_path: str) -> None:
        self.socket_path = socket_path
        self._socket = _connect(socket_path)
        self._call_ids = itertools.count(1)
        self._pending: Dict[int, Future] = {}
        self._lock = threading.Lock()
        self._send_lock = threading.Lock()
        self._failure: Optional[_ErrorFactory] = None
        self._reader = threading.Thread(target=self._read_answers, name="faceworker-reader", daemon=True)
        self._reader.start()

    def submit(
        self, message: pb.ClientMessage, on_done: Optional[Callable[[Future], None]] = None
    ) -> Future:
        """Sends ``message`` as a new call and returns the future of its answer.

        The future's result is the answering ``WorkerMessage``; an answer that
        carries an error, or a connection that fails first, sets a
        :class:`FaceWorkerError` instead. ``on_done`` runs on the reader thread
        once the answer is in. If the message cannot be sent the error is
        raised here and ``on_done`` never runs.
        """
        future: Future = Future()
        if on_done is not None:
            # Attached before sending so that it always runs on the reader thread.
            future.add_done_callback(on_done)
        with self._lock:
            if self._failure is not None:
                raise self._failure()
            call_id = next(self._call_ids)
            self._pending[call_id] = future
        message.call_id = call_id
        payload = message.SerializeToString()
        try:
            with self._send_lock:
                self._socket.sendall(_HEADER.pack(0, len(payload)) + payload)
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
        return future

    def call(self, message: pb.ClientMessage) -> pb.WorkerMessage:
        """Sends ``message`` and waits for its answer (see :meth:`submit`)."""
        if self.on_reader_thread():
            # The reader would wait for an answer that only it can read.
            raise RuntimeError(
                "a FaceWorker call that waits for its answer cannot be made from a result "
                "callback; use detect_async there, or hand the work to another thread"
            )
        return self.submit(message).result()

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

    def _lost(self, error: Optional[BaseException] = None) -> _ErrorFactory:
        detail = f": {error}" if error is not None else ""
        path = self.socket_path
        return lambda: FaceWorkerError(StatusCode.UNAVAILABLE, f"the worker at {path} closed the connection{detail}")

    def _read_answers(self) -> None:
        # A connection-level status (call_id 0) says why the worker is about to
        # close the connection; the calls it leaves unanswered fail with it.
        last_status: Optional[pb.Status] = None
        failure: Optional[_ErrorFactory] = None
        try:
            while True:
                header = self._read_exactly(_HEADER.size)
                if header is None:
                    break
                flag, length = _HEADER.unpack(header)
                payload = self._read_exactly(length)
                if flag != 0 or payload is None:
                    failure = self._lost()
                    break
                message = pb.WorkerMessage.FromString(payload)
                if message.call_id == 0:
                    if message.WhichOneof("kind") == "error":
                        last_status = message.error
                    continue
                with self._lock:
                    future = self._pending.pop(message.call_id, None)
                if future is not None:
                    _resolve(future, message)
        except DecodeError:
            failure = lambda: FaceWorkerError(StatusCode.INTERNAL, "the worker sent a message that is not a WorkerMessage")
        except OSError as error:
            failure = self._lost(error)
        if failure is None:
            status = last_status
            failure = (lambda: FaceWorkerError.from_status(status)) if status is not None else self._lost()
        self._fail_pending(failure)

    def _fail_pending(self, failure: _ErrorFactory) -> None:
        with self._lock:
            if self._failure is None:
                self._failure = failure
            pending, self._pending = self._pending, {}
            failure = self._failure
        for future in pending.values():
            future.set_exception(failure())

    def _read_exactly(self, count: int) -> Optional[bytes]:
        buffer = bytearray(count)
        view = memoryview(buffer)
        received = 0
        while received < count:
            got = self._socket.recv_into(view[received:])
            if got == 0:
                return None
            received += got
        return bytes(buffer)


def _resolve(future: Future, message: pb.WorkerMessage) -> None:
    if message.WhichOneof("kind") == "error":
        future.set_exception(FaceWorkerError.from_status(message.error))
    else:
        future.set_result(message)
