"""`make bench`'s P8 and P9: large raw frames through the socket and through shared memory, and one
named live stream followed by many subscriber processes.

* P8  detection only (face-bench's video mode, default detection options), round trip p50 on raw
      frames made here from the repository's astronaut photograph (scaled to the frame's height,
      centred on grey): 1920x1080 NV12, 1920x1080 RGB, 3840x2160 RGB. Ours twice: the bytes in
      the message (socket), and written once into a registered shared-memory buffer that each frame
      names (shared memory). The peer is MediaPipe's FaceDetection in this process on the same
      pixels, its NV12 conversion to RGB (cv2.cvtColor) inside its time. The transfer share is our
      round trip minus the worker's total_us (face-bench's transport median). MediaPipe and our two
      sides take P8_ROUNDS turns and each keeps its fastest round.
* P9  one producer (face-bench, a named LIVE_STREAM session at 30 fps) and SUBSCRIBERS subscriber
      processes (face-bench -m subscribe). Every process stamps its events with CLOCK_REALTIME,
      the host's one wall clock: the producer when it sends each frame and when each answer
      arrives, each subscriber when each event arrives. A subscriber's latency is its arrival
      minus the producer's send time of the same frame; its p99 is set against the producer's own
      p99 (its arrival minus its send time). Lost: frames the producer got a result for that a
      subscriber did not, plus the events it was told it missed.
"""

import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from tools.bench.bench_rounds import Run, best_of_rounds
from tools.bench.bench_worker import RUN_TIMEOUT_S
from tools.shared.bench_process import fail, last_json_line

PHOTO = Path(__file__).resolve().parents[2] / "Tests/Fixtures/astronaut.jpg"
RAW_FRAMES = (("1920x1080 NV12", 1920, 1080, "nv12"), ("1920x1080 RGB", 1920, 1080, "rgb"),
              ("3840x2160 RGB", 3840, 2160, "rgb"))
P8_RATIO_GOAL = 0.5
P8_TRANSFER_GOAL_MS = 0.1
P8_ROUNDS = 3
# Our two ways of sending a P8 frame: its bytes in the message, or a region of a registered buffer.
P8_SIDES = (("socket", []), ("shared", ["--shared-memory"]))
SUBSCRIBERS = 8
P9_FPS = 30
P9_SECONDS = 10
P9_EXTRA_GOAL_MS = 1.0
SESSION_NAME = "make-bench-p9"


@dataclass(frozen=True)
class RawFrame:
    """One test frame: its label, size and format, its pixels as MediaPipe gets them (RGB, or
    NV12 as a (height * 3 / 2, width) array) and the file face-bench reads."""

    label: str
    width: int
    height: int
    fmt: str
    pixels: np.ndarray
    path: Path


