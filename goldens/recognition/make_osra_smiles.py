#!/usr/bin/env python3
"""Writes the OSRA SMILES run of the OSRA clips: what the real OSRA
recognizer reads from each clip of osra/clips in its default output, a
SMILES (`osra CLIP`), as one CSV table osra/runs/osra-smiles/osra.csv
(`file_name,smiles`, the clip's file name as OSRA users list it; an empty
cell when OSRA found nothing), and expected/osra_smiles.json with the
outcome RDKit's InChIs give for every pair: MolToInchi(MolFromSmiles(s))
against the gold MOL file's InChI. Where OSRA reads several structures
from a clip, the first is kept, as a one-structure-per-clip table holds.

Run: python3 goldens/recognition/make_osra_smiles.py (needs rdkit and the
Debian package osra; the clips and gold come from make_osra.py). Tests
only read the files written here.
"""

import csv
import os
import subprocess
import sys

from rdkit import Chem
from rdkit.Chem import inchi

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rdkit_common import outcome, rdkit_inchi, write_expected  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "osra")


def smiles_inchi(smiles):
    """RDKit's Standard InChI of a SMILES, or None when there is none."""
    if not smiles:
        return None
    mol = Chem.MolFromSmiles(smiles)
    if mol is None or any(a.GetAtomicNum() == 0 for a in mol.GetAtoms()):
        return None
    return inchi.MolToInchi(mol) or None


def main():
    out_dir = os.path.join(ROOT, "runs", "osra-smiles")
    os.makedirs(out_dir, exist_ok=True)
    rows, table = [], []
    for clip in sorted(os.listdir(os.path.join(ROOT, "clips"))):
        name = os.path.splitext(clip)[0]
        read = subprocess.run(["osra", os.path.join(ROOT, "clips", clip)],
                              capture_output=True, text=True, check=False).stdout
        lines = [l.strip() for l in read.splitlines() if l.strip()]
        smiles = lines[0] if lines else ""
        table.append((clip, smiles))
        with open(os.path.join(ROOT, "gold", name + ".mol")) as f:
            gold = rdkit_inchi(f.read())
        run = smiles_inchi(smiles)
        rows.append((name, outcome(gold, run, True), gold, run))
    with open(os.path.join(out_dir, "osra.csv"), "w", newline="") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(["file_name", "smiles"])
        writer.writerows(table)
    write_expected(os.path.join(HERE, "expected", "osra_smiles.json"), rows)
    for name, o, _, _ in sorted(rows):
        print(name, o)


if __name__ == "__main__":
    main()
