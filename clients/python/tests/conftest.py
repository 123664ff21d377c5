"""Fixtures: a real face-worker process, and the repository's face photographs.

The worker binary is built by the repository (`swift build --product
face-worker`); the fixture only starts it, on a socket in a temporary
directory, and stops it with SIGTERM at the end of the session.
"""

from __future__ import annotations

import json
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, List

import pytest

import faceworker
from faceworker import BaseOptions

REPO = Path(__file__).resolve().parents[3]
FIXTURES = REPO / "Tests" / "FaceDetectionTests" / "Fixtures"
MODELS = REPO / "models"
MODEL_FILES = [
    "face_detection_short_range.tflite",
    "face_detection_full_range_sparse.tflite",
    "face_landmark.tflite",
    "face_landmark_with_attention.tflite",
]
STARTUP_SECONDS = 60


@dataclass
class RunningWorker:
    """A face-worker process started for the tests."""

    socket_path: str
    process: subprocess.Popen
    log_path: Path

    @property
    def base_options(self) -> BaseOptions:
        """BaseOptions that reach this worker."""
        return BaseOptions(socket_path=self.socket_path)

    def log(self) -> str:
        """What the worker has written so far."""
        return self.log_path.read_text(errors="replace")


def worker_binary() -> Path:
    """The built face-worker executable, debug build first."""
    for configuration in ("debug", "release"):
        candidate = REPO / ".build" / configuration / "face-worker"
        if candidate.is_file():
            return candidate
    pytest.fail(
        "no face-worker binary in .build/debug or .build/release: run `swift build --product face-worker` "
        "at the repository root first",
        pytrace=False,
    )


def start_worker(directory: Path, *options: str) -> RunningWorker:
    """Starts a worker listening in ``directory`` and waits until it answers a ping.

    ``options`` are more command-line options, such as limits.
    """
    missing = [name for name in MODEL_FILES if not (MODELS / name).is_file()]
    if missing:
        pytest.fail(f"models missing from {MODELS.name}/: {', '.join(missing)}; run `make models`", pytrace=False)
    socket_path = str(directory / "faceworker.sock")
    log_path = directory / "worker.log"
    with open(log_path, "wb") as log:
        process = subprocess.Popen(
            [str(worker_binary()), "--socket", socket_path, "--models", str(MODELS), *options],
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    worker = RunningWorker(socket_path, process, log_path)
    deadline = time.monotonic() + STARTUP_SECONDS
    while True:
        if process.poll() is not None:
            pytest.fail(f"face-worker exited with status {process.returncode}:\n{worker.log()}", pytrace=False)
        try:
            faceworker.ping(socket_path)
            return worker
        except faceworker.WorkerNotRunningError:
            if time.monotonic() > deadline:
                stop_worker(worker)
                pytest.fail(f"face-worker did not answer within {STARTUP_SECONDS} s:\n{worker.log()}", pytrace=False)
            time.sleep(0.05)


def stop_worker(worker: RunningWorker) -> None:
    """Stops the worker as an operator would: SIGTERM, then waits for it."""
    if worker.process.poll() is None:
        worker.process.send_signal(signal.SIGTERM)
        try:
            worker.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            worker.process.kill()
            worker.process.wait()


@pytest.fixture(scope="session")
def worker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningWorker]:
    """The worker every test shares."""
    running = start_worker(tmp_path_factory.mktemp("worker"))
    yield running
    stop_worker(running)


@pytest.fixture(scope="session")
def base_options(worker: RunningWorker) -> BaseOptions:
    """BaseOptions that reach the shared worker."""
    return worker.base_options


@pytest.fixture(scope="session")
def manifest() -> dict:
    """The fixture photographs' description: sizes, face counts, face centres."""
    return json.loads((FIXTURES / "manifest.json").read_text())


def fixture_path(name: str) -> str:
    """The path of a committed fixture photograph."""
    return str(FIXTURES / name)


def video_frames() -> List[str]:
    """The synthetic video's frames, in order."""
    return sorted(str(path) for path in (FIXTURES / "video").glob("frame_*.jpg"))


def box_centre(detection: faceworker.vision.Detection) -> tuple:
    """The centre of a detection's box, in pixels."""
    box = detection.bounding_box
    return (box.origin_x + box.width / 2, box.origin_y + box.height / 2)
