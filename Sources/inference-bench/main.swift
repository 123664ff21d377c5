print("inference-bench")
