"""Connections come and go on a real socket, then the worker stops: LeakSanitizer's word on them.

Starts the AddressSanitizer build of the worker with leak detection on, opens and closes COUNT
connections one after another on its socket, each doing one of six things:

  a private session, a frame, its result read, hang up
  a private session, a frame, hang up before the result
  a named session, a frame, hang up before the result
  broken framing (a length over the limit), the status read, hang up
  broken framing, hang up at once (the worker's close timer still pending)
  a private session, two frames, hang up with both in flight

then stops the worker with SIGTERM. Whatever a connection left behind (a retain cycle between
its channel, its handler and its sessions, say) is still allocated at exit, and LeakSanitizer
reports it; the run fails on any report, an AddressSanitizer error or an exit status other than 0.

    python connection-leaks.py WORKER MODELS [COUNT]     (COUNT: 3000)

Run with the Python client's environment (it reads the client's generated protobuf module).
"""

import os
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

repo = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(repo / "clients" / "python"))
from faceworker._proto import faceworker_pb2 as pb  # noqa: E402

OVERSIZED = b"\x00\x7f\xff\xff\xff"  # flag 0, a length far over --max-message-bytes


def framed(message: pb.ClientMessage) -> bytes:
    body = message.SerializeToString()
    return b"\x00" + struct.pack(">I", len(body)) + body


def read_message(connection: socket.socket):
    def exactly(count: int) -> bytes:
        data = b""
        while len(data) < count:
            chunk = connection.recv(count - len(data))
            if not chunk:
                raise EOFError("the worker hung up")
            data += chunk
        return data

    length = struct.unpack(">I", exactly(5)[1:])[0]
    message = pb.WorkerMessage()
    message.ParseFromString(exactly(length))
    return message


def open_session(call_id: int, name: str = "") -> pb.ClientMessage:
    message = pb.ClientMessage(call_id=call_id)
    message.open_session.options.SetInParent()
    if name:
        message.open_session.name = name
    return message


def frame(call_id: int, session_id: int, timestamp_ms: int, jpeg: bytes) -> pb.ClientMessage:
    message = pb.ClientMessage(call_id=call_id)
    message.process_frame.session_id = session_id
    message.process_frame.frame.jpeg = jpeg
    message.process_frame.frame.timestamp_ms = timestamp_ms
    return message


def one_connection(path: str, index: int, jpeg: bytes) -> str:
    kind = index % 6
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
        connection.settimeout(60)
        connection.connect(path)
        if kind in (3, 4):
            connection.sendall(OVERSIZED)
            if kind == 3:
                answer = read_message(connection)
                if answer.WhichOneof("kind") != "error":
                    raise RuntimeError(f"broken framing answered with {answer}")
            return "broken framing" + (", status read" if kind == 3 else ", hung up at once")
        connection.sendall(framed(open_session(1, f"churn-{index}" if kind == 2 else "")))
        opened = read_message(connection)
        if opened.WhichOneof("kind") != "open_session":
            raise RuntimeError(f"OpenSession answered with {opened}")
        session_id = opened.open_session.session_id
        frames = framed(frame(2, session_id, 1, jpeg))
        if kind == 5:
            frames += framed(frame(3, session_id, 2, jpeg))
        connection.sendall(frames)
        if kind == 0:
            result = read_message(connection)
            if result.WhichOneof("kind") != "frame_result":
                raise RuntimeError(f"the frame answered with {result}")
            return "session, frame, result read"
        return ["", "session, frame in flight", "named session, frame in flight", "", "", "session, two frames in flight"][kind]


def main() -> int:
    worker, models = sys.argv[1], sys.argv[2]
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 3000
    jpeg = (repo / "Tests" / "Fixtures" / "astronaut.jpg").read_bytes()
    directory = tempfile.mkdtemp(prefix="fw-leaks-")
    path = os.path.join(directory, "worker.sock")
    log_path = os.path.join(directory, "worker.log")
    environment = dict(os.environ)
    environment.setdefault("ASAN_OPTIONS", "detect_leaks=1")
    with open(log_path, "wb") as log:
        process = subprocess.Popen([worker, "--socket", path, "--models", models, "--threads", "1"],
                                   stdout=log, stderr=subprocess.STDOUT, env=environment)
    deadline = time.monotonic() + 120
    while not os.path.exists(path):
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            print(Path(log_path).read_text(errors="replace"), file=sys.stderr)
            print("error: the worker did not start", file=sys.stderr)
            return 1
        time.sleep(0.1)

    started = time.monotonic()
    kinds: dict = {}
    try:
        for index in range(count):
            kind = one_connection(path, index, jpeg)
            kinds[kind] = kinds.get(kind, 0) + 1
    finally:
        churn = time.monotonic() - started
        # Answers of frames still in flight are written (or dropped) before the stop.
        time.sleep(2)
        process.send_signal(signal.SIGTERM)
        try:
            status = process.wait(timeout=120)
        except subprocess.TimeoutExpired:
            process.kill()
            status = process.wait()
    log = Path(log_path).read_text(errors="replace")
    for kind, done in sorted(kinds.items()):
        print(f"{done:6d}  {kind}")
    print(f"{sum(kinds.values())} connections in {churn:.0f} s; the worker exited with status {status}")
    reports = [line for line in log.splitlines() if "Sanitizer" in line]
    if status != 0 or reports:
        print(log[log.find("=================") if "=================" in log else 0:], file=sys.stderr)
        print(f"error: the worker exited with status {status}, {len(reports)} sanitizer lines; its log: {log_path}", file=sys.stderr)
        return 1
    print("LeakSanitizer: no leak at exit")
    shutil.rmtree(directory, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
