"""How the pipeline fixtures put a source photograph's face into an output image.

A placement maps source pixels to output pixels in these steps: mirror the source left-right
(if asked), move the source face centre to the origin, scale, rotate by `angle` degrees
counter-clockwise as seen on screen, and move the origin to `centre`. Coordinates are
continuous pixels: origin at the top-left corner of the top-left pixel, x right, y down.
"""

import math
from dataclasses import dataclass

from PIL import Image

CONVENTIONS = {
    "coordinates": "pixels, origin at the top-left corner of the top-left pixel, x right, y down",
    "placement": "source pixel p -> (mirror left-right if mirrored: x -> source width - x) -> "
                 "p - source face_centre -> * scale -> rotate by angle -> + centre",
    "angle": "degrees of in-plane rotation, positive = counter-clockwise as seen on screen: the sign of "
             "ML Kit's headEulerAngleZ; MediaPipe's NormalizedRect.rotation (clockwise positive) "
             "changes by about -angle in radians. It is relative to the source photograph, whose own "
             "head tilt (mirrored: negated) adds to it",
    "centre": "output position of the source face centre",
    "faces": "number of human faces in the image",
}


@dataclass(frozen=True)
class Placement:
    source: str
    source_centre: tuple
    centre: tuple
    scale: float = 1.0
    angle: float = 0.0
    mirrored: bool = False

    def describe(self):
        return {"source": self.source, "mirrored": self.mirrored, "angle": self.angle,
                "scale": self.scale, "centre": [round(v, 3) for v in self.centre]}

    def inverse_affine(self, source_width):
        """Pillow's AFFINE data: the output-to-source map, as Image.transform wants it."""
        sx, sy = self.source_centre
        if self.mirrored:
            sx = source_width - sx
        theta = math.radians(self.angle)
        a, b = math.cos(theta) / self.scale, -math.sin(theta) / self.scale
        d, e = math.sin(theta) / self.scale, math.cos(theta) / self.scale
        cx, cy = self.centre
        return (a, b, sx - a * cx - b * cy, d, e, sy - d * cx - e * cy)


def placed(sources, size, face):
    source = sources[face.source]
    if face.mirrored:
        source = source.transpose(Image.FLIP_LEFT_RIGHT)
    return source.transform(size, Image.AFFINE, face.inverse_affine(source.width),
                            resample=Image.BILINEAR, fillcolor=(0, 0, 0))


def render_whole(sources, size, face):
    """The face's whole source photograph, placed on a black canvas of `size`."""
    return placed(sources, size, face)


def render_patch(canvas, sources, face, window):
    """Paste only `window` (left, top, right, bottom source pixels around the face centre) of an
    upright placement, so several faces can share one canvas."""
    if face.angle != 0:
        raise ValueError("patches are axis-aligned: rotate the whole canvas instead")
    left, top, right, bottom = window
    cx, cy = face.centre
    box = (max(0, round(cx - left * face.scale)), max(0, round(cy - top * face.scale)),
           min(canvas.width, round(cx + right * face.scale)), min(canvas.height, round(cy + bottom * face.scale)))
    canvas.paste(placed(sources, canvas.size, face).crop(box), box[:2])
