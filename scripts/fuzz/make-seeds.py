#!/usr/bin/env python3
"""Writes the fuzz targets' seed corpora: one directory per target under OUT.

    make-seeds.py OUT MODELS_DIR C_ANSWERS

Run with the Python client's environment (its generated messages, NumPy and
Pillow). Each seed is a small, valid input of its target, so the fuzzer starts
from inputs that reach deep into the parser: framed ClientMessage streams
(sessions of every mode, raw frames of every format, JPEG frames, shared
buffers, subscriptions), raw frame descriptions for every pixel format and
orientation, JPEGs of every sampling and coding the decoder meets, the
worker's own model files, a small .task bundle, the bundle's geometry
metadata, FlexBuffers, and the answers a real worker sent to the C client.
"""
import io
import pathlib
import struct
import sys
import zipfile

import numpy as np
from PIL import Image

from faceworker._proto import faceworker_pb2 as pb

FORMATS = {  # PixelFormat value: (bytes per pixel, or None for 4:2:0)
    1: 3, 2: 4, 3: 4, 4: 3, 5: 1, 6: None, 7: None, 8: None,
}


def framed(messages):
    out = bytearray()
    for message in messages:
        payload = message.SerializeToString()
        out += struct.pack(">BI", 0, len(payload)) + payload
    return bytes(out)


