"""Exceptions raised by the FaceWorker client.

Every error the worker reports arrives as a :class:`FaceWorkerError` that
carries the worker's status code (gRPC's codes, with gRPC's numbers) and its
message. The client raises the same class, with a fitting code, when the
connection itself fails, so one ``except FaceWorkerError`` covers both.
"""

from __future__ import annotations

import enum
from typing import Optional

from ._proto import faceworker_pb2 as pb
from .results import DropReason


class StatusCode(enum.IntEnum):
    """gRPC's status codes, with gRPC's numbers, as the worker reports them."""

    OK = 0
    CANCELLED = 1
    UNKNOWN = 2
    INVALID_ARGUMENT = 3
    DEADLINE_EXCEEDED = 4
    NOT_FOUND = 5
    ALREADY_EXISTS = 6
    PERMISSION_DENIED = 7
    RESOURCE_EXHAUSTED = 8
    FAILED_PRECONDITION = 9
    ABORTED = 10
    OUT_OF_RANGE = 11
    UNIMPLEMENTED = 12
    INTERNAL = 13
    UNAVAILABLE = 14
    DATA_LOSS = 15
    UNAUTHENTICATED = 16


class FaceWorkerError(Exception):
    """A call failed: the worker refused it, or the connection failed.

    Attributes:
        code: The status code; ``code.name`` is its name (``"INVALID_ARGUMENT"``)
            and ``int(code)`` its gRPC number.
        message: What went wrong, for people; its wording may change.
        session_id: The worker's session the call was about, when known.
        timestamp_ms: The frame's timestamp, when the failed call was a frame.
    """

    def __init__(
        self,
        code: StatusCode,
        message: str,
        session_id: Optional[int] = None,
        timestamp_ms: Optional[int] = None,
    ) -> None:
        super().__init__(f"{code.name} ({int(code)}): {message}")
        self.code = code
        self.message = message
        self.session_id = session_id
        self.timestamp_ms = timestamp_ms

    @classmethod
    def from_status(cls, status: pb.Status) -> "FaceWorkerError":
        """The error a worker's ``Status`` message describes."""
        session_id = status.session_id if status.HasField("session_id") else None
        timestamp_ms = status.timestamp_ms if status.HasField("timestamp_ms") else None
        try:
            code = StatusCode(status.code)
        except ValueError:
            # A code added after this client was written: gRPC's UNKNOWN, with its number kept.
            return cls(
                StatusCode.UNKNOWN,
                f"the worker sent status code {status.code}, which this client does not know: "
                f"{status.message or 'no message'}",
                session_id,
                timestamp_ms,
            )
        message = status.message or f"the worker answered {code.name} without a message"
        if code == StatusCode.UNAVAILABLE and cls is FaceWorkerError:
            # The worker answers UNAVAILABLE only while it shuts down.
            return WorkerStoppingError(message, session_id, timestamp_ms)
        return cls(code, message, session_id, timestamp_ms)


class ProtocolError(FaceWorkerError):
    """The worker broke the wire protocol, and the connection is no longer usable.

    A flag byte other than 0, a message longer than the client's limit,
    bytes that are no ``WorkerMessage``, an answer to no call or of the wrong
    kind. The code is DATA_LOSS: what arrives on the connection can no longer
    be trusted. (The C client reports the same faults, worded alike, as
    FW_ERR_PROTOCOL.) Every later call on the connection fails with it.
    """

    def __init__(self, message: str) -> None:
        super().__init__(StatusCode.DATA_LOSS, message)


class WorkerNotRunningError(FaceWorkerError):
    """Nothing listens on the worker's socket: the worker has to be started first."""

    def __init__(self, socket_path: str) -> None:
        super().__init__(
            StatusCode.UNAVAILABLE,
            f"no FaceWorker is listening on {socket_path}. Start it with `make run` in the "
            f"FaceWorker repository, or run `face-worker --socket {socket_path} --models DIR` "
            "(DIR holds the four .tflite models that `make models` fetches).",
        )
        self.socket_path = socket_path


class WorkerStoppingError(FaceWorkerError):
    """The worker refused the call because it is shutting down (to restart, perhaps).

    Said by the worker itself, before it closes the connection: it answers
    every frame it has already read, and refuses what comes after with this.
    Its code is UNAVAILABLE, as is :class:`ConnectionLostError`'s, so code
    that only checks the code treats both alike.
    """

    def __init__(self, message: str, session_id: Optional[int] = None, timestamp_ms: Optional[int] = None) -> None:
        super().__init__(StatusCode.UNAVAILABLE, message, session_id, timestamp_ms)


class ConnectionLostError(FaceWorkerError):
    """The connection to the worker was cut, with no word from the worker.

    The worker stopped, was killed or restarted, or closed the connection
    after a fault of the client's. Its code is UNAVAILABLE.
    """

    def __init__(self, message: str) -> None:
        super().__init__(StatusCode.UNAVAILABLE, message)


class FrameDroppedError(Exception):
    """The worker accepted a frame but never processed it.

    Raised by ``detect`` and ``detect_for_video`` when the session was closed
    or reset (by another thread) while the frame waited.

    Attributes:
        reason: Why the frame was dropped.
        timestamp_ms: The dropped frame's timestamp.
    """

    def __init__(self, reason: DropReason, timestamp_ms: int) -> None:
        super().__init__(f"frame {timestamp_ms} ms was dropped: {reason.name}")
        self.reason = reason
        self.timestamp_ms = timestamp_ms
