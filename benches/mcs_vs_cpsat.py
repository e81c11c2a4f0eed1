#!/usr/bin/env python3
"""Side by side: `clefeval flowchart` against the OR-Tools CP-SAT model of
the same maximum common subgraph (goldens/flowchart/verify_cpsat.py, its
own reader and model written from docs/flowchart-distance.md) on the same
pairs. Out of the
test suite; needs `pip install ortools` and a release build.

1. Write a workload: cargo bench --bench flowchart_workload -- write NAME COUNT MIN MAX SEED
2. python3 benches/mcs_vs_cpsat.py target/flowchart-workload/NAME
       [--levels basic,intermediate,complete] [--time-limit 10]

Per level: `clefeval flowchart --threads 1 --time-limit T` on the folder
(results, and the wall clock of the process), the same scoring timed per
pair in-process (benches/flowchart_workload.rs `time`), and per pair CP-SAT
(one worker, max_time_in_seconds T, wall clock of model building and
solving; the solver's own wall time is printed apart). Complete level: CP-SAT maximizes the size, then
minimizes the label cost at that size (no enumeration of all maximum
mappings, which clefeval does: its time includes more work); the best
label costs are compared. Each side gives an interval for |mcs| (exact: one
value; cut: best found and proven bound); disjoint intervals, or different
best label costs where both are exact, are MISMATCHes, printed with the pair.
Per-pair results (and the CLI wall per level) go to NAME/cpsat-results.json
after every level.
"""

import json
import pathlib
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "goldens" / "flowchart"))

import flowchart_compare as fc  # noqa: E402
import verify_cpsat  # noqa: E402
from ortools.sat.python import cp_model  # noqa: E402

DONE = (cp_model.OPTIMAL, cp_model.FEASIBLE)


def cpsat(gold, run, level, time_limit):
    """Solves one pair at one level. Returns (seconds with model building,
    seconds in the solver, [lower, upper] of |mcs|, exact, best label cost
    or None)."""
    t0 = time.perf_counter()
    m, x, size, s, st = verify_cpsat.maximum(gold, run, level, time_limit)
    solving = s.WallTime()
    if st not in DONE:
        return time.perf_counter() - t0, solving, (0, float("inf")), False, None
    best = round(s.ObjectiveValue())
    interval = (best, best if st == cp_model.OPTIMAL else int(s.BestObjectiveBound()))
    exact, cost = st == cp_model.OPTIMAL, None
    if exact and level == "complete":
        left = max(0.001, time_limit - (time.perf_counter() - t0))
        costs, s, st = verify_cpsat.least_cost(gold, run, m, x, size, best, left)
        solving += s.WallTime()
        exact = st == cp_model.OPTIMAL
        cost = sum(costs[k] for k, v in x.items() if s.Value(v)) if st in DONE else None
    return time.perf_counter() - t0, solving, interval, exact, cost


def main():
    args = fc.arguments(__doc__)
    stems = fc.pairs(args.workload)
    print(f"{len(stems)} pairs of {args.workload}, levels {args.levels}, time limit {args.time_limit} s ({fc.load()})")
    rows, walls, mismatches = [], {}, 0
    for level in args.levels:
        engine, walls[level] = fc.clefeval_level(args.binary, args.workload, level, args.time_limit)
        for stem in stems:
            gold_file, run_file = args.workload / "gold" / f"{stem}.txt", args.workload / "run" / f"{stem}.txt"
            gold, run = verify_cpsat.read(gold_file), verify_cpsat.read(run_file)
            c, c_s = engine[stem]
            o_s, o_solve, o_int, o_exact, o_cost = cpsat(gold, run, level, args.time_limit)
            c_int = fc.clefeval_interval(c)
            bad = fc.disjoint(c_int, o_int)
            c_cost = c.get("label_cost_best")
            if c["exact"] and o_exact and o_cost is not None and abs(c_cost - o_cost) > 1e-4:
                bad = True
            if bad:
                mismatches += 1
                print(f"MISMATCH {stem} {level}: clefeval |mcs| {c_int} cost {c_cost}, "
                      f"CP-SAT |mcs| {o_int} cost {o_cost}", flush=True)
            rows.append({"pair": stem, "level": level, "clefeval_s": c_s, "other_s": o_s,
                         "cpsat_solve_s": o_solve, "clefeval_mcs": list(c_int), "cpsat_mcs": list(o_int),
                         "clefeval_exact": c["exact"], "other_exact": o_exact,
                         "clefeval_cost": c_cost, "cpsat_cost": o_cost, "mismatch": bad})
        # After every level, so that a long run keeps what it measured.
        (args.workload / "cpsat-results.json").write_text(
            json.dumps({"walls": walls, "rows": rows}, indent=1, default=str))
    fc.summary(f"clefeval vs CP-SAT on {args.workload.name}", rows, "CP-SAT", walls)
    for level in args.levels:
        med = fc.stats([r["cpsat_solve_s"] for r in rows if r["level"] == level])
        print(f"CP-SAT {level}: in the solver alone (no model building) median {med[0]:.2f} ms, "
              f"max {med[1]:.1f} ms, total {med[2]:.0f} ms")
    print(f"mismatches: {mismatches}")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
