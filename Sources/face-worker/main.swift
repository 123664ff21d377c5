print("face-worker")
