"""A worker whose models directory lacks face_landmarker.task: it starts, says so, and serves
every session that does not need the bundle; sessions that do are refused with the reason."""

from __future__ import annotations

from typing import Iterator

import pytest

import faceworker as mp
from faceworker import StatusCode, vision
from faceworker.vision import MeshModel

from conftest import RunningWorker, fixture_path, start_worker, stop_worker
from worker_process import MODELS

BUNDLE = "face_landmarker.task"


@pytest.fixture(scope="module")
def bare_worker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningWorker]:
    """A worker started on a copy of the models directory (links to its files) without the bundle."""
    models = tmp_path_factory.mktemp("models-without-bundle")
    for path in MODELS.iterdir():
        if path.name != BUNDLE:
            (models / path.name).symlink_to(path.resolve())
    running = start_worker(tmp_path_factory.mktemp("bare-worker"), models=models)
    yield running
    stop_worker(running)


def astronaut() -> mp.Image:
    return mp.Image.create_from_file(fixture_path("astronaut.jpg"))


def test_the_start_line_names_the_missing_bundle(bare_worker):
    start = next(line for line in bare_worker.log().splitlines() if "worker started" in line)

    assert BUNDLE in start
    assert "attention-mesh" in start and "detector-only" in start


def test_detector_sessions_work(bare_worker):
    with vision.FaceDetector.create_from_options(vision.FaceDetectorOptions(base_options=bare_worker.base_options)) as detector:
        assert len(detector.detect(astronaut()).detections) == 1


def test_attention_mesh_sessions_work(bare_worker):
    options = vision.FaceLandmarkerOptions(base_options=bare_worker.base_options, mesh_model=MeshModel.ATTENTION_MESH)
    with vision.FaceLandmarker.create_from_options(options) as landmarker:
        result = landmarker.detect(astronaut())

    assert len(result.face_landmarks) == 1 and len(result.face_landmarks[0]) == 478


@pytest.mark.parametrize("blendshapes", [False, True])
def test_face_landmarker_sessions_are_refused_with_the_reason(bare_worker, blendshapes):
    options = vision.FaceLandmarkerOptions(base_options=bare_worker.base_options, output_face_blendshapes=blendshapes)

    with pytest.raises(mp.FaceWorkerError) as raised:
        vision.FaceLandmarker.create_from_options(options)

    assert raised.value.code == StatusCode.FAILED_PRECONDITION
    assert BUNDLE in raised.value.message


def test_a_detector_asking_for_the_face_landmarker_is_refused_too(bare_worker):
    options = vision.FaceDetectorOptions(
        base_options=bare_worker.base_options, landmark_mode=vision.LandmarkMode.ALL, mesh_model=MeshModel.FACE_LANDMARKER
    )

    with pytest.raises(mp.FaceWorkerError) as raised:
        vision.FaceDetector.create_from_options(options)

    assert raised.value.code == StatusCode.FAILED_PRECONDITION


def test_stats_list_only_the_models_loaded(bare_worker):
    names = {model.name for model in mp.get_stats(bare_worker.socket_path).models}

    assert BUNDLE not in names
    assert "face_landmark_with_attention.tflite" in names
