"""The worker side of `make bench`: a private face-worker, and face-bench and grpc-bench runs against it."""

import signal
import subprocess
import time
from pathlib import Path

import numpy as np

from tools.shared.bench_process import fail, last_json_line

STARTUP_TIMEOUT_S = 60
RUN_TIMEOUT_S = 900


class Worker:
    """A face-worker on a socket of its own (and with `grpc`, a gRPC socket too), stopped with
    SIGTERM on exit."""

    def __init__(self, executable, models, scratch, grpc=False):
        self.socket = scratch / "faceworker.sock"
        self.grpc_socket = scratch / "faceworker-grpc.sock" if grpc else None
        self.log_path = scratch / "worker.log"
        self._command = [str(executable), "--models", str(models), "--socket", str(self.socket),
                         "--log-level", "warning"]
        if grpc:
            self._command += ["--grpc-socket", str(self.grpc_socket)]

    def __enter__(self):
        self._log = open(self.log_path, "w")
        self.process = subprocess.Popen(self._command, stdout=self._log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + STARTUP_TIMEOUT_S
        # The worker links its sockets onto their paths only once it listens.
        while not all(path.exists() for path in self._sockets()):
            if self.process.poll() is not None:
                fail(f"face-worker exited with status {self.process.returncode} at start:\n{self.log()}")
            if time.monotonic() > deadline:
                self.process.kill()
                fail(f"face-worker did not listen on {self.socket} within {STARTUP_TIMEOUT_S} s:\n{self.log()}")
            time.sleep(0.05)
        return self

    def __exit__(self, *exc):
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self._log.close()
        # The next worker of the run links its sockets onto the same paths.
        for path in self._sockets():
            path.unlink(missing_ok=True)

    def _sockets(self):
        return [self.socket] + ([self.grpc_socket] if self.grpc_socket else [])

    def log(self):
        return self.log_path.read_text(errors="replace")[-4000:]


class FaceBench:
    """face-bench runs against one worker, each parsed from its --json line."""

    def __init__(self, executable, frames_dir, worker):
        self.executable, self.frames_dir, self.worker = str(executable), str(frames_dir), worker

    def command(self, *options):
        return [self.executable, "-s", str(self.worker.socket), "--json", *options]

    def frames(self, *options):
        return self.command("-d", self.frames_dir, *options)

    def run(self, command, samples=None):
        """The run's JSON summary (and its round trips in ms when samples names a file). A run
        with errors still reports; only a run that printed nothing fails the benchmark."""
        if samples:
            command = command + ["--samples", str(samples)]
        done = subprocess.run(command, capture_output=True, text=True, timeout=RUN_TIMEOUT_S)
        summary = last_json_line(done.stdout, command, done.stderr)
        if samples:
            summary["samples_ms"] = np.loadtxt(samples, ndmin=1) / 1000.0
        return summary


class GrpcBench(FaceBench):
    """grpc-bench runs against one worker's gRPC socket, each parsed from its JSON line; the same
    options and summary as face-bench's video and ping modes."""

    def command(self, *options):
        return [self.executable, "-t", f"unix:{self.worker.grpc_socket}", *options]


def run_at_once(commands):
    """Runs the commands at once, as separate processes; the JSON line each printed last."""
    processes = [subprocess.Popen(c, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for c in commands]
    outputs = [p.communicate(timeout=RUN_TIMEOUT_S) for p in processes]
    return [last_json_line(out, c, err) for c, (out, err) in zip(commands, outputs)]


class Neighbour:
    """A second session on the worker while another is measured (bench_neighbour.py in the client's
    environment): idle, or sending detection frames at `fps`. Its session is open once entered."""

    def __init__(self, client_python, worker, frames_dir, fps=None):
        self._command = [str(client_python), "-m", "tools.bench.bench_neighbour", "--socket", str(worker.socket),
                         "--frames", str(frames_dir), *(["--fps", str(fps)] if fps else [])]

    def __enter__(self):
        self._process = subprocess.Popen(self._command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        if self._process.stdout.readline().strip() != "ready":
            self._process.kill()
            fail(f"{' '.join(self._command)} did not open its session; its errors are above")
        return self

    def __exit__(self, *exc):
        out, _ = self._process.communicate(input="", timeout=RUN_TIMEOUT_S)
        self.summary = last_json_line(out, self._command, "")
