"""Shared pieces of the flowchart solver comparisons (benches/mcs_vs_cpsat.py,
benches/mcs_vs_rascal.py): the workload's pairs; clefeval's results from
`clefeval flowchart --threads 1` on the folder (wall clock of the process)
and its per-pair times from the in-process timer of
benches/flowchart_workload.rs (the same scoring, without process start and
file reading, which would dominate small pairs); intervals of |mcs| for the
mismatch check; the summary table. Out of the test suite.
"""

import argparse
import json
import os
import pathlib
import statistics
import subprocess
import sys
import time

REPO = pathlib.Path(__file__).resolve().parents[1]
BINARY = REPO / "target" / "release" / "clefeval"


def arguments(doc, extend=None):
    """The command line of both scripts: WORKLOAD [--levels L,L]
    [--time-limit SECONDS] [--binary PATH], and what `extend` (called with
    the parser) adds; `levels` comes back as a list."""
    ap = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    ap.add_argument("workload", type=lambda p: pathlib.Path(p).resolve())
    ap.add_argument("--levels", default="basic,intermediate", type=lambda s: s.split(","))
    ap.add_argument("--time-limit", type=float, default=10.0, help="seconds per pair and level, both sides")
    ap.add_argument("--binary", type=pathlib.Path, default=BINARY)
    if extend is not None:
        extend(ap)
    return ap.parse_args()


def pairs(workload):
    """Stems of the pairs in WORKLOAD/gold and WORKLOAD/run (both present), sorted."""
    gold = {p.stem for p in (workload / "gold").glob("*.txt")}
    run = {p.stem for p in (workload / "run").glob("*.txt")}
    return sorted(gold & run)


def command(cmd):
    """Runs `cmd` in the repository; its stdout, or its stderr in the error."""
    done = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({done.returncode}):\n{done.stderr}")
    return done.stdout


def clefeval(binary, workload, level, time_limit, extra=()):
    """`clefeval flowchart` on the whole workload folder at one level with
    `--threads 1`. Returns (wall seconds of the process, {stem: JSON level
    object}); a topic that is not ok raises (the workload is generated)."""
    cmd = [str(binary), "flowchart", "--gold", str(workload / "gold"), "--run", str(workload / "run"),
           "--level", level, "--threads", "1", "--format", "json", "--time-limit", str(time_limit), *extra]
    t0 = time.perf_counter()
    out = command(cmd)
    wall = time.perf_counter() - t0
    levels = {}
    for topic in json.loads(out)["runs"][0]["topics"]:
        if topic["status"] != "ok":
            raise RuntimeError(f"{topic['topic']}: {topic['status']} {topic['diagnostics']}")
        levels[topic["topic"]] = topic["levels"][level]
    return wall, levels


def engine_times(workload, level, time_limit, extra=()):
    """Per-pair seconds of the engine's scoring alone (files read, no process
    start), from `cargo bench --bench flowchart_workload -- time`: {stem:
    (seconds, mcs, exact)}."""
    cmd = ["cargo", "bench", "--quiet", "--bench", "flowchart_workload", "--",
           "time", str(workload), level, str(time_limit), *extra]
    out = command(cmd)
    rows = (json.loads(line) for line in out.splitlines() if line.startswith("{"))
    return {r["pair"]: (r["seconds"], r["mcs"], r["exact"]) for r in rows}


def clefeval_level(binary, workload, level, time_limit, extra=()):
    """Both clefeval measurements of one level: {stem: (level object,
    in-process seconds)} and the CLI's wall seconds for the folder. Prints
    a SANITY line where the in-process run and the CLI disagree on an exact
    |mcs| (they run the same code)."""
    wall, levels = clefeval(binary, workload, level, time_limit, extra)
    print(f"[{level}] clefeval CLI on the folder: {wall:.1f} s ({load()})", file=sys.stderr, flush=True)
    times = engine_times(workload, level, time_limit, extra)
    print(f"[{level}] in-process times done; now the other solver ({load()})", file=sys.stderr, flush=True)
    out = {}
    for stem, result in levels.items():
        seconds, mcs, exact = times[stem]
        if exact and result["exact"] and mcs != result["mcs"]:
            print(f"SANITY {stem} {level}: clefeval {result['mcs']}, in-process {mcs}")
        out[stem] = (result, seconds)
    return out, wall


def clefeval_interval(result):
    """[lower, upper] of |mcs| from a clefeval level object."""
    return (result["mcs"], result["mcs"] if result["exact"] else result["mcs_upper"])


def disjoint(a, b):
    """Two [lower, upper] intervals of |mcs| that cannot both be right."""
    return a[1] < b[0] or b[1] < a[0]


def load():
    """The 1-minute load average, to print beside every figure."""
    return f"load {os.getloadavg()[0]:.2f}"


def stats(times):
    """(median, max, total) of a list of seconds, in milliseconds."""
    if not times:
        return (float("nan"),) * 3
    return (statistics.median(times) * 1e3, max(times) * 1e3, sum(times) * 1e3)


def ratio(a, b):
    return a / b if b else float("nan")


def summary(title, rows, other, walls):
    """Prints one line per level: pairs, exact counts (clefeval/other),
    mismatches, per-pair median/max/total (ms) of clefeval (in-process) and
    of the other solver, the ratios other/clefeval, and the wall time of
    the clefeval CLI on the folder (`walls`: {level: seconds}). `rows` holds
    dicts with level, clefeval_s, other_s, clefeval_exact, other_exact,
    mismatch."""
    print(f"\n{title} ({load()})")
    print(f"{'level':<13} {'pairs':>5} {'exact c/o':>9} {'mism':>4}  "
          f"{'clefeval med/max/total ms':>27}  {other + ' med/max/total ms':>27}  "
          f"{'ratio med':>9} {'total':>6}  {'CLI folder ms':>13}")
    for level in dict.fromkeys(r["level"] for r in rows):
        rs = [r for r in rows if r["level"] == level]
        c = stats([r["clefeval_s"] for r in rs])
        o = stats([r["other_s"] for r in rs])
        ce = sum(r["clefeval_exact"] for r in rs)
        oe = sum(r["other_exact"] for r in rs)
        mism = sum(r["mismatch"] for r in rs)
        print(f"{level:<13} {len(rs):>5} {ce:>4}/{oe:<4} {mism:>4}  "
              f"{c[0]:>8.2f} {c[1]:>9.1f} {c[2]:>8.0f}  {o[0]:>8.2f} {o[1]:>9.1f} {o[2]:>8.0f}  "
              f"{ratio(o[0], c[0]):>9.1f} {ratio(o[2], c[2]):>6.1f}  {walls[level] * 1e3:>13.0f}")
