"""The Python side of the package's call overhead (docs/python.md, "Speed"):
``clefeval.flowchart_pair`` on the small pair that ``python_overhead.rs``
scores in Rust (FC-0005 of the goldens, gold against recognizer-b, all
levels, default settings), from its two texts.

Rounds alternate between the Python call and the same work done by Rust
alone in this process (``_native.rust_flowchart_pair_seconds``: read both
texts and score them, the GIL released), so both see the same machine
load; the overhead is the median over rounds of the difference per call:
argument conversion, releasing and taking back the GIL, the result's JSON
and ``json.loads``.

Run with the package installed (e.g. in the environment tests/python.rs
makes), from the repository root:
    target/tmp/python/venv/bin/python benches/python_overhead.py
"""

import pathlib
import statistics
import time

import clefeval
from clefeval import _native

ROOT = pathlib.Path(__file__).resolve().parents[1]
GOLD = (ROOT / "goldens/flowchart/gold/FC-0005.txt").read_bytes()
RUN = (ROOT / "goldens/flowchart/runs/recognizer-b/FC-0005.txt").read_bytes()

CALLS = 200
ROUNDS = 200


def python_seconds(gold, run):
    start = time.perf_counter()
    for _ in range(CALLS):
        clefeval.flowchart_pair(gold_text=gold, run_text=run)
    return time.perf_counter() - start


def main():
    gold, run = GOLD.decode(), RUN.decode()
    python_seconds(gold, run)
    py, rust = [], []
    for _ in range(ROUNDS):
        py.append(python_seconds(gold, run) / CALLS * 1e6)
        rust.append(_native.rust_flowchart_pair_seconds(GOLD, RUN, CALLS) / CALLS * 1e6)
    overhead = [p - r for p, r in zip(py, rust)]
    print(f"rounds: {ROUNDS} of {CALLS} calls; per call, median (min)")
    print(f"  python flowchart_pair  {statistics.median(py):8.2f} µs ({min(py):.2f})")
    print(f"  rust, same process     {statistics.median(rust):8.2f} µs ({min(rust):.2f})")
    print(f"  overhead               {statistics.median(overhead):8.2f} µs")


if __name__ == "__main__":
    main()
