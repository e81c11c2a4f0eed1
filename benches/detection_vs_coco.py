#!/usr/bin/env python3
"""Detection side by side: pycocotools, faster-coco-eval and clefeval on
the sets of benches/detection_sets.py (5,000 images x 100 detections; 1
and 80 categories), each as a whole process (wall time, CPU time and
peak memory from the kernel's accounting of that process, os.wait4) and
in process (the time of load + evaluate + accumulate + summarize, taken
inside the process). The twelve numbers of every tool are compared with
pycocotools' and the ratios printed.

Run (medians of --repeat runs, sets made first):
    python3 benches/detection_sets.py
    cargo build --release
    PY=/path/to/venv/bin/python    # pycocotools, faster-coco-eval, numpy
    $PY benches/detection_vs_coco.py --python $PY [--clefeval-python P] [--repeat 3]

--clefeval-python names a Python where the clefeval package is installed
(the test suite's virtual environment, for instance): its in-process
time is then clefeval.detection() called there; without it, the
in-process column of clefeval is left empty.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SETS = os.path.join(ROOT, "target", "bench-detection")
BINARY = os.path.join(ROOT, "target", "release", "clefeval")

# One tool's whole evaluation inside a Python process: prints the twelve
# numbers and the seconds of the work (imports excluded).
CHILD = r"""
import contextlib, io, json, sys, time
tool, gold, run = sys.argv[1:4]
sink = io.StringIO()
if tool == "clefeval":
    import clefeval
    start = time.perf_counter()
    doc = clefeval.detection(gold, run)
    seconds = time.perf_counter() - start
    stats = [s["value"] for s in doc["runs"][0]["summary"]]
else:
    if tool == "pycocotools":
        from pycocotools.coco import COCO
        from pycocotools.cocoeval import COCOeval as Eval
    else:
        from faster_coco_eval import COCO
        from faster_coco_eval import COCOeval_faster as Eval
    start = time.perf_counter()
    with contextlib.redirect_stdout(sink):
        gt = COCO(gold)
        dt = gt.loadRes(run)
        e = Eval(gt, dt, "bbox")
        e.evaluate()
        e.accumulate()
        e.summarize()
    seconds = time.perf_counter() - start
    stats = [float(x) for x in e.stats[:12]]
print(json.dumps({"seconds": seconds, "stats": stats}))
"""


def measure(command):
    """Runs `command`; its stdout, wall seconds, CPU seconds and peak
    resident memory in MB (the kernel's accounting of that process)."""
    start = time.perf_counter()
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    if status != 0:
        sys.exit(f"{command} failed ({status})")
    return out, wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def run_tool(tool, python, set_dir):
    gold, run = os.path.join(set_dir, "gold.json"), os.path.join(set_dir, "run.json")
    if tool == "clefeval (command)":
        command = [BINARY, "detection", "--gold", gold, "--run", run, "--format", "json"]
        out, wall, cpu, mem = measure(command)
        stats = [s["value"] for s in json.loads(out)["runs"][0]["summary"]]
        return {"wall": wall, "cpu": cpu, "mem": mem, "inside": None, "stats": stats}
    name = "clefeval" if tool.startswith("clefeval") else tool
    out, wall, cpu, mem = measure([python, "-c", CHILD, name, gold, run])
    got = json.loads(out)
    return {"wall": wall, "cpu": cpu, "mem": mem, "inside": got["seconds"], "stats": got["stats"]}


def median(rows, key):
    values = [r[key] for r in rows if r[key] is not None]
    return statistics.median(values) if values else None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("--clefeval-python")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--sets", default="one,eighty")
    args = parser.parse_args()
    tools = [("pycocotools", args.python), ("faster_coco_eval", args.python),
             ("clefeval (command)", None)]
    if args.clefeval_python:
        tools.append(("clefeval (Python)", args.clefeval_python))
    print(f"cores: {os.cpu_count()}; repeat {args.repeat}; medians")
    for name in args.sets.split(","):
        set_dir = os.path.join(SETS, name)
        results = {}
        for tool, python in tools:
            rows = [run_tool(tool, python, set_dir) for _ in range(args.repeat)]
            results[tool] = {k: median(rows, k) for k in ("wall", "cpu", "mem", "inside")}
            results[tool]["stats"] = rows[0]["stats"]
        reference = results["pycocotools"]["stats"]
        print(f"\n== set {name} ==")
        print(f"{'tool':22} {'wall s':>8} {'CPU s':>8} {'peak MB':>8} {'inside s':>9}"
              f" {'wall vs pycoco':>15} {'wall vs faster':>15} {'max |diff|':>11}")
        for tool, r in results.items():
            diff = max(abs(a - b) for a, b in zip(r["stats"], reference))
            inside = f"{r['inside']:9.2f}" if r["inside"] is not None else f"{'-':>9}"
            print(f"{tool:22} {r['wall']:8.2f} {r['cpu']:8.2f} {r['mem']:8.0f} {inside}"
                  f" {results['pycocotools']['wall'] / r['wall']:14.1f}x"
                  f" {results['faster_coco_eval']['wall'] / r['wall']:14.1f}x {diff:11.1e}")


if __name__ == "__main__":
    main()
