"""`make bench`: FaceWorker through its thinnest client against MediaPipe in-process, one run, one table.

    make bench
    .venv-tools/bin/python -m tools.bench.bench --worker .build/release/face-worker \
        --face-bench clients/c/build/face-bench --client-python .venv-client/bin/python \
        --grpc-python .venv-grpc/bin/python --grpc-bench tools/bench/grpc-bench/build/grpc-bench \
        --models models --frames Tests/Fixtures/video --png out/bench-latency.png

It starts release face-workers on a private socket, drives them with face-bench (C, one thread
and connection per session) and runs two MediaPipe releases as peers on the same JPEG bytes (the
frame_*.jpg files of --frames, in name order, cycled): mediapipe 0.10.14's legacy solutions in
this process, for the rows of the solutions that release last had, and the newest release's
Tasks (tasks_peer.py: mediapipe 1.2.3 in its own environment, --tasks-python) for the Tasks rows.
It prints one row per performance goal, each naming its peer and the peer's version:

* P1    detection only, video mode, round trip p50; peer: cv2 decode + FaceDetection.process.
* P1t   P1's session against the Tasks FaceDetector in VIDEO mode on the Face Landmarker
        bundle's own face_detector.tflite.
* P2    478 landmarks + tracking + ML Kit outputs, round trip p50; peer: cv2 decode +
        FaceMesh(refine_landmarks=True).process.
* P2py  P2's workload through the Python client (bench_python_client.py, in the client's own
        environment --client-python), against the same MediaPipe runs as P2, with the
        python_result_us of --result-cost beside it (the client's own cost per 478-point result
        with P2's ML Kit outputs, run with --mlkit).
* P2t   MediaPipe Tasks' Face Landmarker: 478 points of the bundle's V2 mesh, 52 blendshapes and
        the facial transformation matrix, video mode, one face, round trip p50 (face-bench
        --landmarker); peer: cv2 decode + Tasks FaceLandmarker.detect_for_video on the same
        face_landmarker.task with blendshapes and matrices on. P2tpy: the same through the Python
        client's FaceLandmarker (output_face_blendshapes, output_facial_transformation_matrixes).
* P2tbn P2t while a second session (bench_neighbour.py: a FaceDetector through the Python client)
        is open and idle on the same worker.
* P2tws P2t while that second session sends detection frames at 5 fps.
* P2tc  P2t at a camera's pace: each side's timed frames start 1/30 s apart (face-bench -r 30; the
        peer sleeps until each frame is due), so every frame finds the machine idle since the last,
        as a camera's do, rather than straight after the last answer.
* First the round trip of the first frame a fresh worker serves (P2t's workload, a new face-bench
        process, right after the worker's socket appeared, which it does only after READY),
        against the median of the same start's P2t.
* P4    8 live-stream sessions at 30 fps with the whole pipeline: round trip p99, share of the
        frames sent that were answered (the rest were dropped in favour of newer ones), errors.
        No peer.
* P5    peak resident memory (VmHWM) of a fresh worker serving 8 live-stream sessions plus the
        peak RSS of its 8 face-bench client processes, against the sum of the peak RSS of 8
        MediaPipe processes (mediapipe_peer.py) doing the same work at once.
* P6    empty Ping round trip p50 on one connection of an idle worker, the client busy-polling
        for up to 50 us (fw_set_busy_poll) and, on the next line, sleeping in poll(2). The goal is
        absolute; beside it stands the floor: the same round trip to a bare echo process
        (face-bench -m echo), which shows what the kernel and the machine's thread wake-ups cost
        without the worker. Ping and echo take P6_ROUNDS turns (at most --rounds) and each keeps
        its fastest round, as the latency rows do.
* P7    the most whole-pipeline 30 fps live-stream sessions one fresh worker serves with p99 at
        most 33 ms and at least 95 % answered, beside the most MediaPipe refined-FaceMesh
        processes that meet the same bar; both found by stepping the count (bench_live.py holds
        the rules, MediaPipe's "answered" among them).
* P7t   P7's search with the Face Landmarker on both sides: face-bench --landmarker sessions against
        processes running the newest MediaPipe's Tasks FaceLandmarker with blendshapes and matrices on.
* P8    detection only on raw 1920x1080 NV12, 1920x1080 RGB and 3840x2160 RGB frames, round trip
        p50 through the socket and through shared memory, against MediaPipe in-process on the same
        pixels; and the transfer share, round trip minus the worker's total (bench_shared.py). Each
        side keeps the lowest of its P8_ROUNDS rounds (at most --rounds), the sides taking turns.
* P9    one named 30 fps live stream followed by 8 subscriber processes: the worst subscriber's
        p99 from the producer's send, minus the producer's own p99, and results lost
        (bench_shared.py says how the clocks are read).
* gRPC  P1's and P2's workloads and P6's empty Ping through the worker's gRPC socket, against the
        same through the lean socket, alternating on one fresh worker: first with compiled clients,
        grpc-bench (gRPC's C++ client, tools/bench/grpc-bench) against face-bench, whose ratios are the
        goal's, as P1 and P2 are face-bench's; then with Python's, grpcio against the Python client
        (bench_grpc.py, run in the gRPC tests' environment --grpc-python), what a Python user pays.

P1, P1t, P2, P2py, P2t, P2tpy, P2tbn, P2tws, P2tc and First are measured on --starts separate worker processes,
each started fresh.
On each, every side is measured --rounds times, the sides alternating (MediaPipe, face-bench, and for
P2 and P2t the Python client); each side keeps its round with the lowest median, so a burst of other work on
a small machine spoils one round, not the ratio. A start's ratio is the median over its rounds of
our round's p50 divided by MediaPipe's in the same round, measured a second before it: the virtual
machines this runs on change speed in steps (one LiteRT process timed in 50-invoke bursts ran at
1.4, 2.1 or 3.3 ms per invoke, each level lasting 0.5 to 5 s), two rounds that close nearly always
see the same speed, and the median drops the few pairs that straddle a step. The rounds are many
and short for the same reason. The table shows the median of the starts' ratios, and their min and
max. P6 and P4 run on the first of those workers, P7 and P5 on fresh ones of their own.

The latency histogram of the kept rounds of every start, ours against MediaPipe, is written to
--png. Progress goes to stderr. The very last line printed is one JSON object for scripts:
p1_ratio, p2_ratio and p2t_ratio (medians over the starts, with _min and _max), p2_python_ratio,
p2t_python_ratio, p7t_streams, p7t_mediapipe_processes,
p4_p99_ms, p4_answered (a share, 0 to 1), p4_errors, p5_ratio, p6_us, p7_streams,
p7_mediapipe_processes, p8_ratio_1080p_nv12, p8_ratio_2160p_rgb, p8_transfer_ms_max (shared memory),
p9_p99_extra_ms, p9_lost, p1_grpc_ratio, p2_grpc_ratio, p6_grpc_us (compiled clients),
p1_grpc_python_ratio, p2_grpc_python_ratio, p6_grpc_python_us, and the figures behind them.
"""

