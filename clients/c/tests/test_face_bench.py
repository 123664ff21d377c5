"""face-bench against a real face-worker: every mode reports what it measured, and bad use is refused.

    tests/run-with-worker.sh ROOT MODELS -- python3 tests/test_face_bench.py BENCH FIXTURES SOCKET

Standard library only, so that it runs wherever the C tests do. Prints one line per test and a
closing `N passed, N failed` line; exits 1 when any failed.
"""

import json
import subprocess
import sys
import tempfile
from pathlib import Path

BENCH, FIXTURES, SOCKET = sys.argv[1], Path(sys.argv[2]), sys.argv[3]
VIDEO = FIXTURES / "video"
VIDEO_FRAMES = len(list(VIDEO.glob("*.jpg")))


def bench(*args, socket=SOCKET):
    done = subprocess.run([BENCH, "-s", socket, *args], capture_output=True, text=True, timeout=300)
    return done.returncode, done.stdout, done.stderr


def summary(*args, socket=SOCKET):
    status, out, err = bench("--json", *args, socket=socket)
    assert status == 0, f"exit status {status}: {out}{err}"
    return json.loads(out.strip().splitlines()[-1])


def test_video_answers_every_frame_with_its_face():
    s = summary("-m", "video", "-n", "30", "-d", str(VIDEO))
    assert (s["sent"], s["answered"], s["dropped"], s["errors"]) == (30, 30, 0, 0), s
    assert s["faces"] == 30, f"one face per fixture frame, got {s['faces']}"
    assert s["distinct_frames"] == VIDEO_FRAMES and (s["frame_width"], s["frame_height"]) == (640, 360), s
    latency = s["latency_ms"]
    assert 0 < latency["p50"] <= latency["p90"] <= latency["p99"] <= latency["max"], latency
    assert 0 < s["worker_median_ms"]["detect"] <= s["worker_median_ms"]["total"], s["worker_median_ms"]
    assert s["max_rss_kib"] > 0 and s["first_error"] is None, s


def test_synthetic_frames_show_the_astronaut():
    s = summary("-m", "video", "-n", "12", "--landmarks")
    assert s["source"] == "synthetic" and (s["frame_width"], s["frame_height"]) == (640, 360), s
    assert s["answered"] == 12 and s["faces"] == 12, s
    assert s["worker_median_ms"]["landmarks"] > 0, "the whole pipeline ran"


def test_landmarker_runs_the_face_landmarker_on_every_frame():
    s = summary("-m", "video", "-n", "12", "-d", str(VIDEO), "--landmarker")
    assert s["landmarker"] is True and s["landmarks"] is False, s
    assert (s["answered"], s["faces"], s["errors"]) == (12, 12, 0), s
    assert s["worker_median_ms"]["landmarks"] > 0, "the Face Landmarker's mesh ran"


def test_landmarks_and_landmarker_are_refused_together():
    status, _, err = bench("-m", "video", "-n", "1", "--landmarks", "--landmarker")
    assert status == 2 and "--landmarks and --landmarker" in err, (status, err)


def test_live_stream_answers_or_drops_every_frame():
    s = summary("-m", "live", "-c", "2", "-r", "60", "-n", "30", "-d", str(VIDEO))
    assert s["sessions"] == 2 and s["sent"] == 60 and s["errors"] == 0, s
    assert s["answered"] + s["dropped"] == 60 and s["answered"] > 0, s


def test_ping_and_echo_time_every_round_trip():
    with tempfile.TemporaryDirectory() as tmp:
        samples = Path(tmp) / "pings.txt"
        ping = summary("-m", "ping", "-n", "200", "--busy-poll", "20", "--samples", str(samples))
        lines = samples.read_text().split()
        assert ping["answered"] == 200 and ping["busy_poll_us"] == 20 and ping["source"] is None, ping
        assert len(lines) == 200 and all(float(v) > 0 for v in lines), f"{len(lines)} samples"
        assert abs(sorted(map(float, lines))[99] / 1000 - ping["latency_ms"]["p50"]) < 1e-3, "p50 from the same samples"
    echo = summary("-m", "echo", "-n", "200", socket="/nonexistent/no-worker-needed.sock")
    assert echo["mode"] == "echo" and echo["answered"] == 200 and echo["errors"] == 0, echo


