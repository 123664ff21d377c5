"""P7 of `make bench`: the most 30 fps live streams served within the bar, ours and MediaPipe's.

The bar, the same for both sides: p99 latency at most 33 ms over the frames answered, and at
least 95 % of the frames sent answered (ours: and no errors). Each side's count is found by
stepping it, each step a stream of a few seconds per session or process, all at once:

* ours: face-bench -c N -m live -r 30 --landmarks, P4's sessions (the whole pipeline), against
  one worker, N = 8, 12, 16, ... A frame is answered when its result came; the worker skips a
  frame only when a newer one of the same session replaced it while it waited.
* MediaPipe's: N processes of mediapipe_live_peer.py, each its own 30 fps stream through
  FaceMesh(refine_landmarks=True) on the same frames, N = 1, 2, 3, ...

P7t is the same search with the Face Landmarker on both sides: face-bench --landmarker (the bundle's
V2 mesh, blendshapes and matrix) against processes running MediaPipe Tasks' FaceLandmarker with
blendshapes and matrices on. A frame is answered when
  its processing ended within its slot, before the next frame arrived (that file has the rules).

Each side's sessions or processes are pooled into one p99 and one share, as face-bench pools
its sessions. A search stops at the first count that misses the bar; when ours misses it at 8
already, it steps down (6, 4, 2, 1) to the first count that meets it. A count that misses the
bar is measured once more and the second measurement decides, so one burst of other work on a
shared machine does not end a search early; both sides get that rule. The two searches take
turns, a step each, for the same reason.
"""

import json
import select
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

import numpy as np

from tools.shared.bench_process import fail

FPS = 30
P99_BAR_MS = 33.0
ANSWERED_BAR = 0.95
OUR_COUNTS_UP = tuple(range(8, 65, 4))
OUR_COUNTS_DOWN = (6, 4, 2, 1)
PEER_COUNTS_UP = tuple(range(1, 33))
PEER_READY_TIMEOUT_S = 120


@dataclass(frozen=True)
class Step:
    """One count's measurement."""

    count: int
    p99_ms: float
    answered: float
    errors: int = 0

    def meets_bar(self):
        return self.errors == 0 and self.p99_ms <= P99_BAR_MS and self.answered >= ANSWERED_BAR

    def describe(self):
        errors = f", {self.errors} errors" if self.errors else ""
        return f"p99 {self.p99_ms:.1f} ms, {100 * self.answered:.1f} % answered{errors}"


@dataclass(frozen=True)
class Search:
    """The largest count that met the bar (None: not even the smallest), and the count above
    it that missed it (None: the search reached its last count)."""

    best: Optional[Step]
    missed: Optional[Step]

    @property
    def count(self):
        return self.best.count if self.best else 0


def search(counts_up, counts_down):
    """One side's search, as a generator: it yields each count to measure, is sent that count's
    Step, and returns the Search. It steps through counts_up until a count misses the bar, then,
    if none met it, through counts_down until one does; a count that misses is yielded twice."""
    def step(count):
        result = yield count
        if not result.meets_bar():
            result = yield count
        return result

    best = missed = None
    for count in counts_up:
        result = yield from step(count)
        if not result.meets_bar():
            missed = result
            break
        best = result
    if best is None:
        for count in counts_down:
            result = yield from step(count)
            if result.meets_bar():
                best = result
                break
            missed = result
    return Search(best, missed)


def take_turns(sides, progress):
    """Runs searches a step at a time each, in turn, so that a change in the machine's other
    load falls on every side alike. sides: (search generator, measure(count) -> Step, what is
    counted) each; progress(text) hears of every step. Returns the Searches in the same order."""
    results = [None] * len(sides)
    counts = {index: next(generator) for index, (generator, _, _) in enumerate(sides)}
    while counts:
        for index in list(counts):
            generator, measure, unit = sides[index]
            result = measure(counts[index])
            try:
                counts[index] = generator.send(result)
            except StopIteration as done:
                results[index] = done.value
                del counts[index]
            again = ", measuring once more" if counts.get(index) == result.count else ""
            progress(f"{result.count} {unit}: {result.describe()}: "
                     f"{'meets' if result.meets_bar() else 'misses'} the bar{again}")
    return results


def our_streams(bench, count, frames_per_stream, pipeline=("--landmarks",)):
    """`count` live-stream sessions through face-bench, each asking for `pipeline` (face-bench's
    options: P7's whole legacy pipeline by default, P7t's --landmarker)."""
    summary = bench.run(bench.frames("-c", str(count), "-m", "live", "-r", str(FPS),
                                     "-n", str(frames_per_stream), *pipeline))
    answered = summary["answered"] / summary["sent"] if summary["sent"] else 0.0
    return Step(count, summary["latency_ms"]["p99"], answered, summary["errors"])


class PeerStreams:
    """MediaPipe live-stream processes. Each takes a second or more to start, so they are
    started as the steps first need them and kept for the later steps; a step of N streams runs
    the first N, and the others wait, asleep, for their next line."""

    def __init__(self, frames_dir, scratch, mode="landmarks", models=None, python=sys.executable):
        self._command = [str(python), "-m", "tools.peers.mediapipe_live_peer", "--frames", str(frames_dir),
                         "--fps", str(FPS), "--mode", mode, *(["--models", str(models)] if models else [])]
        self._scratch = scratch
        self._processes = []

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        for process, _ in self._processes:
            try:
                process.stdin.close()
            except BrokenPipeError:
                pass
        for process, log in self._processes:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            log.close()

    def __call__(self, count, frames_per_stream):
        """`count` processes' streams at once, pooled into one Step."""
        started = len(self._processes)
        for index in range(started, count):
            log = open(self._scratch / f"mediapipe-live-{index}.log", "w+")
            process = subprocess.Popen(self._command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                       stderr=log, text=True)
            self._processes.append((process, log))
        for index in range(started, count):
            line = self._read_line(index, PEER_READY_TIMEOUT_S)
            if line.strip() != "ready":
                self._fail(index, f"said {line.strip()!r} instead of ready")
        for process, _ in self._processes[:count]:
            process.stdin.write(f"{frames_per_stream}\n")
            process.stdin.flush()
        timeout_s = frames_per_stream / FPS + PEER_READY_TIMEOUT_S
        streams = [json.loads(self._read_line(index, timeout_s)) for index in range(count)]
        latencies = np.concatenate([np.asarray(s["latencies_ms"], dtype=np.float64) for s in streams])
        # Nearest rank, as face-bench computes its percentiles.
        p99 = float(np.percentile(latencies, 99, method="inverted_cdf")) if latencies.size else float("inf")
        answered = sum(s["answered"] for s in streams) / sum(s["frames"] for s in streams)
        return Step(count, p99, answered)

    def _read_line(self, index, timeout_s):
        process, _ = self._processes[index]
        ready, _, _ = select.select([process.stdout], [], [], timeout_s)
        line = process.stdout.readline() if ready else ""
        if not line:
            self._fail(index, f"gave no answer within {timeout_s:.0f} s" if process.poll() is None
                       else f"ended with status {process.returncode}")
        return line

    def _fail(self, index, what):
        process, log = self._processes[index]
        log.flush()
        log.seek(0)
        fail(f"MediaPipe live-stream process {index + 1} ({' '.join(self._command)}) {what}:\n"
             f"{log.read()[-4000:]}")
