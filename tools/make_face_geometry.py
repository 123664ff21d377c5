"""Write Sources/FaceDetection/MLKit/CanonicalFaceModel.swift from MediaPipe's face geometry metadata.

    .venv-tools/bin/python tools/make_face_geometry.py [--metadata FILE] [--output FILE]

MediaPipe's facial transformation matrix fits a canonical face model to the 468 mesh points with
a weighted Procrustes solve. Both the model (468 vertices, centimetres) and the Procrustes weights
(33 mesh points) live in one GeometryPipelineMetadata message,
mediapipe/modules/face_geometry/data/geometry_pipeline_metadata_landmarks.{pbtxt,binarypb}.

Where the message is read from:

* --metadata FILE: a .pbtxt (text format, as in MediaPipe's source tree at tag v0.10.14) or a
  .binarypb (the compiled form) of that message.
* otherwise the installed mediapipe package is searched for the compiled .binarypb. The PyPI
  wheels of mediapipe 0.10.14 do not ship it (their face_geometry/data folders hold only
  __init__.py), so on those the file has to come from MediaPipe's source tree.

The message is parsed with the protobuf classes that the mediapipe wheel ships
(mediapipe.modules.face_geometry.protos.geometry_pipeline_metadata_pb2), checked (vertex layout,
count, weights, and the model's exact left-right mirror symmetry, which any damaged number breaks),
and written out as float literals that round-trip to the same float32 values MediaPipe loads.
Reruns on the same input give the same bytes.
"""

import argparse
import struct
import sys
from pathlib import Path

from google.protobuf import text_format
from mediapipe.modules.face_geometry.protos import geometry_pipeline_metadata_pb2, mesh_3d_pb2

REPO = Path(__file__).resolve().parent.parent
DEFAULT_OUTPUT = REPO / "Sources/FaceDetection/MLKit/CanonicalFaceModel.swift"
METADATA_NAME = "geometry_pipeline_metadata_landmarks"
INSTALLED_CANDIDATES = (
    "modules/face_geometry/data/" + METADATA_NAME + ".binarypb",
    "tasks/cc/vision/face_geometry/data/" + METADATA_NAME + ".binarypb",
)
VERTEX_COUNT = 468
# VERTEX_PT: x, y, z, then the texture coordinates u, v.
VERTEX_PT_SIZE = 5
# The symmetric partner of a vertex sits at its mirrored position to within the file's rounding.
MIRROR_TOLERANCE = 1e-5


def fail(message):
    print("error: " + message, file=sys.stderr)
    sys.exit(1)


def find_installed_metadata():
    import mediapipe

    root = Path(mediapipe.__file__).resolve().parent
    for candidate in INSTALLED_CANDIDATES:
        path = root / candidate
        if path.is_file():
            return path
    return None


def read_metadata(path):
    message = geometry_pipeline_metadata_pb2.GeometryPipelineMetadata()
    if path.suffix == ".pbtxt":
        text_format.Parse(path.read_text(), message)
    else:
        message.ParseFromString(path.read_bytes())
    return message


def float32(value):
    return struct.unpack("<f", struct.pack("<f", value))[0]


def literal(value):
    """The shortest decimal that reads back as the same float32."""
    target = float32(value)
    for digits in range(1, 10):
        text = "%.*g" % (digits, target)
        if float32(float(text)) == target:
            break
    if "e" not in text and "." not in text:
        text += ".0"
    return text


