"""MediaPipe's legacy Python solutions, imported quietly and checked against the pinned version.

The golden files and the pipeline benchmark both compare against mediapipe 0.10.14 (the
package the models come from), so any other version is refused rather than silently used.
"""

import os
import sys
import warnings

PINNED_VERSION = "0.10.14"


def load_solutions():
    # glog reads its level once, when the extension is loaded.
    os.environ.setdefault("GLOG_minloglevel", "2")
    warnings.filterwarnings("ignore", message=r"SymbolDatabase\.GetPrototype\(\) is deprecated")
    try:
        import mediapipe
    except ImportError:
        sys.exit("error: mediapipe is not installed in this interpreter; `make venv` creates .venv-tools")
    if mediapipe.__version__ != PINNED_VERSION:
        sys.exit(f"error: mediapipe {mediapipe.__version__} found, the references need {PINNED_VERSION}")
    return mediapipe.solutions
