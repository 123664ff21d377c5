#!/usr/bin/env python3
"""The README and docs/ as a reader meets them:

- the README stays a front door, at most 250 lines;
- every link between the project's documents leads to a file that exists, and an anchor to a
  heading that exists;
- they stand alone: no issue numbers, no documents outside the repository;
- docs/benchmarks.md's results are those of the committed result files.

Only the standard library is used.
"""

import re
import subprocess
import sys
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parent.parent.parent
README_LINES = 250
LINK = re.compile(r"\]\(([^)\s]+)\)")
OUTSIDE = re.compile(r"DESIGN\.md|\bissues? #?\d+|(?<![\w/])#\d+\b", re.IGNORECASE)


def slug(heading):
    """The anchor GitHub gives a heading."""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path):
    in_code = False
    found = set()
    for line in path.read_text().splitlines():
        if line.startswith("```"):
            in_code = not in_code
        elif not in_code and line.startswith("#"):
            found.add(slug(line.lstrip("#")))
    return found


def problems():
    documents = [REPOSITORY / "README.md", *sorted((REPOSITORY / "docs").glob("*.md"))]
    lines = len((REPOSITORY / "README.md").read_text().splitlines())
    if lines > README_LINES:
        yield f"README.md has {lines} lines, more than {README_LINES}"
    for document in documents:
        name = document.relative_to(REPOSITORY)
        text = document.read_text()
        for match in OUTSIDE.finditer(text):
            yield f"{name} refers outside the repository: {match.group(0)!r}"
        for target in LINK.findall(text):
            if re.match(r"[a-z]+:", target):
                continue
            path, _, anchor = target.partition("#")
            resolved = (document.parent / path).resolve() if path else document
            if not resolved.exists():
                yield f"{name} links to {target}, which does not exist"
            elif anchor and resolved.suffix == ".md" and anchor not in anchors(resolved):
                yield f"{name} links to {target}, whose heading does not exist"
    rendered = subprocess.run([sys.executable, str(REPOSITORY / "benchmarks" / "render.py"), "--check"],
                              capture_output=True, text=True)
    if rendered.returncode != 0:
        yield rendered.stderr.strip()


def main():
    found = list(problems())
    for problem in found:
        print(f"test-docs: {problem}", file=sys.stderr)
    if found:
        sys.exit(1)
    print("test-docs: the README is a front door, every link between the documents resolves, and the "
          "benchmark tables are the committed results'")


if __name__ == "__main__":
    main()
