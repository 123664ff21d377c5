"""What the benchmark drivers and the MediaPipe peers share about failing and about running a measuring executable."""

import json
import os
import subprocess
import sys

import numpy as np


def fail(message):
    """Ends the benchmark with `error: message` on stderr and status 1."""
    sys.exit(f"error: {message}")


def require_executable(path, target):
    """Fails unless `path` is an executable file; `make target` is what builds it."""
    if not path.is_file() or not os.access(path, os.X_OK):
        fail(f"{path} is missing; `make {target}` builds it")


def summary_ms(samples_ns):
    """The median and p90 of samples in ns, in ms."""
    samples = np.asarray(samples_ns, dtype=np.float64) / 1e6
    return float(np.median(samples)), float(np.percentile(samples, 90))


def last_json_line(stdout, command, stderr=""):
    """The JSON object on the last non-empty line of a run's output; the benchmark fails when
    there is none, with what the run printed."""
    lines = [line for line in stdout.splitlines() if line.strip()]
    try:
        result = json.loads(lines[-1])
    except (IndexError, ValueError):
        result = None
    if not isinstance(result, dict):
        fail(f"{' '.join(command)} printed no JSON summary.\nstdout: {stdout.strip()}\nstderr: {stderr.strip()}")
    return result


def median_and_p90(result, command):
    """The `median_ms` and `p90_ms` of a measuring executable's JSON line."""
    try:
        return float(result["median_ms"]), float(result["p90_ms"])
    except (KeyError, TypeError, ValueError):
        fail(f"{' '.join(command)} printed no median_ms and p90_ms: {result}")


def run_json(command, timeout_s):
    """Runs a measuring executable that must succeed, and returns the JSON line it printed last."""
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout_s)
    except subprocess.TimeoutExpired:
        fail(f"{' '.join(command)} did not finish within {timeout_s} s")
    if done.returncode != 0:
        fail(f"{' '.join(command)} exited with status {done.returncode}:\n{done.stderr.strip()}")
    return last_json_line(done.stdout, command, done.stderr)
