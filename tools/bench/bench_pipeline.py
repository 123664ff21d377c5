"""Per-frame face pipeline time: our pipeline-bench executable against MediaPipe's Python solutions,
then the time to crop a camera frame into a model's input tensor.

    make bench-pipeline
    .venv-tools/bin/python -m tools.bench.bench_pipeline --frames Tests/Fixtures/video \
        --ours .build/release/pipeline-bench
    .venv-tools/bin/python -m tools.bench.bench_pipeline --sampling-only --ours .build/release/pipeline-bench

Both sides get the same JPEG bytes: the frame_*.jpg files of --frames in name order, read into
memory before timing. Frame k of a run (warm-up frames included, k = 0, 1, ...) is file
k mod N; the fixture video loops smoothly, so a tracker never sees a jump when it wraps.
Three modes are timed per frame, from JPEG bytes to result, as mediapipe_peer.py describes
(detect: decode + FaceDetection; landmarks: decode + FaceMesh with refined landmarks, against
our 478-point mesh with the ML Kit outputs and tracking; tasks: decode + the Tasks FaceLandmarker
with blendshapes and matrices, against our Face Landmarker with the same outputs), all against
mediapipe 0.10.14, the tools' environment's release.
MediaPipe is timed here with time.perf_counter_ns around decode + process, with a fresh
solution object per round. Ours is timed by the executable itself, run as

    <ours> frames --frames DIR --models DIR --mode detect|landmarks [--mesh-model face-landmarker
        --blendshapes --matrix] --warmup W --iterations I

which prints one JSON line: {"mode": "detect", "median_ms": ..., "p90_ms": ..., "iterations": I}.

Each mode is measured --rounds times, the two sides alternating, and each side keeps its round
with the lowest median, so a burst of other work on a small machine spoils one round, not the
ratio.

The sampling rows have no peer: they time, on one thread, what a frame costs before the first
model runs. A 1920x1080 RGB or NV12 frame is read in place as the worker does, cropped by
Imaging's sampler into a 128x128, 192x192 or 256x256 tensor, whole (letterbox, the detectors'
input) or as a tilted face (the landmark models' input); a first row crops a face from a 640x480
RGB image, what a release-only test once timed. The executable runs them itself, as

    <ours> sampling --runs N

which prints one JSON line: {"bench": "sampling", "runs": N, "rows": [{"case": ..., "median_ms": ...,
"p90_ms": ..., "fastest_ms": ...}, ...]}.

The output is the tables, then, as the very last line, one JSON object:
{"bench": "pipeline", "detect_ratio": R, "landmarks_ratio": R,
 "ours_ms": {"detect": ..., "landmarks": ...}, "mediapipe_ms": {"detect": ..., "landmarks": ...},
 "sampling_ms": {case: median}}
with medians in ms and R = ours / MediaPipe. The goal (P1, P2) is a ratio of at most 0.5. With
--sampling-only, MediaPipe is not run and the object is {"bench": "sampling", "sampling_ms": {...}}.
"""

import argparse
import json
import sys
from pathlib import Path

from tools.peers.mediapipe_peer import Peer, read_frames
from tools.shared.bench_args import count
from tools.shared.bench_process import fail, median_and_p90, require_executable, run_json, summary_ms

GOAL = 0.5
OURS_TIMEOUT_S = 600
# What a sampling row reports, in ms, in the order the table shows it.
SAMPLING_TIMES = ("median_ms", "p90_ms", "fastest_ms")
# Each mode's peer (a mediapipe_peer.py mode) and pipeline-bench's options for the same work.
MODES = {
    "detect": ("detect", ["--mode", "detect"]),
    "landmarks": ("landmarks", ["--mode", "landmarks"]),
    "tasks": ("tasks", ["--mode", "landmarks", "--mesh-model", "face-landmarker", "--blendshapes", "--matrix"]),
}


def time_mediapipe(peer, frames, mode, warmup, iterations):
    """Median and p90 in ms, and how many timed frames gave a face."""
    samples, with_face = peer.time(frames, mode, warmup, iterations)
    return (*summary_ms(samples), with_face)


def time_ours(ours, frames_dir, models, options, warmup, iterations):
    command = [str(ours), "frames", "--frames", str(frames_dir), "--models", str(models), *options,
               "--warmup", str(warmup), "--iterations", str(iterations)]
    result = run_json(command, OURS_TIMEOUT_S)
    median, p90 = median_and_p90(result, command)
    mode = options[options.index("--mode") + 1]
    if result.get("mode") != mode or result.get("iterations") != iterations:
        fail(f"{ours} answered for mode {result.get('mode')} with {result.get('iterations')} iterations, "
             f"asked for {mode} with {iterations}")
    return median, p90


