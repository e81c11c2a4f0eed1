#!/usr/bin/env python3
"""RDKit on the SMILES of benches/smiles.rs: MolFromSmiles alone, and
MolToInchi(MolFromSmiles(s)), one thread, 10,000 SMILES (the 631 of
goldens/recognition/smiles/rdkit_cases.tsv that RDKit gives an InChI for,
cycled). Median of 5 runs each.

Run: python3 benches/smiles_vs_rdkit.py (needs rdkit)
"""

import itertools
import os
import statistics
import time

from rdkit import Chem, RDLogger
from rdkit.Chem import inchi

RDLogger.DisableLog("rdApp.*")
HERE = os.path.dirname(os.path.abspath(__file__))
CASES = os.path.join(HERE, "..", "goldens", "recognition", "smiles", "rdkit_cases.tsv")


def cases():
    good = []
    with open(CASES) as f:
        for line in f:
            if line.startswith("#"):
                continue
            fields = line.rstrip("\n").split("\t")
            if fields[1] == "inchi":
                good.append(fields[0])
    return list(itertools.islice(itertools.cycle(good), 10_000))


def timed(work, smiles):
    times = []
    for _ in range(5):
        start = time.perf_counter()
        work(smiles)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def read(smiles):
    for s in smiles:
        Chem.MolFromSmiles(s)


def read_and_inchi(smiles):
    for s in smiles:
        inchi.MolToInchi(Chem.MolFromSmiles(s))


def main():
    smiles = cases()
    print(f"RDKit MolFromSmiles, 10,000 SMILES: {timed(read, smiles) * 1000:.0f} ms")
    print(f"RDKit MolToInchi(MolFromSmiles), 10,000 SMILES: {timed(read_and_inchi, smiles) * 1000:.0f} ms")


if __name__ == "__main__":
    main()
