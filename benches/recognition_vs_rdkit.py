#!/usr/bin/env python3
"""Side by side: `clefeval recognition` against an RDKit script doing the
same comparison the way OCSR benchmark scripts (DECIMER, ...) do it
(Chem.MolFromMolFile, inchi.MolToInchi, compare the strings), on the same
2,000 gold/submission pairs. Out of the test suite; needs rdkit and a
release build (cargo build --release).

1. Writes 2,000 pairs under target/bench-recognition/ (once): gold = the
   first 2,000 NCI SMILES shipped with RDKit in 2D, submission = the same
   molecule with atoms shuffled (every 10th: another molecule; every 5th
   written as V3000).
2. Times each side REPEAT times (wall clock, whole process) and prints the
   medians and their ratio, and checks that both sides give the same outcome
   for every pair.

Run: python3 benches/recognition_vs_rdkit.py [--jobs N] [--repeat 5]
"""

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
DATA = os.path.join(REPO, "target", "bench-recognition")
BINARY = os.path.join(REPO, "target", "release", "clefeval")
PAIRS = 2000


def write_pairs():
    from rdkit import Chem, RDConfig, RDLogger
    from rdkit.Chem import AllChem

    RDLogger.DisableLog("rdApp.*")
    gold_dir, run_dir = os.path.join(DATA, "gold"), os.path.join(DATA, "run")
    os.makedirs(gold_dir, exist_ok=True)
    os.makedirs(run_dir, exist_ok=True)
    mols = []
    with open(os.path.join(RDConfig.RDDataDir, "NCI", "first_5K.smi")) as f:
        for line in f:
            mol = Chem.MolFromSmiles(line.split()[0])
            if mol is not None:
                AllChem.Compute2DCoords(mol)
                mols.append(mol)
            if len(mols) == PAIRS + 1:
                break
    rng = random.Random(1)
    for k in range(PAIRS):
        name = f"pair{k:05d}"
        gold = mols[k]
        with open(os.path.join(gold_dir, name + ".mol"), "w") as f:
            f.write(Chem.MolToMolBlock(gold))
        run = mols[k + 1] if k % 10 == 9 else gold
        order = list(range(run.GetNumAtoms()))
        rng.shuffle(order)
        run = Chem.RenumberAtoms(run, order)
        block = Chem.MolToV3KMolBlock(run) if k % 5 == 4 else Chem.MolToMolBlock(run)
        with open(os.path.join(run_dir, name + ".mol"), "w") as f:
            f.write(block)


RDKIT_SIDE = r'''
import os, sys, json
from rdkit import Chem, RDLogger
from rdkit.Chem import inchi
RDLogger.DisableLog("rdApp.*")
gold_dir, run_dir = sys.argv[1], sys.argv[2]

def to_inchi(path):
    if not os.path.exists(path):
        return None, False
    mol = Chem.MolFromMolFile(path)
    return (inchi.MolToInchi(mol) or None) if mol is not None else None, True

def drop_stereo(s):
    head, _, rest = s.partition("/")
    return "/".join([head] + [l for l in rest.split("/") if not l.startswith(("b", "t", "m", "s"))])

out = {}
for name in sorted(os.listdir(gold_dir)):
    stem = os.path.splitext(name)[0]
    g, _ = to_inchi(os.path.join(gold_dir, name))
    r, exists = to_inchi(os.path.join(run_dir, name))
    if g is None: o = "manual"
    elif not exists: o = "missing"
    elif r is None: o = "unreadable"
    elif g == r: o = "match"
    elif drop_stereo(g) == drop_stereo(r): o = "stereo"
    elif g.split("/")[1] == r.split("/")[1]: o = "formula"
    else: o = "wrong"
    out[stem] = o
json.dump(out, sys.stdout)
'''


def timed(command):
    """Wall-clock seconds, CPU seconds (user + system, the process and its
    children, e.g. the InChI workers) and standard output of a command."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    result = subprocess.run(command, capture_output=True, text=True, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, result.stdout


def side_by_side(ours, theirs, repeat):
    """Runs clefeval's command and the RDKit script one after the other, `repeat` times:
    per side the wall and CPU times and the outcomes by name (clefeval's
    JSON, the script's {name: outcome}), then the names whose outcomes
    differ and clefeval's outcome counts."""
    sides = [([], [], None), ([], [], None)]
    for _ in range(repeat):
        for k, command in enumerate((ours, theirs)):
            wall, cpu, out = timed(command)
            sides[k][0].append(wall)
            sides[k][1].append(cpu)
            sides[k] = (sides[k][0], sides[k][1], out)
    ours_outcomes = {s["name"]: s["outcome"]
                     for s in json.loads(sides[0][2])["runs"][0]["structures"]}
    theirs_outcomes = json.loads(sides[1][2])
    differ = sorted(k for k in theirs_outcomes if ours_outcomes.get(k) != theirs_outcomes[k])
    counts = {}
    for o in ours_outcomes.values():
        counts[o] = counts.get(o, 0) + 1
    return ((sides[0][0], sides[0][1], ours_outcomes), (sides[1][0], sides[1][1], theirs_outcomes),
            differ, counts)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--jobs", type=int, default=os.cpu_count())
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    if not os.path.isdir(os.path.join(DATA, "run")):
        write_pairs()
    gold, run = os.path.join(DATA, "gold"), os.path.join(DATA, "run")
    ours = [BINARY, "recognition", "--gold", gold, "--run", run, "--format", "json",
            "--quiet", "--jobs", str(args.jobs)]
    theirs = [sys.executable, "-c", RDKIT_SIDE, gold, run]
    (ours_t, ours_cpu, ours_outcomes), (theirs_t, theirs_cpu, _), differ, counts = \
        side_by_side(ours, theirs, args.repeat)
    a, b = statistics.median(ours_t), statistics.median(theirs_t)
    print(f"pairs: {len(ours_outcomes)}, outcomes (clefeval): {counts}")
    print(f"outcomes differing from the RDKit script: {len(differ)} {differ[:10]}")
    print(f"clefeval --jobs {args.jobs}: median {a:.3f} s over {args.repeat} runs {sorted(round(x, 3) for x in ours_t)}")
    print(f"RDKit script (1 process): median {b:.3f} s over {args.repeat} runs {sorted(round(x, 3) for x in theirs_t)}")
    print(f"ratio RDKit / clefeval (wall): {b / a:.2f}")
    ca, cb = statistics.median(ours_cpu), statistics.median(theirs_cpu)
    print(f"CPU seconds, medians: clefeval {ca:.3f} (parent + workers), RDKit script {cb:.3f}")


if __name__ == "__main__":
    main()
