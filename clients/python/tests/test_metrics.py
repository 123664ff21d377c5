"""The Prometheus endpoint (--metrics-listen), read with the Prometheus project's own parser."""

from __future__ import annotations

import re
import time
import urllib.error
import urllib.request
from typing import Dict, FrozenSet, Iterator, Tuple

import pytest
from prometheus_client.parser import text_string_to_metric_families

import faceworker as mp
from faceworker import vision

from conftest import fixture_path, start_worker, stop_worker, video_frames
from test_worker import MODEL_SHA256

STAGES = ("queue", "decode", "detect", "landmarks", "total")
Samples = Dict[Tuple[str, FrozenSet[Tuple[str, str]]], float]


@pytest.fixture(scope="module")
def metrics(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Tuple[str, str]]:
    """A worker serving metrics on a free loopback port: its socket and its metrics URL."""
    worker = start_worker(tmp_path_factory.mktemp("metrics"), "--metrics-listen", "127.0.0.1:0")
    port = re.search(r"metrics_address=127\.0\.0\.1:(\d+)", worker.log())
    assert port, worker.log()
    yield worker.socket_path, f"http://127.0.0.1:{port.group(1)}/metrics"
    stop_worker(worker)


def scrape(url: str) -> Tuple[Dict[str, str], Samples]:
    """The families' types by name, and every sample's value by name and labels."""
    with urllib.request.urlopen(url, timeout=10) as answer:
        assert answer.status == 200
        assert answer.headers["Content-Type"] == "text/plain; version=0.0.4; charset=utf-8"
        text = answer.read().decode("utf-8")
    types: Dict[str, str] = {}
    samples: Samples = {}
    for family in text_string_to_metric_families(text):
        types[family.name] = family.type
        for sample in family.samples:
            samples[(sample.name, frozenset(sample.labels.items()))] = sample.value
    return types, samples


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples[(name, frozenset(labels.items()))]


def test_the_families_are_there_with_their_types_and_the_models(metrics):
    _, url = metrics
    types, samples = scrape(url)

    # The parser names a counter's family without its _total suffix.
    assert types["faceworker_frames"] == "counter"
    assert types["faceworker_frames_dropped"] == "counter"
    assert types["faceworker_errors"] == "counter"
    assert types["faceworker_frame_stage_duration_seconds"] == "histogram"
    for gauge in (
        "faceworker_connections", "faceworker_sessions", "faceworker_queued_frames", "faceworker_resident_memory_bytes",
        "faceworker_subscriptions", "faceworker_shared_buffers", "faceworker_shared_memory_mapped_bytes",
    ):
        assert types[gauge] == "gauge", gauge
    assert types["faceworker_model_info"] == "gauge"
    models = {dict(labels)["name"]: dict(labels)["sha256"] for (name, labels) in samples if name == "faceworker_model_info"}
    assert models == MODEL_SHA256
    assert value(samples, "faceworker_resident_memory_bytes") > 10 * 2**20
    for reason in ("replaced", "session_closed", "session_reset"):
        assert (("faceworker_frames_dropped_total", frozenset({("reason", reason)})) in samples), reason


def test_counts_and_latencies_move_as_frames_are_sent(metrics):
    socket_path, url = metrics
    base_options = mp.BaseOptions(socket_path=socket_path)
    _, before = scrape(url)

    with vision.FaceDetector.create_from_options(vision.FaceDetectorOptions(base_options=base_options)) as detector:
        detector.detect(mp.Image.create_from_file(fixture_path("astronaut.jpg")))
        detector.detect(mp.Image.create_from_file(fixture_path("chelsea.jpg")))
        with pytest.raises(mp.FaceWorkerError):
            detector.detect(b"this is not a JPEG")
    video = vision.FaceLandmarkerOptions(base_options=base_options, running_mode=vision.RunningMode.VIDEO)
    with vision.FaceLandmarker.create_from_options(video) as landmarker:
        video_results = [
            landmarker.detect_for_video(mp.Image.create_from_file(frame), index * 33)
            for index, frame in enumerate(video_frames()[:3])
        ]
    _, after = scrape(url)

    def moved(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    assert moved("faceworker_frames_total", outcome="processed") == 5
    assert moved("faceworker_frames_total", outcome="failed") == 1
    assert moved("faceworker_frames_total", outcome="dropped") == 0
    assert moved("faceworker_errors_total", code="INVALID_ARGUMENT") == 1
    histogram = "faceworker_frame_stage_duration_seconds"
    for stage in STAGES:
        assert moved(histogram + "_count", mode="image", stage=stage) == 2, stage
        assert moved(histogram + "_count", mode="video", stage=stage) == 3, stage
        assert moved(histogram + "_bucket", mode="video", stage=stage, le="+Inf") == 3, stage
    assert moved(histogram + "_sum", mode="image", stage="landmarks") == 0, "a face detector asks for no landmarks"
    assert moved(histogram + "_sum", mode="video", stage="landmarks") > 0
    # In seconds: the very durations the results carried in whole microseconds, each truncated by under one.
    total_seconds = sum(result.timings.total_us for result in video_results) / 1e6
    assert total_seconds > 0
    assert moved(histogram + "_sum", mode="video", stage="total") == pytest.approx(
        total_seconds, abs=len(video_results) * 1e-6)
    buckets = sorted(
        (float(dict(labels)["le"]), count)
        for (name, labels), count in after.items()
        if name == histogram + "_bucket" and dict(labels)["mode"] == "video" and dict(labels)["stage"] == "total"
    )
    assert buckets[0][0] == 0.0001 and buckets[-2][0] == 1.0 and buckets[-1][0] == float("inf")
    assert [count for _, count in buckets] == sorted(count for _, count in buckets), "cumulative"
    # The worker sees the clients' connections end a moment after they close them; the deadline only
    # stops a test that would otherwise hang.
    deadline = time.monotonic() + 30
    while (value(after, "faceworker_connections"), value(after, "faceworker_sessions")) != (0, 0) and time.monotonic() < deadline:
        time.sleep(0.05)
        _, after = scrape(url)
    assert value(after, "faceworker_connections") == 0 and value(after, "faceworker_sessions") == 0


def test_anything_but_get_metrics_is_404_or_405(metrics):
    _, url = metrics
    with pytest.raises(urllib.error.HTTPError) as missing:
        urllib.request.urlopen(url.replace("/metrics", "/"), timeout=10)
    assert missing.value.code == 404
    with pytest.raises(urllib.error.HTTPError) as posted:
        urllib.request.urlopen(urllib.request.Request(url, data=b"x", method="POST"), timeout=10)
    assert posted.value.code == 405
    assert posted.value.headers["Allow"] == "GET"
