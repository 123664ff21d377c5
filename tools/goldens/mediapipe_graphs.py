"""MediaPipe's own calculator graphs, for reference values its legacy solutions do not expose.

* run_model: a .tflite through MediaPipe's InferenceCalculator (XNNPACK, with MediaPipe's custom
  operators: Landmarks2TransformMatrix, TransformTensorBilinear, TransformLandmarks), fed by its
  ImageToTensorCalculator with the whole image as ROI. An image of exactly the model's input
  size is then copied unwarped, so the model's input is float32(pixel) / 255. The raw output
  tensors come back flat (TensorsToFloatsCalculator without activation).
* landmark_stage: FaceLandmarkCpu with the attention model (the 478-point mesh) or the plain
  face mesh (468 points) on given ROIs, without detector or tracking.
* TrackedFaceMesh: the graph of the legacy FaceMesh solution (FaceLandmarkFrontCpu), set up as
  FaceMesh(refine_landmarks=...) sets it up, observed inside its per-face loop so that each
  face's landmarks come with the ROI they were cropped from.

All of it needs mediapipe 0.10.14 (mediapipe_solutions.PINNED_VERSION).
"""

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from tools.shared.mediapipe_solutions import load_solutions

FRONT_GRAPH = "mediapipe/modules/face_landmark/face_landmark_front_cpu.binarypb"
# FaceMesh's calculator_params: its two thresholds, by expanded node name.
DETECTION_THRESHOLD_NODE = "facedetectionshortrangecpu__facedetectionshortrange__facedetection__TensorsToDetectionsCalculator"
PRESENCE_THRESHOLD_NODE = "facelandmarkcpu__ThresholdingCalculator"
PRESENCE_SCORE_STREAM = "facelandmarkcpu__face_presence_score"
# FaceMesh.process's timestamp step (30 fps); tracking only needs the order.
FRAME_STEP_US = 33333


def _mediapipe():
    """The mediapipe package (pinned version), with its resource folder set to its install root."""
    load_solutions()
    import mediapipe
    from mediapipe.python._framework_bindings import resource_util

    # Relative model paths in MediaPipe's own graphs resolve against this root; absolute ones
    # (our own models) are used as they are.
    resource_util.set_resource_dir(str(Path(mediapipe.__file__).resolve().parent.parent))
    return mediapipe


def _image_packet(mp, rgb):
    from mediapipe.python import packet_creator

    return packet_creator.create_image_frame(image_format=mp.ImageFormat.SRGB, data=np.ascontiguousarray(rgb))


def _rect_packet(rect):
    from mediapipe.python import packet_creator

    return packet_creator.create_proto(rect)


def whole_image_rect():
    from mediapipe.framework.formats import rect_pb2

    return rect_pb2.NormalizedRect(x_center=0.5, y_center=0.5, width=1.0, height=1.0, rotation=0.0)


