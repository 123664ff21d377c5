"""VIDEO mode: tracking IDs through a video, the timestamp rule, and reset."""

from __future__ import annotations

import math

import pytest

import faceworker as mp
from faceworker import StatusCode, vision

from conftest import box_centre, fixture_path, video_frames


def video_detector(base_options, **options):
    return vision.FaceDetector.create_from_options(
        vision.FaceDetectorOptions(base_options=base_options, running_mode=vision.RunningMode.VIDEO, **options)
    )


def test_tracking_ids_stay_the_same_through_a_video(base_options, manifest):
    placements = manifest["videos"]["video"]
    frames = video_frames()
    assert len(frames) == len(placements) > 10

    with video_detector(base_options, tracking_enabled=True) as detector:
        results = [
            detector.detect_for_video(mp.Image.create_from_file(frame), index * 33)
            for index, frame in enumerate(frames)
        ]

    assert [len(result.detections) for result in results] == [1] * len(frames)
    assert len({result.detections[0].tracking_id for result in results}) == 1
    assert results[0].detections[0].tracking_id >= 0
    assert [result.timestamp_ms for result in results] == [index * 33 for index in range(len(frames))]
    for result, placement in zip(results, placements):
        # The box follows the face as it pans and zooms.
        assert math.dist(box_centre(result.detections[0]), placement["placements"][0]["centre"]) < 25


def test_without_tracking_there_are_no_tracking_ids(base_options):
    with video_detector(base_options) as detector:
        result = detector.detect_for_video(mp.Image.create_from_file(video_frames()[0]), 0)

    assert result.detections[0].tracking_id is None


def test_a_timestamp_that_does_not_increase_is_invalid_and_the_session_goes_on(base_options):
    frame = mp.Image.create_from_file(video_frames()[0])
    with video_detector(base_options) as detector:
        detector.detect_for_video(frame, 100)

        with pytest.raises(mp.FaceWorkerError) as refused:
            detector.detect_for_video(frame, 100)
        with pytest.raises(mp.FaceWorkerError) as earlier:
            detector.detect_for_video(frame, 50)
        after = detector.detect_for_video(frame, 101)

    for error in (refused.value, earlier.value):
        assert error.code == StatusCode.INVALID_ARGUMENT
        assert int(error.code) == 3
        assert "timestamp" in error.message.lower()
        assert "INVALID_ARGUMENT" in str(error)
    assert "50" in earlier.value.message
    assert len(after.detections) == 1


def test_reset_lets_timestamps_start_again(base_options):
    frame = mp.Image.create_from_file(video_frames()[0])
    with video_detector(base_options, tracking_enabled=True) as detector:
        detector.detect_for_video(frame, 1000)
        detector.reset()
        result = detector.detect_for_video(frame, 0)

    assert len(result.detections) == 1


def test_methods_of_other_modes_are_refused(base_options):
    image = mp.Image.create_from_file(fixture_path("astronaut.jpg"))
    with video_detector(base_options) as detector:
        with pytest.raises(ValueError, match="image mode"):
            detector.detect(image)
        with pytest.raises(ValueError, match="live stream mode"):
            detector.detect_async(image, 0)

    with vision.FaceDetector.create_from_options(vision.FaceDetectorOptions(base_options=base_options)) as detector:
        with pytest.raises(ValueError, match="video mode"):
            detector.detect_for_video(image, 0)
