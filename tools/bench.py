"""`make bench`: FaceWorker through its thinnest client against MediaPipe in-process, one run, one table.

    make bench
    .venv-tools/bin/python tools/bench.py --worker .build/release/face-worker \
        --face-bench clients/c/build/face-bench --models models \
        --frames Tests/FaceDetectionTests/Fixtures/video --png out/bench-latency.png

It starts a release face-worker on a private socket, drives it with face-bench (C, one thread and
connection per session) and runs MediaPipe 0.10.14's legacy solutions in this process on the same
JPEG bytes (the frame_*.jpg files of --frames, in name order, cycled), then prints one row per
performance goal of DESIGN.md:

* P1  detection only, video mode, round trip p50; peer: cv2 decode + FaceDetection.process.
* P2  478 landmarks + tracking + ML Kit outputs, round trip p50; peer: cv2 decode +
      FaceMesh(refine_landmarks=True).process.
* P4  8 live-stream sessions at 30 fps with the whole pipeline: round trip p99, share of the frames
      sent that were answered (the rest were dropped in favour of newer ones), errors. No peer.
* P5  peak resident memory (VmHWM) of a fresh worker serving 8 live-stream sessions plus the peak
      RSS of its 8 face-bench client processes, against the sum of the peak RSS of 8 MediaPipe
      processes (mediapipe_peer.py) doing the same work at once.
* P6  empty Ping round trip p50 on one connection of an idle worker, the client busy-polling for up
      to 50 us (fw_set_busy_poll) and, on the next line, sleeping in poll(2). The goal is absolute;
      beside it stands the floor: the same round trip to a bare echo process (face-bench -m echo),
      which shows what the kernel and the machine's thread wake-ups cost without the worker.

P1 and P2 are measured --rounds times, the two sides alternating; each side keeps its round with
the lowest median, so a burst of other work on a small machine spoils one round, not the ratio.
The latency histogram of those rounds, ours against MediaPipe, is written to --png. The very last
line printed is one JSON object for scripts: p1_ratio, p2_ratio, p4_p99_ms, p4_answered (a share,
0 to 1), p4_errors, p5_ratio, p6_us, and the figures behind the ratios.
"""

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from bench_args import count
from bench_process import fail, last_json_line, require_executable
from mediapipe_peer import Peer, peak_rss_kib, read_frames

PEER_PROCESSES = 8
LIVE_SESSIONS = 8
LIVE_FPS = 30
BUSY_POLL_US = 50
STARTUP_TIMEOUT_S = 60
RUN_TIMEOUT_S = 900


