#!/usr/bin/env python3
"""Writes the Swift constants the worker and the Swift client take from
proto/faceworker/v1/defaults.json, the one definition of every session
option's default and range and of where a client finds the worker.

Run by `make conformance`; the output is committed, so a build never needs
Python. The Swift, Python and C test suites each check their side against the
JSON file itself.
"""

import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
SOURCE = "proto/faceworker/v1/defaults.json"
HEADER = f"// Generated from {SOURCE} by scripts/gen-conformance.py (make conformance). Do not edit.\n"

SWIFT_TYPES = {"float": "Float", "uint32": "Int"}


def camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.capitalize() for part in rest)


def literal(value, kind: str) -> str:
    return repr(float(value)) if kind == "float" else str(int(value))


def option_specs(options: dict) -> str:
    lines = [
        HEADER,
        "extension FaceOptions {",
        "    /// The default and the allowed range of every numeric option, by the",
        "    /// name the wire gives it.",
        "    package enum Specs {",
    ]
    for name, spec in options.items():
        kind = spec["type"]
        if kind not in SWIFT_TYPES:
            continue
        swift = SWIFT_TYPES[kind]
        lines.append(f"        /// `{name}`.")
        lines.append(
            f"        package static let {camel(name)} = OptionSpec<{swift}>("
            f'field: "{name}", defaultValue: {literal(spec["default"], kind)}, '
            f'range: {literal(spec["min"], kind)}...{literal(spec["max"], kind)})'
        )
    lines += ["    }", "}", ""]
    return "\n".join(lines)


def worker_socket(conformance: dict) -> str:
    socket = conformance["socket"]
    return "\n".join([
        HEADER,
        "extension WorkerSocket {",
        "    /// The environment variable that names the socket for every client and the worker.",
        f'    public static let environmentVariable = "{socket["environment_variable"]}"',
        "    /// The variable holding the user's runtime directory.",
        f'    static let runtimeDirectoryVariable = "{socket["runtime_directory_variable"]}"',
        "    /// The socket's file name in the runtime directory.",
        f'    static let runtimeDirectoryFile = "{socket["runtime_directory_file"]}"',
        "    /// The socket when there is no runtime directory; `{uid}` stands for the effective user ID.",
        f'    static let fallbackPattern = "{socket["fallback"]}"',
        "    /// The longest answer a client accepts unless told otherwise, in bytes.",
        f'    public static let maxAnswerBytes = {conformance["client"]["max_answer_bytes"]}',
        "}",
        "",
    ])


def main() -> int:
    conformance = json.loads((ROOT / SOURCE).read_text())
    outputs = {
        ROOT / "Sources/FaceDetection/Session/FaceOptions+Specs.swift": option_specs(conformance["session_options"]),
        ROOT / "Sources/FaceWorkerProtocol/Generated/WorkerSocket+Conformance.swift": worker_socket(conformance),
    }
    for path, text in outputs.items():
        path.write_text(text)
        print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
