# MediaPipe's Face Landmarker guide for Python, live stream mode; the model file, then the camera's
# frames in order, are given on the command line. Each frame is sent once the result of the one
# before has come, as a camera slower than the landmarker would, so no frame is dropped.
import sys
import threading

import numpy as np
from PIL import Image

import mediapipe as mp

model_path = sys.argv[1]
frame_files = sys.argv[2:]
answered = threading.Event()

BaseOptions = mp.tasks.BaseOptions
FaceLandmarker = mp.tasks.vision.FaceLandmarker
FaceLandmarkerOptions = mp.tasks.vision.FaceLandmarkerOptions
FaceLandmarkerResult = mp.tasks.vision.FaceLandmarkerResult
VisionRunningMode = mp.tasks.vision.RunningMode

# Create a face landmarker instance with the live stream mode:
def print_result(result: FaceLandmarkerResult, output_image: mp.Image, timestamp_ms: int):
    print('face landmarker result: {}'.format(result))
    answered.set()

options = FaceLandmarkerOptions(
    base_options=BaseOptions(model_asset_path=model_path),
    running_mode=VisionRunningMode.LIVE_STREAM,
    result_callback=print_result)
with FaceLandmarker.create_from_options(options) as landmarker:
    for index, frame_file in enumerate(frame_files):
        numpy_frame = np.asarray(Image.open(frame_file).convert('RGB'))
        frame_timestamp_ms = index * 33
        mp_image = mp.Image(image_format=mp.ImageFormat.SRGB, data=numpy_frame)
        answered.clear()
        # Send live image data to perform face landmarking.
        # The results are accessible via the `result_callback` provided in
        # the `FaceLandmarkerOptions` object.
        # The face landmarker must be created with the live stream mode.
        landmarker.detect_async(mp_image, frame_timestamp_ms)
        answered.wait()
