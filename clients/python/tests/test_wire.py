"""The wire against a scripted fake worker: every fault of the byte stream comes back as what it is, in words.

The fake listens on a socket of its own, accepts one connection in a thread,
reads the client's first message, writes whatever bytes the test needs,
well-formed or not, and hangs up: a client that waited for more would fail
its test rather than hang it. These tests need no face-worker.
"""

from __future__ import annotations

import socket
import struct
import threading
from pathlib import Path
from typing import Callable, Iterator, List

import pytest

import faceworker as mp
from faceworker import StatusCode
from faceworker._proto import faceworker_pb2 as pb

HEADER = struct.Struct(">BI")

# Given the client's first message, the bytes to answer it with.
Answer = Callable[[pb.ClientMessage], bytes]


def framed(message: pb.WorkerMessage, flag: int = 0) -> bytes:
    payload = message.SerializeToString()
    return HEADER.pack(flag, len(payload)) + payload


def status(call_id: int, code: int, text: str) -> pb.WorkerMessage:
    return pb.WorkerMessage(call_id=call_id, error=pb.Status(code=code, message=text))


class FakeWorker:
    """A worker that answers the first message with the script's bytes, then hangs up."""

    def __init__(self, path: str, answer: Answer, chunk: int = 0) -> None:
        self.path = path
        self._answer = answer
        self._chunk = chunk
        self._listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._listener.bind(path)
        self._listener.listen(1)
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        connection, _ = self._listener.accept()
        with connection:
            message = self._read(connection)
            if message is not None:
                answer = self._answer(message)
                step = self._chunk or max(1, len(answer))
                for start in range(0, len(answer), step):
                    connection.sendall(answer[start : start + step])

    @staticmethod
    def _read(connection: socket.socket) -> "pb.ClientMessage | None":
        header = connection.recv(HEADER.size, socket.MSG_WAITALL)
        if len(header) < HEADER.size:
            return None
        _, length = HEADER.unpack(header)
        payload = connection.recv(length, socket.MSG_WAITALL) if length else b""
        return pb.ClientMessage.FromString(payload)

    def stop(self) -> None:
        self._thread.join(timeout=30)
        self._listener.close()


@pytest.fixture
def fake(tmp_path: Path) -> Iterator[Callable[..., FakeWorker]]:
    """Starts a fake worker: ``fake(answer)``, or ``fake(answer, chunk=n)`` to write the answer ``n`` bytes at a time."""
    started: List[FakeWorker] = []

    def start(answer: Answer, chunk: int = 0) -> FakeWorker:
        worker = FakeWorker(str(tmp_path / f"fake{len(started)}.sock"), answer, chunk)
        started.append(worker)
        return worker

    yield start
    for worker in started:
        worker.stop()


def ping_error(worker: FakeWorker) -> mp.FaceWorkerError:
    with pytest.raises(mp.FaceWorkerError) as raised:
        mp.ping(worker.path, b"x")
    return raised.value


def test_a_bad_flag_byte_is_a_protocol_error_that_names_the_byte(fake):
    worker = fake(lambda m: framed(pb.WorkerMessage(call_id=m.call_id, ping=pb.PingResponse(payload=b"x")), flag=1))

    error = ping_error(worker)

    assert isinstance(error, mp.ProtocolError)
    assert error.code == StatusCode.DATA_LOSS
    assert "flag byte 0x01" in error.message and "does not support" in error.message


def test_an_answer_over_the_cap_is_refused_from_its_header(fake):
    worker = fake(lambda m: HEADER.pack(0, mp.MAX_ANSWER_BYTES + 1))

    error = ping_error(worker)

    assert isinstance(error, mp.ProtocolError)
    assert error.code == StatusCode.DATA_LOSS
    assert str(mp.MAX_ANSWER_BYTES + 1) in error.message and str(mp.MAX_ANSWER_BYTES) in error.message