class Worker:
    """A face-worker on a socket of its own, stopped with SIGTERM on exit."""

    def __init__(self, executable, models, scratch):
        self.socket = scratch / "faceworker.sock"
        self.log_path = scratch / "worker.log"
        self._command = [str(executable), "--models", str(models), "--socket", str(self.socket),
                         "--log-level", "warning"]

    def __enter__(self):
        self._log = open(self.log_path, "w")
        self.process = subprocess.Popen(self._command, stdout=self._log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + STARTUP_TIMEOUT_S
        # The worker links its socket onto the path only once it listens.
        while not self.socket.exists():
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


def run_at_once(commands):
    """Runs the commands at once, as separate processes; the JSON line each printed last."""
    processes = [subprocess.Popen(c, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for c in commands]
    outputs = [p.communicate(timeout=RUN_TIMEOUT_S) for p in processes]
    return [last_json_line(out, c, err) for c, (out, err) in zip(commands, outputs)]


def median_ms(samples_ms):
    return float(np.median(samples_ms))


def compare_round_trips(bench, peer, frames, mode, rounds, warmup, iterations, scratch):
    """Best-of-rounds round trips of one mode: (ours summary, our samples, peer samples, peer faces)."""
    pipeline = ["--landmarks"] if mode == "landmarks" else []
    if warmup:
        bench.run(bench.frames("-m", "video", "-n", str(warmup), *pipeline))
    ours, theirs = [], []
    for _ in range(rounds):
        theirs.append(peer.time(frames, mode, warmup, iterations))
        ours.append(bench.run(bench.frames("-m", "video", "-n", str(iterations), *pipeline),
                              samples=scratch / f"{mode}.txt"))
    best_ours = min(ours, key=lambda s: median_ms(s["samples_ms"]))
    peer_ns, peer_faces = min(theirs, key=lambda t: np.median(t[0]))
    return best_ours, best_ours["samples_ms"], np.asarray(peer_ns, dtype=np.float64) / 1e6, peer_faces


def measure_memory(args, scratch):
    """P5: (worker KiB, clients KiB, MediaPipe KiB), each a sum of peak resident sizes."""
    frames_per_process = str(LIVE_FPS * 5)
    with Worker(args.worker, args.models, scratch) as worker:
        bench = FaceBench(args.face_bench, args.frames, worker)
        clients = run_at_once([bench.frames("-c", "1", "-m", "live", "-r", str(LIVE_FPS),
                                               "-n", frames_per_process, "--landmarks")
                                  for _ in range(PEER_PROCESSES)])
        for summary in clients:
            if summary["errors"] or not summary["answered"]:
                fail(f"a memory client failed: {summary['first_error']}")
        worker_kib = peak_rss_kib(worker.process.pid)
    peer_program = Path(__file__).with_name("mediapipe_peer.py")
    peer_command = [sys.executable, str(peer_program), "--frames", str(args.frames), "--mode", "landmarks",
                    "--iterations", frames_per_process]
    peers = run_at_once([peer_command] * PEER_PROCESSES)
    return worker_kib, sum(s["max_rss_kib"] for s in clients), sum(p["max_rss_kib"] for p in peers)


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


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--worker", type=Path, required=True, help="the face-worker executable (release build)")
    parser.add_argument("--face-bench", type=Path, required=True, help="the face-bench executable")
    parser.add_argument("--models", type=Path, required=True, help="folder of the four .tflite models")
    parser.add_argument("--frames", type=Path, required=True, help="folder of frame_*.jpg files")
    parser.add_argument("--png", type=Path, required=True, help="where to write the latency histogram")
    parser.add_argument("--warmup", type=count(0), default=30, help="untimed frames first (default 30)")
    parser.add_argument("--iterations", type=count(1), default=300, help="timed frames per round (default 300)")
    parser.add_argument("--rounds", type=count(1), default=3, help="alternating rounds for P1, P2 (default 3)")
    parser.add_argument("--pings", type=count(1), default=20000, help="Pings timed for P6 (default 20000)")
    args = parser.parse_args()
    for executable in (args.worker, args.face_bench):
        require_executable(executable, "bench")

    frames = read_frames(args.frames)
    peer = Peer()
    with tempfile.TemporaryDirectory(prefix="faceworker-bench-") as tmp:
        scratch = Path(tmp)
        with Worker(args.worker, args.models, scratch) as worker:
            bench = FaceBench(args.face_bench, args.frames, worker)
            pings = str(args.pings)
            ping = bench.run(bench.command("-m", "ping", "-n", pings, "--busy-poll", str(BUSY_POLL_US)))
            ping_asleep = bench.run(bench.command("-m", "ping", "-n", pings))
            echo = bench.run(bench.command("-m", "echo", "-n", pings, "--busy-poll", str(BUSY_POLL_US)))
            echo_asleep = bench.run(bench.command("-m", "echo", "-n", pings))
            print("measured P6 (Ping)", file=sys.stderr, flush=True)
            p1, p1_ours, p1_peer, p1_faces = compare_round_trips(bench, peer, frames, "detect", args.rounds,
                                                                 args.warmup, args.iterations, scratch)
            print("measured P1 (detection)", file=sys.stderr, flush=True)
            p2, p2_ours, p2_peer, p2_faces = compare_round_trips(bench, peer, frames, "landmarks", args.rounds,
                                                                 args.warmup, args.iterations, scratch)
            print("measured P2 (landmarks)", file=sys.stderr, flush=True)
            live = bench.run(bench.frames("-c", str(LIVE_SESSIONS), "-m", "live", "-r", str(LIVE_FPS),
                                          "-n", str(LIVE_FPS * 10), "--landmarks"))
            print("measured P4 (live streams)", file=sys.stderr, flush=True)
        worker_kib, clients_kib, peer_kib = measure_memory(args, scratch)
        print("measured P5 (memory)", file=sys.stderr, flush=True)

    write_histogram(args.png, [
        ("P1 detection only (video mode)", p1_ours, p1_peer),
        ("P2 478 landmarks + tracking + ML Kit outputs", p2_ours, p2_peer),
    ])

    p1_ms, p1_peer_ms = median_ms(p1_ours), median_ms(p1_peer)
    p2_ms, p2_peer_ms = median_ms(p2_ours), median_ms(p2_peer)
    p4_p99 = live["latency_ms"]["p99"]
    p4_answered = live["answered"] / live["sent"] if live["sent"] else 0.0
    p5_ours_kib = worker_kib + clients_kib
    def p50_us(run):
        return run["latency_ms"]["p50"] * 1000
    p6_us, p6_asleep_us = p50_us(ping), p50_us(ping_asleep)
    echo_us, echo_asleep_us = p50_us(echo), p50_us(echo_asleep)
    summary = {
        "p1_ratio": round(p1_ms / p1_peer_ms, 3), "p2_ratio": round(p2_ms / p2_peer_ms, 3),
        "p4_p99_ms": round(p4_p99, 3), "p4_answered": round(p4_answered, 4), "p4_errors": live["errors"],
        "p5_ratio": round(p5_ours_kib / peer_kib, 3), "p6_us": round(p6_us, 2),
        "p6_sleeping_us": round(p6_asleep_us, 2), "p6_echo_floor_us": round(echo_us, 2),
        "p6_echo_floor_sleeping_us": round(echo_asleep_us, 2),
        "p1_ms": round(p1_ms, 3), "p1_mediapipe_ms": round(p1_peer_ms, 3),
        "p2_ms": round(p2_ms, 3), "p2_mediapipe_ms": round(p2_peer_ms, 3),
        "p5_worker_mib": round(worker_kib / 1024, 1), "p5_clients_mib": round(clients_kib / 1024, 1),
        "p5_mediapipe_mib": round(peer_kib / 1024, 1), "histogram": str(args.png),
    }

    n = args.iterations
    print(f"FaceWorker (release, {os.cpu_count()} cores) through face-bench against MediaPipe 0.10.14 "
          f"in-process, on the {len(frames)} frames of {args.frames} (640x360 JPEG, cycled)")
    print_table([
        ("P1", "detection only, round trip p50", f"{p1_ms:.3f} ms", f"{p1_peer_ms:.3f} ms",
         f"{summary['p1_ratio']:.3f}", "<= 0.5x", verdict(summary["p1_ratio"] <= 0.5)),
        ("P2", "478 landmarks + tracking + ML Kit, round trip p50", f"{p2_ms:.3f} ms", f"{p2_peer_ms:.3f} ms",
         f"{summary['p2_ratio']:.3f}", "<= 0.5x", verdict(summary["p2_ratio"] <= 0.5)),
        ("P4", f"{LIVE_SESSIONS} live streams x {LIVE_FPS} fps, whole pipeline: p99", f"{p4_p99:.2f} ms", "-",
         "-", "<= 33 ms", verdict(p4_p99 <= 33)),
        ("", f"  answered ({live['answered']} of {live['sent']}; {live['dropped']} dropped)",
         f"{100 * p4_answered:.1f} %", "-", "-", ">= 95 %", verdict(p4_answered >= 0.95)),
        ("", "  errors", str(live["errors"]), "-", "-", "0", verdict(live["errors"] == 0)),
        ("P5", f"memory, {LIVE_SESSIONS} sessions (sum of peak RSS)", f"{p5_ours_kib / 1024:.1f} MiB",
         f"{peer_kib / 1024:.1f} MiB", f"{summary['p5_ratio']:.3f}", "<= 0.25x", verdict(summary["p5_ratio"] <= 0.25)),
        ("P6", f"empty Ping round trip p50, client busy-polls {BUSY_POLL_US} us", f"{p6_us:.1f} us",
         f"echo {echo_us:.1f} us", f"{p6_us / echo_us:.3f}", "<= 25 us", verdict(p6_us <= 25)),
        ("", "  client sleeping in poll(2)", f"{p6_asleep_us:.1f} us", f"echo {echo_asleep_us:.1f} us",
         f"{p6_asleep_us / echo_asleep_us:.3f}", "-", ""),
    ])
    print()
    print(stage_line("P1 ours", p1))
    print(stage_line("P2 ours", p2))
    print(f"MediaPipe found a face in {p1_faces}/{n} (P1) and {p2_faces}/{n} (P2) timed frames; "
          f"ours answered {p1['faces']} and {p2['faces']} faces in {p1['answered']} and {p2['answered']} frames")
    print(f"P4: {live['answered']} answered, {live['dropped']} dropped, {live['errors']} errors; round trip "
          f"p50 {live['latency_ms']['p50']:.2f}, p90 {live['latency_ms']['p90']:.2f}, max "
          f"{live['latency_ms']['max']:.2f} ms" + (f"; first error: {live['first_error']}" if live["errors"] else ""))
    print(f"P5: worker {worker_kib / 1024:.1f} MiB + {PEER_PROCESSES} face-bench clients {clients_kib / 1024:.1f} MiB "
          f"against {PEER_PROCESSES} MediaPipe processes {peer_kib / 1024:.1f} MiB")
    print(f"P6: {ping['answered']} Pings each way, busy-polling p90 {ping['latency_ms']['p90'] * 1000:.1f}, "
          f"p99 {ping['latency_ms']['p99'] * 1000:.1f} us; the peer column is a bare echo process's round trip, "
          "the floor under any worker")
    print(f"latency histogram: {args.png}")
    print(json.dumps(summary, separators=(",", ":")))


if __name__ == "__main__":
    main()