import argparse
import json
import os
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from tools.bench.bench_live import (ANSWERED_BAR, FPS, OUR_COUNTS_DOWN, OUR_COUNTS_UP, P99_BAR_MS, PEER_COUNTS_UP,
                                    PeerStreams, our_streams, search, take_turns)
from tools.bench.bench_results import write_results
from tools.bench.bench_rounds import Run, best_of_rounds
from tools.bench.bench_shared import (P8_ROUNDS, SUBSCRIBERS, measure_raw_frames, measure_subscribers, p8_keys,
                                      p8_table_rows, p9_keys, p9_table_rows)
from tools.bench.bench_worker import FaceBench, GrpcBench, Neighbour, Worker, run_at_once
from tools.peers.mediapipe_peer import Peer, peak_rss_kib, read_frames
from tools.peers.tasks_peer import PINNED_VERSION as TASKS_VERSION, TasksPeer
from tools.shared.bench_args import count
from tools.shared.bench_process import fail, require_executable, run_json
from tools.shared.mediapipe_solutions import PINNED_VERSION as LEGACY_VERSION

PEER_PROCESSES = 8
LIVE_SESSIONS = 8
BUSY_POLL_US = 50
# P6's turns, as P8's: a round of 20,000 Pings each way takes seconds, and the latency rows' ten
# turns would add minutes.
P6_ROUNDS = 3
P4_ANSWERED_GOAL = 0.99
P7_STREAMS_GOAL = 16
P2T_RATIO_GOAL = 0.45
P1T_RATIO_GOAL = 0.45
NEIGHBOUR_RATIO_GOAL = 0.5
NEIGHBOUR_FPS = 5
CAMERA_FPS = 30
# P2tc's timed frames per side and round: 2 s at the camera's pace.
CAMERA_FRAMES = 60
P7T_RATIO_GOAL = 1.5
FIRST_FRAME_GOAL = 1.5
LEGACY = f"mediapipe {LEGACY_VERSION}"
TASKS = f"mediapipe {TASKS_VERSION}"
LANDMARKER = ("--landmarker",)
PYTHON_RESULT_GOAL_US = 300
GRPC_RATIO_GOAL = 1.2
GRPC_PINGS = 5000
CLIENT_TIMEOUT_S = 600
REPOSITORY = Path(__file__).resolve().parents[2]


class Progress:
    """Progress lines on stderr, each with the seconds since the benchmark began."""

    def __init__(self):
        self._began = time.monotonic()

    def __call__(self, text):
        print(f"[{time.monotonic() - self._began:5.0f} s] {text}", file=sys.stderr, flush=True)


@dataclass(frozen=True)
class Start:
    """What one fresh worker measured: the kept round of each side, and its first frame's round
    trip (P2t's workload, the first frame the worker ever served)."""

    p1_ours: Run
    p1_peer: Run
    p1t_ours: Run
    p1t_peer: Run
    p2_ours: Run
    p2_peer: Run
    p2_python: Run
    p2t_ours: Run
    p2t_peer: Run
    p2t_python: Run
    p2t_idle_ours: Run
    p2t_idle_peer: Run
    p2t_stream_ours: Run
    p2t_stream_peer: Run
    p2t_camera_ours: Run
    p2t_camera_peer: Run
    first_frame_ms: float

    @property
    def first_frame_ratio(self):
        return self.first_frame_ms / self.p2t_ours.median_ms


def video_side(client, pipeline, args, scratch, iterations=None):
    """A side of best_of_rounds: a face-bench (or grpc-bench) video run of `iterations` (else
    --iterations) frames, after a warm-up run of its own."""
    command = client.frames("-m", "video", "-n", str(iterations or args.iterations), *pipeline)
    if args.warmup:
        client.run(client.frames("-m", "video", "-n", str(args.warmup), *pipeline))

    def side():
        summary = client.run(command, samples=scratch / "samples.txt")
        return Run(float(np.median(summary["samples_ms"])), summary["samples_ms"], summary)
    return side


def ping_side(client, pings, mode="ping", busy_poll_us=0):
    """A side of best_of_rounds: `pings` empty round trips (`mode` "echo": to a bare echo process
    instead of the worker), the client busy-polling up to `busy_poll_us` on each before sleeping."""
    polling = ["--busy-poll", str(busy_poll_us)] if busy_poll_us else []
    command = client.command("-m", mode, "-n", str(pings), *polling)

    def side():
        summary = client.run(command)
        return Run(summary["latency_ms"]["p50"], None, summary)
    return side


def first_frame_ms(bench, scratch):
    """The round trip of the first frame a fresh worker serves: P2t's workload, one frame."""
    return float(bench.run(bench.frames("-m", "video", "-n", "1", *LANDMARKER), samples=scratch / "first.txt")
                 ["samples_ms"][0])