def time_sampling(ours, runs):
    """The sampling cases' rows, in the order the executable measured them."""
    command = [str(ours), "sampling", "--runs", str(runs)]
    result = run_json(command, OURS_TIMEOUT_S)
    rows = result.get("rows")
    if result.get("runs") != runs or not isinstance(rows, list) or not rows:
        fail(f"{' '.join(command)} answered {result}, expected {runs} runs of at least one case")
    keys = ("case", *SAMPLING_TIMES)
    for row in rows:
        if not isinstance(row, dict) or any(key not in row for key in keys):
            fail(f"{' '.join(command)} printed a row without {', '.join(keys)}: {row}")
    return rows


def print_columns(lines):
    widths = [max(len(line[i]) for line in lines) for i in range(len(lines[0]))]
    for line in lines:
        print("  ".join(cell.ljust(width) for cell, width in zip(line, widths)).rstrip())


def print_sampling_table(rows, runs):
    print(f"Frame to model tensor, one thread, {runs} runs a case (the sampler reading the stored pixels in place)")
    header = ("case", "ms", "p90", "fastest")
    print_columns([header] + [
        (row["case"], *(f"{row[key]:.3f}" for key in SAMPLING_TIMES))
        for row in rows
    ])


def print_table(rows, iterations):
    header = ("mode", "MediaPipe ms", "p90", "frames with a face", "ours ms", "p90", "ours/MediaPipe",
              f"goal (<= {GOAL})")
    lines = [header] + [
        (mode, f"{mm:.3f}", f"{mp90:.3f}", f"{faces}/{iterations}", f"{om:.3f}", f"{op90:.3f}", f"{om / mm:.3f}",
         "met" if om / mm <= GOAL else "NOT met")
        for mode, (mm, mp90, faces), (om, op90) in rows
    ]
    print_columns(lines)


def summary_json(rows, sampling_rows):
    summary = {"bench": "pipeline" if rows else "sampling"}
    summary.update({f"{mode}_ratio": round(ours[0] / peer[0], 3) for mode, peer, ours in rows})
    if rows:
        summary["ours_ms"] = {mode: round(ours[0], 4) for mode, _, ours in rows}
        summary["mediapipe_ms"] = {mode: round(peer[0], 4) for mode, peer, _ in rows}
    summary["sampling_ms"] = {row["case"]: round(row["median_ms"], 4) for row in sampling_rows}
    return json.dumps(summary, separators=(",", ":"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=Path, help="folder of frame_*.jpg files (needed unless --sampling-only)")
    parser.add_argument("--ours", type=Path, required=True, help="our pipeline-bench executable")
    parser.add_argument("--models", type=Path, default=Path("models"),
                        help="folder of the models and face_landmarker.task (default models)")
    parser.add_argument("--warmup", type=count(0), default=30, help="untimed frames first (default 30)")
    parser.add_argument("--iterations", type=count(1), default=300, help="timed frames (default 300)")
    parser.add_argument("--rounds", type=count(1), default=3, help="alternating measurements per mode (default 3)")
    parser.add_argument("--sampling-runs", type=count(1), default=101,
                        help="timed runs of each sampling case (default 101)")
    parser.add_argument("--sampling-only", action="store_true",
                        help="time the sampling cases only, without MediaPipe")
    args = parser.parse_args()
    if not args.sampling_only and args.frames is None:
        parser.error("--frames is required unless --sampling-only is given")

    require_executable(args.ours, "bench-pipeline")
    rows = []
    if not args.sampling_only:
        frames = read_frames(args.frames)
        mediapipe = Peer(args.models)
        for mode, (peer_mode, options) in MODES.items():
            peer, ours = [], []
            for _ in range(args.rounds):
                peer.append(time_mediapipe(mediapipe, frames, peer_mode, args.warmup, args.iterations))
                ours.append(time_ours(args.ours, args.frames, args.models, options, args.warmup, args.iterations))
            rows.append((mode, min(peer), min(ours)))
            print(f"measured {mode} on {len(frames)} frames", file=sys.stderr, flush=True)
    sampling_rows = time_sampling(args.ours, args.sampling_runs)
    if rows:
        print("MediaPipe decodes with OpenCV (cv2.imdecode + cvtColor to RGB); both sides get the same JPEG bytes")
        print_table(rows, args.iterations)
        print()
    print_sampling_table(sampling_rows, args.sampling_runs)
    print(summary_json(rows, sampling_rows))


if __name__ == "__main__":
    main()
