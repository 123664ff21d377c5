# MediaPipe's Face Detector for Python, image mode, as its example notebook writes it; the model
# file, then the images, are given on the command line.
import sys

import mediapipe as mp
from mediapipe.tasks import python
from mediapipe.tasks.python import vision

model_path = sys.argv[1]
image_files = sys.argv[2:]

# STEP 2: Create an FaceDetector object.
base_options = python.BaseOptions(model_asset_path=model_path)
options = vision.FaceDetectorOptions(base_options=base_options)
detector = vision.FaceDetector.create_from_options(options)

for image_file in image_files:
    # STEP 3: Load the input image.
    image = mp.Image.create_from_file(image_file)

    # STEP 4: Detect faces in the input image.
    detection_result = detector.detect(image)

    # STEP 5: Process the detection result.
    print('face detector result: {}'.format(detection_result))
