"""Blendshapes: MediaPipe Tasks' ``face_blendshapes``, through the FACE_LANDMARKER mesh model.

The scores are checked against the golden file MediaPipe Tasks 0.10.14's own FaceLandmarker wrote
on the fixtures (Tests/FaceDetectionTests/Goldens/face_landmarker.json); the shape of each
Category (index = position, display_name "", the category name) against what MediaPipe 0.10.14
returns.
"""

from __future__ import annotations

import json
import threading

import numpy as np
import pytest

import faceworker as mp
from faceworker import StatusCode, vision
from faceworker._connection import Connection
from faceworker._proto import faceworker_pb2 as pb
from faceworker.vision import MeshModel

from conftest import FIXTURES, fixture_path
from worker_process import REPO

GOLDENS = json.loads((REPO / "Tests" / "FaceDetectionTests" / "Goldens" / "face_landmarker.json").read_text())
# The stills MediaPipe finds faces on, with how many it finds.
STILLS = {name: still for name, still in GOLDENS["images"].items() if still["faces"]}
# The pipeline's parity tests hold its scores within 0.01 of MediaPipe's; the wire carries them
# unchanged, so the client must see them within that too.
SCORE_TOLERANCE = 0.01


def landmark(base_options, image_name, **options):
    with vision.FaceLandmarker.create_from_options(
        vision.FaceLandmarkerOptions(base_options=base_options, **options)
    ) as landmarker:
        return landmarker.detect(mp.Image.create_from_file(fixture_path(image_name)))


def golden_face_for(mesh, golden_faces):
    """The golden face whose mesh lies nearest ``mesh`` (faces may come in another order)."""
    points = mesh.numpy_view()[:, :2]
    return min(golden_faces, key=lambda face: float(np.abs(np.asarray(face["points"])[:, :2] - points).mean()))


@pytest.mark.parametrize("image_name", sorted(STILLS))
def test_scores_are_mediapipe_tasks_own(base_options, image_name):
    still = STILLS[image_name]

    result = landmark(base_options, image_name, num_faces=still["num_faces"], output_face_blendshapes=True)

    assert len(result.face_blendshapes) == len(still["faces"]) == len(result.face_landmarks)
    for categories, mesh in zip(result.face_blendshapes, result.face_landmarks):
        expected = golden_face_for(mesh, still["faces"])["blendshapes"]
        assert [category.score for category in categories] == pytest.approx(expected, abs=SCORE_TOLERANCE)


def test_each_face_has_mediapipes_categories(base_options):
    result = landmark(base_options, "three_faces.jpg", num_faces=3, output_face_blendshapes=True)

    assert len(result.face_blendshapes) == 3
    names = [category.category_name for category in result.face_blendshapes[0]]
    assert len(names) == 52 and len(set(names)) == 52 and all(names)
    for categories in result.face_blendshapes:
        # As MediaPipe 0.10.14's Category: index is the position, display_name is empty.
        assert [category.index for category in categories] == list(range(52))
        assert {category.display_name for category in categories} == {""}
        assert [category.category_name for category in categories] == names
        assert all(0.0 <= category.score <= 1.0 for category in categories)


def test_the_names_name_the_scores(base_options):
    # Every fixture face smiles: the names that say so must carry the highest scores.
    result = landmark(base_options, "astronaut.jpg", output_face_blendshapes=True)

    by_name = {category.category_name: category.score for category in result.face_blendshapes[0]}
    top_two = sorted(by_name, key=by_name.get, reverse=True)[:2]
    assert set(top_two) == {"mouthSmileLeft", "mouthSmileRight"}
    assert by_name["eyeBlinkLeft"] < 0.2 and by_name["eyeBlinkRight"] < 0.2


