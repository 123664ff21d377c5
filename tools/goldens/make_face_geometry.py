"""Write the canonical face model source and MediaPipe's face geometry parity golden.

    .venv-tools/bin/python -m tools.goldens.make_face_geometry [--metadata FILE] [--output FILE] [--golden FILE]

Two generated Swift files:

* Sources/FaceDetection/MLKit/CanonicalFaceModel.swift: MediaPipe's canonical face model and
  Procrustes weights, from the face geometry metadata described below.
* Tests/FaceDetectionTests/MLKit/MediaPipeFaceGeometryGolden.swift: MediaPipe's own facial
  transformation matrices, for the parity test. scikit-image's astronaut.png and its mirror image
  go through mediapipe's legacy FaceMesh solution (static images, refine_landmarks=True: 478
  points), and each mesh through MediaPipe's own FaceGeometryPipelineCalculator (the one the Tasks
  Face Landmarker runs, with the Tasks' default environment: top-left origin, vertical field of
  view 63 degrees, near 1, far 10000) fed this same metadata. The golden holds each image size,
  mesh and matrix (row-major).

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

REPO = Path(__file__).resolve().parents[2]
DEFAULT_OUTPUT = REPO / "Sources/FaceDetection/MLKit/CanonicalFaceModel.swift"
DEFAULT_GOLDEN = REPO / "Tests/FaceDetectionTests/MLKit/MediaPipeFaceGeometryGolden.swift"
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
        "// Generated by tools/goldens/make_face_geometry.py from MediaPipe's %s" % source,
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


def face_meshes():
    """MediaPipe's 478-point meshes of astronaut.png and of its mirror image: (name, width, height, points)."""
    import numpy as np
    from mediapipe.python.solutions.face_mesh import FaceMesh
    from skimage import data

    photo = data.astronaut()
    meshes = []
    for name, image in (("astronaut", photo), ("astronautMirrored", photo[:, ::-1])):
        with FaceMesh(static_image_mode=True, max_num_faces=1, refine_landmarks=True) as face_mesh:
            result = face_mesh.process(np.ascontiguousarray(image))
        if not result.multi_face_landmarks:
            fail("mediapipe found no face in %s" % name)
        points = [(p.x, p.y, p.z) for p in result.multi_face_landmarks[0].landmark]
        meshes.append((name, image.shape[1], image.shape[0], points))
    return meshes


def mediapipe_matrices(metadata, meshes):
    """MediaPipe's facial transformation matrix of each mesh, row-major, from its own calculators."""
    import numpy as np
    from mediapipe.framework import calculator_pb2
    from mediapipe.framework.formats import landmark_pb2, matrix_data_pb2
    from mediapipe.python import packet_creator, packet_getter
    from mediapipe.python._framework_bindings import calculator_graph, image_frame
    from mediapipe.tasks.cc.vision.face_geometry.calculators import env_generator_calculator_pb2
    from mediapipe.tasks.cc.vision.face_geometry.calculators import geometry_pipeline_calculator_pb2
    from mediapipe.tasks.cc.vision.face_geometry.proto import environment_pb2, face_geometry_pb2  # noqa: F401

    config = calculator_pb2.CalculatorGraphConfig()
    config.input_stream.extend(["image", "landmarks"])
    config.output_stream.append("geometry")
    size = config.node.add(calculator="ImagePropertiesCalculator")
    size.input_stream.append("IMAGE:image")
    size.output_stream.append("SIZE:image_size")
    environment = config.node.add(calculator="mediapipe.tasks.vision.face_geometry.FaceGeometryEnvGeneratorCalculator")
    environment.output_side_packet.append("ENVIRONMENT:environment")
    environment_options = env_generator_calculator_pb2.FaceGeometryEnvGeneratorCalculatorOptions()
    environment_options.environment.origin_point_location = environment_pb2.TOP_LEFT_CORNER
    environment_options.environment.perspective_camera.vertical_fov_degrees = 63.0
    environment_options.environment.perspective_camera.near = 1.0
    environment_options.environment.perspective_camera.far = 10000.0
    environment.node_options.add().Pack(environment_options)
    pipeline = config.node.add(calculator="mediapipe.tasks.vision.face_geometry.FaceGeometryPipelineCalculator")
    pipeline.input_side_packet.append("ENVIRONMENT:environment")
    pipeline.input_stream.extend(["IMAGE_SIZE:image_size", "FACE_LANDMARKS:landmarks"])
    pipeline.output_stream.append("FACE_GEOMETRY:geometry")
    pipeline_options = geometry_pipeline_calculator_pb2.FaceGeometryPipelineCalculatorOptions()
    pipeline_options.metadata_file.file_content = metadata.SerializeToString()
    pipeline.node_options.add().Pack(pipeline_options)

    graph = calculator_graph.CalculatorGraph(graph_config=config)
    geometries = []
    graph.observe_output_stream("geometry", lambda stream, packet: geometries.append(packet_getter.get_proto(packet)))
    graph.start_run()
    for time, (_, width, height, points) in enumerate(meshes):
        # Only the frame's size matters to the geometry; the pixels are never read.
        frame = image_frame.ImageFrame(image_format=image_frame.ImageFormat.SRGB,
                                       data=np.zeros((height, width, 3), np.uint8))
        landmarks = landmark_pb2.NormalizedLandmarkList()
        # The Face Landmarker drops the iris points before the geometry pipeline.
        for x, y, z in points[:VERTEX_COUNT]:
            landmarks.landmark.add(x=x, y=y, z=z)
        graph.add_packet_to_input_stream("image", packet_creator.create_image_frame(frame).at(time))
        graph.add_packet_to_input_stream("landmarks", packet_creator.create_proto(landmarks).at(time))
    graph.close()
    if len(geometries) != len(meshes):
        fail("MediaPipe's geometry pipeline gave %d results for %d meshes" % (len(geometries), len(meshes)))
    matrices = []
    for geometry in geometries:
        matrix = geometry.pose_transform_matrix
        values = list(matrix.packed_data)
        if matrix.layout == matrix_data_pb2.MatrixData.COLUMN_MAJOR:
            values = [values[column * matrix.rows + row] for row in range(matrix.rows) for column in range(matrix.cols)]
        matrices.append(values)
    return matrices


