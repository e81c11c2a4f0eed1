#!/usr/bin/env python3
"""Side by side, whole processes on the same cores: `clefeval recognition`
on a gold and a run table of SMILES against an RDKit script that scores
them the way OCSR benchmark scripts do (MolToInchi(MolFromSmiles(s)) on
both sides, compare the strings), in a multiprocessing pool of as many
processes as clefeval has InChI workers. Out of the test suite; needs
rdkit and a release build (cargo build --release).

Input (written once under target/bench-recognition-smiles/): 10,000 gold
structures, the 631 SMILES of goldens/recognition/smiles/rdkit_cases.tsv
that RDKit gives an InChI for, cycled (the input of benches/smiles.rs),
as gold.csv (`id,smiles`); the run, run.csv (`image_id,SMILES`, names
with `.png`), each the same molecule written by RDKit from a random atom
order (every 10th: the next structure's molecule). 20,000 SMILES to
convert in all.

The floor: the InChI library alone on the same connection tables, from
`cargo bench --bench smiles -- smiles_10000/inchi_only` (10,000 tables, one
thread; run with --floor), times two sides, divided by the cores.

Run: python3 benches/recognition_smiles_vs_rdkit.py [--jobs N] [--repeat 5] [--floor]
"""

import argparse
import csv
import itertools
import json
import os
import random
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from recognition_vs_rdkit import side_by_side  # noqa: E402
REPO = os.path.dirname(HERE)
DATA = os.path.join(REPO, "target", "bench-recognition-smiles")
BINARY = os.path.join(REPO, "target", "release", "clefeval")
CASES = os.path.join(REPO, "goldens", "recognition", "smiles", "rdkit_cases.tsv")
FLOOR = os.path.join(REPO, "target", "criterion", "smiles_10000", "inchi_only", "new",
                     "estimates.json")
STRUCTURES = 10_000


def write_tables():
    from rdkit import Chem, RDLogger

    RDLogger.DisableLog("rdApp.*")
    good = []
    with open(CASES) as f:
        for line in f:
            if not line.startswith("#"):
                fields = line.rstrip("\n").split("\t")
                if fields[1] == "inchi":
                    good.append(fields[0])
    gold = list(itertools.islice(itertools.cycle(good), STRUCTURES))
    rng = random.Random(1)
    os.makedirs(DATA, exist_ok=True)
    with open(os.path.join(DATA, "gold.csv"), "w", newline="") as g, \
            open(os.path.join(DATA, "run.csv"), "w", newline="") as r:
        gold_csv, run_csv = csv.writer(g, lineterminator="\n"), csv.writer(r, lineterminator="\n")
        gold_csv.writerow(["id", "smiles"])
        run_csv.writerow(["image_id", "SMILES"])
        for k, smiles in enumerate(gold):
            name = f"s{k:05d}"
            gold_csv.writerow([name, smiles])
            source = gold[(k + 1) % len(gold)] if k % 10 == 9 else smiles
            mol = Chem.MolFromSmiles(source)
            order = list(range(mol.GetNumAtoms()))
            rng.shuffle(order)
            written = Chem.MolToSmiles(Chem.RenumberAtoms(mol, order), canonical=False)
            run_csv.writerow([name + ".png", written])


RDKIT_SIDE = r'''
import csv, json, sys
from multiprocessing import Pool
from rdkit import Chem, RDLogger
from rdkit.Chem import inchi

def to_inchi(smiles):
    RDLogger.DisableLog("rdApp.*")
    mol = Chem.MolFromSmiles(smiles) if smiles else None
    return (inchi.MolToInchi(mol) or None) if mol is not None else None

def drop_stereo(s):
    head, _, rest = s.partition("/")
    return "/".join([head] + [l for l in rest.split("/") if not l.startswith(("b", "t", "m", "s"))])

def outcome(g, r, exists):
    if g is None: return "manual"
    if not exists: return "missing"
    if r is None: return "unreadable"
    if g == r: return "match"
    if drop_stereo(g) == drop_stereo(r): return "stereo"
    if g.split("/")[1] == r.split("/")[1]: return "formula"
    return "wrong"

if __name__ == "__main__":
    gold_path, run_path, jobs = sys.argv[1], sys.argv[2], int(sys.argv[3])
    with open(gold_path) as f:
        gold = {row["id"]: row["smiles"] for row in csv.DictReader(f)}
    with open(run_path) as f:
        run = {row["image_id"].removesuffix(".png"): row["SMILES"] for row in csv.DictReader(f)}
    names = sorted(gold)
    with Pool(jobs) as pool:
        gold_inchi = pool.map(to_inchi, [gold[n] for n in names], chunksize=64)
        run_inchi = pool.map(to_inchi, [run.get(n, "") for n in names], chunksize=64)
    json.dump({n: outcome(g, r, n in run) for n, g, r in zip(names, gold_inchi, run_inchi)},
              sys.stdout)
'''


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--jobs", type=int, default=os.cpu_count())
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--floor", action="store_true",
                        help="run the library-only bench first (cargo bench)")
    args = parser.parse_args()
    if not os.path.exists(os.path.join(DATA, "run.csv")):
        write_tables()
    if args.floor:
        subprocess.run(["cargo", "bench", "--bench", "smiles", "--", "smiles_10000/inchi_only"],
                       cwd=REPO, check=True, capture_output=True)
    gold, run = os.path.join(DATA, "gold.csv"), os.path.join(DATA, "run.csv")
    script = os.path.join(DATA, "rdkit_side.py")
    with open(script, "w") as f:
        f.write(RDKIT_SIDE)
    ours = [BINARY, "recognition", "--gold", gold, "--run", run, "--format", "json",
            "--quiet", "-j", str(args.jobs)]
    theirs = [sys.executable, script, gold, run, str(args.jobs)]
    (ours_t, ours_cpu, ours_outcomes), (theirs_t, theirs_cpu, _), differ, counts = \
        side_by_side(ours, theirs, args.repeat)
    a, b = statistics.median(ours_t), statistics.median(theirs_t)
    print(f"structures: {len(ours_outcomes)}, outcomes (clefeval): {counts}")
    print(f"outcomes differing from the RDKit script: {len(differ)} {differ[:10]}")
    print(f"clefeval recognition -j {args.jobs}: median {a:.3f} s over {args.repeat} runs "
          f"{sorted(round(x, 3) for x in ours_t)}")
    print(f"RDKit script, Pool({args.jobs}): median {b:.3f} s over {args.repeat} runs "
          f"{sorted(round(x, 3) for x in theirs_t)}")
    print(f"ratio RDKit / clefeval (wall): {b / a:.2f}")
    ca, cb = statistics.median(ours_cpu), statistics.median(theirs_cpu)
    print(f"CPU seconds, medians: clefeval {ca:.3f} (parent + workers), RDKit script {cb:.3f} "
          f"(ratio {cb / ca:.2f})")
    if os.path.exists(FLOOR):
        with open(FLOOR) as f:
            library = json.load(f)["median"]["point_estimate"] / 1e9
        floor = 2 * library / args.jobs
        print(f"InChI library alone, 10,000 tables, one thread (criterion median): {library:.3f} s; "
              f"floor for 20,000 on {args.jobs} cores: {floor:.3f} s")
        print(f"clefeval / floor (wall): {a / floor:.2f}; CPU / library CPU: {ca / (2 * library):.2f}")


if __name__ == "__main__":
    main()
