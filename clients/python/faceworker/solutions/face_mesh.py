"""MediaPipe's legacy Face Mesh Solution, run by the worker.

Code written for ``mp.solutions.face_mesh`` runs with a changed import::

    import faceworker as mp
    mp_face_mesh = mp.solutions.face_mesh

    with mp_face_mesh.FaceMesh(static_image_mode=True, refine_landmarks=True) as face_mesh:
        results = face_mesh.process(rgb_image)
        for face_landmarks in results.multi_face_landmarks or []:
            print(face_landmarks.landmark[1].x)

The worker runs the model MediaPipe runs: with ``refine_landmarks=True`` the
attention mesh, 478 points per face (the 468 of the face mesh refined around
the eyes and lips, then the irises); without it the plain face mesh, 468
points.

``static_image_mode=False`` treats the images as a video: a face found on
one frame is followed on the next from its landmarks, and the detector runs
only while fewer than ``max_num_faces`` faces are followed, as in MediaPipe.
"""

from __future__ import annotations

from typing import Any, List, Optional

from .._proto import faceworker_pb2 as pb
from ..options import BaseOptions, FaceLandmarkerOptions, MeshModel, RunningMode
from ._base import SolutionBase
from ._formats import NormalizedLandmarkList
from .face_mesh_connections import (
    FACEMESH_CONTOURS,
    FACEMESH_FACE_OVAL,
    FACEMESH_IRISES,
    FACEMESH_LEFT_EYE,
    FACEMESH_LEFT_EYEBROW,
    FACEMESH_LEFT_IRIS,
    FACEMESH_LIPS,
    FACEMESH_NOSE,
    FACEMESH_RIGHT_EYE,
    FACEMESH_RIGHT_EYEBROW,
    FACEMESH_RIGHT_IRIS,
    FACEMESH_TESSELATION,
)

__all__ = [
    "FACEMESH_CONTOURS",
    "FACEMESH_FACE_OVAL",
    "FACEMESH_IRISES",
    "FACEMESH_LEFT_EYE",
    "FACEMESH_LEFT_EYEBROW",
    "FACEMESH_LEFT_IRIS",
    "FACEMESH_LIPS",
    "FACEMESH_NOSE",
    "FACEMESH_NUM_LANDMARKS",
    "FACEMESH_NUM_LANDMARKS_WITH_IRISES",
    "FACEMESH_RIGHT_EYE",
    "FACEMESH_RIGHT_EYEBROW",
    "FACEMESH_RIGHT_IRIS",
    "FACEMESH_TESSELATION",
    "FaceMesh",
]

FACEMESH_NUM_LANDMARKS = 468
FACEMESH_NUM_LANDMARKS_WITH_IRISES = 478


class FaceMesh(SolutionBase):
    """MediaPipe Face Mesh: the landmarks of each face on an RGB image."""

    def __init__(self, static_image_mode: bool = False, max_num_faces: int = 1, refine_landmarks: bool = False,
                 min_detection_confidence: float = 0.5, min_tracking_confidence: float = 0.5, *,
                 base_options: Optional[BaseOptions] = None) -> None:
        """Opens a worker session for the face mesh.

        Args:
            static_image_mode: True for unrelated images, each searched for
                faces; False for the frames of one video, on which faces are
                followed from frame to frame.
            max_num_faces: Most faces to find (at least 1).
            refine_landmarks: 478 points per face (with the irises) rather
                than 468.
            min_detection_confidence: Lowest detector score, in [0, 1], for
                a face to be found.
            min_tracking_confidence: Lowest face mesh presence score, in
                [0, 1], for a face's landmarks to be reported; in video mode
                a followed face scoring at or below it is searched for again
                on the next frame.
            base_options: Where the worker is (FaceWorker's addition); by
                default the socket rule of :func:`faceworker.default_socket_path`.

        Raises:
            ValueError: When ``max_num_faces`` is below 1.
            WorkerNotRunningError: When no worker listens on the socket.
            FaceWorkerError: INVALID_ARGUMENT when the worker refuses a value
                (a confidence outside [0, 1], more faces than it allows).
        """
        if max_num_faces < 1:
            raise ValueError(f"max_num_faces must be at least 1, got {max_num_faces}")
        self._points = FACEMESH_NUM_LANDMARKS_WITH_IRISES if refine_landmarks else FACEMESH_NUM_LANDMARKS
        options = FaceLandmarkerOptions(
            base_options=base_options or BaseOptions(),
            running_mode=RunningMode.IMAGE if static_image_mode else RunningMode.VIDEO,
            num_faces=max_num_faces,
            min_face_detection_confidence=min_detection_confidence,
            # The legacy graph thresholds the mesh's face flag with min_tracking_confidence.
            min_face_presence_confidence=min_tracking_confidence,
            mesh_model=MeshModel.ATTENTION_MESH if refine_landmarks else MeshModel.FACE_MESH,
            # MediaPipe finds faces of every size, and runs its detector on every frame on which
            # fewer than max_num_faces faces are followed.
            min_face_size=0.0,
            detector_interval_frames=1,
        )
        super().__init__(options, "multi_face_landmarks")

    def process(self, image: Any) -> Any:
        """Finds the faces on an RGB image, or follows them on the next video frame.

        Args:
            image: An H x W x 3 uint8 numpy array, RGB.

        Returns:
            A NamedTuple whose ``multi_face_landmarks`` is a list with one
            NormalizedLandmarkList per face, or None when no face was found.
            ``landmark[i].x`` and ``.y`` are fractions of the image's width
            and height; ``.z`` is depth on the scale of x, smaller nearer.

        Raises:
            ValueError: When the image is not three-channel uint8 data, or
                the Solution is closed.
        """
        return super().process(image)

    def _shape(self, frame: pb.FrameResult) -> Optional[List[Any]]:
        faces = []
        for face in frame.faces:
            landmarks = NormalizedLandmarkList()
            xyz = face.mesh_xyz
            for start in range(0, 3 * self._points, 3):
                landmarks.landmark.add(x=xyz[start], y=xyz[start + 1], z=xyz[start + 2])
            faces.append(landmarks)
        return faces or None
