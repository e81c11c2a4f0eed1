#!/usr/bin/env python3
"""Which side of a cut least label cost is loose: the OR-Tools CP-SAT model
of goldens/flowchart/verify_cpsat.py (its own reader and model, written
from docs/flowchart-distance.md) with the size fixed at the intermediate
maximum clefeval proved and the label cost minimized, started from the
mapping clefeval reports (a hint; CP-SAT checks it and may leave it).
Out of the test suite; needs `pip install ortools` and a release build.

  python3 benches/mcs_label_cpsat.py WORKLOAD --pairs STEM,STEM
      [--time-limit 600] [--workers 1] [--binary PATH] [--out FILE]

Per pair: clefeval's complete level at the default budget (least cost
found, exact, its mapping), then CP-SAT for at most `--time-limit`
seconds. Prints one JSON line per pair: the size, clefeval's cost,
CP-SAT's best cost and proven lower bound, its status and the times at
which each better mapping was found. A CP-SAT cost below clefeval's means
clefeval's primal side is loose; a CP-SAT bound equal to clefeval's cost
proves clefeval's mapping least (its bound side is loose); a CP-SAT run
that proves neither says so ("status": "FEASIBLE").
"""

import argparse
import json
import pathlib
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "goldens" / "flowchart"))

import flowchart_compare as fc  # noqa: E402
import verify_cpsat  # noqa: E402
from ortools.sat.python import cp_model  # noqa: E402

SCALE = 10**6


class Progress(cp_model.CpSolverSolutionCallback):
    """Records (seconds, cost, bound) at every better mapping."""

    def __init__(self):
        super().__init__()
        self.found = []

    def on_solution_callback(self):
        self.found.append((round(self.WallTime(), 1), self.ObjectiveValue() / SCALE,
                           round(self.BestObjectiveBound() / SCALE, 4)))


def clefeval_complete(binary, workload, stem):
    """clefeval's complete level of one pair (default settings, one thread)."""
    with tempfile.TemporaryDirectory() as folder:
        folder = pathlib.Path(folder)
        for side in ("gold", "run"):
            (folder / side).mkdir()
            (folder / side / f"{stem}.txt").symlink_to(workload / side / f"{stem}.txt")
        out = fc.command([str(binary), "flowchart", "--gold", str(folder / "gold"), "--run",
                          str(folder / "run"), "--level", "complete", "--threads", "1", "--format", "json"])
    return json.loads(out)["runs"][0]["topics"][0]["levels"]["complete"]


def least_cost(workload, stem, known, time_limit, workers):
    """CP-SAT's least label cost at clefeval's size, from its mapping."""
    gold = verify_cpsat.read(workload / "gold" / f"{stem}.txt")
    run = verify_cpsat.read(workload / "run" / f"{stem}.txt")
    m, x, size = verify_cpsat.model(gold, run, True)
    costs = {k: verify_cpsat.ned(gold[0][k[0]][1], run[0][k[1]][1]) for k in x}
    m.Add(size == known["mcs"])
    m.Minimize(sum(round(costs[k] * SCALE) * v for k, v in x.items()))
    mapped = {tuple(p) for p in known["mapping"]}
    for k, v in x.items():
        m.AddHint(v, k in mapped)
    s = cp_model.CpSolver()
    s.parameters.num_workers = workers
    s.parameters.max_time_in_seconds = time_limit
    progress = Progress()
    t0 = time.perf_counter()
    st = s.Solve(m, progress)
    return {
        "status": s.StatusName(st),
        "cpsat_cost": s.ObjectiveValue() / SCALE if st in (cp_model.OPTIMAL, cp_model.FEASIBLE) else None,
        "cpsat_bound": round(s.BestObjectiveBound() / SCALE, 4),
        "cpsat_s": round(time.perf_counter() - t0, 1),
        "found": progress.found,
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("workload", type=lambda p: pathlib.Path(p).resolve())
    ap.add_argument("--pairs", required=True, type=lambda s: s.split(","))
    ap.add_argument("--time-limit", type=float, default=600.0)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--binary", type=pathlib.Path, default=fc.BINARY)
    ap.add_argument("--out", type=pathlib.Path)
    args = ap.parse_args()
    rows = []
    for stem in args.pairs:
        known = clefeval_complete(args.binary, args.workload, stem)
        row = {"pair": stem, "mcs": known["mcs"], "clefeval_cost": known["label_cost_best"],
               "clefeval_exact": known["exact"], "workers": args.workers, "time_limit": args.time_limit}
        row.update(least_cost(args.workload, stem, known, args.time_limit, args.workers))
        print(json.dumps(row), flush=True)
        rows.append(row)
        if args.out:
            args.out.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
