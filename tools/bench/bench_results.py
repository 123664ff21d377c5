"""A benchmark run's figures as a file under benchmarks/results/, with what they were measured on.

    from tools.bench.bench_results import write_results
    write_results(summary)                  # the JSON object the run prints last

The file holds the figures beside the machine's CPU model and flags, the CPUs the run could use,
the date, the commit and whether the tree had uncommitted changes, and how long the run took.
benchmarks/render.py makes docs/benchmarks.md's tables from the committed files, so a run worth
keeping is one `git add` away from the documentation.
"""

import datetime
import json
import os
import subprocess
import sys
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[2]
# A run that only checks the drivers still work (make test's) writes its file elsewhere.
RESULTS = Path(os.environ.get("FACEWORKER_BENCH_RESULTS", REPOSITORY / "benchmarks" / "results"))


def cpu():
    """The first processor's model name and flags, as /proc/cpuinfo gives them."""
    fields = {}
    with open("/proc/cpuinfo") as info:
        for line in info:
            if not line.strip():
                break
            key, _, value = line.partition(":")
            fields[key.strip()] = value.strip()
    return fields.get("model name", "unknown"), sorted(fields.get("flags", "").split())


def git(*arguments):
    return subprocess.run(["git", *arguments], cwd=REPOSITORY, capture_output=True, text=True, check=True).stdout.strip()


def run_seconds():
    """How long this process has run, from its start time in /proc: the whole benchmark, without
    the caller having to say when it began."""
    with open("/proc/self/stat") as stat:
        # Field 22, counted after the command name, which may itself hold spaces.
        started_ticks = int(stat.read().rpartition(")")[2].split()[19])
    with open("/proc/uptime") as uptime:
        up = float(uptime.read().split()[0])
    return up - started_ticks / os.sysconf("SC_CLK_TCK")


def write_results(summary, benchmark="bench"):
    """Writes one run's results and says where on stderr; returns the file's path."""
    now = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)
    model, flags = cpu()
    commit = git("rev-parse", "--short=12", "HEAD")
    record = {
        "benchmark": benchmark,
        "date": now.isoformat().replace("+00:00", "Z"),
        "commit": commit,
        "uncommitted_changes": bool(git("status", "--porcelain", "--untracked-files=no")),
        "minutes": round(run_seconds() / 60, 1),
        "machine": {"cpu": model, "cpus": len(os.sched_getaffinity(0)), "flags": flags},
        "results": summary,
    }
    RESULTS.mkdir(parents=True, exist_ok=True)
    path = RESULTS / f"{now:%Y-%m-%dT%H%M}Z-{benchmark}-{commit}.json"
    path.write_text(json.dumps(record, indent=1) + "\n")
    print(f"results written to {os.path.relpath(path)}", file=sys.stderr)
    return path
