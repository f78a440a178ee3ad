"""Benchmarks (not tests): `make bench` runs them; each prints ratios against a peer."""

import os

# The processes a benchmark starts (servers, workers) cache bytecode as `make run`'s do (the
# Makefile), whatever this machine's environment says.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
