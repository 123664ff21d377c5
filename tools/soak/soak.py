"""A soak of one worker restarted under running clients, for `make soak MINUTES=N`: nothing may be lost.

It runs in the gRPC tests' environment (grpcio, grpcio-tools and the Python client; `make
.venv-grpc/.ok` builds it):

    .venv-grpc/bin/python -m tools.soak.soak --worker .build/release/face-worker --models models \\
        --frames Tests/Fixtures/video --minutes 30

This process plays the service manager. It binds the worker's socket once and passes it to every
worker it starts as LISTEN_FDS (socket activation), so a client that reconnects while no worker
runs waits in the socket's queue; it hears the worker's READY=1 on a NOTIFY_SOCKET of its own.
Every --restart-every seconds (180) it stops the worker with SIGTERM and starts a new one; once per
run, at the middle restart, with SIGKILL instead.

The clients are processes of their own, each the same script with --role:

* 4 producers, LIVE_STREAM at 30 fps, the whole pipeline (detection, 478-point mesh, tracking, ML
  Kit's landmarks, contours and classification) on the clip's frames, through the Python client
  with its default reconnect: 2 with named sessions, 1 sending its frames through shared memory,
  1 plain;
* 3 subscribers of each named session: 2 through the Python client, 1 that subscribes on a raw
  connection and never reads (it subscribes again after each restart);
* 1 Session stream through the gRPC door (grpcio), which re-opens its stream after a restart and
  counts the frames the cut left unanswered as dropped (WORKER_RESTARTED).

Every 5 s it scrapes the worker's metrics and reads its resident memory, open descriptors and
mappings from /proc. It prints, per client, frames sent, answered, dropped by reason and lost (sent
and neither answered nor dropped); per subscriber, results received and lost outside the restart
windows (a window runs from the stop signal until every client is back); the worker's memory and
descriptors over time; the mapped shared-memory bytes after each restart; and the issue's targets,
each met or not. The last line is one JSON object with all of it.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import select
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, Dict, List, Optional

FPS = 30
SCRAPE_SECONDS = 5.0
# Outside a restart window a subscriber may miss only the results still in flight when the
# window opens or closes; results are matched by timestamp, so this slack is in milliseconds.
WINDOW_SLACK_MS = 2000
SUBSCRIBERS_READING = 2


def now_ms() -> int:
    return int(time.time() * 1000)


# ---------------------------------------------------------------------------------------------
# Clients (each in a process of its own)
# ---------------------------------------------------------------------------------------------


def whole_pipeline(vision: Any, **options: Any) -> Any:
    return vision.FaceDetectorOptions(
        running_mode=vision.RunningMode.LIVE_STREAM, tracking_enabled=True,
        landmark_mode=vision.LandmarkMode.ALL, contour_mode=vision.ContourMode.ALL,
        classification_mode=vision.ClassificationMode.ALL, **options)


def frames_of(directory: str) -> List[bytes]:
    return [path.read_bytes() for path in sorted(Path(directory).glob("frame_*.jpg"))]


def run_producer(args: argparse.Namespace) -> Dict[str, Any]:
    """A LIVE_STREAM task at 30 fps until --seconds pass; every frame's fate, counted."""
    import faceworker
    from faceworker import BaseOptions, ReconnectPolicy, SharedFrameBuffer, vision

    frames = frames_of(args.frames)
    lock = threading.Lock()
    answered: List[int] = []
    dropped: Dict[str, int] = {}
    errors: Dict[str, int] = {}
    outages: List[Dict[str, Any]] = []
    slots_free = threading.Semaphore(8)

    def on_result(result: Any, image: Any, timestamp: int) -> None:
        with lock:
            answered.append(timestamp)
        if args.shared_memory:
            slots_free.release()

    def on_dropped(reason: Any, image: Any, timestamp: int) -> None:
        with lock:
            dropped[reason.name] = dropped.get(reason.name, 0) + 1
        if args.shared_memory:
            slots_free.release()

    def on_outage(outage: Any) -> None:
        with lock:
            outages.append({"back_unix": time.time() if outage.error is None else None,
                            "seconds": outage.seconds, "dropped": outage.dropped_frames,
                            "error": str(outage.error) if outage.error else None})

    policy = ReconnectPolicy(outage_callback=on_outage, deadline_seconds=args.reconnect_deadline)
    options = whole_pipeline(vision, base_options=BaseOptions(socket_path=args.socket, reconnect=policy),
                             result_callback=on_result, frame_dropped_callback=on_dropped,
                             session_name=args.name)
    sent = 0
    buffer = SharedFrameBuffer(8 * max(len(frame) for frame in frames)) if args.shared_memory else None
    slot_size = buffer.size // 8 if buffer else 0
    detector = vision.FaceDetector.create_from_options(options)
    if buffer is not None:
        detector.register_buffer(buffer)
    end = time.monotonic() + args.seconds
    next_frame = time.monotonic()
    last_timestamp = 0
    while time.monotonic() < end:
        frame = frames[sent % len(frames)]
        image: Any = frame
        if buffer is not None:
            # A slot is the worker's until its frame is answered.
            slots_free.acquire()
            image = buffer.write(frame, (sent % 8) * slot_size)
        try:
            last_timestamp = max(now_ms(), last_timestamp + 1)
            detector.detect_async(image, last_timestamp)
            sent += 1
        except faceworker.FaceWorkerError as error:
            # An earlier frame's error, raised late; this frame was not sent.
            with lock:
                errors[error.code.name] = errors.get(error.code.name, 0) + 1
            if buffer is not None:
                slots_free.release()
        next_frame += 1 / FPS
        time.sleep(max(0.0, next_frame - time.monotonic()))
    try:
        detector.close()
    except faceworker.FaceWorkerError as error:
        # The last frames' error, raised by close.
        errors[error.code.name] = errors.get(error.code.name, 0) + 1
    if buffer is not None:
        buffer.close()
    with lock:
        answered_count = len(answered)
        return {"role": "producer", "name": args.label, "session": args.name, "sent": sent, "answered": answered_count,
                "dropped": dropped, "errors": errors,
                "lost": sent - answered_count - sum(dropped.values()) - sum(errors.values()),
                "outages": outages, "results": answered}


