"""P1, P2 and P6 through the gRPC socket beside the lean socket, for `make bench`: the price of gRPC.

It runs in the gRPC tests' environment (grpcio, grpcio-tools and the lean socket's Python client;
`make .venv-grpc/.ok` builds it), not in the tools' one, whose MediaPipe pins an older protobuf:

    .venv-grpc/bin/python -m tools.bench.bench_grpc --socket SOCKET --grpc-socket GRPC_SOCKET --frames DIR

Both doors of one worker, the same frames (the frame_*.jpg files of DIR in name order, cycled) and
the same options, from one process and one client library each:

* gRPC: grpcio's synchronous API on stubs grpcio-tools generates from proto/faceworker/v1 at the
  start; one Session stream per workload, each frame sent once the previous one is answered.
* lean: the Python client's connection (faceworker._connection), one session per workload, each
  frame a ProcessFrame call waited for.

Both send the JPEG bytes in a Frame message and parse the FrameResult; neither reads the points.
P1 is video mode with tracking, detection only; P2 adds the 478-point mesh and ML Kit's landmarks,
contours and classification (face-bench's --landmarks). Each side runs --rounds rounds of
--iterations frames, the sides alternating, and keeps its round with the lowest median, so a burst
of other work on the machine spoils a round, not the ratio. P6 is the empty Ping: grpcio's unary
call against the lean client's call, --pings each, alternating the same way.

Prints one JSON line: per workload and side the median round trip in ms and the median of the
round trip minus the worker's own total (transport and client), frames and faces; the ratios
p1_grpc_ratio and p2_grpc_ratio (gRPC over lean); p6_grpc_us and p6_lean_us.
"""

import argparse
import json
import queue
import statistics
import sys
import tempfile
import time
from pathlib import Path

from tools.shared.bench_args import count
from tools.shared.grpc_stubs import generate

FPS = 30
READY_TIMEOUT_S = 30
_END = object()


def median_us(samples_ns):
    return statistics.median(samples_ns) / 1e3


class Side:
    """One door's session of one workload: `frame(jpeg, timestamp_ms)` returns the FrameResult."""

    def __init__(self, name, frame):
        self.name, self.frame = name, frame


def lean_side(connection, pb, options):
    opened = connection.call(pb.ClientMessage(open_session=pb.OpenSessionRequest(options=options)))
    session_id = opened.open_session.session_id

    def frame(jpeg, timestamp_ms):
        answer = connection.call(pb.ClientMessage(process_frame=pb.ProcessFrameRequest(
            session_id=session_id, frame=pb.Frame(jpeg=jpeg, timestamp_ms=timestamp_ms))))
        return answer.frame_result
    return Side("lean", frame)


def grpc_side(stub, stubs, options, streams):
    requests = queue.Queue()
    call = stub.Session(iter(requests.get, _END))
    streams.append((requests, call))
    requests.put(stubs.service.SessionRequest(open=stubs.pb.OpenSessionRequest(options=options)))
    first = next(call)
    if first.WhichOneof("kind") != "opened":
        sys.exit(f"error: the gRPC session did not open: {first}")

    def frame(jpeg, timestamp_ms):
        requests.put(stubs.service.SessionRequest(frame=stubs.pb.Frame(jpeg=jpeg, timestamp_ms=timestamp_ms)))
        answer = next(call)
        if answer.WhichOneof("kind") != "result":
            sys.exit(f"error: a gRPC frame was answered with {answer}")
        return answer.result
    return Side("grpc", frame)


def timed_round(side, frames, first_index, timed):
    """`timed` frames, from frame number `first_index` on: (round trips, overheads) in ns, faces."""
    clock = time.perf_counter_ns
    samples, overheads, faces = [], [], 0
    for k in range(first_index, first_index + timed):
        jpeg = frames[k % len(frames)]
        start = clock()
        result = side.frame(jpeg, round(k * 1000 / FPS))
        elapsed = clock() - start
        samples.append(elapsed)
        overheads.append(max(0, elapsed - result.timings.total_us * 1000))
        faces += len(result.faces)
    return samples, overheads, faces


