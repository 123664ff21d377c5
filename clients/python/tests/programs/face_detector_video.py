# MediaPipe's Face Detector guide for Python, video mode; the model file, then the video's frames
# in order, are given on the command line. Frames are decoded to RGB arrays, as the guide converts
# OpenCV's, and are 33 ms apart.
import sys

import numpy as np
from PIL import Image

import mediapipe as mp

model_path = sys.argv[1]
frame_files = sys.argv[2:]

BaseOptions = mp.tasks.BaseOptions
FaceDetector = mp.tasks.vision.FaceDetector
FaceDetectorOptions = mp.tasks.vision.FaceDetectorOptions
VisionRunningMode = mp.tasks.vision.RunningMode

# Create a face detector instance with the video mode:
options = FaceDetectorOptions(
    base_options=BaseOptions(model_asset_path=model_path),
    running_mode=VisionRunningMode.VIDEO)
with FaceDetector.create_from_options(options) as detector:
    for index, frame_file in enumerate(frame_files):
        numpy_frame = np.asarray(Image.open(frame_file).convert('RGB'))
        frame_timestamp_ms = index * 33
        # Convert the frame to a MediaPipe's Image object.
        mp_image = mp.Image(image_format=mp.ImageFormat.SRGB, data=numpy_frame)
        # Perform face detection on the provided single image.
        # The face detector must be created with the video mode.
        face_detector_result = detector.detect_for_video(mp_image, frame_timestamp_ms)
        print('face detector result: {}'.format(face_detector_result))
