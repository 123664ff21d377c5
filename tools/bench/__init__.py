"""The benchmark drivers of make bench, bench-inference, bench-pipeline and bench-sampling."""
