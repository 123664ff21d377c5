"""The Face Landmarker bundle (face_landmarker.task) and its member models, for the golden-file
generator and the benchmark.

The bundle is a zip of stored members; each member read is checked against its SHA-256, so a
golden file or a benchmark row always names exactly the model it was made with.
"""

import hashlib
import json
import sys
import zipfile
from pathlib import Path

BUNDLE_FILE = "face_landmarker.task"

# The members' digests, from the repository's model manifest.
MEMBER_SHA256 = {
    member["name"]: member["sha256"]
    for entry in json.loads((Path(__file__).resolve().parents[2] / "models.json").read_text())["files"]
    if entry["name"] == BUNDLE_FILE
    for member in entry["members"]
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