def pixels(fmt, width, height, rng):
    if FORMATS[fmt] is None:
        size = width * height + 2 * ((width + 1) // 2) * ((height + 1) // 2)
    else:
        size = width * height * FORMATS[fmt]
    return rng.integers(0, 256, size, dtype=np.uint8).tobytes()


def jpegs(rng):
    """Small JPEGs: 4:2:0, 4:2:2, 4:4:4, grey, progressive, restart markers, odd sizes, truncated."""
    base = rng.integers(0, 256, (24, 40, 3), dtype=np.uint8)
    image = Image.fromarray(base).resize((40, 24))
    out = {}
    for name, img, options in [
        ("420", image, {"subsampling": 2}),
        ("422", image, {"subsampling": 1}),
        ("444", image, {"subsampling": 0}),
        ("grey", image.convert("L"), {}),
        ("progressive", image, {"progressive": True}),
        ("restart", image, {"restart_marker_blocks": 1}),
        ("odd", image.crop((0, 0, 17, 9)), {}),
        ("cmyk", image.convert("CMYK"), {}),
    ]:
        buffer = io.BytesIO()
        img.save(buffer, "JPEG", quality=70, **options)
        out[name] = buffer.getvalue()
    out["truncated"] = out["420"][: len(out["420"]) * 2 // 3]
    return out


def client_streams(rng, jpeg):
    def message(call_id, **kind):
        return pb.ClientMessage(call_id=call_id, **kind)

    streams = {}
    # Sessions of each mode and mesh, frames of every raw format and a JPEG, then closes.
    for mode in (1, 2, 3):
        for mesh in (0, 1, 2, 3):
            options = pb.SessionOptions(running_mode=mode, landmark_mode=2, contour_mode=2, classification_mode=2,
                                        tracking_enabled=True, min_face_size=0.1, num_faces=2)
            if mesh:
                options.mesh_model = mesh
            msgs = [message(1, open_session=pb.OpenSessionRequest(options=options))]
            call = 2
            for fmt in FORMATS:
                raw = pb.RawImage(format=fmt, width=6, height=4, data=pixels(fmt, 6, 4, rng))
                frame = pb.Frame(timestamp_ms=call, orientation=call % 8, raw=raw)
                msgs.append(message(call, process_frame=pb.ProcessFrameRequest(session_id=1, frame=frame)))
                call += 1
            frame = pb.Frame(timestamp_ms=call, jpeg=jpeg)
            msgs.append(message(call, process_frame=pb.ProcessFrameRequest(session_id=1, frame=frame)))
            msgs.append(message(call + 1, reset_session=pb.ResetSessionRequest(session_id=1)))
            msgs.append(message(call + 2, close_session=pb.CloseSessionRequest(session_id=1)))
            streams[f"session-mode{mode}-mesh{mesh}"] = framed(msgs)
    # A named session, a subscription to it from the same connection, then the ends.
    streams["subscription"] = framed([
        message(1, open_session=pb.OpenSessionRequest(options=pb.SessionOptions(running_mode=3), name="camera")),
        message(2, subscribe=pb.SubscribeRequest(name="camera")),
        message(3, subscribe=pb.SubscribeRequest(name="nobody")),
        message(4, unsubscribe=pb.UnsubscribeRequest(subscription_id=1)),
        message(5, close_session=pb.CloseSessionRequest(session_id=1)),
    ])
    # Shared memory: a buffer registered (its descriptor never comes), frames naming regions, forgotten.
    region = pb.BufferRegion(buffer_id=1, offset=0, length=96)
    streams["shared-memory"] = framed([
        message(1, register_buffer=pb.RegisterBufferRequest()),
        message(2, open_session=pb.OpenSessionRequest(options=pb.SessionOptions(running_mode=1))),
        message(3, process_frame=pb.ProcessFrameRequest(session_id=1, frame=pb.Frame(
            raw=pb.RawImage(format=1, width=8, height=4, region=region)))),
        message(4, process_frame=pb.ProcessFrameRequest(session_id=1, frame=pb.Frame(shared_jpeg=region))),
        message(5, unregister_buffer=pb.UnregisterBufferRequest(buffer_id=1)),
    ])
    streams["ping-stats"] = framed([
        message(1, ping=pb.PingRequest(payload=b"hello")),
        message(2, get_stats=pb.GetStatsRequest()),
        message(3),
    ])
    return streams


def flexbuffers():
    """FlexBuffers built by hand, every width 1 byte: scalars, a string, typed and untyped vectors, a map."""
    INT, UINT, FLOAT, KEY, STRING, MAP, VECTOR, VECTOR_INT, BOOL = 1, 2, 3, 4, 5, 9, 10, 11, 26

    def packed(kind, width=0):
        return kind << 2 | width

    seeds = {
        "int": bytes([5, packed(INT), 1]),
        "uint": bytes([200, packed(UINT), 1]),
        "bool": bytes([1, packed(BOOL), 1]),
        "float": struct.pack("<f", 1.5) + bytes([packed(FLOAT, 2), 4]),
        # "ab": length, bytes, NUL; the root points back to the first byte.
        "string": bytes([2]) + b"ab\0" + bytes([4, packed(STRING), 1]),
        # A typed vector of three ints: length, elements; root offset back to the first.
        "vector-int": bytes([3, 1, 2, 3, 3, packed(VECTOR_INT), 1]),
        # An untyped vector [7, 9] of an int and a uint: length, elements, one type byte each.
        "vector": bytes([2, 7, 9, packed(INT), packed(UINT), 5, packed(VECTOR), 1]),
    }
    # A map {"a": 1, "b": 2}: keys "a\0b\0", the keys vector (length, offsets back), then
    # the map: keys vector offset, its width, length, values, value types.
    body = bytearray(b"a\0b\0")
    keys_at = len(body) + 1
    body += bytes([2, keys_at - 0, keys_at + 1 - 2])
    map_at = len(body) + 3
    body += bytes([map_at - keys_at, 1, 2, 1, 2, packed(INT), packed(INT)])
    body += bytes([len(body) - map_at, packed(MAP), 1])
    seeds["map"] = bytes(body)
    return seeds


def main():
    out, models, answers = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2]), pathlib.Path(sys.argv[3])
    rng = np.random.default_rng(7)

    def write(target, name, data):
        directory = out / target
        directory.mkdir(parents=True, exist_ok=True)
        (directory / name).write_bytes(data)

    small_jpegs = jpegs(rng)
    for name, data in small_jpegs.items():
        write("JPEG", name, data)

    streams = client_streams(rng, small_jpegs["420"])
    for name, data in streams.items():
        write("Connection", name, data)
        # The decoder's input leads with the byte that says where the stream is cut.
        for cut in (1, 7, 200):
            write("FrameDecoder", f"{name}-{cut}", bytes([cut]) + data)
    write("FrameDecoder", "broken-flag", bytes([3, 1, 0, 0, 0, 2, 8, 1]))
    write("FrameDecoder", "too-long", bytes([3, 0, 0, 1, 0, 0]))

    for fmt in FORMATS:
        for orientation in range(8):
            width, height = 5 + orientation, 3 + fmt % 3
            header = bytes([fmt, orientation]) + struct.pack(">HHH", width, height, 0)
            write("FrameAdmission", f"format{fmt}-orientation{orientation}", header + pixels(fmt, width, height, rng))
        stride = 8 * (FORMATS[fmt] or 1) + 5
        header = bytes([fmt, 5]) + struct.pack(">HHH", 8, 6, stride)
        write("FrameAdmission", f"format{fmt}-stride", header + bytes(stride * 6 * 2))

    bundle = zipfile.ZipFile(models / "face_landmarker.task")
    geometry = bundle.read("geometry_pipeline_metadata_landmarks.binarypb")
    write("GeometryMetadata", "landmarks", geometry)
    write("GeometryMetadata", "truncated", geometry[: len(geometry) // 3])

    small = io.BytesIO()
    with zipfile.ZipFile(small, "w") as archive:
        archive.writestr(zipfile.ZipInfo("geometry_pipeline_metadata_landmarks.binarypb"), geometry[:512])
        archive.writestr(zipfile.ZipInfo("face_detector.tflite"), b"TFL3" * 16)
        archive.writestr("deflated.txt", b"x" * 200, compress_type=zipfile.ZIP_DEFLATED)
        archive.comment = b"fuzz seed"
    write("TaskBundle", "small", small.getvalue())

    # The converter writes a model's tables first and its weights after them, so a model's first
    # kilobytes hold its whole structure; cut short, the weights' buffers run past the end, which
    # the reader must refuse. Whole files take about a second an input under the sanitizer: only
    # the smallest goes whole, for the folding and the operators' options behind the checks.
    write("TFLite", "face_detection_short_range.tflite", (models / "face_detection_short_range.tflite").read_bytes())
    tflites = {name: (models / name).read_bytes() for name in
               ("face_detection_short_range.tflite", "face_detection_full_range_sparse.tflite", "face_landmark_with_attention.tflite")}
    tflites["face_blendshapes.tflite"] = bundle.read("face_blendshapes.tflite")
    for name, data in tflites.items():
        for kilobytes in (16, 64):
            write("TFLite", f"{name}-{kilobytes}k", data[:kilobytes * 1024])

    for name, data in flexbuffers().items():
        write("FlexBuffers", name, data)

    # The C client's reader: what a real worker answered, whole and message by message.
    stream = answers.read_bytes()
    write("CReader", "answers", bytes([0]) + stream)
    at, index = 0, 0
    while at + 5 <= len(stream):
        length = struct.unpack(">I", stream[at + 1:at + 5])[0]
        write("CReader", f"answer-{index}", bytes([index % 256]) + stream[at:at + 5 + length])
        at += 5 + length
        index += 1


if __name__ == "__main__":
    main()
