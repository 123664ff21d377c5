"""Command-line argument types shared by the benchmark drivers and the MediaPipe peers."""

import argparse


def count(minimum):
    """An argparse type for a whole number of at least `minimum`."""
    def parse(text):
        value = int(text)
        if value < minimum:
            raise argparse.ArgumentTypeError(f"expected a count of at least {minimum}, got {text!r}")
        return value
    return parse
