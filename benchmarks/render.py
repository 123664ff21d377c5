#!/usr/bin/env python3
"""Renders docs/benchmarks.md's results from the committed files of benchmarks/results/.

    benchmarks/render.py            rewrite the parts of docs/benchmarks.md between their markers
    benchmarks/render.py --check    exit 1 if those parts are not what the files give

The goals come from docs/benchmarks.md itself: each row of its goals table names a result key of
make bench's JSON and a target (<= x, >= x or = x), so the goals are written once, where a reader
finds them, and every run is checked against them here. Only the standard library is used.
"""

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parent.parent
RESULTS = REPOSITORY / "benchmarks" / "results"
DOCUMENT = REPOSITORY / "docs" / "benchmarks.md"
SECTIONS = {
    "bench": ("<!-- results: rendered by benchmarks/render.py from benchmarks/results/ -->", "<!-- results: end -->"),
    "bench-inference": ("<!-- inference results: rendered by benchmarks/render.py from benchmarks/results/ -->",
                        "<!-- inference results: end -->"),
}
# bench-inference's rows, by the model stems its JSON names them with.
MODEL_NAMES = {
    "face_detection_short_range": "short-range detector",
    "face_detection_full_range_sparse": "full-range detector",
    "face_landmark": "face mesh (468 points)",
    "attention_a": "attention mesh, segment A",
    "attention_b": "attention mesh, segment B",
    "attention_whole": "attention mesh, whole",
    "face_landmarks_detector": "Face Landmarker mesh",
    "face_blendshapes": "Face Landmarker blendshapes",
}
# The newest runs fit across a page; older files stay in the repository.
SHOWN_RUNS = 5
GOAL_ROW = re.compile(r"^\|\s*([^|]*?)\s*\|\s*([^|]*?)\s*\|\s*`([a-z0-9_]+)`\s*\|\s*(<=|>=|=)\s*([0-9.]+)\s*\|\s*$")


def goals(document, table):
    """(id, key, operator, target) for each row of the document's goals table number `table`
    (0: make bench's, 1: make bench-inference's), in its order."""
    tables, in_table = [], False
    for line in document.splitlines():
        match = GOAL_ROW.match(line)
        if match:
            if not in_table:
                tables.append([])
            tables[-1].append((match.group(1), match.group(3), match.group(4), float(match.group(5))))
        in_table = bool(match) or (in_table and line.startswith("|"))
    if len(tables) <= table:
        sys.exit(f"{DOCUMENT.relative_to(REPOSITORY)} lacks goals table {table + 1}, rows of the form "
                 "| id | what | `key` | <= x |")
    return tables[table]


def runs(benchmark):
    """The newest runs of `benchmark` among the result files git knows (committed or added): a run
    only just written stays out of the documentation until someone decides to keep it."""
    listed = subprocess.run(["git", "ls-files", "-z", "--", str(RESULTS.relative_to(REPOSITORY))], cwd=REPOSITORY,
                            capture_output=True, text=True, check=True).stdout.split("\0")
    paths = [REPOSITORY / name for name in listed if name.endswith(".json")]
    records = [json.loads(path.read_text()) for path in sorted(paths) if path.exists()]
    records = [r for r in records if r.get("benchmark") == benchmark]
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


def runs_table(shown):
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
    return lines + ([""] + notes if notes else [])


def render_bench(document):
    table, shown = goals(document, 0), runs("bench")
    if not shown:
        return "No run has been committed yet: `make bench` writes one into `benchmarks/results/`."
    lines = runs_table(shown) + [""]
    lines.append("| goal | result | target | " + " | ".join(f"run {n}" for n in range(1, len(shown) + 1)) + " |")
    lines.append("| --- | --- | --- |" + " --- |" * len(shown))
    for ident, key, operator, target in table:
        cells = " | ".join(cell(record["results"], key, operator, target) for record in shown)
        lines.append(f"| {ident} | `{key}` | {operator.replace('<=', '≤').replace('>=', '≥')} {target:g} | {cells} |")
    return "\n".join(lines)


def render_inference(document):
    """Each model's ratio to LiteRT, at one thread against the goals table's `ratio_1t` row, and at
    two threads beside it."""
    shown = runs("bench-inference")
    if not shown:
        return "No run has been committed yet: `make bench-inference` writes one into `benchmarks/results/`."
    goal = [(operator, target) for _, key, operator, target in goals(document, 1) if key == "ratio_1t"]
    lines = runs_table(shown) + [""]
    lines.append("| model | threads | " + " | ".join(f"run {n}" for n in range(1, len(shown) + 1)) + " |")
    lines.append("| --- | --- |" + " --- |" * len(shown))
    stems = list(dict.fromkeys(stem for record in shown for stem in record["results"].get("ratio_1t", {})))
    for stem in stems:
        for threads in (1, 2):
            key = f"ratio_{threads}t"
            cells = []
            for record in shown:
                value = record["results"].get(key, {}).get(stem)
                if value is None:
                    cells.append("—")
                elif threads == 1 and goal:
                    cells.append(f"{number(value)} {'✓' if met(value, *goal[0]) else '✗'}")
                else:
                    cells.append(number(value))
            lines.append(f"| {MODEL_NAMES.get(stem, stem) if threads == 1 else ''} | {threads} | {' | '.join(cells)} |")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail if docs/benchmarks.md is not up to date")
    args = parser.parse_args()
    document = DOCUMENT.read_text()
    updated = document
    for benchmark, render in (("bench", render_bench), ("bench-inference", render_inference)):
        begin, end = SECTIONS[benchmark]
        if begin not in updated or end not in updated:
            sys.exit(f"{DOCUMENT.relative_to(REPOSITORY)} lacks the markers {begin} and {end}")
        head, rest = updated.split(begin, 1)
        _, tail = rest.split(end, 1)
        updated = f"{head}{begin}\n{render(document)}\n{end}{tail}"
    if args.check:
        if updated != document:
            sys.exit("docs/benchmarks.md's results are not those of benchmarks/results/: run benchmarks/render.py")
        return
    DOCUMENT.write_text(updated)


if __name__ == "__main__":
    main()
