"""The newest MediaPipe as a peer of `make bench`: mediapipe_peer.py --serve in the environment of its
own (.venv-tasks, tools/requirements-tasks.txt), which cannot share the tools' environment: it needs
NumPy 2, and the legacy solutions and golden files need mediapipe 0.10.14 and NumPy 1."""

import json
import subprocess
import tempfile
from pathlib import Path

from tools.shared.bench_process import fail

READY_TIMEOUT_S = 120
PINNED_VERSION = "1.2.3"


class TasksPeer:
    """One long-lived mediapipe_peer.py --serve process; `time` has Peer.time's signature, so it
    stands wherever the in-process peer does."""

    def __init__(self, python, frames_dir, models):
        self._command = [str(python), "-m", "tools.peers.mediapipe_peer", "--serve",
                         "--frames", str(frames_dir), "--models", str(models)]
        self.version = PINNED_VERSION

    def __enter__(self):
        # MediaPipe's native side logs every graph it builds and closes; kept for a failure.
        self._log = tempfile.TemporaryFile(mode="w+")
        self._process = subprocess.Popen(self._command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=self._log, text=True)
        if self._process.stdout.readline().strip() != "ready":
            self._process.kill()
            self._fail("did not start")
        return self

    def __exit__(self, *exc):
        self._process.stdin.close()
        self._process.wait(timeout=30)
        self._log.close()

    def _fail(self, what):
        self._log.seek(0)
        fail(f"{' '.join(self._command)} {what}; its log ends:\n{self._log.read()[-4000:]}")

    def time(self, frames, mode, warmup, iterations, fps=0):
        """Per-frame ns of `iterations` frames after `warmup`, and the timed frames with a face, the
        timed frames paced at `fps` when it is set (Peer.time). The serving process reads the same
        frame files as `frames`."""
        request = {"mode": mode, "warmup": warmup, "iterations": iterations, "fps": fps}
        self._process.stdin.write(json.dumps(request) + "\n")
        self._process.stdin.flush()
        line = self._process.stdout.readline()
        if not line:
            self._process.wait(timeout=30)
            self._fail(f"ended during a {mode} run")
        answer = json.loads(line)
        if answer["version"] != PINNED_VERSION:
            fail(f"the Tasks peer runs mediapipe {answer['version']}; make bench pins {PINNED_VERSION}")
        return answer["samples_ns"], answer["faces"]
