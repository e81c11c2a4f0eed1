#!/usr/bin/env python3
"""Writes the OSRA fixtures under osra/: clip images of RDKit drawings
(clips/, PNG and one TIFF, named like CLEF-IP clips), the gold MOL files
RDKit drew them from (gold/), what the real OSRA recognizer read from each
clip (runs/osra/, `osra -f mol`; an empty file when OSRA found nothing or aborted), and
expected/osra.json with the outcome RDKit's InChIs give for every pair.

Run: python3 goldens/recognition/make_osra.py (needs rdkit and the Debian
package osra). Tests only read the files written here.
"""

import os
import shutil
import subprocess
import sys

from PIL import Image
from rdkit import Chem
from rdkit.Chem import AllChem, Draw

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rdkit_common import outcome, rdkit_inchi, write_expected  # noqa: E402

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)))
ROOT = os.path.join(HERE, "osra")

MOLECULES = [
    "CC(=O)Oc1ccccc1C(=O)O",  # aspirin
    "Cn1cnc2c1c(=O)n(C)c(=O)n2C",  # caffeine
    "C[C@H](N)C(=O)O",  # L-alanine
    "CC(C)Cc1ccc(cc1)C(C)C(=O)O",  # ibuprofen
    "CC(=O)Nc1ccc(O)cc1",  # paracetamol
    "OC(=O)/C=C/c1ccccc1",  # (E)-cinnamic acid
    "CN1CCC[C@H]1c1cccnc1",  # nicotine
    "[O-]C(=O)c1ccccc1.[Na+]",  # sodium benzoate
    "Clc1ccc(Br)cc1",
    "C#Cc1ccccc1",
    "C[C@]12CC[C@H]3[C@@H](CCC4=CC(=O)CC[C@@]34C)[C@@H]1CC[C@@H]2O",  # testosterone
    "NS(=O)(=O)c1ccc(N)cc1",  # sulfanilamide
    "C/C=C\\C(=O)O",  # isocrotonic acid
    "O[C@@H]1CCCC[C@H]1N",
    "C[C@@H](O)c1ccccc1",
    "OC[C@H]1OC(O)[C@H](O)[C@@H](O)[C@@H]1O",  # glucose
    "Cc1ccc(C)c(O)c1",
    "CCOC(=O)c1ccc(N)cc1",  # benzocaine
]
# Drawn without wedges: the clip shows no stereo, the gold has it.
NO_WEDGES = ["C[C@H](N)c1ccccc1", "N[C@@H](Cc1ccccc1)C(=O)O"]


def clip_name(k):
    """A CLEF-IP clip name: doc id without dashes, page, x, y, clip number."""
    return f"EP{1000000 + 17 * k}A1_p{1 + k % 3:04d}_x{120 + 40 * k:04d}_y{300 + 25 * k:04d}_c{k + 1:05d}"


def main():
    for sub in ("gold", "clips", os.path.join("runs", "osra")):
        shutil.rmtree(os.path.join(ROOT, sub), ignore_errors=True)
        os.makedirs(os.path.join(ROOT, sub))
    rows = []
    smiles_list = MOLECULES + [None] + NO_WEDGES  # None: a clip with no structure
    items = [(clip_name(k), s) for k, s in enumerate(smiles_list)]
    for k, (name, smiles) in enumerate(items):
        png = os.path.join(ROOT, "clips", name + ".png")
        if smiles is None:
            Image.new("RGB", (300, 300), "white").save(png)
            gold = Chem.MolToMolBlock(Chem.MolFromSmiles("c1ccccc1"))
        else:
            mol = Chem.MolFromSmiles(smiles)
            AllChem.Compute2DCoords(mol)
            Draw.MolToFile(mol, png, size=(350, 300), wedgeBonds=smiles not in NO_WEDGES)
            gold = Chem.MolToMolBlock(mol)
        with open(os.path.join(ROOT, "gold", name + ".mol"), "w") as f:
            f.write(gold)
        # OSRA aborts on a blank clip: its (empty) output is the submission.
        read = subprocess.run(["osra", "-f", "mol", png], capture_output=True, text=True,
                              check=False).stdout
        if k == 1:  # keep one clip as a 1-bit TIFF, as in the patent data
            tif = png[:-4] + ".tif"
            Image.open(png).convert("1").save(tif, compression="group4")
            os.remove(png)
        with open(os.path.join(ROOT, "runs", "osra", name + ".mol"), "w") as f:
            f.write(read)
        g, r = rdkit_inchi(gold), rdkit_inchi(read)
        rows.append((name, outcome(g, r, True), g, r))
    write_expected(os.path.join(HERE, "expected", "osra.json"), rows)
    for name, o, _, _ in sorted(rows):
        print(name, o)


if __name__ == "__main__":
    main()