def run_subscriber(args: argparse.Namespace) -> Dict[str, Any]:
    """A reading subscriber until --seconds pass: the timestamps of the results it received."""
    from faceworker import BaseOptions, ReconnectPolicy, vision

    lock = threading.Lock()
    received: List[int] = []
    counts = {"events_missed": 0, "resets": 0, "dropped": 0}
    outages: List[Dict[str, Any]] = []

    def on_result(result: Any, timestamp: int) -> None:
        with lock:
            received.append(timestamp)

    def count(key: str, amount: int = 1) -> None:
        with lock:
            counts[key] += amount

    def on_outage(outage: Any) -> None:
        with lock:
            outages.append({"back_unix": time.time() if outage.error is None else None,
                            "seconds": outage.seconds, "error": str(outage.error) if outage.error else None})

    policy = ReconnectPolicy(outage_callback=on_outage, deadline_seconds=args.reconnect_deadline)
    options = vision.FaceSubscriberOptions(
        base_options=BaseOptions(socket_path=args.socket, reconnect=policy), session_name=args.name,
        result_callback=on_result, events_missed_callback=lambda missed: count("events_missed", missed),
        session_reset_callback=lambda: count("resets"),
        frame_dropped_callback=lambda reason, timestamp: count("dropped"))
    # The producer opens its session first; the subscriber may start before it.
    deadline = time.monotonic() + 60
    while True:
        try:
            subscriber = vision.FaceSubscriber.create_from_options(options)
            subscribed_ms = now_ms()
            break
        except Exception:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)
    ended = subscriber.wait_for_end(timeout=args.seconds + 10)
    subscriber.close()
    with lock:
        return {"role": "subscriber", "name": args.label, "session": args.name, "received": len(received),
                "subscribed_ms": subscribed_ms, "ended": ended.name if ended else None, "outages": outages,
                "results": received, **counts}


def run_idle_subscriber(args: argparse.Namespace) -> Dict[str, Any]:
    """Subscribes on a raw connection and never reads; subscribes again whenever the worker hangs up."""
    from faceworker._proto import faceworker_pb2 as pb

    subscriptions = 0
    end = time.monotonic() + args.seconds
    while time.monotonic() < end:
        connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            connection.connect(args.socket)
            payload = pb.ClientMessage(call_id=1, subscribe=pb.SubscribeRequest(name=args.name)).SerializeToString()
            connection.sendall(struct.pack(">BI", 0, len(payload)) + payload)
            subscriptions += 1
            # POLLRDHUP tells the hang-up even with every byte the worker sent left unread.
            watcher = select.poll()
            watcher.register(connection, select.POLLRDHUP)
            while time.monotonic() < end and not watcher.poll(200):
                pass
        except OSError:
            time.sleep(0.2)
        finally:
            connection.close()
        if time.monotonic() < end:
            time.sleep(1.0)
    return {"role": "idle_subscriber", "name": args.label, "session": args.name, "subscriptions": subscriptions}


