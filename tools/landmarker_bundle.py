"""The Face Landmarker bundle (face_landmarker.task) and its member models, for the golden-file
generator and the benchmark.

The bundle is a zip of stored members; each member read is checked against its SHA-256, so a
golden file or a benchmark row always names exactly the model it was made with.
"""

import hashlib
import sys
import zipfile

BUNDLE_FILE = "face_landmarker.task"

MEMBER_SHA256 = {
    "face_detector.tflite": "b4578f35940bf5a1a655214a1cce5cab13eba73c1297cd78e1a04c2380b0152f",
    "face_landmarks_detector.tflite": "c7d54204ce0448474c7f3fa9af494787c0965cbdd6f20fc72867e43046bd43d5",
    "face_blendshapes.tflite": "4f36dded049db18d76048567439b2a7f58f1daabc00d78bfe8f3ad396a2d2082",
    "geometry_pipeline_metadata_landmarks.binarypb": "bdbcda96dfcb7da883da124aaa2c55dee49770d934f0fcc71747f8c21bdc75b4",
}


def read_member(models_dir, member):
    """The bytes of `member` from models_dir/face_landmarker.task, SHA-256 checked."""
    path = models_dir / BUNDLE_FILE
    if not path.is_file():
        sys.exit(f"error: bundle {path} is missing; `make models` fetches it")
    with zipfile.ZipFile(path) as bundle:
        content = bundle.read(member)
    digest = hashlib.sha256(content).hexdigest()
    if digest != MEMBER_SHA256[member]:
        sys.exit(f"error: {path}:{member} has SHA-256 {digest}, expected {MEMBER_SHA256[member]}")
    return content