def make_raw_frames(scratch):
    import cv2

    photo = cv2.imread(str(PHOTO), cv2.IMREAD_COLOR)
    if photo is None:
        fail(f"cannot read {PHOTO}")
    frames = []
    for label, width, height, fmt in RAW_FRAMES:
        side = height
        canvas = np.full((height, width, 3), 128, dtype=np.uint8)
        left = (width - side) // 2
        canvas[:, left:left + side] = cv2.resize(photo, (side, side), interpolation=cv2.INTER_LINEAR)
        if fmt == "rgb":
            pixels = np.ascontiguousarray(cv2.cvtColor(canvas, cv2.COLOR_BGR2RGB))
        else:
            # OpenCV's I420 is BT.601 limited range, the worker's YUV; NV12 interleaves its U and V.
            i420 = cv2.cvtColor(canvas, cv2.COLOR_BGR2YUV_I420).reshape(-1)
            luma, quarter = width * height, width * height // 4
            chroma = np.empty(2 * quarter, dtype=np.uint8)
            chroma[0::2], chroma[1::2] = i420[luma:luma + quarter], i420[luma + quarter:]
            pixels = np.concatenate([i420[:luma], chroma]).reshape(height * 3 // 2, width)
        path = scratch / f"frame_{width}x{height}.{fmt}"
        path.write_bytes(pixels.tobytes())
        frames.append(RawFrame(label, width, height, fmt, pixels, path))
    return frames


def mediapipe_raw_p50(peer, frame, warmup, iterations):
    """MediaPipe FaceDetection's median time on the frame in ms, NV12 conversion included, and
    how many timed frames had a face."""
    import cv2

    from tools.peers.mediapipe_peer import make_solution, native_log_held_back

    with native_log_held_back():
        solution, found_face = make_solution(peer.solutions, "detect")
    if frame.fmt == "nv12":
        def run():
            return solution.process(cv2.cvtColor(frame.pixels, cv2.COLOR_YUV2RGB_NV12))
    else:
        def run():
            return solution.process(frame.pixels)
    with native_log_held_back():
        for _ in range(warmup):
            run()
    samples, faces = [], 0
    for _ in range(iterations):
        start = time.perf_counter_ns()
        result = run()
        samples.append(time.perf_counter_ns() - start)
        faces += found_face(result)
    solution.close()
    return float(np.median(samples)) / 1e6, faces


def measure_raw_frames(bench, peer, scratch, warmup, iterations, progress, rounds=P8_ROUNDS):
    """P8: per frame, {"frame", "socket", "shared", "mediapipe_ms", "mediapipe_faces"}, the two
    ours being face-bench summaries: MediaPipe and our two sides take turns `rounds` times
    (best_of_rounds) and each keeps its fastest round."""
    rows = []
    for frame in make_raw_frames(scratch):
        raw = ["--raw", str(frame.path), "--raw-format", frame.fmt, "--raw-size", f"{frame.width}x{frame.height}"]

        def mediapipe_side():
            median_ms, faces = mediapipe_raw_p50(peer, frame, warmup, iterations)
            return Run(median_ms, None, faces)

        def our_side(side, extra):
            bench.run(bench.command("-m", "video", "-n", str(warmup), *raw, *extra))

            def run():
                summary = bench.run(bench.command("-m", "video", "-n", str(iterations), *raw, *extra))
                if summary["errors"] or summary["answered"] != iterations:
                    fail(f"P8 {frame.label} ({side}): {summary['answered']} of {iterations} answered; first error: "
                         f"{summary['first_error']}")
                return Run(summary["latency_ms"]["p50"], None, summary)
            return run

        kept = best_of_rounds(rounds, [mediapipe_side, *(our_side(side, extra) for side, extra in P8_SIDES)])
        ours = {side: run.detail for (side, _), run in zip(P8_SIDES, kept[1:])}
        rows.append({"frame": frame, **ours, "mediapipe_ms": kept[0].median_ms, "mediapipe_faces": kept[0].detail})
        progress(f"P8 {frame.label}: socket {ours['socket']['latency_ms']['p50']:.2f} ms, shared memory "
                 f"{ours['shared']['latency_ms']['p50']:.2f} ms, MediaPipe {kept[0].median_ms:.2f} ms")
    return rows


def read_events(path):
    """{timestamp: (kind, sent_ns, arrived_ns)} of answers, and the total of missed events."""
    answers, missed = {}, 0
    for line in path.read_text().splitlines():
        value, kind, sent, arrived = line.split()
        if kind == "missed":
            missed += int(value)
        elif kind in ("result", "dropped", "error"):
            answers[int(value)] = (kind, int(sent), int(arrived))
    return answers, missed


@dataclass(frozen=True)
class Subscribers:
    """P9's figures: p99s in ms, the worst subscriber's p99 minus the producer's, results lost."""

    producer_p99_ms: float
    subscriber_p99_ms: list
    extra_ms: float
    lost: int
    producer: dict
    subscribers: list


def measure_subscribers(bench, scratch, warmup):
    # The worker's first frames would otherwise be the stream's slowest.
    bench.run(bench.frames("-m", "video", "-n", str(max(warmup, 1))))
    events = [scratch / f"p9_subscriber_{k}.txt" for k in range(SUBSCRIBERS)]
    produced = scratch / "p9_producer.txt"
    subscribers = [subprocess.Popen(bench.command("-m", "subscribe", "--name", SESSION_NAME, "--events", str(path)),
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for path in events]
    producer = bench.run(bench.frames("-m", "live", "-r", str(P9_FPS), "-n", str(P9_FPS * P9_SECONDS),
                                      "--name", SESSION_NAME, "--wait-subscribers", str(SUBSCRIBERS),
                                      "--events", str(produced)))
    summaries = []
    for process in subscribers:
        out, err = process.communicate(timeout=RUN_TIMEOUT_S)
        summaries.append(last_json_line(out, ["face-bench -m subscribe"], err))
    if producer["errors"] or not producer["answered"]:
        fail(f"P9's producer failed: {producer['first_error']}")
    answers, _ = read_events(produced)
    sent = {ts: sent_ns for ts, (_, sent_ns, _) in answers.items()}
    results = {ts for ts, (kind, _, _) in answers.items() if kind == "result"}
    producer_ms = [(arrived - sent[ts]) / 1e6 for ts, (kind, _, arrived) in answers.items() if kind == "result"]
    p99s, lost = [], 0
    for path, summary in zip(events, summaries):
        got, missed = read_events(path)
        if summary["errors"]:
            fail(f"a P9 subscriber failed: {summary['first_error']}")
        followed = [(arrived - sent[ts]) / 1e6 for ts, (kind, _, arrived) in got.items()
                    if kind == "result" and ts in sent]
        p99s.append(float(np.percentile(followed, 99)) if followed else float("inf"))
        lost += missed + len(results - {ts for ts, (kind, _, _) in got.items() if kind == "result"})
    producer_p99 = float(np.percentile(producer_ms, 99))
    return Subscribers(producer_p99, p99s, max(p99s) - producer_p99, lost, producer, summaries)


def p8_table_rows(rows, verdict, peer_name):
    """Table rows: per frame ours (shared memory, then socket) against MediaPipe (`peer_name`, its
    release), and the transfer shares."""
    lines = []
    for row in rows:
        frame, peer_ms = row["frame"], row["mediapipe_ms"]
        shared, socket = row["shared"]["latency_ms"]["p50"], row["socket"]["latency_ms"]["p50"]
        label = "P8" if not lines else ""
        lines.append((label, f"{frame.label}, detection, p50: shared memory (peer: {peer_name} FaceDetection)",
                      f"{shared:.3f} ms", f"{peer_ms:.3f} ms", f"{shared / peer_ms:.3f}", f"<= {P8_RATIO_GOAL}x",
                      verdict(shared / peer_ms <= P8_RATIO_GOAL)))
        lines.append(("", "  through the socket", f"{socket:.3f} ms", f"{peer_ms:.3f} ms",
                      f"{socket / peer_ms:.3f}", "-", ""))
        for side, name in (("shared", "shared memory"), ("socket", "socket")):
            transfer = row[side]["transport_median_ms"]
            lines.append(("", f"  transfer share, {name} (round trip - worker total)", f"{transfer:.3f} ms", "-",
                          "-", f"<= {P8_TRANSFER_GOAL_MS} ms",
                          verdict(transfer <= P8_TRANSFER_GOAL_MS) if side == "shared" else ""))
    return lines


def p9_table_rows(result, verdict):
    worst = max(result.subscriber_p99_ms)
    return [
        ("P9", f"{SUBSCRIBERS} subscriber processes of a {P9_FPS} fps live stream: worst p99 - producer p99",
         f"{result.extra_ms:.3f} ms", "-", "-", f"<= {P9_EXTRA_GOAL_MS} ms",
         verdict(result.extra_ms <= P9_EXTRA_GOAL_MS)),
        ("", f"  p99 from send: producer {result.producer_p99_ms:.2f} ms, worst subscriber {worst:.2f} ms",
         "", "", "", "", ""),
        ("", "  results lost by subscribers that keep up", str(result.lost), "-", "-", "0",
         verdict(result.lost == 0)),
    ]


def p8_keys(rows):
    by = {(row["frame"].width, row["frame"].fmt): row for row in rows}

    def ratio(width, fmt):
        row = by[(width, fmt)]
        return round(row["shared"]["latency_ms"]["p50"] / row["mediapipe_ms"], 3)
    transfers = [row[side]["transport_median_ms"] for row in rows for side in ("shared", "socket")]
    return {"p8_ratio_1080p_nv12": ratio(1920, "nv12"), "p8_ratio_1080p_rgb": ratio(1920, "rgb"),
            "p8_ratio_2160p_rgb": ratio(3840, "rgb"),
            "p8_transfer_ms_max": round(max(row["shared"]["transport_median_ms"] for row in rows), 3),
            "p8_socket_transfer_ms_max": round(max(transfers), 3)}


def p9_keys(result):
    return {"p9_p99_extra_ms": round(result.extra_ms, 3), "p9_lost": result.lost,
            "p9_producer_p99_ms": round(result.producer_p99_ms, 3),
            "p9_subscriber_p99_ms_max": round(max(result.subscriber_p99_ms), 3)}