def test_an_answer_of_exactly_the_cap_is_accepted(fake):
    def answer(message: pb.ClientMessage) -> bytes:
        reply = status(message.call_id, StatusCode.ABORTED, "")
        reply.error.message = "x" * (mp.MAX_ANSWER_BYTES - reply.ByteSize())
        # The message's length prefix grows by a few bytes with it.
        reply.error.message = "x" * (len(reply.error.message) - (reply.ByteSize() - mp.MAX_ANSWER_BYTES))
        assert reply.ByteSize() == mp.MAX_ANSWER_BYTES
        return framed(reply)

    error = ping_error(fake(answer))

    assert error.code == StatusCode.ABORTED
    assert len(error.message) > mp.MAX_ANSWER_BYTES - 16


def test_bytes_that_are_no_worker_message_are_a_protocol_error(fake):
    worker = fake(lambda m: HEADER.pack(0, 3) + b"\xff\xff\xff")

    error = ping_error(worker)

    assert isinstance(error, mp.ProtocolError)
    assert "3 bytes that is not a WorkerMessage" in error.message


def test_an_answer_to_no_call_is_a_protocol_error(fake):
    worker = fake(lambda m: framed(pb.WorkerMessage(call_id=m.call_id + 1000, ping=pb.PingResponse())))

    error = ping_error(worker)

    assert isinstance(error, mp.ProtocolError)
    assert "not waiting for" in error.message


def test_an_answer_of_the_wrong_kind_is_a_protocol_error_that_names_both(fake):
    worker = fake(lambda m: framed(pb.WorkerMessage(call_id=m.call_id, get_stats=pb.GetStatsResponse())))

    error = ping_error(worker)

    assert isinstance(error, mp.ProtocolError)
    assert "get_stats" in error.message and "ping" in error.message


@pytest.mark.parametrize("chunk", [0, 1, 3, 7])
def test_messages_are_read_whole_however_the_bytes_arrive(fake, chunk):
    # A connection-level status the client keeps, then the answer, written together or in
    # pieces that cut headers and payloads anywhere: the client reads each message whole.
    def answer(message: pb.ClientMessage) -> bytes:
        kept = framed(status(0, StatusCode.UNAVAILABLE, "going away"))
        return kept + framed(pb.WorkerMessage(call_id=message.call_id, ping=pb.PingResponse(payload=b"x" * 300)))

    worker = fake(answer, chunk=chunk)

    mp.ping(worker.path, b"x" * 300)  # raises unless the echo came back whole


def test_a_stream_cut_inside_a_message_says_where(fake):
    worker = fake(lambda m: HEADER.pack(0, 100) + b"\x00" * 10)

    error = ping_error(worker)

    assert error.code == StatusCode.UNAVAILABLE
    assert "closed the connection inside a message (15 of 105 bytes received)" in error.message


def test_a_status_without_a_message_still_says_what_came(fake):
    worker = fake(lambda m: framed(status(m.call_id, StatusCode.INTERNAL, "")))

    error = ping_error(worker)

    assert error.code == StatusCode.INTERNAL
    assert "INTERNAL without a message" in error.message


def test_a_status_code_from_the_future_is_unknown_with_its_number(fake):
    worker = fake(lambda m: framed(status(m.call_id, 42, "a code from the future")))

    error = ping_error(worker)

    assert error.code == StatusCode.UNKNOWN
    assert "42" in error.message and "a code from the future" in error.message


def test_a_worker_limit_keeps_its_code_and_words(fake):
    words = "the connection already has 8 sessions, the most allowed"
    worker = fake(lambda m: framed(status(m.call_id, StatusCode.RESOURCE_EXHAUSTED, words)))

    error = ping_error(worker)

    assert error.code == StatusCode.RESOURCE_EXHAUSTED
    assert error.message == words


def test_a_ping_echo_that_differs_is_a_protocol_error(fake):
    worker = fake(lambda m: framed(pb.WorkerMessage(call_id=m.call_id, ping=pb.PingResponse(payload=b"y"))))

    error = ping_error(worker)

    assert isinstance(error, mp.ProtocolError)
    assert "differ" in error.message
