#!/usr/bin/env python3
"""Side by side: `clefeval flowchart --ignore-direction` against RDKit's
RASCAL maximum common edge subgraph (rdkit.Chem.rdRascalMCES.FindMCES) on
the same pairs, read as undirected graphs. Out of the test suite; needs
`pip install rdkit` and a release build.

1. Write a workload: cargo bench --bench flowchart_workload -- write NAME COUNT MIN MAX SEED
2. python3 benches/mcs_vs_rascal.py target/flowchart-workload/NAME
       [--levels basic,intermediate] [--time-limit 10]

Each flowchart becomes an RDKit molecule (not sanitized; ring info from
FastFindRings): one atom per node — basic: all carbon; intermediate: one
element per node type — and one single bond per edge, every edge read as
undirected. Under --ignore-direction clefeval preserves min(k1, k2) of k
parallel edges between two nodes and counts self-loops; a molecule has at
most one bond per atom pair and no self-bond, so a pair where either graph
has a self-loop or parallel edges (after ignoring direction) is dropped and
counted. On the others the largest number of preserved edges is RASCAL's
number of matched bonds and, for clefeval, |mcs| minus the node term
(sum over node classes of min(n1, n2), docs/flowchart-distance.md); an |mcs| interval from a cut search is shifted
the same way. RASCAL options: similarityThreshold 0 (no early exit on the
similarity bound), completeAromaticRings off, ringMatchesRingOnly off,
singleLargestFrag off, minFragSize/maxFragSeparation off (-1: disconnected
MCES), maxBondMatchPairs raised to 10^8 (with the default 1000 RASCAL
returns 0 bonds, not flagged as timed out, when more than 1000 bond pairs
are compatible, e.g. all-carbon graphs of 41 and 39 edges), timeout the per-pair limit
(whole seconds, rounded up). RASCAL time: wall clock of FindMCES alone.
clefeval runs on a copy of the compared pairs (NAME/rascal-pairs/).
Disjoint intervals are MISMATCHes, printed with the pair. Per-pair
results (and the CLI wall per level) go to NAME/rascal-results.json after
every level.
"""

import collections
import json
import math
import pathlib
import shutil
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "goldens" / "flowchart"))

import flowchart_compare as fc  # noqa: E402
import verify_cpsat  # noqa: E402
from rdkit import Chem, RDLogger  # noqa: E402
from rdkit.Chem import rdRascalMCES  # noqa: E402

# The node types of docs/formats.md; intermediate level: one element per type (Z = 6 + index).
NODE_TYPES = ["oval", "rectangle", "double-rectangle", "parallelogram", "diamond",
              "circle", "point", "no-box", "cylinder", "unknown"]


def simple_edges(graph):
    """The undirected edges of `graph` as sorted (a, b) node-id pairs, or
    None when a self-loop or parallel edges make it no simple graph."""
    count = collections.Counter(tuple(sorted((a, b))) for a, b, _, _ in graph[1])
    if any(a == b for a, b in count) or any(k > 1 for k in count.values()):
        return None
    return sorted(count)


def molecule(graph, edges, level):
    nodes = graph[0]
    index = {node: i for i, node in enumerate(sorted(nodes))}
    m = Chem.RWMol()
    for node in sorted(nodes):
        kind = nodes[node][0]
        z = 6 if level == "basic" else 6 + (NODE_TYPES.index(kind) if kind in NODE_TYPES else len(NODE_TYPES))
        m.AddAtom(Chem.Atom(z))
    for a, b in edges:
        m.AddBond(index[a], index[b], Chem.BondType.SINGLE)
    mol = m.GetMol()
    mol.UpdatePropertyCache(strict=False)
    Chem.FastFindRings(mol)
    return mol


def node_term(gold, run, level):
    """sum over node classes of min(n1, n2): the nodes every maximum common
    subgraph maps (one class at the basic level, node types above)."""
    if level == "basic":
        return min(len(gold[0]), len(run[0]))
    c1 = collections.Counter(t for t, _ in gold[0].values())
    c2 = collections.Counter(t for t, _ in run[0].values())
    return sum(min(k, c2[t]) for t, k in c1.items())


def options(time_limit):
    o = rdRascalMCES.RascalOptions()
    o.similarityThreshold = 0.0
    o.completeAromaticRings = False
    o.ringMatchesRingOnly = False
    o.singleLargestFrag = False
    o.minFragSize = -1
    o.maxFragSeparation = -1
    o.maxBondMatchPairs = 10**8
    o.returnEmptyMCES = True
    o.timeout = max(1, math.ceil(time_limit))
    return o


def rascal(mol1, mol2, opts):
    """Returns (seconds, [lower, upper] of preserved edges, exact)."""
    t0 = time.perf_counter()
    results = rdRascalMCES.FindMCES(mol1, mol2, opts)
    seconds = time.perf_counter() - t0
    edges = len(results[0].bondMatches()) if results else 0
    timed_out = any(r.timedOut for r in results)
    return seconds, (edges, math.inf if timed_out else edges), not timed_out


def main():
    args = fc.arguments(__doc__)
    RDLogger.DisableLog("rdApp.*")
    opts = options(args.time_limit)
    graphs, dropped = {}, []
    for stem in fc.pairs(args.workload):
        gold = verify_cpsat.read(args.workload / "gold" / f"{stem}.txt")
        run = verify_cpsat.read(args.workload / "run" / f"{stem}.txt")
        e1, e2 = simple_edges(gold), simple_edges(run)
        if e1 is None or e2 is None:
            dropped.append(stem)
        else:
            graphs[stem] = (gold, run, e1, e2)
    # clefeval scores exactly the compared pairs: a copy of them.
    kept = args.workload / "rascal-pairs"
    shutil.rmtree(kept, ignore_errors=True)
    for side in ("gold", "run"):
        (kept / side).mkdir(parents=True)
        for stem in graphs:
            shutil.copy(args.workload / side / f"{stem}.txt", kept / side / f"{stem}.txt")
    print(f"{len(graphs)} pairs of {args.workload} compared, {len(dropped)} dropped (self-loop or parallel "
          f"edges once undirected), levels {args.levels}, time limit {args.time_limit} s ({fc.load()})")
    rows, walls, mismatches = [], {}, 0
    for level in args.levels:
        engine, walls[level] = fc.clefeval_level(args.binary, kept, level, args.time_limit,
                                                 ["--ignore-direction"])
        for stem, (gold, run, e1, e2) in graphs.items():
            c, c_s = engine[stem]
            nt = node_term(gold, run, level)
            c_int = tuple(v - nt for v in fc.clefeval_interval(c))
            o_s, o_int, o_exact = rascal(molecule(gold, e1, level), molecule(run, e2, level), opts)
            bad = fc.disjoint(c_int, o_int)
            if bad:
                mismatches += 1
                print(f"MISMATCH {stem} {level}: clefeval edges {c_int}, RASCAL edges {o_int}", flush=True)
            rows.append({"pair": stem, "level": level, "clefeval_s": c_s, "other_s": o_s,
                         "clefeval_edges": list(c_int), "rascal_edges": list(o_int),
                         "clefeval_exact": c["exact"], "other_exact": o_exact, "mismatch": bad})
        # After every level, so that a long run keeps what it measured.
        (args.workload / "rascal-results.json").write_text(
            json.dumps({"dropped": dropped, "walls": walls, "rows": rows}, indent=1, default=str))
    fc.summary(f"clefeval --ignore-direction vs RASCAL on {args.workload.name} "
               f"({len(dropped)} pairs dropped)", rows, "RASCAL", walls)
    print(f"mismatches: {mismatches}")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
