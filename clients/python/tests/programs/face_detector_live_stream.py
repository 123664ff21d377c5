# MediaPipe's Face Detector guide for Python, live stream mode; the model file, then the camera's
# frames in order, are given on the command line. Each frame is sent once the result of the one
# before has come, as a camera slower than the detector would, so no frame is dropped.
import sys
import threading

import numpy as np
from PIL import Image

import mediapipe as mp

model_path = sys.argv[1]
frame_files = sys.argv[2:]
answered = threading.Event()

BaseOptions = mp.tasks.BaseOptions
FaceDetector = mp.tasks.vision.FaceDetector
FaceDetectorOptions = mp.tasks.vision.FaceDetectorOptions
FaceDetectorResult = mp.tasks.vision.FaceDetectorResult
VisionRunningMode = mp.tasks.vision.RunningMode

# Create a face detector instance with the live stream mode:
def print_result(result: FaceDetectorResult, output_image: mp.Image, timestamp_ms: int):
    print('face detector result: {}'.format(result))
    answered.set()

options = FaceDetectorOptions(
    base_options=BaseOptions(model_asset_path=model_path),
    running_mode=VisionRunningMode.LIVE_STREAM,
    result_callback=print_result)
with FaceDetector.create_from_options(options) as detector:
    for index, frame_file in enumerate(frame_files):
        numpy_frame = np.asarray(Image.open(frame_file).convert('RGB'))
        frame_timestamp_ms = index * 33
        mp_image = mp.Image(image_format=mp.ImageFormat.SRGB, data=numpy_frame)
        answered.clear()
        # Send live image data to perform face detection.
        # The results are accessible via the `result_callback` provided in
        # the `FaceDetectorOptions` object.
        # The face detector must be created with the live stream mode.
        detector.detect_async(mp_image, frame_timestamp_ms)
        answered.wait()
