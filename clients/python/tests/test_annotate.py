"""The annotate command: a picture of what the worker sees."""

from __future__ import annotations

import re
import subprocess
import sys

from PIL import Image as PILImage

from faceworker._draw import BOX_COLOUR, CONTOUR_COLOUR

from conftest import fixture_path


def annotate(*arguments: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "faceworker", "annotate", *arguments],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_annotate_draws_the_face_onto_a_png_of_the_same_size(worker, tmp_path):
    output = tmp_path / "astronaut.png"

    run = annotate(fixture_path("astronaut.jpg"), str(output), "--socket", worker.socket_path)

    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("1 face(s) in 512x512")
    assert re.search(r"  id \d+  score 0\.\d\d", run.stdout)
    with PILImage.open(output) as picture:
        assert picture.format == "PNG"
        assert picture.size == (512, 512)
        pixels = picture.convert("RGB")
        colours = {colour for _, colour in pixels.crop((150, 50, 300, 210)).getcolors(maxcolors=150 * 160)}
    # The box and the contours are drawn around the astronaut's face (centre 225, 130).
    assert BOX_COLOUR in colours
    assert CONTOUR_COLOUR in colours


def test_annotate_reads_other_formats_through_pillow(worker, tmp_path):
    source = tmp_path / "chelsea.png"
    with PILImage.open(fixture_path("chelsea.jpg")) as picture:
        picture.save(source)
    output = tmp_path / "out.png"

    run = annotate(str(source), str(output), "--socket", worker.socket_path)

    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("0 face(s) in 451x300")
    with PILImage.open(output) as picture:
        assert picture.size == (451, 300)


def test_annotate_without_a_worker_says_how_to_start_it(tmp_path):
    run = annotate(fixture_path("astronaut.jpg"), str(tmp_path / "out.png"), "--socket", str(tmp_path / "none.sock"))

    assert run.returncode == 1
    assert "make run" in run.stderr
    assert not (tmp_path / "out.png").exists()


def test_annotate_without_pillow_says_how_to_install_it(tmp_path):
    script = (
        "import sys; sys.modules['PIL'] = None\n"
        "from faceworker.__main__ import main\n"
        f"sys.exit(main(['annotate', {fixture_path('astronaut.jpg')!r}, {str(tmp_path / 'out.png')!r}]))\n"
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)

    assert run.returncode == 2
    assert "pip install 'faceworker[annotate]'" in run.stderr
