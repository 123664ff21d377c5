#!/usr/bin/env python3
"""Renders docs/benchmarks.md's results from the committed files of benchmarks/results/.

    benchmarks/render.py            rewrite the part of docs/benchmarks.md between its markers
    benchmarks/render.py --check    exit 1 if that part is not what the files give

The goals come from docs/benchmarks.md itself: each row of its goals table names a result key of
make bench's JSON and a target (<= x, >= x or = x), so the goals are written once, where a reader
finds them, and every run is checked against them here. Only the standard library is used.
"""

import argparse
import json
import re
import sys
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parent.parent
RESULTS = REPOSITORY / "benchmarks" / "results"
DOCUMENT = REPOSITORY / "docs" / "benchmarks.md"
BEGIN = "<!-- results: rendered by benchmarks/render.py from benchmarks/results/ -->"
END = "<!-- results: end -->"
# The newest runs fit across a page; older files stay in the repository.
SHOWN_RUNS = 5
GOAL_ROW = re.compile(r"^\|\s*([^|]*?)\s*\|\s*([^|]*?)\s*\|\s*`([a-z0-9_]+)`\s*\|\s*(<=|>=|=)\s*([0-9.]+)\s*\|\s*$")


def goals(document):
    """(id, key, operator, target) for each row of the goals table, in its order."""
    found, current = [], ""
    for line in document.splitlines():
        match = GOAL_ROW.match(line)
        if match:
            current = match.group(1) or current
            found.append((current if match.group(1) else "", match.group(3), match.group(4), float(match.group(5))))
    if not found:
        sys.exit(f"{DOCUMENT.relative_to(REPOSITORY)} has no goals table rows of the form | id | what | `key` | <= x |")
    return found


def runs():
    records = [json.loads(path.read_text()) for path in sorted(RESULTS.glob("*.json"))]
    records = [r for r in records if r.get("benchmark") == "bench"]
    return sorted(records, key=lambda r: r["date"])[-SHOWN_RUNS:]


def met(value, operator, target):
    return {"<=": value <= target, ">=": value >= target, "=": value == target}[operator]


def number(value):
    if isinstance(value, int):
        return str(value)
    return f"{value:.3f}" if abs(value) < 10 else f"{value:.2f}"


def cell(results, key, operator, target):
    value = results.get(key)
    if value is None:
        return "—"
    text = number(value)
    low, high = results.get(f"{key}_min"), results.get(f"{key}_max")
    if low is not None and high is not None:
        text += f" ({number(low)}–{number(high)})"
    return f"{text} {'✓' if met(value, operator, target) else '✗'}"


def machine(record):
    described = record["machine"]["cpu"]
    flags = record["machine"].get("flags")
    if flags is not None:
        described += ", AVX-512" if "avx512f" in flags else ", no AVX-512"
    return f"{described}, {record['machine']['cpus']} CPUs"


def render(document):
    table, shown = goals(document), runs()
    if not shown:
        return "No run has been committed yet: `make bench` writes one into `benchmarks/results/`."
    lines = ["| run | date (UTC) | commit | machine | minutes | peers |", "| --- | --- | --- | --- | --- | --- |"]
    for n, record in enumerate(shown, 1):
        commit = record.get("commit") or "not recorded"
        if record.get("uncommitted_changes"):
            commit += " + changes"
        results = record["results"]
        peers = ", ".join(dict.fromkeys(p for p in (results.get("legacy_peer"), results.get("tasks_peer")) if p))
        minutes = record.get("minutes")
        lines.append(f"| {n} | {record['date'][:16].replace('T', ' ')} | {commit} | {machine(record)} | "
                     f"{'—' if minutes is None else minutes} | {peers or '—'} |")
    notes = [f"- Run {n}: {record['note']}." for n, record in enumerate(shown, 1) if record.get("note")]
    lines += [""] + notes + [""] if notes else [""]
    lines.append("| goal | result | target | " + " | ".join(f"run {n}" for n in range(1, len(shown) + 1)) + " |")
    lines.append("| --- | --- | --- |" + " --- |" * len(shown))
    for ident, key, operator, target in table:
        cells = " | ".join(cell(record["results"], key, operator, target) for record in shown)
        lines.append(f"| {ident} | `{key}` | {operator.replace('<=', '≤').replace('>=', '≥')} {target:g} | {cells} |")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail if docs/benchmarks.md is not up to date")
    args = parser.parse_args()
    document = DOCUMENT.read_text()
    if BEGIN not in document or END not in document:
        sys.exit(f"{DOCUMENT.relative_to(REPOSITORY)} lacks the markers {BEGIN} and {END}")
    head, rest = document.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    updated = f"{head}{BEGIN}\n{render(document)}\n{END}{tail}"
    if args.check:
        if updated != document:
            sys.exit("docs/benchmarks.md's results are not those of benchmarks/results/: run benchmarks/render.py")
        return
    DOCUMENT.write_text(updated)


if __name__ == "__main__":
    main()
