#!/usr/bin/env python3
"""Side by side: `clefeval flowchart` against the OR-Tools CP-SAT model of
the same maximum common subgraph (goldens/flowchart/verify_cpsat.py, its
own reader and model written from docs/flowchart-distance.md) on the same
pairs. Out of the
test suite; needs `pip install ortools` and a release build.

1. Write a workload: cargo bench --bench flowchart_workload -- write NAME COUNT MIN MAX SEED
2. python3 benches/mcs_vs_cpsat.py target/flowchart-workload/NAME
       [--levels basic,intermediate,complete] [--time-limit 10]
       [--workers N] [--pairs STEM,STEM | --sample K]
       [--save-reference FILE | --reference FILE]

Per level: `clefeval flowchart --threads 1 --time-limit T` on the folder
(results, and the wall clock of the process), the same scoring timed per
pair in-process (benches/flowchart_workload.rs `time`), and per pair CP-SAT
(`--workers` search workers, one by default; max_time_in_seconds
`--cpsat-time-limit`, T by default; wall clock of model building and
solving; the solver's own wall time is printed apart). Complete level: CP-SAT maximizes the size, then
minimizes the label cost at that size (no enumeration of all maximum
mappings, which clefeval does: its time includes more work); the best
label costs are compared. Each side gives an interval for |mcs| (exact: one
value; cut: best found and proven bound; CP-SAT without a solution: 0 and
its bound); disjoint intervals, or different best label costs where both
are exact, are MISMATCHes, printed with the pair.
Per-pair results (and the CLI wall per level) go to NAME/cpsat-results.json
after every level.

`--pairs` scores only the named pairs, `--sample K` every K-th pair of the
sorted stems (the first, the (K+1)-th, ...); clefeval then runs on a folder
of links to those pairs. `--save-reference FILE` writes CP-SAT's results
(pair, level, interval, exact, solver seconds, workers, time limit, OR-Tools
version) to FILE after every pair; `--reference FILE` reads such a file
instead of solving again (its pairs, unless `--pairs` or `--sample` picks
some of them) and compares it with a fresh clefeval run.
"""

import json
import pathlib
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "goldens" / "flowchart"))

import flowchart_compare as fc  # noqa: E402
import ortools  # noqa: E402
import verify_cpsat  # noqa: E402
from ortools.sat.python import cp_model  # noqa: E402

DONE = (cp_model.OPTIMAL, cp_model.FEASIBLE)


def cpsat(gold, run, level, time_limit, workers):
    """Solves one pair at one level. Returns (seconds with model building,
    seconds in the solver, [lower, upper] of |mcs|, exact, best label cost
    or None). Without a solution the interval is 0 (the empty mapping) to
    the solver's bound."""
    t0 = time.perf_counter()
    m, x, size, s, st = verify_cpsat.maximum(gold, run, level, time_limit, workers)
    solving = s.WallTime()
    if st not in DONE:
        bound = s.BestObjectiveBound()
        upper = int(bound + 1e-6) if st == cp_model.UNKNOWN and abs(bound) < 1e12 else float("inf")
        return time.perf_counter() - t0, solving, (0, upper), False, None
    best = round(s.ObjectiveValue())
    interval = (best, best if st == cp_model.OPTIMAL else int(s.BestObjectiveBound() + 1e-6))
    exact, cost = st == cp_model.OPTIMAL, None
    if exact and level == "complete":
        left = max(0.001, time_limit - (time.perf_counter() - t0))
        costs, s, st = verify_cpsat.least_cost(gold, run, m, x, size, best, left, workers)
        solving += s.WallTime()
        exact = st == cp_model.OPTIMAL
        cost = sum(costs[k] for k, v in x.items() if s.Value(v)) if st in DONE else None
    return time.perf_counter() - t0, solving, interval, exact, cost


def options(ap):
    """The options of this script beyond the shared ones."""
    ap.add_argument("--workers", type=int, default=1, help="CP-SAT search workers")
    ap.add_argument("--cpsat-time-limit", type=float, help="CP-SAT seconds per pair and level (default: --time-limit)")
    pick = ap.add_mutually_exclusive_group()
    pick.add_argument("--pairs", type=lambda s: s.split(","), help="comma-separated stems")
    pick.add_argument("--sample", type=int, help="every K-th pair of the sorted stems")
    store = ap.add_mutually_exclusive_group()
    store.add_argument("--save-reference", type=pathlib.Path, help="write CP-SAT's results here")
    store.add_argument("--reference", type=pathlib.Path, help="read CP-SAT's results from here")


def chosen(args, stems, reference):
    """The stems to score: `--pairs`, every `--sample`-th stem, the
    reference's pairs, or all. An unknown stem is an error."""
    if args.pairs is not None:
        picked = args.pairs
    elif args.sample is not None:
        if args.sample < 1:
            raise SystemExit(f"--sample must be at least 1, not {args.sample}")
        picked = stems[:: args.sample]
    elif reference is not None:
        picked = sorted({r["pair"] for r in reference["results"]})
    else:
        picked = stems
    missing = [p for p in picked if p not in stems]
    if missing:
        raise SystemExit(f"{args.workload}: no pair {', '.join(missing)} in gold/ and run/")
    return picked


