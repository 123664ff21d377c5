"""The Face Landmarker's options and outputs through gRPC: mesh_model and output_face_blendshapes
reach the session, the blendshape names come in `opened` and `subscribed` as on the lean socket,
each face carries its scores, and the refusals keep their codes and words."""

from __future__ import annotations

from faceworker.v1 import faceworker_pb2 as pb

from conftest import CALL_SECONDS, fixture_bytes
from doors import LeanSession, SessionStream, refused_open
from same import assert_same_outcomes

BLENDSHAPES = pb.SessionOptions(mesh_model=pb.MESH_MODEL_FACE_LANDMARKER, output_face_blendshapes=True, num_faces=3)


def test_a_session_gets_the_names_once_and_every_face_its_scores_as_on_the_lean_socket(stub, worker):
    frames = [pb.Frame(jpeg=fixture_bytes(name), timestamp_ms=index)
              for index, name in enumerate(["astronaut.jpg", "three_faces.jpg"])]
    with SessionStream(stub) as stream, LeanSession(worker.socket_path, BLENDSHAPES) as lean:
        opened = stream.open(BLENDSHAPES)
        through_grpc = [stream.process(frame) for frame in frames]
        through_lean = [lean.process(frame) for frame in frames]

    assert opened.options == lean.opened.options
    assert opened.options.mesh_model == pb.MESH_MODEL_FACE_LANDMARKER and opened.options.output_face_blendshapes
    assert len(opened.blendshape_names) == 52
    assert opened.blendshape_names == lean.opened.blendshape_names
    assert_same_outcomes(through_grpc, through_lean)
    assert [len(outcome.result.faces) for outcome in through_grpc] == [1, 3]
    for outcome in through_grpc:
        assert all(len(face.blendshapes) == len(opened.blendshape_names) for face in outcome.result.faces)


def test_without_the_option_there_are_neither_names_nor_scores(stub):
    with SessionStream(stub) as stream:
        opened = stream.open(pb.SessionOptions(mesh_model=pb.MESH_MODEL_FACE_LANDMARKER, output_face_mesh=True))
        outcome = stream.process(pb.Frame(jpeg=fixture_bytes("astronaut.jpg")))

    assert list(opened.blendshape_names) == []
    assert len(outcome.result.faces[0].mesh_xyz) == 478 * 3
    assert list(outcome.result.faces[0].blendshapes) == []


def test_a_grpc_subscriber_gets_the_names(stub, worker):
    with LeanSession(worker.socket_path, BLENDSHAPES, name="blendshapes-door") as producer:
        updates = stub.Subscribe(pb.SubscribeRequest(name="blendshapes-door"), timeout=CALL_SECONDS)
        first = next(updates)
        updates.cancel()

    assert first.subscribed.blendshape_names == producer.opened.blendshape_names


def test_blendshapes_without_the_face_landmarker_end_the_call_as_the_lean_open_is_refused(stub, worker):
    code, message = refused_open(stub, worker, pb.SessionOptions(output_face_blendshapes=True))

    assert code == pb.Status.INVALID_ARGUMENT
    assert "output_face_blendshapes" in message


def test_an_unknown_mesh_model_ends_the_call_as_the_lean_open_is_refused(stub, worker):
    code, message = refused_open(stub, worker, pb.SessionOptions(mesh_model=9))

    assert code == pb.Status.INVALID_ARGUMENT
    assert "mesh_model" in message
