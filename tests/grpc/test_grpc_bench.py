"""grpc-bench, the C++ gRPC client behind the gRPC rows of `make bench`: it measures what it says
it measures, against the worker most tests share. `make test-grpc` builds it first."""

from __future__ import annotations

import json
import subprocess

import pytest

from conftest import FIXTURES, REPO, RunningWorker

GRPC_BENCH = REPO / "tools" / "bench" / "grpc-bench" / "build" / "grpc-bench"
VIDEO = FIXTURES / "video"
RUN_SECONDS = 120


def grpc_bench(*options: str) -> subprocess.CompletedProcess:
    assert GRPC_BENCH.is_file(), f"{GRPC_BENCH} is missing; `make -C tools/bench/grpc-bench` builds it"
    return subprocess.run([str(GRPC_BENCH), *options], capture_output=True, text=True, timeout=RUN_SECONDS)


def summary(worker: RunningWorker, *options: str) -> dict:
    done = grpc_bench("-t", worker.grpc_target, *options)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize("pipeline", [[], ["--landmarks"]], ids=["detection", "landmarks"])
def test_video_mode_times_every_frame_and_counts_the_faces(worker, tmp_path, pipeline):
    samples = tmp_path / "samples.txt"
    run = summary(worker, "-d", str(VIDEO), "-n", "6", "-w", "2", "--samples", str(samples), *pipeline)

    assert (run["sent"], run["answered"], run["errors"], run["first_error"]) == (6, 6, 0, None)
    assert run["faces"] == 6, "every frame of the synthetic video shows one face"
    round_trips_us = [float(line) for line in samples.read_text().split()]
    assert len(round_trips_us) == 6 and all(us > 0 for us in round_trips_us)
    latency = run["latency_ms"]
    assert 0 < latency["p50"] <= latency["p90"] <= latency["p99"] <= latency["max"] == pytest.approx(max(round_trips_us) / 1000, rel=1e-3)
    assert 0 < run["transport_median_ms"] < latency["p50"], "the worker's own time is taken out of the round trip"


def test_ping_mode_times_empty_pings(worker):
    run = summary(worker, "-m", "ping", "-n", "20")

    assert (run["sent"], run["answered"], run["errors"], run["faces"]) == (20, 20, 0, 0)
    assert 0 < run["latency_ms"]["p50"] == run["transport_median_ms"]


def test_a_frame_the_worker_refuses_is_counted_with_its_status(worker, tmp_path):
    (tmp_path / "frame_000.jpg").write_bytes(b"not a JPEG")
    run = summary(worker, "-d", str(tmp_path), "-n", "3")

    assert (run["sent"], run["answered"], run["errors"]) == (3, 0, 3)
    assert "INVALID_ARGUMENT" in run["first_error"]


@pytest.mark.parametrize("options, says", [
    (["-m", "video", "-t", "unix:/nowhere"], "needs -d DIR"),
    (["-m", "stream", "-t", "unix:/nowhere"], "-m takes video or ping"),
    (["-n", "many", "-t", "unix:/nowhere"], "-n takes a whole number"),
    (["-m", "ping"], "-t TARGET is required"),
])
def test_a_bad_option_exits_64_with_what_is_allowed(options, says):
    done = grpc_bench(*options)

    assert done.returncode == 64 and says in done.stderr and done.stdout == ""
