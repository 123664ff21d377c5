"""Worker-wide calls: ping and the worker's counters."""

from __future__ import annotations

import json

import faceworker as mp
from faceworker import vision

from conftest import fixture_path
from worker_process import REPO

# The models' SHA-256, as the manifest gives them: a worker with every model, the Face
# Landmarker's bundle included, loaded each file the manifest lists.
MODEL_SHA256 = {entry["name"]: entry["sha256"] for entry in json.loads((REPO / "models.json").read_text())["files"]}


def test_ping_echoes_its_payload_on_each_call(worker):
    # ping() raises ProtocolError unless the worker sends the payload back unchanged.
    for payload in (b"", b"hello", bytes(range(256)), b"\xa5" * (64 << 10)):
        assert mp.ping(worker.socket_path, payload=payload) > 0
    # Each call is answered, call after call.
    for index in range(50):
        mp.ping(worker.socket_path, payload=index.to_bytes(4, "big"))


def test_stats_count_frames_and_name_the_models(worker, base_options):
    before = mp.get_stats(worker.socket_path)
    with vision.FaceDetector.create_from_options(vision.FaceDetectorOptions(base_options=base_options)) as detector:
        detector.detect(mp.Image.create_from_file(fixture_path("astronaut.jpg")))
        detector.detect(mp.Image.create_from_file(fixture_path("chelsea.jpg")))
    after = mp.get_stats(worker.socket_path)

    assert after.frames_processed == before.frames_processed + 2
    assert after.uptime_seconds > before.uptime_seconds
    assert {model.name: model.sha256 for model in after.models} == MODEL_SHA256
    assert after.stage_latencies["total"].count >= 2
    assert after.stage_latencies["total"].p50_us > 0
    assert after.resident_memory_bytes > 0
    assert after.inference_threads >= 1
