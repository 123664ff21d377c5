#!/usr/bin/env python3
"""Writes conformance.h, the C tests' view of proto/faceworker/v1/defaults.json.

    gen_conformance.py DEFAULTS_JSON OUTPUT_H

C has no JSON parser at hand, so the tests' build turns the conformance file
into constants and a table of options, which the tests check the C client
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


def header(conformance: dict, source: str) -> str:
    socket = conformance["socket"]
    fallback = socket["fallback"].replace("%", "%%").replace("{uid}", "%u")
    if "{" in fallback:
        raise SystemExit(f"gen_conformance: socket.fallback {socket['fallback']!r} has a placeholder other than {{uid}}")
    rows = "\n".join(option_row(name, spec) for name, spec in conformance["session_options"].items())
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
