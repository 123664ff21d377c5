"""Worker-wide calls: ping and the worker's counters."""

from __future__ import annotations

import faceworker as mp
from faceworker import vision

from conftest import fixture_path

# The models' SHA-256, as the worker must have loaded them.
MODEL_SHA256 = {
    "face_detection_short_range.tflite": "bbff11cebd1eb27a1e004cae0b0e63ec8c551cbf34a4451148b4908b8db3eca8",
    "face_detection_full_range_sparse.tflite": "2c3728e6da56f21e21a320433396fb06d40d9088f2247c05e5635a688d45dfe1",
    "face_landmark.tflite": "1055cb9d4a9ca8b8c688902a3a5194311138ba256bcc94e336d8373a5f30c814",
    "face_landmark_with_attention.tflite": "e06a804e0144f9929eda782122916b35d60c697c3c9344013ca2bbe76a6ce2b4",
}


def test_ping_answers_quickly(worker):
    assert 0 < mp.ping(worker.socket_path, payload=b"hello") < 1.0


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
