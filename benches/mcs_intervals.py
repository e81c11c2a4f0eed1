#!/usr/bin/env python3
"""The interval of |mcs| clefeval proves per pair and level on a workload,
kept in a small JSON file so that builds compare without re-running the
older one. Out of the test suite; needs a release build.

  python3 benches/mcs_intervals.py run WORKLOAD OUT.json [--time-limit 10] [--binary PATH] [--build TEXT]
  python3 benches/mcs_intervals.py diff OLD.json NEW.json
  python3 benches/mcs_intervals.py check RESULTS.json CPSAT.json

`run` scores WORKLOAD/{gold,run} at every level with `clefeval flowchart
--threads 1 --time-limit T --format json` and writes, per pair and level,
whether the result is exact, the size found and the proven bound (`mcs`
[found, bound]; one value twice when exact) and what cut it, with `--build`
(what binary this was, by default its file name); it prints the pair-levels
left unproven. `diff` compares two such files (another
build, another limit): pair-levels proved or lost, bounds tightened or
loosened. `check` compares one with a CP-SAT reference
(benches/mcs_vs_cpsat.py `--save-reference`). Any two intervals of the same
pair and level that do not meet are printed as MISMATCH (exit 1): one side
claims a size the other has proved impossible.
"""

import argparse
import json
import pathlib
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

import flowchart_compare as fc  # noqa: E402

LEVELS = ("basic", "intermediate", "complete")


def run(args):
    """`run`: clefeval on the folder, the intervals written to args.out."""
    cmd = [str(args.binary), "flowchart", "--gold", str(args.workload / "gold"), "--run",
           str(args.workload / "run"), "--threads", "1", "--format", "json", "--time-limit", str(args.time_limit)]
    t0 = time.perf_counter()
    out = json.loads(fc.command(cmd))
    wall = time.perf_counter() - t0
    results = []
    for topic in out["runs"][0]["topics"]:
        if topic["status"] != "ok":
            raise SystemExit(f"{topic['topic']}: {topic['status']} {topic['diagnostics']}")
        for level in LEVELS:
            r = topic["levels"][level]
            upper = r["mcs"] if r["exact"] else r["mcs_upper"]
            row = {"pair": topic["topic"], "level": level, "exact": r["exact"], "mcs": [r["mcs"], upper]}
            if not r["exact"]:
                row["cut_by"] = r["cut_by"]
            results.append(row)
    data = {"build": args.build or args.binary.name, "command": "clefeval flowchart --threads 1 --format json --time-limit "
            f"{args.time_limit:g}", "workload": args.workload.name, "wall_s": round(wall, 1), "results": results}
    write(args.out, data)
    print(f"{args.workload}: {len(out['runs'][0]['topics'])} pairs in {wall:.0f} s ({fc.load()})")
    unproven(results)
    return 0


def write(path, data):
    """One result a line, so that the file diffs well."""
    head = ",\n".join(f" {json.dumps(k)}: {json.dumps(v)}" for k, v in data.items() if k != "results")
    rows = ",\n".join("  " + json.dumps(r) for r in data["results"])
    path.write_text("{\n" + head + ',\n "results": [\n' + rows + "\n ]\n}\n")


def read(path):
    """{(pair, level): result} of a file of `run` or of a CP-SAT reference;
    a file that is neither is an error naming it."""
    try:
        data = json.loads(path.read_text())
        return {(r["pair"], r["level"]): r for r in data["results"]}
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise SystemExit(f"{path}: not a file of intervals ({e})") from e


def interval(result):
    """[lower, upper] of |mcs|; an unknown upper bound (null) is unbounded."""
    low, up = result["mcs"]
    return (low, float("inf") if up is None else up)


def unproven(results):
    """Prints the unproven pair-levels per level and the pairs with any."""
    pairs = {r["pair"] for r in results}
    cut = [r for r in results if not r["exact"]]
    for level in LEVELS:
        rs = [r for r in cut if r["level"] == level]
        gaps = sorted(r["mcs"][1] - r["mcs"][0] for r in rs)
        gap = f", gap median {gaps[len(gaps) // 2]}, widest {gaps[-1]}" if gaps else ""
        print(f"{level:<13} unproven {len(rs):>3} of {len(pairs)}{gap}")
    some = {r["pair"] for r in cut}
    print(f"pairs with some level unproven: {len(some)} of {len(pairs)} ({100 * len(some) / len(pairs):.1f} %)")


def compare(a_path, b_path, a_name, b_name, changes):
    """Prints MISMATCH for every shared pair-level whose intervals are
    disjoint, and with `changes` the pair-levels proved or lost and the
    bounds that moved. Returns the number of mismatches."""
    a, b = read(a_path), read(b_path)
    shared = sorted(set(a) & set(b), key=lambda k: (LEVELS.index(k[1]), k[0]))
    print(f"{len(shared)} pair-levels in both ({len(a)} in {a_path.name}, {len(b)} in {b_path.name})")
    mismatches = 0
    for key in shared:
        ia, ib = interval(a[key]), interval(b[key])
        if fc.disjoint(ia, ib):
            mismatches += 1
            print(f"MISMATCH {key[0]} {key[1]}: {a_name} {list(ia)}, {b_name} {list(ib)}")
        elif changes and (ia != ib or a[key]["exact"] != b[key]["exact"]):
            proof = {(False, True): ", proved", (True, False): ", no longer proved"}
            print(f"{key[0]} {key[1]}: {list(ia)} -> {list(ib)}"
                  f"{proof.get((a[key]['exact'], b[key]['exact']), '')}")
    for level in LEVELS:
        keys = [k for k in shared if k[1] == level]
        if not keys:
            continue
        ea, eb = sum(a[k]["exact"] for k in keys), sum(b[k]["exact"] for k in keys)
        both = sum(a[k]["exact"] and b[k]["exact"] for k in keys)
        print(f"{level:<13} exact: {a_name} {ea}, {b_name} {eb}, both {both} of {len(keys)}")
    print(f"mismatches: {mismatches}")
    return mismatches


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run")
    r.add_argument("workload", type=lambda p: pathlib.Path(p).resolve())
    r.add_argument("out", type=pathlib.Path)
    r.add_argument("--time-limit", type=float, default=10.0, help="seconds per pair and level")
    r.add_argument("--binary", type=pathlib.Path, default=fc.BINARY)
    r.add_argument("--build", help="what binary this is, recorded in OUT")
    for name, first, second in (("diff", "old", "new"), ("check", "results", "cpsat")):
        p = sub.add_parser(name)
        p.add_argument(first, type=pathlib.Path)
        p.add_argument(second, type=pathlib.Path)
    args = ap.parse_args()
    if args.command == "run":
        return run(args)
    if args.command == "diff":
        return 1 if compare(args.old, args.new, "old", "new", True) else 0
    return 1 if compare(args.results, args.cpsat, "clefeval", "CP-SAT", False) else 0


if __name__ == "__main__":
    sys.exit(main())