def check(metadata):
    mesh = metadata.canonical_mesh
    if mesh.vertex_type != mesh_3d_pb2.Mesh3d.VERTEX_PT:
        fail("canonical mesh vertices are not VERTEX_PT (position, texture coordinate)")
    if len(mesh.vertex_buffer) != VERTEX_COUNT * VERTEX_PT_SIZE:
        fail("canonical mesh has %d floats, expected %d vertices of %d"
             % (len(mesh.vertex_buffer), VERTEX_COUNT, VERTEX_PT_SIZE))
    if metadata.input_source not in (
        geometry_pipeline_metadata_pb2.DEFAULT,
        geometry_pipeline_metadata_pb2.FACE_LANDMARK_PIPELINE,
    ):
        fail("metadata is for the face detection pipeline, not the face landmark one")
    basis = metadata.procrustes_landmark_basis
    if not basis:
        fail("the Procrustes landmark basis is empty")
    for ref in basis:
        if ref.landmark_id >= VERTEX_COUNT or ref.weight < 0:
            fail("bad Procrustes basis entry %d weight %r" % (ref.landmark_id, ref.weight))

    positions = [
        tuple(mesh.vertex_buffer[i * VERTEX_PT_SIZE:i * VERTEX_PT_SIZE + 3])
        for i in range(VERTEX_COUNT)
    ]
    for index, (x, y, z) in enumerate(positions):
        if not any(
            abs(px + x) <= MIRROR_TOLERANCE and abs(py - y) <= MIRROR_TOLERANCE
            and abs(pz - z) <= MIRROR_TOLERANCE
            for px, py, pz in positions
        ):
            fail("vertex %d (%r, %r, %r) has no mirror image: the model data is damaged"
                 % (index, x, y, z))
    weights = {ref.landmark_id: ref.weight for ref in basis}
    for index, (x, y, z) in enumerate(positions):
        if index not in weights:
            continue
        partner = next(
            j for j, (px, py, pz) in enumerate(positions)
            if abs(px + x) <= MIRROR_TOLERANCE and abs(py - y) <= MIRROR_TOLERANCE
            and abs(pz - z) <= MIRROR_TOLERANCE
        )
        if weights.get(partner) != weights[index]:
            fail("Procrustes weights of mirrored vertices %d and %d differ" % (index, partner))
    return positions, [(ref.landmark_id, ref.weight) for ref in basis]


def render(source, positions, basis):
    lines = [
        "// Generated by tools/make_face_geometry.py from MediaPipe's %s" % source,
        "// (face geometry metadata, mediapipe v0.10.14, Apache License 2.0). Do not edit; rerun the script.",
        "",
        "/// MediaPipe's canonical face model and the Procrustes weights of its facial transformation",
        "/// matrix, exactly as MediaPipe's geometry pipeline loads them.",
        "enum CanonicalFaceModel {",
        "    /// Number of vertices; vertex i is mesh point i of the 468-point face mesh.",
        "    static let vertexCount = %d" % VERTEX_COUNT,
        "",
        "    /// Vertex positions in centimetres, three floats per vertex, for a face looking into the",
        "    /// camera: x toward the image's right, y up, z toward the camera (right-handed).",
        "    static let positions: [Float] = [",
    ]
    for index, (x, y, z) in enumerate(positions):
        lines.append("        %s, %s, %s,  // %d" % (literal(x), literal(y), literal(z), index))
    lines += [
        "    ]",
        "",
        "    /// The mesh points the Procrustes fit uses, with their weights; every other point has",
        "    /// weight zero and does not affect the fit.",
        "    static let procrustesBasis: [(index: Int, weight: Float)] = [",
    ]
    for index, weight in basis:
        lines.append("        (%d, %s)," % (index, literal(weight)))
    lines += ["    ]", "}", ""]
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--metadata", type=Path,
                        help=METADATA_NAME + ".pbtxt or .binarypb (default: the installed mediapipe package)")
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT)
    args = parser.parse_args()

    path = args.metadata or find_installed_metadata()
    if path is None:
        fail("the installed mediapipe package has no %s.binarypb (the 0.10.14 wheels do not ship it). "
             "Pass --metadata with mediapipe/modules/face_geometry/data/%s.pbtxt from MediaPipe's "
             "source tree at tag v0.10.14." % (METADATA_NAME, METADATA_NAME))
    if not path.is_file():
        fail("no such file: %s" % path)

    positions, basis = check(read_metadata(path))
    args.output.write_text(render(METADATA_NAME + path.suffix, positions, basis))
    print("wrote %s: %d vertices, %d Procrustes landmarks" % (args.output, len(positions), len(basis)))


if __name__ == "__main__":
    main()
