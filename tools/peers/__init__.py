"""MediaPipe's side of the benchmarks, in process or as processes of its own."""
