"""Each running mode through gRPC finds the faces, and finds exactly what the lean socket finds on
the same frames: a frame is processed the same way whichever door it came through."""

from __future__ import annotations

import json
from typing import List

import pytest

from faceworker.v1 import faceworker_pb2 as pb

from conftest import FIXTURES, fixture_bytes
from doors import LeanSession, Outcome, SessionStream
from same import assert_same_outcomes

MANIFEST = json.loads((FIXTURES / "manifest.json").read_text())
ML_KIT = dict(
    landmark_mode=pb.LANDMARK_MODE_ALL,
    contour_mode=pb.CONTOUR_MODE_ALL,
    classification_mode=pb.CLASSIFICATION_MODE_ALL,
    output_transformation_matrix=True,
)


def both_doors(stub, worker, options: pb.SessionOptions, frames: List[pb.Frame]) -> List[Outcome]:
    """Sends the frames one at a time, each after the previous answer, through a Session stream and
    through a lean session with the same options; asserts the answers are the same; returns
    gRPC's."""
    with SessionStream(stub) as stream, LeanSession(worker.socket_path, options) as lean:
        opened = stream.open(options)
        assert opened.options == lean.opened.options
        through_grpc = [stream.process(frame) for frame in frames]
        through_lean = [lean.process(frame) for frame in frames]
    assert_same_outcomes(through_grpc, through_lean)
    return through_grpc


def video_frames_of(folder: str) -> List[dict]:
    return MANIFEST["videos"][folder]


@pytest.mark.parametrize("performance_mode", [pb.PERFORMANCE_MODE_FAST, pb.PERFORMANCE_MODE_ACCURATE],
                         ids=["fast", "accurate"])
def test_image_mode_finds_the_faces_the_lean_socket_finds(stub, worker, performance_mode):
    # The photographs whose faces all fit the session: not the group photo's ten far faces, beyond
    # num_faces and smaller than the default min_face_size.
    images = [image for image in MANIFEST["images"] if image["faces"] <= 3]
    options = pb.SessionOptions(running_mode=pb.RUNNING_MODE_IMAGE, performance_mode=performance_mode, num_faces=3,
                                **ML_KIT)
    frames = [pb.Frame(jpeg=fixture_bytes(image["file"]), timestamp_ms=index) for index, image in enumerate(images)]
    # One photograph turned on its side, as a camera held upright would store it.
    frames.append(pb.Frame(jpeg=fixture_bytes("three_faces.jpg"), orientation=pb.ORIENTATION_RIGHT_TOP))

    outcomes = both_doors(stub, worker, options, frames)

    assert [o.kind for o in outcomes] == ["result"] * len(frames)
    found = [len(o.result.faces) for o in outcomes]
    assert found[:-1] == [image["faces"] for image in images]
    assert (outcomes[-1].result.image_width, outcomes[-1].result.image_height) == (400, 800)
    astronaut = outcomes[0].result.faces[0]
    assert len(astronaut.landmarks) == 10 and len(astronaut.contours) == 15
    assert len(astronaut.transformation_matrix) == 16
    assert astronaut.HasField("smiling_probability")


def test_video_mode_tracks_the_face_as_the_lean_socket_does(stub, worker):
    frames_info = video_frames_of("video")
    options = pb.SessionOptions(running_mode=pb.RUNNING_MODE_VIDEO, tracking_enabled=True, output_face_mesh=True,
                                **ML_KIT)
    frames = [pb.Frame(jpeg=fixture_bytes(info["file"]), timestamp_ms=index * 33) for index, info in enumerate(frames_info)]

    outcomes = both_doors(stub, worker, options, frames)

    assert [len(o.result.faces) for o in outcomes] == [info["faces"] for info in frames_info]
    assert len({o.result.faces[0].tracking_id for o in outcomes}) == 1, "one face, one tracking id"
    assert not all(o.result.detector_ran for o in outcomes), "the face is followed from frame to frame"
    assert all(len(o.result.faces[0].mesh_xyz) == 478 * 3 for o in outcomes)


def test_video_mode_detection_only_with_two_faces(stub, worker):
    frames_info = video_frames_of("two_faces_video")
    options = pb.SessionOptions(running_mode=pb.RUNNING_MODE_VIDEO, tracking_enabled=True, num_faces=2)
    frames = [pb.Frame(jpeg=fixture_bytes(info["file"]), timestamp_ms=1000 + index * 40)
              for index, info in enumerate(frames_info)]

    outcomes = both_doors(stub, worker, options, frames)

    assert [len(o.result.faces) for o in outcomes] == [info["faces"] for info in frames_info]
    assert all(o.result.detector_ran for o in outcomes), "without the mesh the detector runs on every frame"


def test_live_stream_mode_answered_frame_by_frame_matches_the_lean_socket(stub, worker):
    frames_info = video_frames_of("video")
    options = pb.SessionOptions(running_mode=pb.RUNNING_MODE_LIVE_STREAM, tracking_enabled=True,
                                landmark_mode=pb.LANDMARK_MODE_ALL, output_face_mesh=True)
    frames = [pb.Frame(jpeg=fixture_bytes(info["file"]), timestamp_ms=index * 33) for index, info in enumerate(frames_info)]

    # Each frame sent once the previous one is answered: nothing waits, so nothing is replaced.
    outcomes = both_doors(stub, worker, options, frames)

    assert [o.kind for o in outcomes] == ["result"] * len(frames)
    assert all(len(o.result.faces[0].mesh_xyz) == 478 * 3 for o in outcomes)
