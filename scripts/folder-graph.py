#!/usr/bin/env python3
"""Prints which folders of the server module use which, and fails on a cycle.

A folder uses another when one of its files names a type declared there. The
README's table of the server's folders is this script's output; `make test`
runs it, so a change that makes two folders use each other fails.
"""

import re
import sys
from pathlib import Path

# Top-level types other files can name; nested ones are named through theirs.
DECLARATION = re.compile(r"^(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|final|indirect)\s+)*"
                         r"(?:struct|class|enum|protocol|actor|typealias)\s+([A-Z]\w*)", re.MULTILINE)
IDENTIFIER = re.compile(r"\b[A-Z]\w*\b")
COMMENT = re.compile(r"//.*?$|/\*.*?\*/", re.MULTILINE | re.DOTALL)
STRING = re.compile(r'"(?:\\.|[^"\\])*"')


def graph(module: Path) -> dict[str, set[str]]:
    files = {path: COMMENT.sub("", STRING.sub('""', path.read_text())) for path in module.rglob("*.swift")}
    folder_of = {path: path.relative_to(module).parts[0] for path in files if len(path.relative_to(module).parts) > 1}
    owner: dict[str, str] = {}
    for path, folder in folder_of.items():
        for name in DECLARATION.findall(files[path]):
            owner[name] = folder
    uses: dict[str, set[str]] = {folder: set() for folder in folder_of.values()}
    for path, folder in folder_of.items():
        for name in set(IDENTIFIER.findall(files[path])):
            other = owner.get(name)
            if other and other != folder:
                uses[folder].add(other)
    return uses


def cycle(uses: dict[str, set[str]]) -> list[str]:
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(folder: str) -> list[str]:
        state[folder] = 1
        path.append(folder)
        for other in sorted(uses[folder]):
            if state.get(other) == 1:
                return path[path.index(other):] + [other]
            if other not in state and (found := visit(other)):
                return found
        path.pop()
        state[folder] = 2
        return []

    for folder in sorted(uses):
        if folder not in state and (found := visit(folder)):
            return found
    return []


def layered(uses: dict[str, set[str]]) -> list[str]:
    """The folders, each after every folder it uses."""
    order: list[str] = []
    while len(order) < len(uses):
        ready = sorted(f for f in uses if f not in order and uses[f] <= set(order))
        order.extend(ready)
    return order


def main() -> int:
    module = Path(sys.argv[1] if len(sys.argv) > 1 else "Sources/FaceWorker")
    if not module.is_dir():
        print(f"error: {module} is not a directory; run from the repository's root or name the module's folder", file=sys.stderr)
        return 2
    uses = graph(module)
    found = cycle(uses)
    if found:
        print("error: the server's folders use each other in a cycle: " + " -> ".join(found), file=sys.stderr)
        return 1
    print("| folder | uses |\n| --- | --- |")
    for folder in layered(uses):
        print(f"| `{folder}/` | {', '.join(sorted(uses[folder])) or '—'} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
