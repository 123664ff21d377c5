"""Fixtures: a real face-worker serving both doors, gRPC stubs generated for this run, and both clients.

The worker binary is built by the repository (`swift build --product face-worker`); the fixture
starts it with --socket (the lean socket) and --grpc-socket in a temporary directory and stops
it with SIGTERM. The gRPC side is driven by grpcio through stubs that grpcio-tools generates
from proto/faceworker/v1 when this file is loaded, before any test module is (so that they can
import faceworker.v1.*), into a temporary folder removed at exit; the lean side by the
repository's Python client, so each test can send the same thing through both doors and compare
what comes back.
"""

from __future__ import annotations

import atexit
import shutil
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, List

import grpc
import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))  # for tools.shared.grpc_stubs, which the benchmark and the soak use too
# The client's test suite starts its workers the same way.
sys.path.insert(0, str(REPO / "clients" / "python" / "tests"))

from tools.shared.grpc_stubs import generate  # noqa: E402

import faceworker  # noqa: E402
from faceworker._connection import Connection  # noqa: E402
from worker_process import answers_ping, launch, stop  # noqa: E402

FIXTURES = REPO / "Tests" / "Fixtures"
_STUBS_DIR = Path(tempfile.mkdtemp(prefix="faceworker-grpc-stubs-"))
atexit.register(shutil.rmtree, _STUBS_DIR, ignore_errors=True)
STUBS = generate(_STUBS_DIR)
CALL_SECONDS = 120
"""Every gRPC call of the tests has this deadline, so a worker that never answers fails a test
with DEADLINE_EXCEEDED instead of hanging the suite (a debug build runs the landmark models in
tens of milliseconds a frame)."""
SETTLE_SECONDS = 10
"""How long a worker may take to close a session after its call has ended."""


@dataclass
class RunningWorker:
    """A face-worker process started for the tests, with both of its sockets."""

    socket_path: str
    grpc_path: str
    process: subprocess.Popen
    log_path: Path

    @property
    def grpc_target(self) -> str:
        """The address grpcio connects to."""
        return "unix:" + self.grpc_path

    def log(self) -> str:
        """What the worker has written so far."""
        return self.log_path.read_text(errors="replace")

    def sessions_become(self, count: int) -> None:
        """Waits until the worker has ``count`` sessions open; fails the test if it never does."""
        deadline = time.monotonic() + SETTLE_SECONDS
        while (sessions := faceworker.get_stats(self.socket_path).sessions) != count:
            assert time.monotonic() < deadline, f"the worker still has {sessions} sessions, not {count}"
            time.sleep(0.02)


def _grpc_answers(target: str) -> bool:
    with grpc.insecure_channel(target) as channel:
        try:
            grpc.channel_ready_future(channel).result(timeout=0.2)
            return True
        except grpc.FutureTimeoutError:
            return False


@contextmanager
def running_worker(directory: Path, *options: str) -> Iterator[RunningWorker]:
    """A worker listening in ``directory`` for the ``with`` block, both doors answering, stopped as
    an operator would stop it (SIGTERM, then a wait) when the block ends, also when it fails.

    ``options`` are more command-line options, such as limits.
    """
    socket_path = str(directory / "faceworker.sock")
    grpc_path = str(directory / "faceworker-grpc.sock")
    log_path = directory / "worker.log"

    def answers() -> bool:
        return answers_ping(socket_path) and Path(grpc_path).exists() and _grpc_answers("unix:" + grpc_path)

    process = launch(["--socket", socket_path, "--grpc-socket", grpc_path, *options], log_path, answers, "on both sockets")
    try:
        yield RunningWorker(socket_path, grpc_path, process, log_path)
    finally:
        stop(process)


@pytest.fixture(scope="session")
def worker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningWorker]:
    """The worker most tests share."""
    with running_worker(tmp_path_factory.mktemp("worker")) as running:
        yield running


@contextmanager
def stub_of(worker: RunningWorker) -> Iterator:
    """A FaceWorkerStub on a channel of its own to ``worker``, closed at the end of the block."""
    with grpc.insecure_channel(worker.grpc_target) as channel:
        yield STUBS.service_grpc.FaceWorkerStub(channel)


@pytest.fixture
def stub(worker: RunningWorker) -> Iterator:
    """A FaceWorkerStub on a fresh channel to the shared worker's gRPC socket."""
    with stub_of(worker) as stub:
        yield stub


@pytest.fixture
def lean(worker: RunningWorker) -> Iterator[Connection]:
    """A connection of the lean socket's Python client to the shared worker."""
    connection = Connection(worker.socket_path)
    yield connection
    connection.close()


def fixture_bytes(name: str) -> bytes:
    """The bytes of a committed fixture photograph."""
    return (FIXTURES / name).read_bytes()


def video_frames() -> List[bytes]:
    """The synthetic video's JPEG frames, in order."""
    return [path.read_bytes() for path in sorted((FIXTURES / "video").glob("frame_*.jpg"))]