def test_the_names_come_once_with_the_session(worker):
    # The wire carries the names in the answer that opens the session, and only scores per face.
    options = vision.FaceLandmarkerOptions(output_face_blendshapes=True)._to_proto()
    connection = Connection(worker.socket_path)
    try:
        opened = connection.call(pb.ClientMessage(open_session=pb.OpenSessionRequest(options=options))).open_session
        with open(fixture_path("astronaut.jpg"), "rb") as jpeg:
            frame = pb.Frame(jpeg=jpeg.read())
        answer = connection.call(
            pb.ClientMessage(process_frame=pb.ProcessFrameRequest(session_id=opened.session_id, frame=frame))
        )
    finally:
        connection.close()

    assert len(opened.blendshape_names) == 52
    assert opened.options.mesh_model == pb.MESH_MODEL_FACE_LANDMARKER and opened.options.output_face_blendshapes
    assert len(answer.frame_result.faces[0].blendshapes) == len(opened.blendshape_names)


def test_without_the_option_there_are_none(base_options):
    result = landmark(base_options, "astronaut.jpg", output_facial_transformation_matrixes=True)

    assert result.face_blendshapes == []
    # The matrix keeps coming from the Face Landmarker.
    assert len(result.facial_transformation_matrixes) == 1


@pytest.mark.parametrize("mesh_model", [MeshModel.ATTENTION_MESH, MeshModel.FACE_MESH])
def test_blendshapes_need_the_face_landmarker(base_options, mesh_model):
    with pytest.raises(mp.FaceWorkerError) as raised:
        landmark(base_options, "astronaut.jpg", output_face_blendshapes=True, mesh_model=mesh_model)

    assert raised.value.code == StatusCode.INVALID_ARGUMENT
    assert "output_face_blendshapes needs mesh_model FACE_LANDMARKER" in raised.value.message


@pytest.mark.parametrize("mesh_model, points", [(MeshModel.ATTENTION_MESH, 478), (MeshModel.FACE_MESH, 468)])
def test_the_legacy_meshes_can_still_be_chosen(base_options, mesh_model, points):
    result = landmark(base_options, "astronaut.jpg", mesh_model=mesh_model)

    assert len(result.face_landmarks) == 1 and len(result.face_landmarks[0]) == points
    assert result.face_blendshapes == []


def test_the_face_mesh_model_is_echoed_as_sent(worker):
    options = vision.FaceLandmarkerOptions(mesh_model=MeshModel.FACE_MESH)._to_proto()
    connection = Connection(worker.socket_path)
    try:
        opened = connection.call(pb.ClientMessage(open_session=pb.OpenSessionRequest(options=options))).open_session
    finally:
        connection.close()

    assert options.mesh_model == pb.MESH_MODEL_FACE_MESH
    assert opened.options.mesh_model == pb.MESH_MODEL_FACE_MESH and opened.options.output_face_mesh


def test_live_stream_results_carry_them(base_options):
    results = []
    done = threading.Event()

    def on_result(result, image, timestamp_ms):
        results.append(result)
        done.set()

    options = vision.FaceLandmarkerOptions(
        base_options=base_options,
        running_mode=vision.RunningMode.LIVE_STREAM,
        output_face_blendshapes=True,
        result_callback=on_result,
    )
    with vision.FaceLandmarker.create_from_options(options) as landmarker:
        landmarker.detect_async(mp.Image.create_from_file(str(FIXTURES / "astronaut.jpg")), 0)
        assert done.wait(30)

    assert len(results[0].face_blendshapes) == 1
    assert len(results[0].face_blendshapes[0]) == 52


def test_a_subscriber_gets_the_names_and_scores(base_options):
    got = []
    arrived = threading.Event()

    def on_result(result, timestamp_ms):
        got.append(result)
        arrived.set()

    producer_options = vision.FaceLandmarkerOptions(
        base_options=base_options, output_face_blendshapes=True, session_name="blendshapes-for-subscribers"
    )
    with vision.FaceLandmarker.create_from_options(producer_options) as producer:
        subscriber_options = vision.FaceSubscriberOptions(
            base_options=base_options, session_name="blendshapes-for-subscribers", result_callback=on_result
        )
        with vision.FaceSubscriber.create_from_options(subscriber_options):
            own = producer.detect(mp.Image.create_from_file(fixture_path("astronaut.jpg")))
            assert arrived.wait(30)

    assert got[0].face_blendshapes == own.face_blendshapes
    assert len(own.face_blendshapes[0]) == 52
