"""Alternating rounds, the way make bench times every latency row: the sides (a peer and ours)
run in turn, round after round, and each keeps its fastest round, so that a burst of other work on
a small machine spoils one round, not the row."""

from dataclasses import dataclass, replace
from typing import Any

import numpy as np


@dataclass(frozen=True)
class Run:
    """One side's timed round: its median in ms, its per-frame samples (None where the side
    reports only a summary) and what else it reported."""

    median_ms: float
    samples_ms: Any
    detail: Any
    # The median over the rounds of this side's median divided by the first side's in the same
    # round (set by best_of_rounds on every side but the first).
    paired_ratio: float | None = None


def best_of_rounds(rounds, sides):
    """Runs the sides in turn, `rounds` times; for each side its round with the lowest median, and
    for every side but the first the median of its paired ratios to the first side's rounds."""
    kept = [None] * len(sides)
    ratios = [[] for _ in sides]
    for _ in range(rounds):
        runs = [side() for side in sides]
        for index, run in enumerate(runs):
            ratios[index].append(run.median_ms / runs[0].median_ms)
            if kept[index] is None or run.median_ms < kept[index].median_ms:
                kept[index] = run
    return [kept[0]] + [replace(run, paired_ratio=float(np.median(r))) for run, r in zip(kept[1:], ratios[1:])]