def measure_start(args, peer, tasks_peer, frames, bench, scratch, first_ms):
    """P1 and P1t, P2, P2t (and P2 and P2t through the Python client), P2t beside an idle and a
    streaming session, and P2t at a camera's pace, on one worker."""
    def mediapipe(mode, on=peer, fps=0, iterations=None):
        def side():
            samples_ns, faces = on.time(frames, mode, args.warmup, iterations or args.iterations, fps)
            samples_ms = np.asarray(samples_ns, dtype=np.float64) / 1e6
            return Run(float(np.median(samples_ms)), samples_ms, faces)
        return side

    def python_client(*workload):
        def side():
            command = [str(args.client_python), "-m", "tools.bench.bench_python_client",
                       "--socket", str(bench.worker.socket), "--frames", str(args.frames),
                       "--warmup", str(args.warmup), "--iterations", str(args.iterations), *workload]
            result = run_json(command, CLIENT_TIMEOUT_S)
            return Run(result["median_ms"], None, result)
        return side

    p1_peer, p1_ours = best_of_rounds(args.rounds, [mediapipe("detect"), video_side(bench, [], args, scratch)])
    p1t_peer, p1t_ours = best_of_rounds(args.rounds, [mediapipe("tasks_detect", tasks_peer),
                                                      video_side(bench, [], args, scratch)])
    p2_peer, p2_ours, p2_python = best_of_rounds(
        args.rounds, [mediapipe("landmarks"), video_side(bench, ["--landmarks"], args, scratch), python_client()])
    p2t_peer, p2t_ours, p2t_python = best_of_rounds(
        args.rounds, [mediapipe("tasks", tasks_peer), video_side(bench, list(LANDMARKER), args, scratch),
                      python_client("--landmarker")])
    beside = {}
    for key, fps in (("idle", None), ("stream", NEIGHBOUR_FPS)):
        with Neighbour(args.client_python, bench.worker, args.frames, fps):
            beside[key] = best_of_rounds(args.rounds, [mediapipe("tasks", tasks_peer),
                                                       video_side(bench, list(LANDMARKER), args, scratch)])
    camera_peer, camera_ours = best_of_rounds(args.rounds, [
        mediapipe("tasks", tasks_peer, CAMERA_FPS, CAMERA_FRAMES),
        video_side(bench, [*LANDMARKER, "-r", str(CAMERA_FPS)], args, scratch, CAMERA_FRAMES)])
    return Start(p1_ours, p1_peer, p1t_ours, p1t_peer, p2_ours, p2_peer, p2_python, p2t_ours, p2t_peer, p2t_python,
                 beside["idle"][1], beside["idle"][0], beside["stream"][1], beside["stream"][0], camera_ours,
                 camera_peer, first_ms)


def measure_memory(args, scratch):
    """P5: (worker KiB, clients KiB, MediaPipe KiB), each a sum of peak resident sizes."""
    frames_per_process = str(FPS * 5)
    with Worker(args.worker, args.models, scratch) as worker:
        bench = FaceBench(args.face_bench, args.frames, worker)
        clients = run_at_once([bench.frames("-c", "1", "-m", "live", "-r", str(FPS),
                                            "-n", frames_per_process, "--landmarks")
                               for _ in range(PEER_PROCESSES)])
        for summary in clients:
            if summary["errors"] or not summary["answered"]:
                fail(f"a memory client failed: {summary['first_error']}")
        worker_kib = peak_rss_kib(worker.process.pid)
    peer_command = [sys.executable, "-m", "tools.peers.mediapipe_peer", "--frames", str(args.frames),
                    "--mode", "landmarks", "--iterations", frames_per_process]
    peers = run_at_once([peer_command] * PEER_PROCESSES)
    return worker_kib, sum(s["max_rss_kib"] for s in clients), sum(p["max_rss_kib"] for p in peers)


def measure_streams(args, scratch, progress, label="P7", pipeline=("--landmarks",), peer_mode="landmarks",
                    peer_python=sys.executable):
    """P7 (or, with the Face Landmarker's pipeline and the newest MediaPipe's Tasks processes run by
    `peer_python`, P7t): (our Search, MediaPipe's Search)."""
    frames_per_stream = FPS * args.live_seconds
    with (Worker(args.worker, args.models, scratch) as worker,
          PeerStreams(args.frames, scratch, peer_mode, args.models, peer_python) as peers):
        bench = FaceBench(args.face_bench, args.frames, worker)
        # The worker's first frames would otherwise fall into the first step.
        bench.run(bench.frames("-m", "video", "-n", str(max(args.warmup, 1)), *pipeline))
        ours, theirs = take_turns([
            (search(OUR_COUNTS_UP, OUR_COUNTS_DOWN), lambda n: our_streams(bench, n, frames_per_stream, pipeline),
             "sessions"),
            (search(PEER_COUNTS_UP, ()), lambda n: peers(n, frames_per_stream), "MediaPipe processes"),
        ], lambda text: progress(f"{label}, {text}"))
    return ours, theirs


def python_result_cost(client_python, script):
    """The Python client's own cost per 478-point result in us, with P2's ML Kit outputs."""
    command = [str(client_python), str(script), "--mlkit"]
    result = run_json(command, CLIENT_TIMEOUT_S)
    try:
        return float(result["python_result_us"])
    except (KeyError, TypeError, ValueError):
        fail(f"{' '.join(command)} printed no python_result_us: {result}")


@dataclass(frozen=True)
class ThroughGrpc:
    """P1, P2 and P6 through both doors of one worker: compiled clients (`native`: workload key to
    (grpc-bench's Run, face-bench's Run)) and Python ones (`python`: bench_grpc.py's summary)."""

    native: Any
    python: Any

    def native_ratio(self, key):
        through, lean = self.native[key]
        return through.median_ms / lean.median_ms


def measure_grpc(args, scratch):
    """P1, P2 and P6 through the gRPC socket and the lean socket of one fresh worker: grpc-bench
    against face-bench, the sides alternating, then grpcio against the Python client
    (bench_grpc.py)."""
    with Worker(args.worker, args.models, scratch, grpc=True) as worker:
        lean, through = FaceBench(args.face_bench, args.frames, worker), GrpcBench(args.grpc_bench, args.frames, worker)
        native = {}
        for key, pipeline in (("p1", []), ("p2", ["--landmarks"])):
            native[key] = tuple(best_of_rounds(args.rounds, [video_side(through, pipeline, args, scratch),
                                                             video_side(lean, pipeline, args, scratch)]))
        pings = min(args.pings, GRPC_PINGS)
        native["p6"] = tuple(best_of_rounds(args.rounds, [ping_side(through, pings), ping_side(lean, pings)]))
        command = [str(args.grpc_python), "-m", "tools.bench.bench_grpc",
                   "--socket", str(worker.socket), "--grpc-socket", str(worker.grpc_socket),
                   "--frames", str(args.frames), "--warmup", str(args.warmup), "--iterations", str(args.iterations),
                   "--rounds", str(args.rounds), "--pings", str(pings)]
        return ThroughGrpc(native, run_json(command, CLIENT_TIMEOUT_S))


