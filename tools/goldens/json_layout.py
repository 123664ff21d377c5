"""JSON for committed reference files: keys readable line by line, long number arrays on one line.

Containers nearer the top than `depth` are spread over indented lines; everything deeper is
written compactly, so a golden file stays small and a diff still points at one image or frame.
"""

import json


def dumps(value, depth, level=0):
    if level >= depth or not isinstance(value, (dict, list)) or not value:
        return json.dumps(value, separators=(",", ":"))
    pad, inner = " " * level, " " * (level + 1)
    if isinstance(value, dict):
        items = [f"{inner}{json.dumps(key)}: {dumps(item, depth, level + 1)}" for key, item in value.items()]
        return "{\n" + ",\n".join(items) + f"\n{pad}}}"
    return "[\n" + ",\n".join(f"{inner}{dumps(item, depth, level + 1)}" for item in value) + f"\n{pad}]"
