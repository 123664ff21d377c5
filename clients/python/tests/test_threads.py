"""Sharing: several threads on one detector, and the context manager's close."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import faceworker as mp
from faceworker import vision

from conftest import fixture_path

EXPECTED_FACES = {"astronaut.jpg": 1, "chelsea.jpg": 0, "camera.jpg": 1, "three_faces.jpg": 3}


def test_threads_sharing_one_detector_each_get_their_own_results(base_options):
    images = {name: mp.Image.create_from_file(fixture_path(name)) for name in EXPECTED_FACES}
    with vision.FaceDetector.create_from_options(vision.FaceDetectorOptions(base_options=base_options)) as detector:
        reference = {name: detector.detect(image) for name, image in images.items()}

        def work(index: int):
            name = list(images)[index % len(images)]
            return name, detector.detect(images[name])

        with ThreadPoolExecutor(max_workers=6) as pool:
            answers = list(pool.map(work, range(48)))

    for name, result in answers:
        assert len(result.detections) == EXPECTED_FACES[name]
        assert result.detections == reference[name].detections
        assert (result.image_width, result.image_height) == (reference[name].image_width, reference[name].image_height)


def test_context_manager_closes_the_session(worker, base_options):
    before = mp.get_stats(worker.socket_path).sessions
    with vision.FaceDetector.create_from_options(vision.FaceDetectorOptions(base_options=base_options)) as detector:
        assert mp.get_stats(worker.socket_path).sessions == before + 1
        detector.detect(mp.Image.create_from_file(fixture_path("astronaut.jpg")))

    assert mp.get_stats(worker.socket_path).sessions == before