def write_grey_frames(folder):
    """A 64x48 RGB frame and a 64x48 NV12 frame of mid grey (no face; the library's own tests
    compare faces found through shared memory with those found inline)."""
    rgb, nv12 = Path(folder) / "grey.rgb", Path(folder) / "grey.nv12"
    rgb.write_bytes(bytes([128]) * (64 * 48 * 3))
    nv12.write_bytes(bytes([126]) * (64 * 48) + bytes([128]) * (64 * 48 // 2))
    return rgb, nv12


def test_raw_frames_through_the_socket_and_shared_memory():
    with tempfile.TemporaryDirectory() as tmp:
        rgb, nv12 = write_grey_frames(tmp)
        for path, fmt in ((rgb, "rgb"), (nv12, "nv12")):
            for extra in ([], ["--shared-memory"]):
                s = summary("-m", "video", "-n", "5", "--raw", str(path), "--raw-format", fmt, "--raw-size", "64x48",
                            *extra)
                assert (s["answered"], s["errors"], s["faces"]) == (5, 0, 0), s
                assert s["raw_format"] == fmt and s["shared_memory"] == bool(extra), s
                assert (s["frame_width"], s["frame_height"]) == (64, 48), s
        s = summary("-m", "live", "-r", "60", "-n", "10", "-d", str(VIDEO), "--shared-memory")
        assert s["shared_memory"] and s["answered"] + s["dropped"] == 10 and s["faces"] == s["answered"], s


def read_events(path):
    return [line.split() for line in Path(path).read_text().splitlines()]


def test_a_subscriber_follows_a_named_live_stream():
    with tempfile.TemporaryDirectory() as tmp:
        followed, produced = Path(tmp) / "followed.txt", Path(tmp) / "produced.txt"
        subscriber = subprocess.Popen([BENCH, "-s", SOCKET, "--json", "-m", "subscribe", "--name", "bench-test",
                                       "--events", str(followed)], stdout=subprocess.PIPE, text=True)
        producer = summary("-m", "live", "-r", "30", "-n", "20", "-d", str(VIDEO), "--name", "bench-test",
                           "--wait-subscribers", "1", "--events", str(produced))
        out, _ = subscriber.communicate(timeout=120)
        s = json.loads(out.strip().splitlines()[-1])
        assert subscriber.returncode == 0 and s["ended"] == "session_closed", s
        assert s["answered"] == producer["answered"] and s["dropped"] == producer["dropped"], (s, producer)
        assert s["missed"] == 0 and s["errors"] == 0, s
        theirs, ours = read_events(followed), read_events(produced)
        results = [line[0] for line in ours if line[1] == "result"]
        assert [line[0] for line in theirs if line[1] == "result"] == results, "the same results, in order"
        assert theirs[-1][1] == "ended" and len(ours) == 20, (theirs[-1], len(ours))
        # Sent before it arrived anywhere, on the one clock of the host.
        sent = {line[0]: int(line[2]) for line in ours}
        assert all(int(line[3]) > sent[line[0]] for line in theirs if line[1] == "result")


def test_bad_use_is_refused_with_a_message():
    for args, message in ((["-m", "fast"], "-m takes video, live, ping, echo or subscribe"),
                          (["-m", "subscribe"], "-m subscribe needs --name"),
                          (["-c", "2", "--name", "a"], "use it with -c 1"),
                          (["--raw", "x.rgb"], "--raw needs --raw-format and --raw-size"),
                          (["--raw-size", "0x5"], "--raw-size takes WxH"),
                          (["-c", "0"], "-c takes 1 to 1024"),
                          (["-r", "-1"], "-r takes 0 to 10000"),
                          (["--busy-poll", "10001"], "--busy-poll takes 0 to 10000"),
                          (["-d", "/nonexistent"], "/nonexistent")):
        status, out, err = bench(*args)
        assert status in (1, 2) and message in err, f"{args}: status {status}, stderr {err!r}"


def test_no_worker_is_an_error_not_a_result():
    status, out, err = bench("--json", "-n", "3", "-d", str(VIDEO), socket="/nonexistent/faceworker.sock")
    s = json.loads(out.strip().splitlines()[-1])
    assert status == 1 and s["answered"] == 0 and s["errors"] >= 1, s
    assert "/nonexistent/faceworker.sock" in s["first_error"], s["first_error"]


def main():
    tests = [(name, f) for name, f in globals().items() if name.startswith("test_") and callable(f)]
    failed = 0
    for name, test in tests:
        try:
            test()
            print(f"ok   {name}")
        except Exception as error:
            failed += 1
            print(f"FAIL {name}: {error}")
    print(f"{len(tests) - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