def measure_workload(sides, frames, args):
    """Warms each side up, then alternates timed rounds; each side's best round by median."""
    next_index = {side.name: 0 for side in sides}
    for side in sides:
        timed_round(side, frames, 0, args.warmup)
        next_index[side.name] = args.warmup
    kept = {}
    for _ in range(args.rounds):
        for side in sides:
            samples, overheads, faces = timed_round(side, frames, next_index[side.name], args.iterations)
            next_index[side.name] += args.iterations
            run = {"median_ms": statistics.median(samples) / 1e6,
                   "overhead_median_ms": statistics.median(overheads) / 1e6,
                   "frames": len(samples), "faces": faces}
            if side.name not in kept or run["median_ms"] < kept[side.name]["median_ms"]:
                kept[side.name] = run
    return {name: {key: round(value, 4) if isinstance(value, float) else value for key, value in run.items()}
            for name, run in kept.items()}


def measure_pings(lean_ping, grpc_ping, pings, rounds):
    """The best p50 of each side's rounds, in us."""
    clock = time.perf_counter_ns
    best = {}
    for _ in range(rounds):
        for name, ping in (("lean", lean_ping), ("grpc", grpc_ping)):
            samples = []
            for _ in range(pings):
                start = clock()
                ping()
                samples.append(clock() - start)
            best[name] = min(best.get(name, float("inf")), median_us(samples))
    return best


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--socket", required=True, help="the worker's lean socket")
    parser.add_argument("--grpc-socket", required=True, help="the worker's gRPC socket")
    parser.add_argument("--frames", type=Path, required=True, help="folder of frame_*.jpg files")
    parser.add_argument("--warmup", type=count(0), default=30, help="untimed frames first, per side (default 30)")
    parser.add_argument("--iterations", type=count(1), default=300, help="timed frames per round (default 300)")
    parser.add_argument("--rounds", type=count(1), default=3, help="alternating rounds per side (default 3)")
    parser.add_argument("--pings", type=count(1), default=5000, help="Pings per round and side for P6 (default 5000)")
    args = parser.parse_args()
    try:
        import grpc
        from faceworker._connection import Connection
    except ImportError as error:
        sys.exit(f"error: {error.name} is not installed in this interpreter; `make .venv-grpc/.ok` builds "
                 ".venv-grpc with grpcio and the Python client")
    frames = [path.read_bytes() for path in sorted(args.frames.glob("frame_*.jpg"))]
    if not frames:
        sys.exit(f"error: no frame_*.jpg in {args.frames}")

    with tempfile.TemporaryDirectory(prefix="faceworker-grpc-stubs-") as out:
        stubs = generate(Path(out))
    pb = stubs.pb
    p1 = pb.SessionOptions(running_mode=pb.RUNNING_MODE_VIDEO, tracking_enabled=True, num_faces=1)
    p2 = pb.SessionOptions(running_mode=pb.RUNNING_MODE_VIDEO, tracking_enabled=True, num_faces=1,
                           landmark_mode=pb.LANDMARK_MODE_ALL, contour_mode=pb.CONTOUR_MODE_ALL,
                           classification_mode=pb.CLASSIFICATION_MODE_ALL, output_face_mesh=True)

    connection = Connection(args.socket)
    channel = grpc.insecure_channel("unix:" + args.grpc_socket)
    grpc.channel_ready_future(channel).result(timeout=READY_TIMEOUT_S)
    stub = stubs.service_grpc.FaceWorkerStub(channel)
    streams = []
    try:
        workloads = {name: measure_workload([lean_side(connection, pb, options), grpc_side(stub, stubs, options, streams)],
                                            frames, args)
                     for name, options in (("p1", p1), ("p2", p2))}
        empty = pb.PingRequest()
        pings = measure_pings(lambda: connection.call(pb.ClientMessage(ping=empty)), lambda: stub.Ping(empty),
                              args.pings, args.rounds)
    finally:
        for requests, call in streams:
            requests.put(_END)
            for _ in call:
                pass
        channel.close()
        connection.close()

    summary = {}
    for name, sides in workloads.items():
        summary[f"{name}_grpc_ratio"] = round(sides["grpc"]["median_ms"] / sides["lean"]["median_ms"], 3)
        summary[f"{name}_grpc"] = sides["grpc"]
        summary[f"{name}_lean"] = sides["lean"]
    summary["p6_grpc_us"] = round(pings["grpc"], 2)
    summary["p6_lean_us"] = round(pings["lean"], 2)
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
