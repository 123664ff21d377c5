#!/usr/bin/env python3
"""Writes conformance.h, the C tests' view of proto/faceworker/v1/defaults.json.

    gen_conformance.py DEFAULTS_JSON OUTPUT_H

C has no JSON parser at hand, so the tests' build turns the conformance file
into constants, a table of options and the raw-image layout's examples, which the tests check the C client
against. Standard library only.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

TYPES = {"enum": "CONFORMANCE_ENUM", "bool": "CONFORMANCE_BOOL", "float": "CONFORMANCE_FLOAT", "uint32": "CONFORMANCE_UINT32"}


def c_string(text: str) -> str:
    return json.dumps(text)  # a JSON string of plain ASCII is a valid C string literal


def c_number(value: float) -> str:
    return repr(float(value))


def option_row(name: str, spec: dict) -> str:
    kind = spec["type"]
    if kind not in TYPES:
        raise SystemExit(f"gen_conformance: option {name} has type {kind!r}; this script knows {', '.join(TYPES)}")
    default = spec["default"]
    default_enum = c_string(default) if kind == "enum" else "NULL"
    default_value = "0" if kind == "enum" else c_number(default)
    has_range = "min" in spec
    if has_range != ("max" in spec):
        raise SystemExit(f"gen_conformance: option {name} has one end of a range but not the other")
    low = c_number(spec["min"]) if has_range else "0"
    high = c_number(spec["max"]) if has_range else "0"
    zero = "true" if spec.get("zero_means_default", False) else "false"
    return (
        f"    {{{c_string(name)}, {TYPES[kind]}, {default_enum}, {default_value}, "
        f"{'true' if has_range else 'false'}, {low}, {high}, {zero}}},"
    )


def raw_example_row(example: dict) -> str:
    return (
        f"    {{{c_string(example['format'])}, {int(example['width'])}u, {int(example['height'])}u, "
        f"{int(example['row_stride'])}u, {int(example['byte_count'])}u}},"
    )


def header(conformance: dict, source: str) -> str:
    socket = conformance["socket"]
    fallback = socket["fallback"].replace("%", "%%").replace("{uid}", "%u")
    if "{" in fallback:
        raise SystemExit(f"gen_conformance: socket.fallback {socket['fallback']!r} has a placeholder other than {{uid}}")
    rows = "\n".join(option_row(name, spec) for name, spec in conformance["session_options"].items())
    layout = conformance["raw_image_layout"]
    formats = "\n".join(f"    {c_string(name)}," for name in layout["formats"])
    examples = "\n".join(raw_example_row(example) for example in layout["examples"])
    return f"""/* Generated from {source} by tests/gen_conformance.py. Do not edit. */
#ifndef FW_TEST_CONFORMANCE_H
#define FW_TEST_CONFORMANCE_H

#include <stdbool.h>
#include <stddef.h>

#define CONFORMANCE_SOCKET_ENV {c_string(socket["environment_variable"])}
#define CONFORMANCE_RUNTIME_DIR_ENV {c_string(socket["runtime_directory_variable"])}
#define CONFORMANCE_RUNTIME_DIR_FILE {c_string(socket["runtime_directory_file"])}
/* socket.fallback with {{uid}} as %u, for printf. */
#define CONFORMANCE_FALLBACK_FORMAT {c_string(fallback)}
#define CONFORMANCE_MAX_ANSWER_BYTES {int(conformance["client"]["max_answer_bytes"])}u

enum conformance_type {{ CONFORMANCE_ENUM, CONFORMANCE_BOOL, CONFORMANCE_FLOAT, CONFORMANCE_UINT32 }};

/* One entry of session_options. */
struct conformance_option {{
    const char *name;
    enum conformance_type type;
    const char *default_enum; /* CONFORMANCE_ENUM: the default value's name */
    double default_value;     /* the others: the default, a bool as 0 or 1 */
    bool has_range;
    double min, max;
    bool zero_means_default;
}};

static const struct conformance_option conformance_options[] = {{
{rows}
}};

#define CONFORMANCE_OPTION_COUNT (sizeof conformance_options / sizeof conformance_options[0])

/* The pixel formats raw_image_layout describes, by their wire names. */
static const char *const conformance_pixel_formats[] = {{
{formats}
}};

#define CONFORMANCE_PIXEL_FORMAT_COUNT (sizeof conformance_pixel_formats / sizeof conformance_pixel_formats[0])

/* One of raw_image_layout's examples: the bytes of a raw image of that format, size and stride. */
struct conformance_raw_example {{
    const char *format;
    unsigned width, height, row_stride, byte_count;
}};

static const struct conformance_raw_example conformance_raw_examples[] = {{
{examples}
}};

#define CONFORMANCE_RAW_EXAMPLE_COUNT (sizeof conformance_raw_examples / sizeof conformance_raw_examples[0])

#endif
"""


def main() -> None:
    if len(sys.argv) != 3:
        raise SystemExit("usage: gen_conformance.py DEFAULTS_JSON OUTPUT_H")
    source, output = Path(sys.argv[1]), Path(sys.argv[2])
    conformance = json.loads(source.read_text())
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(header(conformance, source.as_posix()))


if __name__ == "__main__":
    main()