def run_model(model_path, images, output_count):
    """Per image (HxWx3 uint8 RGB, all of one size), the model's output tensors as flat float32 arrays."""
    mp = _mediapipe()
    from google.protobuf import text_format
    from mediapipe.framework import calculator_pb2
    from mediapipe.python import packet_getter

    height, width = images[0].shape[:2]
    model_path = Path(model_path).resolve()
    ranges = " ".join(f"ranges {{ begin: {k} end: {k + 1} }}" for k in range(output_count))
    splits = " ".join(f'output_stream: "tensor_{k}"' for k in range(output_count))
    floats = "\n".join(f'node {{ calculator: "TensorsToFloatsCalculator" input_stream: "TENSORS:tensor_{k}" '
                       f'output_stream: "FLOATS:floats_{k}" }}' for k in range(output_count))
    config = text_format.Parse(f"""
        input_stream: "image"
        input_stream: "roi"
        node {{
          calculator: "ImageToTensorCalculator"
          input_stream: "IMAGE:image"
          input_stream: "NORM_RECT:roi"
          output_stream: "TENSORS:input_tensors"
          options {{ [mediapipe.ImageToTensorCalculatorOptions.ext] {{
            output_tensor_width: {width} output_tensor_height: {height}
            output_tensor_float_range {{ min: 0.0 max: 1.0 }}
          }} }}
        }}
        node {{ calculator: "TfLiteCustomOpResolverCalculator" output_side_packet: "OP_RESOLVER:op_resolver" }}
        node {{
          calculator: "InferenceCalculator"
          input_stream: "TENSORS:input_tensors"
          output_stream: "TENSORS:output_tensors"
          input_side_packet: "OP_RESOLVER:op_resolver"
          options {{ [mediapipe.InferenceCalculatorOptions.ext] {{
            model_path: "{model_path}" delegate {{ xnnpack {{}} }}
          }} }}
        }}
        node {{
          calculator: "SplitTensorVectorCalculator"
          input_stream: "output_tensors"
          {splits}
          options {{ [mediapipe.SplitVectorCalculatorOptions.ext] {{ {ranges} }} }}
        }}
        {floats}
        """, calculator_pb2.CalculatorGraphConfig())

    graph = mp.CalculatorGraph(graph_config=config)
    results = [[None] * output_count for _ in images]
    for k in range(output_count):
        def keep(stream, packet, k=k):
            results[packet.timestamp.value][k] = np.array(packet_getter.get_float_list(packet), dtype=np.float32)
        graph.observe_output_stream(f"floats_{k}", keep)
    graph.start_run()
    for time, image in enumerate(images):
        if image.shape[:2] != (height, width):
            raise ValueError(f"run_model takes images of one size, got {image.shape[:2]} after {(height, width)}")
        graph.add_packet_to_input_stream("image", _image_packet(mp, image).at(time))
        graph.add_packet_to_input_stream("roi", _rect_packet(whole_image_rect()).at(time))
    graph.close()
    if any(tensor is None for outputs in results for tensor in outputs):
        raise RuntimeError(f"MediaPipe's InferenceCalculator gave no output for some images of {model_path}")
    return results


def landmark_stage(jobs, with_attention=True):
    """FaceLandmarkCpu per (image, NormalizedRect): 478 (x, y, z) from the attention mesh, or 468 from
    the plain mesh without `with_attention`; None when the face presence score is below 0.5."""
    mp = _mediapipe()
    from mediapipe.framework import calculator_pb2
    from mediapipe.python import packet_creator, packet_getter

    config = calculator_pb2.CalculatorGraphConfig()
    config.input_stream.extend(["image", "roi"])
    node = config.node.add(calculator="FaceLandmarkCpu")
    node.input_stream.extend(["IMAGE:image", "ROI:roi"])
    node.output_stream.append("LANDMARKS:landmarks")
    node.input_side_packet.append("WITH_ATTENTION:with_attention")
    graph = mp.CalculatorGraph(graph_config=config)
    results = [None] * len(jobs)
    graph.observe_output_stream("landmarks", lambda stream, packet: results.__setitem__(
        packet.timestamp.value, _points(packet_getter.get_proto(packet))))
    graph.start_run(input_side_packets={"with_attention": packet_creator.create_bool(with_attention)})
    for time, (image, rect) in enumerate(jobs):
        graph.add_packet_to_input_stream("image", _image_packet(mp, image).at(time))
        graph.add_packet_to_input_stream("roi", _rect_packet(rect).at(time))
    graph.close()
    return results


def _points(landmark_list):
    return [(p.x, p.y, p.z) for p in landmark_list.landmark]


@dataclass(frozen=True)
class Crop:
    """One ROI the landmark stage cropped: where it came from, its presence score, its 478 or 468
    points (None when the score was below the threshold and FaceMesh reports no face for it)."""
    rect: object
    source: str
    presence: float
    points: list | None


