"""Ping and GetStats, gRPC's unary calls: the same answers as the lean socket's."""

from __future__ import annotations

import hashlib

from faceworker.v1 import faceworker_pb2 as pb

from conftest import CALL_SECONDS
from worker_process import MODEL_FILES, MODELS


def test_ping_echoes_its_payload_byte_for_byte(stub):
    for payload in (b"", b"hello", bytes(range(256)) * 64, b"\x00" * 3):
        assert stub.Ping(pb.PingRequest(payload=payload), timeout=CALL_SECONDS).payload == payload


def test_get_stats_reports_the_models_the_worker_loaded(stub):
    stats = stub.GetStats(pb.GetStatsRequest(), timeout=CALL_SECONDS)

    loaded = {model.name: model for model in stats.models}
    # The repository's models directory holds the Face Landmarker's bundle too, so it is loaded.
    assert sorted(loaded) == sorted(MODEL_FILES)
    for name, model in loaded.items():
        content = (MODELS / name).read_bytes()
        assert model.sha256 == hashlib.sha256(content).hexdigest()
        assert model.size_bytes == len(content)
    assert stats.uptime_seconds > 0
    assert stats.inference_threads >= 1
    assert stats.resident_memory_bytes > 0

