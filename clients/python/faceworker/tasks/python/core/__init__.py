"""``mediapipe.tasks.python.core``: the options every task takes."""