def grpc_rows(measured):
    rows = []
    python = measured.python
    for key, label in (("p1", "P1 detection only"), ("p2", "P2 whole pipeline")):
        through, lean = measured.native[key]
        ratio = measured.native_ratio(key)
        rows.append((f"{key.upper()}grpc", f"{label}, round trip p50: grpc-bench (C++) / face-bench",
                     f"{through.median_ms:.3f} ms", f"lean {lean.median_ms:.3f} ms", f"{ratio:.3f}",
                     f"<= {GRPC_RATIO_GOAL}x", verdict(ratio <= GRPC_RATIO_GOAL)))
        ours, lean_python = python[f"{key}_grpc"], python[f"{key}_lean"]
        rows.append(("", "  through grpcio / the lean Python client", f"{ours['median_ms']:.3f} ms",
                     f"lean {lean_python['median_ms']:.3f} ms", f"{python[f'{key}_grpc_ratio']:.3f}", "-", ""))
    through, lean = measured.native["p6"]
    rows.append(("P6grpc", "empty Ping round trip p50: grpc-bench unary / face-bench, both sleeping",
                 f"{through.median_ms * 1000:.1f} us", f"lean {lean.median_ms * 1000:.1f} us",
                 f"{through.median_ms / lean.median_ms:.3f}", "-", ""))
    p6, p6_lean = python["p6_grpc_us"], python["p6_lean_us"]
    rows.append(("", "  grpcio unary / the lean Python client", f"{p6:.1f} us", f"lean {p6_lean:.1f} us",
                 f"{p6 / p6_lean:.3f}", "-", ""))
    return rows


def grpc_keys(measured):
    """The gRPC rows' keys of the JSON line: the goal's ratios from the compiled clients, the Python
    clients' beside them."""
    python = measured.python
    keys = {"p1_grpc_ratio": round(measured.native_ratio("p1"), 3), "p2_grpc_ratio": round(measured.native_ratio("p2"), 3),
            "p6_grpc_us": round(measured.native["p6"][0].median_ms * 1000, 2),
            "p6_grpc_lean_us": round(measured.native["p6"][1].median_ms * 1000, 2)}
    for key in ("p1", "p2"):
        through, lean = measured.native[key]
        keys[f"{key}_grpc_ms"], keys[f"{key}_grpc_lean_ms"] = round(through.median_ms, 4), round(lean.median_ms, 4)
        keys[f"{key}_grpc_python_ratio"] = python[f"{key}_grpc_ratio"]
        keys[f"{key}_grpc_python_ms"] = python[f"{key}_grpc"]["median_ms"]
        keys[f"{key}_grpc_python_lean_ms"] = python[f"{key}_lean"]["median_ms"]
    keys["p6_grpc_python_us"], keys["p6_grpc_python_lean_us"] = python["p6_grpc_us"], python["p6_lean_us"]
    return keys


def grpc_line(measured, rounds, n):
    """The gRPC rows' detail: where the round trip goes besides the worker's own work."""
    python = measured.python
    p1, p1_lean = measured.native["p1"]
    p2, p2_lean = measured.native["p2"]
    return (f"gRPC: one fresh worker, both doors alternating, {rounds} rounds of {n} frames each, best round kept; "
            f"transport and client (round trip minus the worker's total) P1 {p1.detail['transport_median_ms']:.3f} ms "
            f"through grpc-bench against {p1_lean.detail['transport_median_ms']:.3f} through face-bench, P2 "
            f"{p2.detail['transport_median_ms']:.3f} against {p2_lean.detail['transport_median_ms']:.3f}; through "
            f"grpcio P1 {python['p1_grpc']['overhead_median_ms']:.3f} against "
            f"{python['p1_lean']['overhead_median_ms']:.3f} through the Python client, P2 "
            f"{python['p2_grpc']['overhead_median_ms']:.3f} against {python['p2_lean']['overhead_median_ms']:.3f}; "
            f"faces found through grpc-bench {p1.detail['faces']} (P1) and {p2.detail['faces']} (P2) in "
            f"{p2.detail['answered']} frames each, errors {p1.detail['errors'] + p2.detail['errors']}")


def write_histogram(path, panels):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(1, len(panels), figsize=(6 * len(panels), 4.2), constrained_layout=True)
    for axis, (title, ours, peer) in zip(axes, panels):
        both = np.concatenate([ours, peer])
        # The tail beyond p99.5 would squash the bulk into a few bins.
        high = float(np.percentile(both, 99.5))
        bins = np.linspace(0, high, 60)
        axis.hist(np.clip(peer, 0, high), bins=bins, alpha=0.6, color="tab:orange",
                  label=f"MediaPipe 0.10.14 in-process (p50 {np.median(peer):.2f} ms)")
        axis.hist(np.clip(ours, 0, high), bins=bins, alpha=0.6, color="tab:blue",
                  label=f"FaceWorker round trip (p50 {np.median(ours):.2f} ms)")
        for samples, colour in ((peer, "tab:orange"), (ours, "tab:blue")):
            axis.axvline(np.median(samples), color=colour, linestyle="--", linewidth=1)
        axis.set_title(title)
        axis.set_xlabel("latency per 640x360 JPEG frame, ms (values above p99.5 in the last bin)")
        axis.set_ylabel("frames")
        axis.legend(loc="upper left", fontsize=8)
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=110)
    plt.close(figure)


def verdict(met):
    return "met" if met else "NOT met"


def print_table(rows):
    header = ("", "measure", "FaceWorker", "peer", "ratio", "goal", "")
    lines = [header] + rows
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    for line in lines:
        print("  ".join(cell.ljust(width) for cell, width in zip(line, widths)).rstrip())


def stage_line(label, summary):
    worker = summary["worker_median_ms"]
    return (f"{label}: round trip p50 {summary['latency_ms']['p50']:.3f} ms; worker medians: queued "
            f"{worker['queued']:.3f}, decode {worker['decode']:.3f}, detect {worker['detect']:.3f}, "
            f"landmarks {worker['landmarks']:.3f}, total {worker['total']:.3f}; transport and client "
            f"{summary['transport_median_ms']:.3f} ms")


