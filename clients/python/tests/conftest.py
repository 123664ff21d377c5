"""Fixtures: a real face-worker process, and the repository's face photographs.

The worker binary is built by the repository (`swift build --product
face-worker`); the fixture only starts it, on a socket in a temporary
directory, and stops it with SIGTERM at the end of the session.
"""

from __future__ import annotations

import json
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, List

import pytest

import faceworker
from faceworker import BaseOptions

from worker_process import MODELS, REPO, answers_ping, launch, stop

FIXTURES = REPO / "Tests" / "Fixtures"


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


def start_worker(directory: Path, *options: str, models: Path = MODELS) -> RunningWorker:
    """Starts a worker listening in ``directory`` and waits until it answers a ping.

    ``options`` are more command-line options, such as limits; ``models`` the models directory.
    """
    socket_path = str(directory / "faceworker.sock")
    log_path = directory / "worker.log"

    process = launch(["--socket", socket_path, *options], log_path, lambda: answers_ping(socket_path), "a ping",
                     models=models)
    return RunningWorker(socket_path, process, log_path)


def stop_worker(worker: RunningWorker) -> None:
    """Stops the worker as an operator would: SIGTERM, then waits for it."""
    stop(worker.process)


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
