"""One shared session across processes: a producer feeding it through shared memory, three subscribers.

One subscriber reads everything, one is killed (SIGKILL) mid-stream, one
never reads until the producer is done. Each is a separate Python process
(session_peer.py), on a worker that keeps few events for a subscriber.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Dict, List

import faceworker as mp

from conftest import start_worker, stop_worker, video_frames

PEER = Path(__file__).resolve().with_name("session_peer.py")
PACKAGE = Path(__file__).resolve().parents[1]
# The landmarker's answers carry the 478-point mesh, a few kilobytes each: a
# subscriber that reads nothing is soon past what its socket and its queue hold.
PASSES = 3
QUEUE = 4


class Peer:
    """A session_peer.py process and the JSON lines it printed."""

    def __init__(self, role: str, socket_path: str, name: str, *frames: str) -> None:
        environment = dict(os.environ, PYTHONPATH=os.pathsep.join([str(PACKAGE), os.environ.get("PYTHONPATH", "")]))
        self.process = subprocess.Popen(
            [sys.executable, str(PEER), role, socket_path, name, *frames],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=environment,
        )
        self.lines: List[Dict] = []

    def next_line(self) -> Dict:
        line = self.process.stdout.readline()
        assert line, f"the peer exited with status {self.process.wait()} without saying more"
        self.lines.append(json.loads(line))
        return self.lines[-1]

    def tell(self, word: str) -> None:
        self.process.stdin.write(word + "\n")
        self.process.stdin.flush()

    def finish(self) -> List[Dict]:
        """Every line the peer printed, once it has exited with status 0."""
        out, _ = self.process.communicate(timeout=300)
        self.lines += [json.loads(line) for line in out.splitlines()]
        assert self.process.returncode == 0, self.lines
        return self.lines

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()


def results(lines: List[Dict]) -> List[Dict]:
    return [line for line in lines if "result" in line]


def test_a_killed_and_a_stuck_subscriber_slow_nobody_and_the_survivors_hear_the_end(tmp_path):
    name = "cross-process"
    frames = video_frames() * PASSES
    worker = start_worker(tmp_path, "--subscriber-queue", str(QUEUE))
    producer = Peer("producer", worker.socket_path, name, *frames)
    peers = [producer]
    try:
        assert producer.next_line() == {"ready": name}
        reader, doomed, stuck = (Peer(role, worker.socket_path, name) for role in ("reader", "reader", "stuck"))
        peers += [reader, doomed, stuck]
        for subscriber in (reader, doomed, stuck):
            assert subscriber.next_line()["ready"] == name

        producer.tell("go")
        assert "result" in doomed.next_line()
        doomed.process.send_signal(signal.SIGKILL)
        doomed.process.wait()

        produced = producer.finish()
        read = reader.finish()
        # Only now does the stuck subscriber read what the worker kept for it.
        stuck.tell("read")
        late = stuck.finish()
        stats = mp.get_stats(worker.socket_path)
    finally:
        for peer in peers:
            peer.kill()
        stop_worker(worker)

    assert produced[-1] == {"closed": name}
    assert len(results(produced)) == len(frames)
    # Every result, in the producer's order, with the producer's faces.
    assert results(read) == results(produced)
    assert read[-1] == {"ended": "SESSION_CLOSED"}
    assert not any("missed" in line for line in read)
    # The stuck subscriber lost events rather than holding anyone up, and was told how many.
    missed = sum(line["missed"] for line in late if "missed" in line)
    assert missed > 0
    assert len(results(late)) + missed == len(frames)
    assert all(line in results(produced) for line in results(late))
    assert late[-1] == {"ended": "SESSION_CLOSED"}
    assert stuck.lines[0]["queue_limit"] == QUEUE
    # The killed subscriber may have lost events too before the worker saw it go.
    assert stats.events_missed >= missed
    assert (stats.subscriptions, stats.shared_buffers, stats.sessions) == (0, 0, 0)
