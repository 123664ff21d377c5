"""JPEG streams no encoder writes, the bad-input suite's (Sources/ImagingTesting/HostileJPEG.swift),
made from a sound JPEG's bytes by editing its markers."""

from __future__ import annotations

import struct

# C4, C8 and CC share the SOFn range but are DHT, JPG and DAC.
_FRAME_HEADERS = set(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}


def _frame_header_offset(jpeg: bytes) -> int:
    """Offset of the frame header's (SOFn) marker, walking the segments after SOI."""
    offset = 2
    while offset + 4 <= len(jpeg) and jpeg[offset] == 0xFF:
        if jpeg[offset + 1] in _FRAME_HEADERS:
            return offset
        offset += 2 + struct.unpack_from(">H", jpeg, offset + 2)[0]
    raise ValueError("no frame header found")


def replacing_size(jpeg: bytes, width: int, height: int) -> bytes:
    """`jpeg` with its frame header stating `width` x `height` instead."""
    at = _frame_header_offset(jpeg)
    return jpeg[:at + 5] + struct.pack(">HH", height, width) + jpeg[at + 9:]


def replacing_frame_header_length(jpeg: bytes, length: int) -> bytes:
    """`jpeg` with its frame header stating a segment length that no longer matches its
    components: libjpeg refuses it while reading the header ("Bogus marker length")."""
    at = _frame_header_offset(jpeg)
    return jpeg[:at + 2] + struct.pack(">H", length) + jpeg[at + 4:]


def progressive(scans: int) -> bytes:
    """An 8x8 grey progressive JPEG of `scans` scans, all coefficients zero: a DC scan, then
    identical first AC scans, each one data byte, which a decoder without a scan limit would
    work through for a long time."""
    stream = bytearray(b"\xff\xd8")
    stream += b"\xff\xdb\x00\x43\x00" + bytes([1] * 64)
    stream += bytes([0xFF, 0xC2, 0x00, 0x0B, 0x08, 0x00, 0x08, 0x00, 0x08, 0x01, 0x01, 0x11, 0x00])
    for table in (0x00, 0x10):
        stream += bytes([0xFF, 0xC4, 0x00, 0x14, table, 1]) + bytes(15) + b"\x00"
    for scan in range(scans):
        start, end = (0, 0) if scan == 0 else (1, 63)
        stream += bytes([0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, start, end, 0x00, 0x7F])
    return bytes(stream + b"\xff\xd9")


def with_restart_marker_inside(jpeg: bytes) -> bytes:
    """`jpeg` with a restart marker written over the middle of its compressed data: a sound
    header over damaged data, which libjpeg decodes with a warning."""
    middle = len(jpeg) // 2
    return jpeg[:middle] + b"\xff\xd3" + jpeg[middle + 2:]