def float_rows(values, per_row, indent):
    return ["%s%s," % (indent, ", ".join(literal(v) for v in values[i:i + per_row]))
            for i in range(0, len(values), per_row)]


def render_golden(source, meshes, matrices):
    lines = [
        "// Generated by tools/goldens/make_face_geometry.py from MediaPipe's %s and" % source,
        "// mediapipe 0.10.14's FaceMesh and FaceGeometryPipelineCalculator. Do not edit; rerun the script.",
        "",
        "/// MediaPipe's own facial transformation matrices for its face meshes of test photographs.",
        "enum MediaPipeFaceGeometryGolden {",
        "    /// One photograph: its size, MediaPipe's 478-point mesh (x, y, z per point, normalized) and",
        "    /// MediaPipe's matrix for that mesh (row-major).",
        "    struct Face {",
        "        let name: String",
        "        let imageWidth: Int",
        "        let imageHeight: Int",
        "        let mesh: [Float]",
        "        let matrix: [Float]",
        "    }",
        "",
        "    static let faces = [",
    ]
    for name, width, height, _ in meshes:
        lines.append('        Face(name: "%s", imageWidth: %d, imageHeight: %d, mesh: %sMesh, matrix: %sMatrix),'
                     % (name, width, height, name, name))
    lines.append("    ]")
    for (name, _, _, points), matrix in zip(meshes, matrices):
        lines += ["", "    private static let %sMesh: [Float] = [" % name]
        lines += float_rows([c for point in points for c in point], 3, "        ")
        lines += ["    ]", "", "    private static let %sMatrix: [Float] = [" % name]
        lines += float_rows(matrix, 4, "        ")
        lines.append("    ]")
    lines += ["}", ""]
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--metadata", type=Path,
                        help=METADATA_NAME + ".pbtxt or .binarypb (default: the installed mediapipe package)")
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT)
    parser.add_argument("--golden", type=Path, default=DEFAULT_GOLDEN)
    args = parser.parse_args()

    path = args.metadata or find_installed_metadata()
    if path is None:
        fail("the installed mediapipe package has no %s.binarypb (the 0.10.14 wheels do not ship it). "
             "Pass --metadata with mediapipe/modules/face_geometry/data/%s.pbtxt from MediaPipe's "
             "source tree at tag v0.10.14." % (METADATA_NAME, METADATA_NAME))
    if not path.is_file():
        fail("no such file: %s" % path)

    metadata = read_metadata(path)
    positions, basis = check(metadata)
    args.output.write_text(render(METADATA_NAME + path.suffix, positions, basis))
    print("wrote %s: %d vertices, %d Procrustes landmarks" % (args.output, len(positions), len(basis)))

    meshes = face_meshes()
    args.golden.write_text(render_golden(METADATA_NAME + path.suffix, meshes, mediapipe_matrices(metadata, meshes)))
    print("wrote %s: %s" % (args.golden, ", ".join(name for name, _, _, _ in meshes)))


if __name__ == "__main__":
    main()