class Spread:
    """Min, median and max of one figure over the worker starts."""

    def __init__(self, values):
        self.values = np.asarray(values, dtype=np.float64)
        self.min, self.median, self.max = (float(v) for v in (self.values.min(), np.median(self.values),
                                                                self.values.max()))

    def keys(self, name, digits=3):
        return {name: round(self.median, digits), f"{name}_min": round(self.min, digits),
                f"{name}_max": round(self.max, digits)}

    def range(self, unit=""):
        return f"{self.min:.3f} / {self.max:.3f}{unit}"


def spread_rows(label, measure, ours, peer, ratio, goal):
    """A row of medians over the starts, with its verdict on the median ratio, and a row of
    their min / max."""
    return [
        (label, measure, f"{ours.median:.3f} ms", f"{peer.median:.3f} ms", f"{ratio.median:.3f}",
         f"<= {goal}x" if goal else "-", verdict(ratio.median <= goal) if goal else ""),
        ("", "  min / max over the starts", ours.range(" ms"), peer.range(" ms"), ratio.range(), "", ""),
    ]


def search_cells(result, unit):
    """How many met the bar, and the figures at that count and at the count that missed it."""
    reached = f"{result.count} {unit}" + ("" if result.missed else " (every count tried)")
    at_best = result.best.describe() if result.best else "-"
    missed = f"{result.missed.count}: {result.missed.describe()}" if result.missed else "-"
    return reached, at_best, missed


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--worker", type=Path, required=True, help="the face-worker executable (release build)")
    parser.add_argument("--face-bench", type=Path, required=True, help="the face-bench executable")
    parser.add_argument("--client-python", type=Path, required=True,
                        help="the Python of an environment with the faceworker client installed (.venv-client)")
    parser.add_argument("--grpc-python", type=Path, required=True,
                        help="the Python of an environment with grpcio, grpcio-tools and the client (.venv-grpc)")
    parser.add_argument("--grpc-bench", type=Path, required=True, help="the grpc-bench executable")
    parser.add_argument("--tasks-python", type=Path, required=True,
                        help=f"the Python of an environment with mediapipe {TASKS_VERSION} (.venv-tasks), the Tasks rows' peer")
    parser.add_argument("--result-cost", type=Path,
                        default=REPOSITORY / "clients/python/benchmarks/result_cost.py",
                        help="the Python client's result-cost script")
    parser.add_argument("--models", type=Path, required=True, help="folder of the models (make models fills it)")
    parser.add_argument("--frames", type=Path, required=True, help="folder of frame_*.jpg files")
    parser.add_argument("--png", type=Path, required=True, help="where to write the latency histogram")
    parser.add_argument("--warmup", type=count(0), default=30, help="untimed frames first (default 30)")
    parser.add_argument("--iterations", type=count(1), default=100, help="timed frames per round (default 100)")
    parser.add_argument("--rounds", type=count(1), default=10,
                        help="alternating rounds for P1, P2 on each worker start (default 10)")
    parser.add_argument("--starts", type=count(1), default=5,
                        help="separate worker starts P1 and P2 are measured on (default 5)")
    parser.add_argument("--live-seconds", type=count(1), default=5, help="length of each P7 step (default 5)")
    parser.add_argument("--pings", type=count(1), default=20000, help="Pings timed for P6 (default 20000)")
    parser.add_argument("--raw-iterations", type=count(1), default=100,
                        help="timed raw frames per side and size for P8 (default 100)")
    args = parser.parse_args()
    for executable in (args.worker, args.face_bench, args.grpc_bench):
        require_executable(executable, "bench")
    if not args.client_python.is_file():
        fail(f"{args.client_python} is missing; `make bench` builds .venv-client with the Python client")
    if not args.grpc_python.is_file():
        fail(f"{args.grpc_python} is missing; `make bench` builds .venv-grpc with grpcio and the Python client")
    if not args.tasks_python.is_file():
        fail(f"{args.tasks_python} is missing; `make bench` builds .venv-tasks with mediapipe {TASKS_VERSION}")

    progress = Progress()
    frames = read_frames(args.frames)
    progress("loading MediaPipe")
    peer = Peer(args.models)
    starts = []
    p6_rounds = min(P6_ROUNDS, args.rounds)
    with (tempfile.TemporaryDirectory(prefix="faceworker-bench-") as tmp,
          TasksPeer(args.tasks_python, args.frames, args.models) as tasks_peer):
        scratch = Path(tmp)
        for index in range(args.starts):
            with Worker(args.worker, args.models, scratch) as worker:
                bench = FaceBench(args.face_bench, args.frames, worker)
                first_ms = first_frame_ms(bench, scratch)
                if index == 0:
                    ping, echo = (run.detail for run in best_of_rounds(p6_rounds, [
                        ping_side(bench, args.pings, "ping", BUSY_POLL_US), ping_side(bench, args.pings, "echo", BUSY_POLL_US)]))
                    ping_asleep, echo_asleep = (run.detail for run in best_of_rounds(p6_rounds, [
                        ping_side(bench, args.pings), ping_side(bench, args.pings, "echo")]))
                    progress("measured P6 (Ping)")
                start = measure_start(args, peer, tasks_peer, frames, bench, scratch, first_ms)
                starts.append(start)
                progress(f"worker start {index + 1} of {args.starts}: first frame {start.first_frame_ms:.3f} ms, P1 "
                         f"{start.p1_ours.median_ms:.3f} ms against {start.p1_peer.median_ms:.3f} ({LEGACY}) and "
                         f"{start.p1t_peer.median_ms:.3f} ({TASKS}), P2 {start.p2_ours.median_ms:.3f} ms (Python client "
                         f"{start.p2_python.median_ms:.3f}) against {start.p2_peer.median_ms:.3f}, P2t "
                         f"{start.p2t_ours.median_ms:.3f} ms (Python client {start.p2t_python.median_ms:.3f}) "
                         f"against {start.p2t_peer.median_ms:.3f}, beside an idle session {start.p2t_idle_ours.median_ms:.3f}, "
                         f"beside a stream {start.p2t_stream_ours.median_ms:.3f}, at {CAMERA_FPS} fps "
                         f"{start.p2t_camera_ours.median_ms:.3f} against {start.p2t_camera_peer.median_ms:.3f}; paired ratios P1 "
                         f"{start.p1_ours.paired_ratio:.3f}, P1t {start.p1t_ours.paired_ratio:.3f}, "
                         f"P2 {start.p2_ours.paired_ratio:.3f}, P2t {start.p2t_ours.paired_ratio:.3f}, idle neighbour "
                         f"{start.p2t_idle_ours.paired_ratio:.3f}, streaming neighbour {start.p2t_stream_ours.paired_ratio:.3f}, "
                         f"camera's pace {start.p2t_camera_ours.paired_ratio:.3f}")
                if index == 0:
                    live = bench.run(bench.frames("-c", str(LIVE_SESSIONS), "-m", "live", "-r", str(FPS),
                                                  "-n", str(FPS * 10), "--landmarks"))
                    progress("measured P4 (live streams)")
        streams, peer_streams = measure_streams(args, scratch, progress)
        progress("measured P7 (most live streams)")
        landmarker_streams, peer_landmarker_streams = measure_streams(args, scratch, progress, "P7t", LANDMARKER, "tasks",
                                                                      args.tasks_python)
        progress("measured P7t (most Face Landmarker live streams)")
        worker_kib, clients_kib, peer_kib = measure_memory(args, scratch)
        progress("measured P5 (memory)")
        with Worker(args.worker, args.models, scratch) as worker:
            bench = FaceBench(args.face_bench, args.frames, worker)
            raw_rows = measure_raw_frames(bench, peer, scratch, max(args.warmup // 3, 1), args.raw_iterations,
                                          progress, min(P8_ROUNDS, args.rounds))
        progress("measured P8 (raw frames, shared memory)")
        with Worker(args.worker, args.models, scratch) as worker:
            subscribed = measure_subscribers(FaceBench(args.face_bench, args.frames, worker), scratch, args.warmup)
        progress("measured P9 (subscribers)")
        through_grpc = measure_grpc(args, scratch)
        progress("measured P1, P2 and P6 through gRPC")
    result_us = python_result_cost(args.client_python, args.result_cost)
    progress(f"Python client's result cost: {result_us:.1f} us")

    write_histogram(args.png, [
        (f"P1 detection only (video mode), {args.starts} worker starts",
         np.concatenate([s.p1_ours.samples_ms for s in starts]), np.concatenate([s.p1_peer.samples_ms for s in starts])),
        (f"P2 478 landmarks + tracking + ML Kit outputs, {args.starts} worker starts",
         np.concatenate([s.p2_ours.samples_ms for s in starts]), np.concatenate([s.p2_peer.samples_ms for s in starts])),
    ])

    p1_ours, p1_peer = Spread([s.p1_ours.median_ms for s in starts]), Spread([s.p1_peer.median_ms for s in starts])
    p1_ratio = Spread([s.p1_ours.paired_ratio for s in starts])
    p2_ours, p2_peer = Spread([s.p2_ours.median_ms for s in starts]), Spread([s.p2_peer.median_ms for s in starts])
    p2_ratio = Spread([s.p2_ours.paired_ratio for s in starts])
    p2_python = Spread([s.p2_python.median_ms for s in starts])
    p2_python_ratio = Spread([s.p2_python.paired_ratio for s in starts])
    p2t_ours, p2t_peer = Spread([s.p2t_ours.median_ms for s in starts]), Spread([s.p2t_peer.median_ms for s in starts])
    p2t_ratio = Spread([s.p2t_ours.paired_ratio for s in starts])
    p2t_python = Spread([s.p2t_python.median_ms for s in starts])
    p2t_python_ratio = Spread([s.p2t_python.paired_ratio for s in starts])
    p1t_ours, p1t_peer = Spread([s.p1t_ours.median_ms for s in starts]), Spread([s.p1t_peer.median_ms for s in starts])
    p1t_ratio = Spread([s.p1t_ours.paired_ratio for s in starts])
    beside = {key: (Spread([getattr(s, f"p2t_{key}_ours").median_ms for s in starts]),
                    Spread([getattr(s, f"p2t_{key}_peer").median_ms for s in starts]),
                    Spread([getattr(s, f"p2t_{key}_ours").paired_ratio for s in starts]))
              for key in ("idle", "stream", "camera")}
    first_frame = Spread([s.first_frame_ms for s in starts])
    first_ratio = Spread([s.first_frame_ratio for s in starts])
    # The start whose P2 ratio is the median one (the upper middle of an even count).
    typical = starts[int(np.argsort(p2_ratio.values)[len(starts) // 2])]

    p4_p99 = live["latency_ms"]["p99"]
    p4_answered = live["answered"] / live["sent"] if live["sent"] else 0.0
    p5_ours_kib = worker_kib + clients_kib
    def p50_us(run):
        return run["latency_ms"]["p50"] * 1000
    p6_us, p6_asleep_us = p50_us(ping), p50_us(ping_asleep)
    echo_us, echo_asleep_us = p50_us(echo), p50_us(echo_asleep)
    p7_ratio = streams.count / peer_streams.count if peer_streams.count else None
    p7_met = streams.count >= P7_STREAMS_GOAL and streams.count >= 2 * peer_streams.count
    p7t_ratio = (landmarker_streams.count / peer_landmarker_streams.count
                 if peer_landmarker_streams.count else None)

    summary = {
        "p1_ratio": round(p1_ratio.median, 3), "p2_ratio": round(p2_ratio.median, 3),
        "p2_python_ratio": round(p2_python_ratio.median, 3),
        **p2t_ratio.keys("p2t_ratio"), **p2t_python_ratio.keys("p2t_python_ratio"),
        **p2t_ours.keys("p2t_ms"), **p2t_peer.keys("p2t_mediapipe_ms"), **p2t_python.keys("p2t_python_ms"),
        "p7t_streams": landmarker_streams.count, "p7t_mediapipe_processes": peer_landmarker_streams.count,
        "p7t_ratio": None if p7t_ratio is None else round(p7t_ratio, 3),
        **p1t_ratio.keys("p1t_ratio"), **p1t_ours.keys("p1t_ms"), **p1t_peer.keys("p1t_mediapipe_ms"),
        **beside["idle"][2].keys("p2t_busy_neighbour_ratio"), **beside["idle"][0].keys("p2t_busy_neighbour_ms"),
        **beside["stream"][2].keys("p2t_with_stream_ratio"), **beside["stream"][0].keys("p2t_with_stream_ms"),
        **beside["camera"][2].keys("p2t_camera_ratio"), **beside["camera"][0].keys("p2t_camera_ms"),
        **beside["camera"][1].keys("p2t_camera_mediapipe_ms"),
        **first_frame.keys("first_frame_ms"), **first_ratio.keys("first_frame_ratio"),
        "legacy_peer": LEGACY, "tasks_peer": TASKS,
        "p4_p99_ms": round(p4_p99, 3), "p4_answered": round(p4_answered, 4), "p4_errors": live["errors"],
        "p5_ratio": round(p5_ours_kib / peer_kib, 3), "p6_us": round(p6_us, 2),
        "p7_streams": streams.count, "p7_mediapipe_processes": peer_streams.count,
        "p7_ratio": None if p7_ratio is None else round(p7_ratio, 3),
        "worker_starts": args.starts,
        "p1_ratio_min": round(p1_ratio.min, 3), "p1_ratio_max": round(p1_ratio.max, 3),
        "p2_ratio_min": round(p2_ratio.min, 3), "p2_ratio_max": round(p2_ratio.max, 3),
        "p2_python_ratio_min": round(p2_python_ratio.min, 3), "p2_python_ratio_max": round(p2_python_ratio.max, 3),
        **p1_ours.keys("p1_ms"), **p1_peer.keys("p1_mediapipe_ms"),
        **p2_ours.keys("p2_ms"), **p2_peer.keys("p2_mediapipe_ms"), **p2_python.keys("p2_python_ms"),
        "p6_sleeping_us": round(p6_asleep_us, 2), "p6_echo_floor_us": round(echo_us, 2),
        "p6_echo_floor_sleeping_us": round(echo_asleep_us, 2),
        "p5_worker_mib": round(worker_kib / 1024, 1), "p5_clients_mib": round(clients_kib / 1024, 1),
        "p5_mediapipe_mib": round(peer_kib / 1024, 1),
        "p7_p99_ms": round(streams.best.p99_ms, 3) if streams.best else None,
        "p7_answered": round(streams.best.answered, 4) if streams.best else None,
        "p7_mediapipe_p99_ms": round(peer_streams.best.p99_ms, 3) if peer_streams.best else None,
        "p7_mediapipe_answered": round(peer_streams.best.answered, 4) if peer_streams.best else None,
        **p8_keys(raw_rows), **p9_keys(subscribed),
        **grpc_keys(through_grpc),
        "histogram": str(args.png),
        "python_result_us": round(result_us, 2),
    }

    n = args.iterations
    ours_reached, ours_at, ours_missed = search_cells(streams, "sessions")
    peer_reached, peer_at, peer_missed = search_cells(peer_streams, "processes")
    lm_reached, lm_at, lm_missed = search_cells(landmarker_streams, "sessions")
    lm_peer_reached, lm_peer_at, lm_peer_missed = search_cells(peer_landmarker_streams, "processes")
    print(f"FaceWorker (release, {os.cpu_count()} cores) through face-bench against MediaPipe in-process: "
          f"{LEGACY}'s legacy solutions and {TASKS}'s Tasks, each row's peer named; on the {len(frames)} frames "
          f"of {args.frames} (640x360 JPEG, cycled); P1, P1t, P2, P2t: medians over {args.starts} worker starts")
    print_table([
        *spread_rows("P1", f"detection only, round trip p50 (peer: {LEGACY} FaceDetection)", p1_ours, p1_peer,
                     p1_ratio, 0.5),
        *spread_rows("P1t", f"P1 against {TASKS} Tasks FaceDetector (the bundle's detector)", p1t_ours, p1t_peer,
                     p1t_ratio, P1T_RATIO_GOAL),
        *spread_rows("P2", f"478 landmarks + tracking + ML Kit, round trip p50 (peer: {LEGACY} FaceMesh)", p2_ours,
                     p2_peer, p2_ratio, 0.5),
        *spread_rows("P2py", f"P2 through the Python client (FaceLandmarker; peer: {LEGACY})", p2_python, p2_peer,
                     p2_python_ratio, None),
        *spread_rows("P2t", f"Face Landmarker + blendshapes + matrix, round trip p50 (peer: {TASKS} Tasks)",
                     p2t_ours, p2t_peer, p2t_ratio, P2T_RATIO_GOAL),
        *spread_rows("P2tpy", f"P2t through the Python client (FaceLandmarker; peer: {TASKS})", p2t_python,
                     p2t_peer, p2t_python_ratio, P2T_RATIO_GOAL),
        *spread_rows("P2tbn", f"P2t while a second session is open and idle (peer: {TASKS})", *beside["idle"][:2],
                     beside["idle"][2], NEIGHBOUR_RATIO_GOAL),
        *spread_rows("P2tws", f"P2t while a second session detects at {NEIGHBOUR_FPS} fps (peer: {TASKS})",
                     *beside["stream"][:2], beside["stream"][2], NEIGHBOUR_RATIO_GOAL),
        *spread_rows("P2tc", f"P2t at a camera's {CAMERA_FPS} fps, idle between frames (peer: {TASKS} Tasks, same pace)",
                     *beside["camera"][:2], beside["camera"][2], P2T_RATIO_GOAL),
        ("First", "a fresh worker's first frame (P2t's workload) against its P2t median", f"{first_frame.median:.3f} ms",
         f"median {p2t_ours.median:.3f} ms", f"{first_ratio.median:.3f}", f"<= {FIRST_FRAME_GOAL}x",
         verdict(first_ratio.median <= FIRST_FRAME_GOAL)),
        ("", "  min / max over the starts", first_frame.range(" ms"), "", first_ratio.range(), "", ""),
        ("P4", f"{LIVE_SESSIONS} live streams x {FPS} fps, whole pipeline: p99", f"{p4_p99:.2f} ms", "-",
         "-", "<= 33 ms", verdict(p4_p99 <= 33)),
        ("", f"  answered ({live['answered']} of {live['sent']}; {live['dropped']} dropped)",
         f"{100 * p4_answered:.1f} %", "-", "-", f">= {100 * P4_ANSWERED_GOAL:.0f} %",
         verdict(p4_answered >= P4_ANSWERED_GOAL)),
        ("", "  errors", str(live["errors"]), "-", "-", "0", verdict(live["errors"] == 0)),
        ("P5", f"memory, {LIVE_SESSIONS} sessions (sum of peak RSS)", f"{p5_ours_kib / 1024:.1f} MiB",
         f"{peer_kib / 1024:.1f} MiB", f"{summary['p5_ratio']:.3f}", "<= 0.25x", verdict(summary["p5_ratio"] <= 0.25)),
        ("P6", f"empty Ping round trip p50, client busy-polls {BUSY_POLL_US} us", f"{p6_us:.1f} us",
         f"echo {echo_us:.1f} us", f"{p6_us / echo_us:.3f}", "<= 25 us", verdict(p6_us <= 25)),
        ("", "  client sleeping in poll(2)", f"{p6_asleep_us:.1f} us", f"echo {echo_asleep_us:.1f} us",
         f"{p6_asleep_us / echo_asleep_us:.3f}", "-", ""),
        ("P7", f"most {FPS} fps live streams with p99 <= {P99_BAR_MS:.0f} ms, >= {100 * ANSWERED_BAR:.0f} % answered",
         ours_reached, peer_reached, "-" if p7_ratio is None else f"{p7_ratio:.3f}",
         f">= {P7_STREAMS_GOAL} and >= 2x", verdict(p7_met)),
        ("", "  at that count", ours_at, peer_at, "", "", ""),
        ("", "  the count above it, which missed the bar", ours_missed, peer_missed, "", "", ""),
        ("P7t", f"P7 with the Face Landmarker (peer: {TASKS} Tasks processes)", lm_reached, lm_peer_reached,
         "-" if p7t_ratio is None else f"{p7t_ratio:.3f}", f">= {P7T_RATIO_GOAL}x",
         verdict(p7t_ratio is not None and p7t_ratio >= P7T_RATIO_GOAL)),
        ("", "  at that count", lm_at, lm_peer_at, "", "", ""),
        ("", "  the count above it, which missed the bar", lm_missed, lm_peer_missed, "", "", ""),
        *p8_table_rows(raw_rows, verdict, LEGACY),
        *p9_table_rows(subscribed, verdict),
        *grpc_rows(through_grpc),
    ])
    print()
    print(stage_line("P1 ours (the start with the median P2 ratio)", typical.p1_ours.detail))
    print(stage_line("P2 ours (the same start)", typical.p2_ours.detail))
    print(stage_line("P2t ours (the same start)", typical.p2t_ours.detail))
    python = typical.p2_python.detail
    cost = (f"; the client's own cost per 478-point result {result_us:.1f} us ({args.result_cost.name}; goal "
            f"<= {PYTHON_RESULT_GOAL_US} us: {verdict(result_us <= PYTHON_RESULT_GOAL_US)})")
    print(f"P2py (the same start): round trip p50 {typical.p2_python.median_ms:.3f} ms, transport and client "
          f"{python['overhead_median_ms']:.3f} ms (face-bench: {typical.p2_ours.detail['transport_median_ms']:.3f})"
          + cost)
    print(f"MediaPipe found a face in {typical.p1_peer.detail}/{n} (P1) and {typical.p2_peer.detail}/{n} (P2) "
          f"timed frames; ours answered {typical.p1_ours.detail['faces']} and {typical.p2_ours.detail['faces']} "
          f"faces in {typical.p1_ours.detail['answered']} and {typical.p2_ours.detail['answered']} frames, "
          f"the Python client found {python['faces']} in {python['frames']}")
    print(f"P2t: MediaPipe Tasks found a face in {typical.p2t_peer.detail}/{n} timed frames; ours answered "
          f"{typical.p2t_ours.detail['faces']} faces in {typical.p2t_ours.detail['answered']} frames, the Python "
          f"client found {typical.p2t_python.detail['faces']} in {typical.p2t_python.detail['frames']}")
    print(f"P4: {live['answered']} answered, {live['dropped']} dropped, {live['errors']} errors; round trip "
          f"p50 {live['latency_ms']['p50']:.2f}, p90 {live['latency_ms']['p90']:.2f}, max "
          f"{live['latency_ms']['max']:.2f} ms" + (f"; first error: {live['first_error']}" if live["errors"] else ""))
    print(f"P5: worker {worker_kib / 1024:.1f} MiB + {PEER_PROCESSES} face-bench clients {clients_kib / 1024:.1f} MiB "
          f"against {PEER_PROCESSES} MediaPipe processes {peer_kib / 1024:.1f} MiB")
    print(f"P6: {ping['answered']} Pings each way, the best of {p6_rounds} rounds kept; "
          f"busy-polling p90 {ping['latency_ms']['p90'] * 1000:.1f}, "
          f"p99 {ping['latency_ms']['p99'] * 1000:.1f} us; the peer column is a bare echo process's round trip, "
          "the floor under any worker")
    print(f"P7: {args.live_seconds} s per step; ours: sessions of one worker, a frame answered when its result "
          "came; MediaPipe: one process per stream, a frame answered when processed within its "
          f"{1000 / FPS:.1f} ms slot (newer frames replace waiting ones on both sides)")
    print(f"P8: {args.raw_iterations} frames per side and size, the best of {min(P8_ROUNDS, args.rounds)} "
          "rounds kept; MediaPipe found a face in "
          + ", ".join(f"{row['mediapipe_faces']}" for row in raw_rows) + f"/{args.raw_iterations}, ours in "
          + ", ".join(f"{row['shared']['faces']}" for row in raw_rows) + " (NV12, RGB, 4K RGB); worker total "
          + ", ".join(f"{row['shared']['worker_median_ms']['total']:.2f}" for row in raw_rows) + " ms (shared memory)")
    print(f"P9: the producer sent {subscribed.producer['sent']} frames, {subscribed.producer['answered']} answered; "
          f"{SUBSCRIBERS} subscribers' p99 from the producer's send (CLOCK_REALTIME): "
          + ", ".join(f"{p:.2f}" for p in subscribed.subscriber_p99_ms) + " ms")
    print(grpc_line(through_grpc, args.rounds, n))
    print(f"latency histogram: {args.png}")
    write_results(summary)
    print(json.dumps(summary, separators=(",", ":")))


if __name__ == "__main__":
    main()
