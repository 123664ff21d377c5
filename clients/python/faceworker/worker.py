"""Worker-wide calls that need no session: a ping and the worker's counters."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Dict, List, Optional

from ._connection import Connection
from ._proto import faceworker_pb2 as pb
from .errors import ProtocolError

_STAGE_PREFIX = "STAGE_"


@dataclass
class StageLatency:
    """Latency percentiles of one stage over the frames processed, in microseconds."""

    p50_us: int
    p90_us: int
    p99_us: int
    count: int


@dataclass
class ModelInfo:
    """A model file the worker loaded."""

    name: str
    sha256: str
    size_bytes: int


@dataclass
class WorkerStats:
    """The worker's counters since it started.

    Attributes:
        uptime_seconds: Time since the worker started.
        connections: Client connections open now.
        sessions: Sessions open now, over all connections.
        frames_processed: Frames answered with a result.
        frames_dropped: Frames answered with a drop notice.
        frames_failed: Frames answered with an error.
        stage_latencies: Per stage ("queued", "decode", "detect",
            "landmarks", "total"), its latency percentiles.
        resident_memory_bytes: The worker's resident memory.
        inference_threads: Threads that run models.
        models: The model files loaded.
        subscriptions: Subscriptions open now, over all connections.
        events_missed: Events subscribers lost because they did not read
            them in time.
        shared_buffers: Shared-memory buffers registered now.
        mapped_bytes: Bytes of shared memory the worker has mapped now.
    """

    uptime_seconds: float
    connections: int
    sessions: int
    frames_processed: int
    frames_dropped: int
    frames_failed: int
    stage_latencies: Dict[str, StageLatency]
    resident_memory_bytes: int
    inference_threads: int
    models: List[ModelInfo]
    subscriptions: int
    events_missed: int
    shared_buffers: int
    mapped_bytes: int


def ping(socket_path: Optional[str] = None, payload: bytes = b"") -> float:
    """Checks that the worker answers; returns the round trip in seconds.

    ``socket_path`` None follows :func:`faceworker.default_socket_path`.

    Raises:
        WorkerNotRunningError: When no worker listens on the socket.
        ProtocolError: When the worker does not echo the payload.
    """
    connection = Connection(socket_path)
    try:
        start = time.perf_counter()
        answer = connection.call(pb.ClientMessage(ping=pb.PingRequest(payload=payload)))
        elapsed = time.perf_counter() - start
    finally:
        connection.close()
    if answer.ping.payload != payload:
        raise ProtocolError(
            f"the worker answered a ping of {len(payload)} bytes with {len(answer.ping.payload)} bytes that differ from it"
        )
    return elapsed


def get_stats(socket_path: Optional[str] = None) -> WorkerStats:
    """Reads the worker's counters (``socket_path`` as for :func:`ping`).

    Raises:
        WorkerNotRunningError: When no worker listens on the socket.
    """
    connection = Connection(socket_path)
    try:
        stats = connection.call(pb.ClientMessage(get_stats=pb.GetStatsRequest())).get_stats
    finally:
        connection.close()
    return WorkerStats(
        uptime_seconds=stats.uptime_seconds,
        connections=stats.connections,
        sessions=stats.sessions,
        frames_processed=stats.frames_processed,
        frames_dropped=stats.frames_dropped,
        frames_failed=stats.frames_failed,
        stage_latencies={
            _stage_name(item.stage): StageLatency(item.p50_us, item.p90_us, item.p99_us, item.count)
            for item in stats.stage_latencies
        },
        resident_memory_bytes=stats.resident_memory_bytes,
        inference_threads=stats.inference_threads,
        models=[ModelInfo(model.name, model.sha256, model.size_bytes) for model in stats.models],
        subscriptions=stats.subscriptions,
        events_missed=stats.events_missed,
        shared_buffers=stats.shared_buffers,
        mapped_bytes=stats.mapped_bytes,
    )


def _stage_name(stage: int) -> str:
    if stage not in pb.Stage.values():
        return f"stage_{stage}"
    return pb.Stage.Name(stage)[len(_STAGE_PREFIX):].lower()
