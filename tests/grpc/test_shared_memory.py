"""Shared-memory frames need descriptors passed over the worker's own socket: through gRPC they are
refused with FAILED_PRECONDITION, in the stream, which goes on."""

from __future__ import annotations

import pytest

from faceworker.v1 import faceworker_pb2 as pb

from conftest import fixture_bytes
from doors import SessionStream

REGION = pb.BufferRegion(buffer_id=1, offset=0, length=4096)
SHARED = {
    "jpeg": pb.Frame(shared_jpeg=REGION, timestamp_ms=5),
    "raw": pb.Frame(raw=pb.RawImage(format=pb.PIXEL_FORMAT_GRAY8, width=64, height=64, region=REGION),
                    timestamp_ms=5),
}


@pytest.mark.parametrize("kind", list(SHARED))
def test_a_shared_memory_frame_is_failed_precondition_and_the_stream_goes_on(stub, kind):
    with SessionStream(stub) as stream:
        stream.open()
        refused = stream.process(SHARED[kind])
        after = stream.process(pb.Frame(jpeg=fixture_bytes("astronaut.jpg"), timestamp_ms=6))

    assert (refused.kind, refused.code, refused.timestamp_ms) == ("error", pb.Status.FAILED_PRECONDITION, 5)
    assert "shared" in refused.message and "socket" in refused.message
    assert after.kind == "result" and len(after.result.faces) == 1
