"""Benchmarks (`make bench`): speed and memory goals, measured as ratios in one run."""
