#!/usr/bin/env python3
"""Writes the hand-made recognition fixtures: gold MOL files in gold/, one
submission per case in runs/handmade/, and expected/handmade.json with the
outcome RDKit's InChI gives for every pair (checked against the outcome each
case was built for, the prefix of its name).

Run from anywhere: python3 goldens/recognition/make_handmade.py (needs rdkit).
"""

import os
import random
import shutil
import sys

from rdkit import Chem
from rdkit.Chem import AllChem

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rdkit_common import outcome, rdkit_inchi, write_expected  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
GOLD = os.path.join(HERE, "gold")
RUN = os.path.join(HERE, "runs", "handmade")


def mol2d(smiles):
    mol = Chem.MolFromSmiles(smiles)
    AllChem.Compute2DCoords(mol, canonOrient=True)
    Chem.WedgeMolBonds(mol, mol.GetConformer())
    return mol


def block(mol, **kw):
    return Chem.MolToMolBlock(mol, **kw)


def shuffled(mol, seed):
    order = list(range(mol.GetNumAtoms()))
    random.Random(seed).shuffle(order)
    return Chem.RenumberAtoms(mol, order)


def with_symbol(molblock, index, symbol, extra=""):
    """Replaces the element symbol of atom `index` (0-based) in a V2000 block
    and appends property lines before M  END."""
    lines = molblock.split("\n")
    line = lines[4 + index]
    lines[4 + index] = line[:31] + symbol.ljust(3) + line[34:]
    text = "\n".join(lines)
    return text.replace("M  END", extra + "M  END") if extra else text


def either_double_bonds(molblock):
    """Marks every double bond of a V2000 block as 'cis or trans either' (3)."""
    lines = molblock.split("\n")
    natoms, nbonds = int(lines[3][0:3]), int(lines[3][3:6])
    for i in range(4 + natoms, 4 + natoms + nbonds):
        if lines[i][6:9].strip() == "2":
            lines[i] = lines[i][:9] + "  3" + lines[i][12:]
    return "\n".join(lines)


def cases():
    ibuprofen = mol2d("CC(C)Cc1ccc(cc1)C(C)C(=O)O")
    cresol_p = mol2d("Cc1ccc(O)cc1")
    caffeine = mol2d("Cn1cnc2c1c(=O)n(C)c(=O)n2C")
    glycolamide = mol2d("OCC(=O)N")
    alanine_l = mol2d("C[C@H](N)C(=O)O")
    alanine_d = mol2d("C[C@@H](N)C(=O)O")
    crotonic = mol2d("C/C=C/C(=O)O")
    acetate = mol2d("[13CH3]C(=O)[O-].[Na+]")
    methylpyridine = mol2d("Cc1ccccn1")
    sdf = "".join(
        block(m) + "> <NAME>\n" + name + "\n\n$$$$\n"
        for m, name in [(caffeine, "caffeine"), (ibuprofen, "ibuprofen")]
    )
    rgroup = with_symbol(block(mol2d("CCC(=O)O")), 0, "R#", "M  RGP  1   1   1\n")
    star = with_symbol(block(mol2d("CCC(=O)O")), 0, "*")
    # Markush abuse: the methyl carbon of toluene drawn as the alias "R1".
    alias = block(mol2d("Cc1ccccc1")).replace("M  END", "A    1\nR1\nM  END")
    counts999 = block(mol2d("CCO")).replace("  3  2  0", "999  2  0", 1)
    return [
        # (name, gold MOL, submitted MOL or None when missing)
        ("match_shuffled", block(ibuprofen), block(shuffled(ibuprofen, 7))),
        ("match_aromatic", block(cresol_p), block(cresol_p, kekulize=False)),
        ("match_explicit_h", block(glycolamide),
         block(Chem.AddHs(glycolamide, addCoords=True))),
        ("match_v3000", block(caffeine), Chem.MolToV3KMolBlock(shuffled(caffeine, 3))),
        ("match_sdf_first_record", block(caffeine), sdf),
        ("match_charge_isotope", block(acetate), block(shuffled(acetate, 5))),
        ("stereo_flipped_centre", block(alanine_l), block(alanine_d)),
        ("stereo_removed_ez", block(crotonic), either_double_bonds(block(crotonic))),
        ("formula_moved_substituent", block(mol2d("Cc1ccccc1O")), block(cresol_p)),
        ("wrong_changed_element", block(mol2d("Cc1ccccc1")), block(methylpyridine)),
        ("manual_rgroup", rgroup, block(mol2d("CCC(=O)O"))),
        ("manual_star_atom", star, block(mol2d("CCC(=O)O"))),
        ("manual_alias", alias, block(mol2d("Cc1ccccc1"))),
        ("unreadable_empty", block(cresol_p), ""),
        ("unreadable_garbage", block(caffeine), "this is not a MOL file\n\x01\x02 junk\n"),
        ("unreadable_counts_999", block(mol2d("CCO")), counts999),
        ("missing_file", block(ibuprofen), None),
    ]


def main():
    for folder in (GOLD, RUN):
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
    rows = []
    for name, gold, run in cases():
        with open(os.path.join(GOLD, name + ".mol"), "w") as f:
            f.write(gold)
        if run is not None:
            ext = ".sdf" if "$$$$" in run else ".mol"
            with open(os.path.join(RUN, name + ext), "w") as f:
                f.write(run)
        g = rdkit_inchi(gold)
        r = rdkit_inchi(run.split("$$$$")[0]) if run is not None else None
        got = outcome(g, r, run is not None)
        want = name.split("_")[0]
        if got != want:
            sys.exit(f"{name}: RDKit says {got}, the case was built for {want}")
        rows.append((name, got, g, r))
    write_expected(os.path.join(HERE, "expected", "handmade.json"), rows)
    print(f"{len(rows)} cases written, every RDKit outcome as built")


if __name__ == "__main__":
    main()
