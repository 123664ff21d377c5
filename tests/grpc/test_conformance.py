"""The gRPC door against the conformance file, proto/faceworker/v1/defaults.json: a raw image of
each of the file's layout examples is taken through a Session stream with exactly the file's
bytes, and refused with one byte less or more, as on the worker's own socket."""

from __future__ import annotations

import json

import pytest

from faceworker.v1 import faceworker_pb2 as pb

from conftest import REPO
from doors import SessionStream

RAW_LAYOUT = json.loads((REPO / "proto" / "faceworker" / "v1" / "defaults.json").read_text())["raw_image_layout"]


def test_the_file_names_every_pixel_format_of_the_wire():
    assert set(RAW_LAYOUT["formats"]) == {name for name in pb.PixelFormat.keys() if name != "PIXEL_FORMAT_UNSPECIFIED"}


@pytest.mark.parametrize("example", RAW_LAYOUT["examples"],
                         ids=lambda e: f"{e['format']}-{e['width']}x{e['height']}-{e['row_stride']}")
def test_a_raw_image_takes_exactly_the_files_bytes(stub, example):
    def frame(byte_count: int) -> pb.Frame:
        return pb.Frame(raw=pb.RawImage(format=pb.PixelFormat.Value(example["format"]), width=example["width"],
                                        height=example["height"], row_stride=example["row_stride"],
                                        data=bytes(byte_count)))

    with SessionStream(stub) as stream:
        stream.open()
        assert stream.process(frame(example["byte_count"])).kind == "result"
        for wrong in (example["byte_count"] - 1, example["byte_count"] + 1):
            refused = stream.process(frame(wrong))
            assert (refused.kind, refused.code) == ("error", pb.Status.INVALID_ARGUMENT), wrong
