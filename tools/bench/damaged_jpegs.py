"""How many damaged photos the worker decodes, against OpenCV (and so MediaPipe's users).

    swift build -c release --product pipeline-bench
    .venv-tools/bin/python -m tools.bench.damaged_jpegs --ours .build/release/pipeline-bench

Makes --count damaged copies of --photo, seeded: each has 1 to 8 bytes set to random values at
random places of the whole file (header included), and every fourth is also cut short at a random
point in its second half. OpenCV decodes each with cv2.imdecode (decoded: not None); ours is
`pipeline-bench decode`, which decodes as the worker does by default (damaged data decoded with
libjpeg's warning; the header checks and the scan limit kept). Prints the counts and the files the
two disagree on, and writes nothing outside a temporary directory.
"""

import argparse
import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path

import cv2
import numpy as np


def damaged_copies(photo, count, seed):
    rng = random.Random(seed)
    for index in range(count):
        data = bytearray(photo)
        for _ in range(rng.randint(1, 8)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        if index % 4 == 3:
            data = data[:rng.randrange(len(data) // 2, len(data))]
        yield bytes(data)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ours", required=True, help="the pipeline-bench executable")
    parser.add_argument("--photo", default="Tests/Fixtures/astronaut.jpg")
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()

    photo = Path(args.photo).read_bytes()
    with tempfile.TemporaryDirectory() as scratch:
        files = []
        opencv = {}
        for index, data in enumerate(damaged_copies(photo, args.count, args.seed)):
            path = Path(scratch) / f"damaged_{index:03d}.jpg"
            path.write_bytes(data)
            files.append(str(path))
            opencv[str(path)] = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR) is not None
        run = subprocess.run([args.ours, "decode", *files], capture_output=True, text=True, check=True)
        ours = {line["file"]: line for line in map(json.loads, run.stdout.splitlines())}

    outcomes = [ours[f]["outcome"] for f in files]
    print(f"{args.count} damaged copies of {args.photo} (seed {args.seed})")
    print(f"  OpenCV decodes      {sum(opencv.values())}")
    print(f"  ours decodes        {sum(o != 'refused' for o in outcomes)} "
          f"({outcomes.count('sound')} without a warning, {outcomes.count('warning')} with one)")
    print(f"  ours refuses        {outcomes.count('refused')}")
    for f in files:
        if opencv[f] != (ours[f]["outcome"] != "refused"):
            print(f"  disagree: {Path(f).name}: OpenCV {'decodes' if opencv[f] else 'refuses'}, "
                  f"ours {ours[f]['outcome']}: {ours[f].get('message', '')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