def run_grpc_producer(args: argparse.Namespace) -> Dict[str, Any]:
    """A Session stream through the gRPC door at 30 fps, opened again after each restart."""
    import grpc

    from tools.shared.grpc_stubs import generate

    stubs = generate(Path(tempfile.mkdtemp(prefix="soak-stubs-")))
    pb, service = stubs.pb, stubs.service
    frames = frames_of(args.frames)
    # gRPC's own reconnect waits start at 1 s; the lean clients' backoff (50 ms doubling to 500 ms) is asked for.
    channel = grpc.insecure_channel("unix:" + args.grpc_socket, options=[
        ("grpc.initial_reconnect_backoff_ms", 50), ("grpc.min_reconnect_backoff_ms", 50),
        ("grpc.max_reconnect_backoff_ms", 500)])
    stub = stubs.service_grpc.FaceWorkerStub(channel)
    options = pb.SessionOptions(
        running_mode=pb.RUNNING_MODE_LIVE_STREAM, tracking_enabled=True, landmark_mode=pb.LANDMARK_MODE_ALL,
        contour_mode=pb.CONTOUR_MODE_ALL, classification_mode=pb.CLASSIFICATION_MODE_ALL)
    sent = answered = 0
    dropped: Dict[str, int] = {}
    errors: Dict[str, int] = {}
    outages: List[Dict[str, Any]] = []
    end = time.monotonic() + args.seconds
    lost_at: Optional[float] = None
    last_timestamp = 0
    while time.monotonic() < end:
        requests: "queue.Queue[Any]" = queue.Queue()
        requests.put(service.SessionRequest(open=pb.OpenSessionRequest(options=options)))
        in_flight = set()
        lock = threading.Lock()
        stream_over = threading.Event()

        def read(call: Any) -> None:
            nonlocal answered
            try:
                for response in call:
                    kind = response.WhichOneof("kind")
                    with lock:
                        if kind == "result":
                            in_flight.discard(response.result.timestamp_ms)
                            answered += 1
                        elif kind == "dropped":
                            in_flight.discard(response.dropped.timestamp_ms)
                            reason = pb.FrameDropped.Reason.Name(response.dropped.reason).removeprefix("REASON_")
                            dropped[reason] = dropped.get(reason, 0) + 1
                        elif kind == "error":
                            if response.error.HasField("timestamp_ms"):
                                in_flight.discard(response.error.timestamp_ms)
                            name = pb.Status.Code.Name(response.error.code) if response.error.code else "UNKNOWN"
                            errors[name] = errors.get(name, 0) + 1
            except grpc.RpcError:
                pass
            finally:
                stream_over.set()

        call = stub.Session(iter(requests.get, None))
        reader = threading.Thread(target=read, args=(call,), daemon=True)
        reader.start()
        next_frame = time.monotonic()
        while time.monotonic() < end and not stream_over.is_set():
            # A frame sent late catches up with the clock; its timestamp must still increase.
            timestamp = last_timestamp = max(now_ms(), last_timestamp + 1)
            with lock:
                in_flight.add(timestamp)
            requests.put(service.SessionRequest(frame=pb.Frame(timestamp_ms=timestamp, jpeg=frames[sent % len(frames)])))
            sent += 1
            next_frame += 1 / FPS
            time.sleep(max(0.0, next_frame - time.monotonic()))
        requests.put(None)
        reader.join()
        with lock:
            # The cut left these unanswered: dropped, as the clients with a reconnect report them.
            if in_flight:
                dropped["WORKER_RESTARTED"] = dropped.get("WORKER_RESTARTED", 0) + len(in_flight)
        if time.monotonic() < end:
            lost_at = time.monotonic()
            # Wait for the door to come back: a Ping through it answers once the new worker serves.
            while time.monotonic() < end:
                try:
                    stub.Ping(pb.PingRequest(), timeout=1.0)
                    break
                except grpc.RpcError:
                    time.sleep(0.05)
            outages.append({"back_unix": time.time(), "seconds": time.monotonic() - lost_at, "error": None})
    return {"role": "grpc_producer", "name": args.label, "sent": sent, "answered": answered, "dropped": dropped,
            "errors": errors, "lost": sent - answered - sum(dropped.values()) - sum(errors.values()),
            "outages": outages}