class TrackedFaceMesh:
    """FaceMesh(refine_landmarks=with_attention)'s graph, reporting per frame every ROI it cropped a face from.

    process() returns the frame's Crops in the graph's order; those with points are FaceMesh's
    multi_face_landmarks, in its order. A crop's source is "detection" when its ROI came from this
    frame's detections, "landmarks" when from the previous frame's landmarks (tracking).
    """

    def __init__(self, static_image_mode, max_num_faces, min_detection_confidence=0.5, min_tracking_confidence=0.5,
                 with_attention=True):
        mp = self._mp = _mediapipe()
        from mediapipe.calculators.tensor import tensors_to_detections_calculator_pb2
        from mediapipe.calculators.util import thresholding_calculator_pb2
        from mediapipe.framework import calculator_pb2
        from mediapipe.python import packet_creator, packet_getter
        from mediapipe.python._framework_bindings import validated_graph_config

        root = Path(mp.__file__).resolve().parent.parent
        validated = validated_graph_config.ValidatedGraphConfig()
        validated.initialize(binary_graph_path=str(root / FRONT_GRAPH))
        config = calculator_pb2.CalculatorGraphConfig()
        config.ParseFromString(validated.binary_config)
        _set_option(config, DETECTION_THRESHOLD_NODE,
                    tensors_to_detections_calculator_pb2.TensorsToDetectionsCalculatorOptions,
                    "min_score_thresh", min_detection_confidence)
        _set_option(config, PRESENCE_THRESHOLD_NODE, thresholding_calculator_pb2.ThresholdingCalculatorOptions,
                    "threshold", min_tracking_confidence)

        self._graph = mp.CalculatorGraph(graph_config=config)
        readers = {"face_rect": packet_getter.get_proto, "face_landmarks": packet_getter.get_proto,
                   PRESENCE_SCORE_STREAM: packet_getter.get_float,
                   "multi_face_landmarks": packet_getter.get_proto_list,
                   "face_rects_from_detections": packet_getter.get_proto_list,
                   "gated_prev_face_rects_from_landmarks": packet_getter.get_proto_list}
        self._seen = {stream: {} for stream in readers}
        for stream, read in readers.items():
            self._graph.observe_output_stream(
                stream, lambda name, packet, read=read: self._seen[name].__setitem__(packet.timestamp.value,
                                                                                     read(packet)))
        self._graph.start_run(input_side_packets={
            "num_faces": packet_creator.create_int(max_num_faces),
            "with_attention": packet_creator.create_bool(with_attention),
            "use_prev_landmarks": packet_creator.create_bool(not static_image_mode),
        })
        self._time = 0

    def process(self, rgb):
        for seen in self._seen.values():
            seen.clear()
        self._time += FRAME_STEP_US
        self._graph.add_packet_to_input_stream("image", _image_packet(self._mp, rgb).at(self._time))
        self._graph.wait_until_idle()
        detected = self._seen["face_rects_from_detections"].get(self._time, [])
        tracked = self._seen["gated_prev_face_rects_from_landmarks"].get(self._time, [])
        # The per-face loop runs at timestamps of its own, one per ROI; a face's landmarks and
        # presence score carry its ROI's timestamp.
        crops = []
        for time in sorted(self._seen["face_rect"]):
            rect = self._seen["face_rect"][time]
            source = "landmarks" if rect in tracked else "detection" if rect in detected else None
            if source is None:
                raise RuntimeError("FaceMesh cropped a face from an ROI that is neither a detection's nor a track's")
            landmarks = self._seen["face_landmarks"].get(time)
            crops.append(Crop(rect, source, self._seen[PRESENCE_SCORE_STREAM][time],
                              None if landmarks is None else _points(landmarks)))
        collected = self._seen["multi_face_landmarks"].get(self._time, [])
        if [_points(face) for face in collected] != [c.points for c in crops if c.points is not None]:
            raise RuntimeError("the faces observed inside FaceMesh's loop differ from its multi_face_landmarks")
        return crops

    def close(self):
        self._graph.close()


def _set_option(config, node_name, options_type, field, value):
    for node in config.node:
        if node.name != node_name:
            continue
        for any_options in node.node_options:
            if any_options.type_url.split("/")[-1] == options_type.DESCRIPTOR.full_name:
                options = options_type.FromString(any_options.value)
                setattr(options, field, value)
                any_options.value = options.SerializeToString()
                return
        setattr(node.options.Extensions[options_type.ext], field, value)
        return
    raise ValueError(f"MediaPipe's {FRONT_GRAPH} has no node {node_name}")
