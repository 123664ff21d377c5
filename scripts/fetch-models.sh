#!/usr/bin/env bash
# Fetches MediaPipe's face models from the mediapipe==0.10.14 wheel on PyPI into
# models/, and verifies them. Does nothing when all of them are present and valid.
set -euo pipefail

dest=${1:-models}
version=0.10.14
declare -A sha=(
  [face_detection_short_range.tflite]=bbff11cebd1eb27a1e004cae0b0e63ec8c551cbf34a4451148b4908b8db3eca8
  [face_detection_full_range_sparse.tflite]=2c3728e6da56f21e21a320433396fb06d40d9088f2247c05e5635a688d45dfe1
  [face_landmark.tflite]=1055cb9d4a9ca8b8c688902a3a5194311138ba256bcc94e336d8373a5f30c814
  [face_landmark_with_attention.tflite]=e06a804e0144f9929eda782122916b35d60c697c3c9344013ca2bbe76a6ce2b4
)
declare -A member=(
  [face_detection_short_range.tflite]=mediapipe/modules/face_detection/face_detection_short_range.tflite
  [face_detection_full_range_sparse.tflite]=mediapipe/modules/face_detection/face_detection_full_range_sparse.tflite
  [face_landmark.tflite]=mediapipe/modules/face_landmark/face_landmark.tflite
  [face_landmark_with_attention.tflite]=mediapipe/modules/face_landmark/face_landmark_with_attention.tflite
)

valid() { [ -f "$dest/$1" ] && [ "$(sha256sum "$dest/$1" | cut -d' ' -f1)" = "${sha[$1]}" ]; }

missing=()
for f in "${!sha[@]}"; do valid "$f" || missing+=("$f"); done
[ ${#missing[@]} -eq 0 ] && exit 0

python=$(command -v python3 || true)
if [ -z "$python" ] || ! "$python" -m pip --version >/dev/null 2>&1; then
  echo "error: pip is needed to fetch the models (python3 -m pip). On Debian: apt-get install python3-pip" >&2
  exit 1
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "Fetching mediapipe==$version from PyPI for its face models (${missing[*]})"
# Platform and Python tags are pinned so the wheel is the same whatever the local Python is.
if ! "$python" -m pip download --quiet --no-deps --only-binary=:all: \
      --python-version 3.11 --platform manylinux2014_x86_64 \
      -d "$work" "mediapipe==$version"; then
  echo "error: could not download mediapipe==$version from PyPI. Check the network or the pip index settings, then run 'make models' again." >&2
  exit 1
fi
wheel=$(ls "$work"/mediapipe-*.whl)
mkdir -p "$dest"
for f in "${missing[@]}"; do
  "$python" - "$wheel" "${member[$f]}" "$dest/$f.part" <<'PY'
import sys, zipfile, shutil
with zipfile.ZipFile(sys.argv[1]) as z, z.open(sys.argv[2]) as src, open(sys.argv[3], "wb") as out:
    shutil.copyfileobj(src, out)
PY
  got=$(sha256sum "$dest/$f.part" | cut -d' ' -f1)
  if [ "$got" != "${sha[$f]}" ]; then
    rm -f "$dest/$f.part"
    echo "error: checksum mismatch for $f: expected ${sha[$f]}, got $got. The wheel is not the expected mediapipe==$version; nothing was installed." >&2
    exit 1
  fi
  mv "$dest/$f.part" "$dest/$f"
  echo "  $dest/$f ok"
done
