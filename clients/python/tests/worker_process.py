"""A real face-worker process for a test suite: started on sockets in a temporary directory, ready
once the suite's own check passes, stopped with SIGTERM. The client's tests and the gRPC door's
tests (tests/grpc) both start their workers here.

The worker binary is built by the repository (`swift build --product face-worker`); this only
starts it.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path
from typing import Any, Callable, List

import pytest

import faceworker

REPO = Path(__file__).resolve().parents[3]
MODELS = REPO / "models"
# Every file of the repository's model manifest, the Face Landmarker's bundle included, and those
# without which a worker does not start.
_MANIFEST = json.loads((REPO / "models.json").read_text())["files"]
MODEL_FILES = [entry["name"] for entry in _MANIFEST]
REQUIRED_MODEL_FILES = [entry["name"] for entry in _MANIFEST if entry["required"]]
STARTUP_SECONDS = 60


def worker_binary() -> Path:
    """The built face-worker executable: FACEWORKER_WORKER when set (the sanitizer run's build),
    else the debug build, then the release build."""
    if os.environ.get("FACEWORKER_WORKER"):
        return Path(os.environ["FACEWORKER_WORKER"])
    for configuration in ("debug", "release"):
        candidate = REPO / ".build" / configuration / "face-worker"
        if candidate.is_file():
            return candidate
    pytest.fail(
        "no face-worker binary in .build/debug or .build/release: run `swift build --product face-worker` "
        "at the repository root first",
        pytrace=False,
    )


def launch(arguments: List[str], log_path: Path, ready: Callable[[], bool], waiting_for: str,
           models: Path = MODELS, **popen_options: Any) -> subprocess.Popen:
    """Starts face-worker with ``arguments`` and the models in ``models`` (by default the
    repository's), its output in ``log_path``, and returns once ``ready()`` is true; fails the test
    when the worker exits first or is not ready within STARTUP_SECONDS. ``popen_options`` go to
    Popen (a socket passed as under socket activation, for one)."""
    missing = [name for name in REQUIRED_MODEL_FILES if not (models / name).is_file()]
    if missing:
        pytest.fail(f"models missing from {models.name}/: {', '.join(missing)}; run `make models`", pytrace=False)
    with open(log_path, "wb") as log:
        process = subprocess.Popen([str(worker_binary()), *arguments, "--models", str(models)],
                                   stdout=log, stderr=subprocess.STDOUT, **popen_options)
    deadline = time.monotonic() + STARTUP_SECONDS
    while not ready():
        if process.poll() is not None:
            pytest.fail(f"face-worker exited with status {process.returncode}:\n{_read(log_path)}", pytrace=False)
        if time.monotonic() > deadline:
            stop(process)
            pytest.fail(f"face-worker did not answer {waiting_for} within {STARTUP_SECONDS} s:\n{_read(log_path)}",
                        pytrace=False)
        time.sleep(0.05)
    return process


def answers_ping(socket_path: str) -> bool:
    """Whether a worker answers a Ping on ``socket_path`` now."""
    try:
        faceworker.ping(socket_path)
        return True
    except faceworker.WorkerNotRunningError:
        return False


def stop(process: subprocess.Popen) -> None:
    """Stops the worker as an operator would: SIGTERM, then waits for it."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _read(path: Path) -> str:
    return path.read_text(errors="replace")
