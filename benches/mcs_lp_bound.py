#!/usr/bin/env python3
"""The LP relaxation of the maximum common edge subgraph, against clefeval.

Why: the edge-split relaxation of `src/flowchart/mcs/` approximates this LP (the RLT1
linearization on edge pairs) by subgradient steps. This script solves the
LP exactly with HiGHS (scipy) on a written workload and compares its value,
rounded down, with the exact maximum clefeval reports: where they agree the
relaxation can prove the maximum without a search.

Usage (out of the test suite; needs `pip install scipy`):

    cargo bench --bench flowchart_workload -- write wl300 300 10 60 1
    target/release/clefeval flowchart --gold target/flowchart-workload/wl300/gold \\
        --run target/flowchart-workload/wl300/run --level intermediate \\
        --time-limit 10 --format json > wl300.json
    python3 benches/mcs_lp_bound.py target/flowchart-workload/wl300 wl300.json intermediate

It also prints HiGHS's own time per pair (the linprog call alone): what
solving the same LP exactly costs, against clefeval's relaxation.

Basic level: every node compatible with every node; intermediate: equal
node types. Default settings only (directed and undirected edges, no edge
types, no induced mode).
"""
import json
import os
import shlex
import sys
import time
from collections import Counter

import numpy as np
from scipy.optimize import linprog
from scipy.sparse import coo_matrix


def read(path):
    """Nodes (ids, types) and, per ordered node pair, [out, in, undirected] counts."""
    ids, types, edges = [], [], []
    for line in open(path, encoding="utf-8"):
        t = shlex.split(line)
        if not t:
            continue
        if t[0] == "NO":
            ids.append(int(t[1]))
            types.append(t[2])
        elif t[0] in ("DE", "UE"):
            edges.append((int(t[1]), int(t[2]), t[0] == "DE"))
    index = {v: i for i, v in enumerate(ids)}
    pairs, loops = {}, [[0, 0] for _ in ids]
    for u, v, directed in edges:
        a, b = index[u], index[v]
        if a == b:
            loops[a][0 if directed else 1] += 1
            continue
        for p, q, s in ((a, b, 0 if directed else 2), (b, a, 1 if directed else 2)):
            pairs.setdefault((p, q), [0, 0, 0])[s] += 1
    return len(ids), types, pairs, loops


def preserved(p, q):
    return sum(min(x, y) for x, y in zip(p, q))


def lp_value(g1, g2, typed, solve_times):
    n1, t1, p1, l1 = g1
    n2, t2, p2, l2 = g2
    ok = lambda a, x: (not typed) or t1[a] == t2[x]
    pair = {}
    for a in range(n1):
        for x in range(n2):
            if ok(a, x):
                pair[(a, x)] = len(pair)
    obj = [1 + preserved(l1[a], l2[x]) for (a, x) in pair]
    # Edge pairs: gold pair {a, b} (a < b) with an ordered run pair (x, y).
    zs = []
    for (a, b), p in p1.items():
        if a > b:
            continue
        for (x, y), q in p2.items():
            w = preserved(p, q)
            if w > 0 and ok(a, x) and ok(b, y):
                zs.append((a, x, b, y, w))
    rows, cols, vals, rhs = [], [], [], []
    r = 0
    for a in range(n1):  # each gold node mapped at most once
        for x in range(n2):
            if (a, x) in pair:
                rows.append(r), cols.append(pair[(a, x)]), vals.append(1)
        rhs.append(1)
        r += 1
    for x in range(n2):  # each run node at most once
        for a in range(n1):
            if (a, x) in pair:
                rows.append(r), cols.append(pair[(a, x)]), vals.append(1)
        rhs.append(1)
        r += 1
    # Per node pair (a, x) and neighbour b: Σ_y z ≤ x_ax; per neighbour y: Σ_b z ≤ x_ax.
    groups = {}
    for k, (a, x, b, y, w) in enumerate(zs):
        zi = len(pair) + k
        for key in (("b", a, x, b), ("y", a, x, y), ("b", b, y, a), ("y", b, y, x)):
            groups.setdefault(key, []).append(zi)
    for (_, a, x, _), members in groups.items():
        for zi in members:
            rows.append(r), cols.append(zi), vals.append(1)
        rows.append(r), cols.append(pair[(a, x)]), vals.append(-1)
        rhs.append(0)
        r += 1
    c = np.array(obj + [w for *_, w in zs], dtype=float)
    a_ub = coo_matrix((vals, (rows, cols)), shape=(r, len(c))).tocsr()
    b_ub = np.array(rhs, dtype=float)
    start = time.perf_counter()
    res = linprog(-c, A_ub=a_ub, b_ub=b_ub, bounds=(0, 1), method="highs")
    solve_times.append(time.perf_counter() - start)
    return -res.fun


def main():
    if len(sys.argv) != 4 or sys.argv[3] not in ("basic", "intermediate"):
        sys.exit(__doc__)
    root, report, level = sys.argv[1], json.load(open(sys.argv[2])), sys.argv[3]
    exact = {}
    for topic in report["runs"][0]["topics"]:
        result = topic["levels"][level]
        exact[topic["topic"]] = (result["mcs"], result["exact"])
    gaps, cut, solve_times = Counter(), [], []
    for name in sorted(os.listdir(os.path.join(root, "gold"))):
        stem = os.path.splitext(name)[0]
        g1 = read(os.path.join(root, "gold", name))
        g2 = read(os.path.join(root, "run", name))
        value = lp_value(g1, g2, level == "intermediate", solve_times)
        size, is_exact = exact[stem]
        if is_exact:
            gaps[int(value + 1e-6) - size] += 1
        else:
            cut.append((stem, size, round(value, 3)))
    print(f"{level}: floor(LP) - maximum over exactly solved pairs: {dict(sorted(gaps.items()))}")
    for stem, size, value in cut:
        print(f"  not exact in the report: {stem} best found {size}, LP {value}")
    # The solver's own time (the linprog call, not building the LP in
    # Python): what an exact LP costs per pair, against the relaxation.
    times = np.array(solve_times)
    print(f"  HiGHS time per pair: median {np.median(times) * 1e3:.1f} ms, "
          f"max {times.max() * 1e3:.1f} ms, total {times.sum():.1f} s")


if __name__ == "__main__":
    main()