ROLES = {"producer": run_producer, "subscriber": run_subscriber, "idle_subscriber": run_idle_subscriber,
         "grpc_producer": run_grpc_producer}


# ---------------------------------------------------------------------------------------------
# The service manager
# ---------------------------------------------------------------------------------------------


class Manager:
    """Holds the worker's socket across restarts and starts each worker on it, as systemd would."""

    def __init__(self, args: argparse.Namespace, directory: Path) -> None:
        self.args = args
        self.directory = directory
        self.socket_path = str(directory / "faceworker.sock")
        self.grpc_socket = str(directory / "grpc.sock")
        self.metrics_socket = str(directory / "metrics.sock")
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.listener.bind(self.socket_path)
        self.listener.listen(128)
        self.notify_path = str(directory / "notify.sock")
        self.notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.notify.bind(self.notify_path)
        self.ready: "queue.Queue[float]" = queue.Queue()
        threading.Thread(target=self._hear_notifications, daemon=True).start()
        self.starts = 0
        self.process: Optional[subprocess.Popen] = None

    def _hear_notifications(self) -> None:
        while True:
            message = self.notify.recv(4096).decode(errors="replace")
            if "READY=1" in message.split("\n"):
                self.ready.put(time.time())

    def start(self) -> float:
        """Starts a worker and returns the wall-clock time of its READY=1."""
        self.starts += 1
        listener = self.listener.fileno()
        # A killed worker leaves its other sockets behind; this manager owns the directory.
        for stale in (self.grpc_socket, self.metrics_socket):
            Path(stale).unlink(missing_ok=True)

        def pass_listener() -> None:
            # In the child, before exec, which passes this environment on: the announcement must
            # name the worker's own pid, known only here.
            os.dup2(listener, 3)
            os.environ["LISTEN_FDS"] = "1"
            os.environ["LISTEN_PID"] = str(os.getpid())
            os.environ["NOTIFY_SOCKET"] = self.notify_path

        log = open(self.directory / f"worker-{self.starts}.log", "wb")
        # --socket names the same path: a worker that ignored LISTEN_FDS would find it taken and stop.
        self.process = subprocess.Popen(
            [self.args.worker, "--socket", self.socket_path, "--models", self.args.models,
             "--grpc-socket", self.grpc_socket, "--metrics-listen", "unix:" + self.metrics_socket],
            stdout=log, stderr=subprocess.STDOUT, preexec_fn=pass_listener, pass_fds=(3,))
        log.close()
        try:
            return self.ready.get(timeout=120)
        except queue.Empty:
            sys.exit(f"error: the worker did not report READY=1 within 120 s; see {self.directory}/worker-{self.starts}.log")

    def stop(self, kill: bool) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL if kill else signal.SIGTERM)
        self.process.wait()

    def scrape(self) -> Dict[str, Any]:
        """The worker's memory, descriptors and mappings from /proc, and its metrics' gauges."""
        assert self.process is not None
        pid = self.process.pid
        sample: Dict[str, Any] = {"unix": time.time(), "start": self.starts}
        try:
            status = Path(f"/proc/{pid}/status").read_text()
            sample["rss_bytes"] = int(next(line for line in status.splitlines() if line.startswith("VmRSS:")).split()[1]) * 1024
            sample["fds"] = len(os.listdir(f"/proc/{pid}/fd"))
            sample["mappings"] = len(Path(f"/proc/{pid}/maps").read_text().splitlines())
        except (OSError, StopIteration):
            return sample
        try:
            sample.update(metrics(self.metrics_socket))
        except OSError as error:
            sample["metrics_error"] = str(error)
        return sample


def metrics(path: str) -> Dict[str, float]:
    """The gauges of one scrape of the metrics endpoint on the Unix socket ``path``."""
    wanted = {"faceworker_connections", "faceworker_sessions", "faceworker_subscriptions",
              "faceworker_shared_buffers", "faceworker_shared_memory_mapped_bytes", "faceworker_queued_frames"}
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
        connection.settimeout(5)
        connection.connect(path)
        connection.sendall(b"GET /metrics HTTP/1.1\r\nHost: soak\r\nConnection: close\r\n\r\n")
        body = b""
        while chunk := connection.recv(65536):
            body += chunk
    values = {}
    for line in body.decode(errors="replace").splitlines():
        name, _, value = line.partition(" ")
        if name in wanted:
            values[name.removeprefix("faceworker_")] = float(value)
    return values