def linked(workload, picked, folder):
    """A workload folder of links to the `picked` pairs of `workload`."""
    for side in ("gold", "run"):
        (folder / side).mkdir()
        for stem in picked:
            (folder / side / f"{stem}.txt").symlink_to(workload / side / f"{stem}.txt")
    return folder


def read_reference(path):
    """A reference file written by `--save-reference`; {(pair, level):
    result} beside the file's settings. A file that is not one is an error
    naming it."""
    try:
        data = json.loads(path.read_text())
        results = {(r["pair"], r["level"]): r for r in data["results"]}
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise SystemExit(f"{path}: not a CP-SAT reference file ({e})") from e
    return data, results


def save_reference(path, args, rows):
    """Writes CP-SAT's side of `rows` to `path` (small, to commit)."""
    results = [{"pair": r["pair"], "level": r["level"], "mcs": r["cpsat_mcs"], "exact": r["other_exact"],
                "label_cost": r["cpsat_cost"], "solver_s": round(r["cpsat_solve_s"], 2)} for r in rows]
    data = {"solver": "OR-Tools CP-SAT, model of goldens/flowchart/verify_cpsat.py", "ortools": ortools.__version__,
            "workers": args.workers, "time_limit_s": args.cpsat_time_limit, "workload": args.workload.name,
            "results": results}
    text = "{\n" + ",\n".join(f" {json.dumps(k)}: {json.dumps(v)}" for k, v in data.items() if k != "results")
    text += ',\n "results": [\n' + ",\n".join("  " + json.dumps(r) for r in results) + "\n ]\n}\n"
    path.write_text(text)


def main():
    args = fc.arguments(__doc__, options)
    if args.cpsat_time_limit is None:
        args.cpsat_time_limit = args.time_limit
    reference, known = read_reference(args.reference) if args.reference else (None, {})
    stems = chosen(args, fc.pairs(args.workload), reference)
    other = f"CP-SAT ({reference['workers']} workers, {reference['time_limit_s']} s, read from {args.reference})" \
        if reference else f"CP-SAT ({args.workers} workers, {args.cpsat_time_limit} s)"
    print(f"{len(stems)} pairs of {args.workload}, levels {args.levels}, clefeval time limit {args.time_limit} s, "
          f"{other} ({fc.load()})")
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.workload if len(stems) == len(fc.pairs(args.workload)) else linked(
            args.workload, stems, pathlib.Path(tmp))
        return compare(args, stems, folder, known)


def compare(args, stems, folder, known):
    rows, walls, mismatches = [], {}, 0
    for level in args.levels:
        engine, walls[level] = fc.clefeval_level(args.binary, folder, level, args.time_limit)
        for stem in stems:
            c, c_s = engine[stem]
            if known:
                if (stem, level) not in known:
                    raise SystemExit(f"{args.reference}: no result for {stem} at {level}")
                r = known[stem, level]
                upper = float("inf") if r["mcs"][1] is None else r["mcs"][1]
                o_s = o_solve = r["solver_s"]
                o_int, o_exact, o_cost = (r["mcs"][0], upper), r["exact"], r.get("label_cost")
            else:
                gold_file, run_file = args.workload / "gold" / f"{stem}.txt", args.workload / "run" / f"{stem}.txt"
                gold, run = verify_cpsat.read(gold_file), verify_cpsat.read(run_file)
                o_s, o_solve, o_int, o_exact, o_cost = cpsat(gold, run, level, args.cpsat_time_limit, args.workers)
            c_int = fc.clefeval_interval(c)
            bad = fc.disjoint(c_int, o_int)
            c_cost = c.get("label_cost_best")
            if c["exact"] and o_exact and o_cost is not None and abs(c_cost - o_cost) > 1e-4:
                bad = True
            if bad:
                mismatches += 1
                print(f"MISMATCH {stem} {level}: clefeval |mcs| {c_int} cost {c_cost}, "
                      f"CP-SAT |mcs| {o_int} cost {o_cost}", flush=True)
            print(f"{stem} {level}: clefeval {list(c_int)}, CP-SAT {list(o_int)} ({o_solve:.1f} s)",
                  file=sys.stderr, flush=True)
            rows.append({"pair": stem, "level": level, "clefeval_s": c_s, "other_s": o_s,
                         "cpsat_solve_s": o_solve, "clefeval_mcs": list(c_int),
                         "cpsat_mcs": [o_int[0], None if o_int[1] == float("inf") else o_int[1]],
                         "clefeval_exact": c["exact"], "other_exact": o_exact,
                         "clefeval_cost": c_cost, "cpsat_cost": o_cost, "mismatch": bad})
            if args.save_reference:
                save_reference(args.save_reference, args, rows)
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
