#!/usr/bin/env python3
"""Independent check of goldens/flowchart/expected/*.json with OR-Tools CP-SAT.

Not part of the test suite (needs `pip install ortools`). For every scored
topic and level it rebuilds the maximum common subgraph of
docs/flowchart-distance.md as an
integer program written from the definition (its own file reader, its own
normalization and Levenshtein; no code shared with clefeval):

  x[a,u] = 1 when gold node a maps to run node u (compatible pairs only),
  y[e,f] = 1 when gold edge e is preserved by run edge f (same kind, ends
           mapped accordingly; undirected edges in either orientation),
  every node and every edge used at most once; maximize sum x + sum y.

Complete level: with the size fixed at the maximum, minimize the label cost
(ned scaled to integers), then enumerate every maximum mapping with no-good
cuts for the count, mean and histogram. Distances are recomputed from the
sizes. Usage: python3 goldens/flowchart/verify_cpsat.py [expected.json ...]
"""
import json
import math
import pathlib
import sys

from ortools.sat.python import cp_model

ROOT = pathlib.Path(__file__).resolve().parents[2]


def read(path):
    nodes, edges = {}, []
    text = path.read_bytes().decode("utf-8-sig").replace("\r\n", "\n")
    for line in text.split("\n"):
        tok = line.split()
        if not tok:
            continue
        kind = tok[0].upper()
        label = None
        if '"' in line:
            label = line[line.index('"') + 1 : line.rindex('"')] if line.count('"') > 1 else line[line.index('"') + 1 :]
        if kind == "NO":
            nodes[int(tok[1])] = (tok[2].lower(), label or "")
        elif kind in ("DE", "UE"):
            edges.append((int(tok[1]), int(tok[2]), kind == "DE", tok[3].lower()))
    return nodes, edges


def norm(s):
    return " ".join(s.split()).lower()


def lev(a, b):
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]


def ned(a, b):
    a, b = norm(a), norm(b)
    return 0.0 if not a and not b else lev(a, b) / max(len(a), len(b))


def model(gold, run, typed):
    (gn, ge), (rn, re_) = gold, run
    m = cp_model.CpModel()
    x = {(a, u): m.NewBoolVar(f"x{a}_{u}") for a in gn for u in rn if not typed or gn[a][0] == rn[u][0]}
    for a in gn:
        m.Add(sum(v for (p, _), v in x.items() if p == a) <= 1)
    for u in rn:
        m.Add(sum(v for (_, q), v in x.items() if q == u) <= 1)
    ys = []
    use_e = {i: [] for i in range(len(ge))}
    use_f = {j: [] for j in range(len(re_))}
    for i, (a, b, d, _) in enumerate(ge):
        for j, (u, w, d2, _) in enumerate(re_):
            if d != d2:
                continue
            orients = [(u, w)] if d else [(u, w), (w, u)]
            if not d and u == w:
                orients = [(u, w)]
            for (p, q) in orients:
                if (a, p) in x and (b, q) in x and (a != b) == (p != q):
                    y = m.NewBoolVar("")
                    m.AddImplication(y, x[(a, p)])
                    m.AddImplication(y, x[(b, q)])
                    ys.append(y)
                    use_e[i].append(y)
                    use_f[j].append(y)
    for group in list(use_e.values()) + list(use_f.values()):
        if group:
            m.Add(sum(group) <= 1)
    size = sum(x.values()) + sum(ys)
    return m, x, size


def solve(m, time_limit=None, workers=1):
    """`workers` search workers (one by default); `time_limit` in seconds
    (None: until optimal)."""
    s = cp_model.CpSolver()
    s.parameters.num_workers = workers
    if time_limit is not None:
        s.parameters.max_time_in_seconds = time_limit
    st = s.Solve(m)
    return s, st


def maximum(gold, run, level, time_limit=None, workers=1):
    """Maximizes the common subgraph size at `level` (complete: as
    intermediate). Returns (model, x, size expression, solver, status)."""
    m, x, size = model(gold, run, level != "basic")
    m.Maximize(size)
    s, st = solve(m, time_limit, workers)
    return m, x, size, s, st


def least_cost(gold, run, m, x, size, best, time_limit=None, workers=1):
    """Fixes the size of `m` at `best` and minimizes the label cost (ned
    scaled to integers). Returns (costs per x key, solver, status); `m`
    keeps the size constraint and the cost objective."""
    costs = {k: ned(gold[0][k[0]][1], run[0][k[1]][1]) for k in x}
    m.ClearObjective()
    m.Add(size == best)
    m.Minimize(sum(round(costs[k] * 10**6) * v for k, v in x.items()))
    s, st = solve(m, time_limit, workers)
    return costs, s, st


def check_level(gold, run, level):
    m, x, size, s, st = maximum(gold, run, level)
    assert st == cp_model.OPTIMAL
    best = round(s.ObjectiveValue())
    out = {"mcs": best}
    if level != "complete":
        return out
    costs, s, st = least_cost(gold, run, m, x, size, best)
    assert st == cp_model.OPTIMAL
    out["label_cost_best"] = sum(costs[k] for k, v in x.items() if s.Value(v))
    m.ClearObjective()
    found = []
    while len(found) < 5000:
        s, st = solve(m)
        if st not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            break
        chosen = [k for k, v in x.items() if s.Value(v)]
        found.append((sum(costs[k] for k in chosen), len(chosen)))
        m.Add(sum(x[k] for k in chosen) <= len(chosen) - 1)
    out["mappings"] = len(found)
    out["label_cost_mean"] = sum(c for c, _ in found) / len(found)
    hist = [0] * 10
    for c, k in found:
        hist[min(9, math.floor((c / k if k else 0.0) * 10 + 1e-9))] += 1
    out["histogram"] = hist
    return out


def main(paths):
    failures = 0
    for path in paths:
        report = json.loads(pathlib.Path(path).read_text())
        gold_dir = ROOT / "goldens/flowchart/gold"
        for run in report["runs"]:
            run_dir = ROOT / "goldens/flowchart/runs" / run["run"]
            for t in run["topics"]:
                if t["status"] != "ok":
                    continue
                gold = read(gold_dir / f"{t['topic']}.txt")
                sub = read(run_dir / f"{t['topic']}.txt")
                size = lambda g: len(g[0]) + len(g[1])
                assert t["gold_size"] == size(gold) and t["run_size"] == size(sub)
                for level, got in t["levels"].items():
                    want = check_level(gold, sub, level)
                    m = want["mcs"] - want.get("label_cost_best", 0.0)
                    want["distance"] = 1 - m / (size(gold) + size(sub) - m)
                    for key, value in want.items():
                        ok = (abs(got[key] - value) < 1e-6) if isinstance(value, float) else got[key] == value
                        if not ok:
                            failures += 1
                            print(f"MISMATCH {path} {run['run']} {t['topic']} {level} {key}: {got[key]} vs {value}")
                    print(f"ok {run['run']} {t['topic']} {level}: {want}")
    print("failures:", failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:] or sorted(str(p) for p in (ROOT / "goldens/flowchart/expected").glob("*.json"))))
