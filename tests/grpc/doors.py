"""One session through either door, its answers put in one shape so that the two can be compared.

A SessionStream is a gRPC Session call driven by grpcio: requests go in through a queue that
grpcio's sending thread reads, answers come out in the order the worker sends them. A
LeanSession is a session of the lean socket's Python client on its own connection. Both turn
each answer to a frame into an Outcome.
"""

from __future__ import annotations

import queue
import re
from concurrent.futures import Future
from dataclasses import dataclass
from typing import List, Optional

import grpc
import pytest

from faceworker import FaceWorkerError
from faceworker._connection import Connection
from faceworker.v1 import faceworker_pb2 as pb
from faceworker.v1 import faceworker_service_pb2 as service

from conftest import CALL_SECONDS

_END = object()


@dataclass
class Outcome:
    """What one frame got: a result, a drop notice or an error, with the session's id taken out
    of the error's words (each door has its own session)."""

    kind: str
    """"result", "dropped" or "error"."""
    timestamp_ms: int
    result: Optional[pb.FrameResult] = None
    reason: int = 0
    code: int = 0
    message: str = ""

    @staticmethod
    def of_result(result: pb.FrameResult) -> "Outcome":
        return Outcome("result", result.timestamp_ms, result=result)

    @staticmethod
    def of_dropped(dropped: pb.FrameDropped) -> "Outcome":
        return Outcome("dropped", dropped.timestamp_ms, reason=dropped.reason)

    @staticmethod
    def of_error(code: int, message: str, timestamp_ms: int, session_id: int) -> "Outcome":
        return Outcome("error", timestamp_ms, code=code, message=without_session(message, session_id))


def without_session(message: str, session_id: int) -> str:
    """The message with "session <id>" written as "session <session>"."""
    return re.sub(rf"\bsession {session_id}\b", "session <session>", message)


def grpc_code(error: grpc.RpcError) -> int:
    """The gRPC status code's number, as faceworker.proto's Status.Code numbers it."""
    return error.code().value[0]


class SessionStream:
    """One Session call. Use it in a `with` block: leaving it cancels a call still running."""

    def __init__(self, stub, timeout: float = CALL_SECONDS) -> None:
        self._requests: "queue.Queue" = queue.Queue()
        self.call = stub.Session(iter(self._requests.get, _END), timeout=timeout)
        self.session_id = 0

    def __enter__(self) -> "SessionStream":
        return self

    def __exit__(self, *exc) -> None:
        self.call.cancel()
        # Lets grpcio's sending thread, waiting on the queue, end.
        self._requests.put(_END)

    def send(self, **kind) -> None:
        """Sends one SessionRequest with the given kind (open=, frame=, reset=)."""
        self._requests.put(service.SessionRequest(**kind))

    def open(self, options: Optional[pb.SessionOptions] = None, name: Optional[str] = None) -> pb.OpenSessionResponse:
        """Opens the stream's session; a refused open raises the call's grpc.RpcError."""
        request = pb.OpenSessionRequest(options=options or pb.SessionOptions())
        if name is not None:
            request.name = name
        self.send(open=request)
        answer = self.next()
        assert answer.WhichOneof("kind") == "opened", f"the first answer is not `opened`: {answer}"
        self.session_id = answer.opened.session_id
        return answer.opened

    def next(self) -> service.SessionResponse:
        """The next answer; raises StopIteration when the call ended with OK, the call's
        grpc.RpcError when it ended otherwise."""
        return next(self.call)

    def outcome(self) -> Outcome:
        """The next answer, which must answer a frame."""
        answer = self.next()
        kind = answer.WhichOneof("kind")
        if kind == "result":
            return Outcome.of_result(answer.result)
        if kind == "dropped":
            return Outcome.of_dropped(answer.dropped)
        assert kind == "error", f"a frame answered with {kind}: {answer}"
        error = answer.error
        assert error.session_id == self.session_id, f"the error names session {error.session_id}: {error}"
        return Outcome.of_error(error.code, error.message, error.timestamp_ms, self.session_id)

    def process(self, frame: pb.Frame) -> Outcome:
        """Sends a frame and waits for its answer."""
        self.send(frame=frame)
        return self.outcome()

    def half_close(self) -> None:
        """Ends the client's side of the stream: no more requests."""
        self._requests.put(_END)

    def rest(self) -> List[service.SessionResponse]:
        """Every answer still to come, until the call ends (grpc.RpcError unless it ends with OK)."""
        return list(self.call)


class LeanSession:
    """A session of the lean socket's Python client, on a connection of its own."""

    def __init__(self, socket_path: str, options: Optional[pb.SessionOptions] = None,
                 name: Optional[str] = None) -> None:
        """Opens the session; a refused open raises the client's FaceWorkerError."""
        self.connection = Connection(socket_path)
        request = pb.OpenSessionRequest(options=options or pb.SessionOptions())
        if name is not None:
            request.name = name
        try:
            answer = self.connection.call(pb.ClientMessage(open_session=request))
        except FaceWorkerError:
            self.connection.close()
            raise
        self.opened = answer.open_session
        self.session_id = self.opened.session_id

    def __enter__(self) -> "LeanSession":
        return self

    def __exit__(self, *exc) -> None:
        self.connection.close()

    def submit(self, frame: pb.Frame) -> Future:
        """Sends a frame without waiting; the future's result is the answering WorkerMessage."""
        return self.connection.submit(pb.ClientMessage(
            process_frame=pb.ProcessFrameRequest(session_id=self.session_id, frame=frame)))

    def outcome(self, answer: Future) -> Outcome:
        """The outcome of a submitted frame, once answered."""
        try:
            message = answer.result(timeout=CALL_SECONDS)
        except FaceWorkerError as error:
            assert error.session_id == self.session_id, f"the error names session {error.session_id}: {error}"
            return Outcome.of_error(int(error.code), error.message, error.timestamp_ms, self.session_id)
        if message.HasField("frame_dropped"):
            return Outcome.of_dropped(message.frame_dropped)
        return Outcome.of_result(message.frame_result)

    def process(self, frame: pb.Frame) -> Outcome:
        """Sends a frame and waits for its answer."""
        return self.outcome(self.submit(frame))

    def close(self) -> None:
        """Closes the session (its connection stays open)."""
        self.connection.call(pb.ClientMessage(close_session=pb.CloseSessionRequest(session_id=self.session_id)))


def refused_open(stub, worker, options: pb.SessionOptions, name: Optional[str] = None):
    """Opens a session with the same request through both doors; both must be refused alike.
    Returns the code and message."""
    with pytest.raises(grpc.RpcError) as through_grpc:
        with SessionStream(stub) as stream:
            stream.open(options, name)
    with pytest.raises(FaceWorkerError) as through_lean:
        LeanSession(worker.socket_path, options, name)
    refusal = (grpc_code(through_grpc.value), through_grpc.value.details())
    assert refusal == (int(through_lean.value.code), through_lean.value.message)
    return refusal
