"""Each suite a sanitizer run's --filter names must still exist.

swift test runs what a filter matches and says nothing of the parts that match nothing, so a suite
renamed or moved to another test target drops out of the sanitizer runs unnoticed (the in-process
core's concurrency suites did, when they moved from FaceWorkerTests to WorkerCoreTests). The
filters are alternatives, Module or Module.Class prefix, one level of parentheses allowed
(FaceWorkerTests\\.(A|B)Tests); each must name a directory of Tests/ and, with a class, a class or
struct of that directory whose name starts so.

    python3 check-filters.py FILTER
"""

import re
import sys
from pathlib import Path

tests = Path(__file__).resolve().parents[2] / "Tests"


def alternatives(pattern: str) -> list[str]:
    """The filter's alternatives with its one level of parentheses spelled out."""
    parts, depth, start = [], 0, 0
    for index, character in enumerate(pattern):
        depth += {"(": 1, ")": -1}.get(character, 0)
        if character == "|" and depth == 0:
            parts.append(pattern[start:index])
            start = index + 1
    parts.append(pattern[start:])
    expanded = []
    for part in parts:
        group = re.fullmatch(r"([^()]*)\(([^()]*)\)([^()]*)", part)
        if group:
            expanded += [group[1] + inner + group[3] for inner in group[2].split("|")]
        else:
            expanded.append(part)
    return expanded


def main() -> int:
    missing = []
    for alternative in alternatives(sys.argv[1]):
        module, _, suite = alternative.replace("\\.", ".").partition(".")
        directory = tests / module
        declared = re.compile(rf"\b(class|struct)\s+{re.escape(suite)}\w*\b") if suite else None
        if not directory.is_dir() or (
            declared and not any(declared.search(path.read_text()) for path in directory.rglob("*.swift"))
        ):
            missing.append(alternative)
    for alternative in missing:
        print(f"error: the sanitizer filter names {alternative}, which no test target declares", file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