def spawn(args: argparse.Namespace, role: str, label: str, seconds: float, **extra: Any) -> subprocess.Popen:
    command = [sys.executable, "-m", "tools.soak.soak", "--role", role, "--label", label, "--seconds", str(seconds),
               "--frames", args.frames, "--reconnect-deadline", str(args.reconnect_deadline)]
    for key, value in extra.items():
        if value is True:
            command.append("--" + key.replace("_", "-"))
        elif value is not None:
            command += ["--" + key.replace("_", "-"), str(value)]
    return subprocess.Popen(command, stdout=subprocess.PIPE, text=True)


def serving_lives(samples: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    """Per worker start, its descriptors and mappings at the first and last sample with every client connected."""
    lives = []
    for start in sorted({sample["start"] for sample in samples}):
        serving = [s for s in samples if s["start"] == start and "fds" in s and "connections" in s]
        most = max((s["connections"] for s in serving), default=0)
        serving = [s for s in serving if s["connections"] == most and most > 0]
        if serving:
            lives.append({"start": start, "fds": (serving[0]["fds"], serving[-1]["fds"]),
                          "mappings": (serving[0]["mappings"], serving[-1]["mappings"])})
    return lives


def restart_windows(restarts: List[Dict[str, Any]], reports: List[Dict[str, Any]]) -> List[tuple]:
    """Each restart's window in ms: from its stop signal until the last client was back."""
    windows = []
    for restart in restarts:
        backs = [outage["back_unix"] for report in reports for outage in report.get("outages", [])
                 if outage.get("back_unix") and outage["back_unix"] >= restart["stopped_unix"]
                 and outage["back_unix"] - restart["ready_unix"] < 60]
        closes = max(backs, default=restart["ready_unix"])
        windows.append((restart["stopped_unix"] * 1000 - WINDOW_SLACK_MS, closes * 1000 + WINDOW_SLACK_MS))
    return windows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--role", choices=sorted(ROLES), help=argparse.SUPPRESS)
    parser.add_argument("--label", help=argparse.SUPPRESS)
    parser.add_argument("--name", help=argparse.SUPPRESS)
    parser.add_argument("--socket", help=argparse.SUPPRESS)
    parser.add_argument("--grpc-socket", help=argparse.SUPPRESS)
    parser.add_argument("--shared-memory", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--seconds", type=float, help=argparse.SUPPRESS)
    parser.add_argument("--worker", default=".build/release/face-worker")
    parser.add_argument("--models", default="models")
    parser.add_argument("--frames", default="Tests/Fixtures/video")
    parser.add_argument("--minutes", type=float, default=30.0)
    parser.add_argument("--restart-every", type=float, default=180.0, help="seconds between restarts (180)")
    parser.add_argument("--reconnect-deadline", type=float, default=60.0)
    args = parser.parse_args()
    if args.role:
        print(json.dumps(ROLES[args.role](args)), flush=True)
        return

    seconds = args.minutes * 60
    # No restart comes within the last 20 s, so that each is followed by clients that saw it.
    if args.restart_every <= 0 or seconds - 20 <= args.restart_every:
        parser.error(f"--minutes {args.minutes:g} leaves no room for a restart every {args.restart_every:g} s "
                     "(the last 20 s take none): run longer, or restart more often (make soak RESTART_EVERY=60)")
    directory = Path(tempfile.mkdtemp(prefix="faceworker-soak-"))
    manager = Manager(args, directory)
    first_ready = manager.start()
    print(f"worker ready; clients run {seconds:.0f} s, a restart every {args.restart_every:.0f} s; logs in {directory}",
          file=sys.stderr)
    sock = manager.socket_path
    clients = [
        spawn(args, "producer", "live-named-1", seconds, socket=sock, name="soak-camera-1"),
        spawn(args, "producer", "live-named-2", seconds, socket=sock, name="soak-camera-2"),
        spawn(args, "producer", "live-shared-memory", seconds, socket=sock, shared_memory=True),
        spawn(args, "producer", "live", seconds, socket=sock),
        spawn(args, "grpc_producer", "grpc-session", seconds, grpc_socket=manager.grpc_socket),
    ]
    for camera in ("soak-camera-1", "soak-camera-2"):
        for index in range(SUBSCRIBERS_READING):
            clients.append(spawn(args, "subscriber", f"{camera}-sub-{index + 1}", seconds, socket=sock, name=camera))
        clients.append(spawn(args, "idle_subscriber", f"{camera}-never-reads", seconds, socket=sock, name=camera))

    started = time.monotonic()
    planned = int(seconds // args.restart_every)
    kill_at = max(1, (planned + 1) // 2)
    restarts: List[Dict[str, Any]] = []
    samples: List[Dict[str, Any]] = []
    next_restart = started + args.restart_every
    next_scrape = started
    # The clients stop at `seconds`; no restart comes within the last 20 s, so each restart is followed.
    while time.monotonic() < started + seconds + 5:
        if time.monotonic() >= next_scrape:
            samples.append(manager.scrape())
            next_scrape += SCRAPE_SECONDS
        if time.monotonic() >= next_restart and time.monotonic() < started + seconds - 20:
            kill = len(restarts) + 1 == kill_at
            stopped = time.time()
            manager.stop(kill)
            ready = manager.start()
            restarts.append({"signal": "SIGKILL" if kill else "SIGTERM", "stopped_unix": stopped, "ready_unix": ready})
            print(f"restart {len(restarts)} ({restarts[-1]['signal']}): ready after {ready - stopped:.2f} s", file=sys.stderr)
            next_restart += args.restart_every
        time.sleep(0.2)
    reports = [json.loads(client.communicate()[0].strip().splitlines()[-1]) for client in clients]
    samples.append(manager.scrape())
    manager.stop(kill=False)
    report(args, reports, restarts, samples, first_ready)


def report(args: argparse.Namespace, reports: List[Dict[str, Any]], restarts: List[Dict[str, Any]],
           samples: List[Dict[str, Any]], first_ready: float) -> None:
    windows = restart_windows(restarts, reports)

    def outside(timestamp: int) -> bool:
        return not any(low <= timestamp <= high for low, high in windows)

    producers = {report["name"]: report for report in reports if report["role"] in ("producer", "grpc_producer")}
    print(f"{'client':24} {'sent':>7} {'answered':>8} {'lost':>5}  dropped by reason")
    for report in producers.values():
        drops = ", ".join(f"{reason} {count}" for reason, count in sorted(report["dropped"].items())) or "-"
        errors = ", ".join(f"{code} {count}" for code, count in sorted(report["errors"].items()))
        print(f"{report['name']:24} {report['sent']:>7} {report['answered']:>8} {report['lost']:>5}  {drops}"
              + (f"; errors {errors}" if errors else ""))
    subscriber_lost = {}
    print(f"\n{'subscriber':28} {'received':>8} {'lost outside windows':>20} {'missed':>7} {'resets':>6} "
          f"{'before subscribing':>15}")
    for report in reports:
        if report["role"] == "subscriber":
            producer = next(p for p in reports if p["role"] == "producer" and p["session"] == report["session"])
            missing = set(producer["results"]) - set(report["results"])
            # Results of frames sent before the subscription began were never the subscriber's to receive.
            before = sum(1 for timestamp in missing if timestamp < report["subscribed_ms"])
            lost = sorted(timestamp for timestamp in missing if timestamp >= report["subscribed_ms"] and outside(timestamp))
            subscriber_lost[report["name"]] = len(lost)
            report["missing_before_subscribing"] = before
            report["lost_outside_windows"] = lost
            print(f"{report['name']:28} {report['received']:>8} {len(lost):>20} {report['events_missed']:>7} "
                  f"{report['resets']:>6} {before:>15}")
        elif report["role"] == "idle_subscriber":
            print(f"{report['name']:28} subscribed {report['subscriptions']} times, never read")
    recovery = []
    for number, restart in enumerate(restarts, 1):
        backs = {}
        for report in reports:
            for outage in report.get("outages", []):
                if outage.get("back_unix") and restart["stopped_unix"] <= outage["back_unix"] and (
                        number == len(restarts) or outage["back_unix"] < restarts[number]["stopped_unix"]):
                    backs[report["name"]] = outage["back_unix"] - restart["ready_unix"]
        recovery.append({"restart": number, "signal": restart["signal"], "worker_ready_after": restart["ready_unix"] - restart["stopped_unix"],
                         "clients_back_after_ready": backs})
    print("\nrestart  signal   worker ready after stop  slowest client back after READY (clients back)")
    for entry in recovery:
        backs = entry["clients_back_after_ready"]
        slowest = max(backs.values(), default=float("nan"))
        print(f"{entry['restart']:>7}  {entry['signal']:7}  {entry['worker_ready_after']:>21.2f} s  {slowest:>8.3f} s ({len(backs)})")
    print("\nworker over time (every 30 s): minute  RSS MiB  fds  mappings  connections  mapped bytes")
    for sample in samples[::6]:
        if "rss_bytes" in sample:
            print(f"  {(sample['unix'] - samples[0]['unix']) / 60:6.1f}  {sample['rss_bytes'] / 2**20:7.1f}  {sample['fds']:3}  "
                  f"{sample['mappings']:8}  {sample.get('connections', float('nan')):11.0f}  "
                  f"{sample.get('shared_memory_mapped_bytes', float('nan')):.0f}")
    after_restart = []
    for restart in restarts:
        later = [s for s in samples if s["unix"] > restart["ready_unix"] + SCRAPE_SECONDS and "rss_bytes" in s]
        if later:
            after_restart.append({"ready_unix": restart["ready_unix"], "rss_bytes": later[0]["rss_bytes"], "fds": later[0]["fds"],
                                  "mappings": later[0]["mappings"],
                                  "mapped_bytes": later[0].get("shared_memory_mapped_bytes")})
    print("\nafter each restart (first scrape after READY): RSS MiB  fds  mappings  mapped bytes")
    for entry in after_restart:
        print(f"  {entry['rss_bytes'] / 2**20:7.1f}  {entry['fds']:3}  {entry['mappings']:8}  {entry['mapped_bytes']}")

    lost_frames = sum(report["lost"] for report in producers.values())
    slowest = max((max(r["clients_back_after_ready"].values(), default=float("inf")) for r in recovery), default=0.0)
    every_client_back = all(len(r["clients_back_after_ready"]) >= len(producers) + len(subscriber_lost) for r in recovery)
    rss_growth = (after_restart[-1]["rss_bytes"] / after_restart[0]["rss_bytes"] - 1) if len(after_restart) > 1 else 0.0
    lives = serving_lives(samples)
    print("\neach worker's life, all clients connected: start  fds first→last  mappings first→last")
    for life in lives:
        print(f"  {life['start']:5}  {life['fds'][0]:>5} → {life['fds'][1]:<4} {life['mappings'][0]:>8} → {life['mappings'][1]}")
    # A leak grows while a worker serves; a new process's count differs by a descriptor or a mapping
    # from the last one's with nothing leaked (thread arenas, a client mid-reconnect), so counts are
    # compared within each life, and across lives only reported.
    fds_growth = max((life["fds"][1] - life["fds"][0] for life in lives), default=0)
    maps_growth = max((life["mappings"][1] - life["mappings"][0] for life in lives), default=0)
    if lives:
        print("  across lives: fds {}–{}, mappings {}–{}".format(
            min(life["fds"][0] for life in lives), max(life["fds"][0] for life in lives),
            min(life["mappings"][0] for life in lives), max(life["mappings"][0] for life in lives)))
    targets = {
        "lost_frames_zero": lost_frames == 0,
        "subscribers_lose_nothing_outside_restarts": all(count == 0 for count in subscriber_lost.values()),
        "recovery_within_1s_of_ready": every_client_back and slowest <= 1.0,
        "rss_within_10_percent": abs(rss_growth) <= 0.10,
        "no_fd_or_mapping_growth": fds_growth <= 0 and maps_growth <= 0,
    }
    print("\ntargets: " + ", ".join(f"{name} {'met' if met else 'NOT met'}" for name, met in targets.items()))
    for report in reports:
        report.pop("results", None)
    print(json.dumps({"minutes": args.minutes, "restart_every_seconds": args.restart_every, "restarts": recovery,
                      "clients": reports, "lost_frames": lost_frames, "slowest_recovery_after_ready_seconds": slowest,
                      "rss_growth": rss_growth, "fds_growth": fds_growth, "mappings_growth": maps_growth,
                      "after_restart": after_restart, "serving_lives": lives, "samples": samples,
                      "targets": targets}))


if __name__ == "__main__":
    main()
