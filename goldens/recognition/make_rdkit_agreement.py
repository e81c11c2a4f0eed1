#!/usr/bin/env python3
"""Writes rdkit/agreement.sdf: real molecules as MOL records, each with
RDKit's Standard InChI in the data field RDKIT_INCHI (every fifth record is
V3000). tests/recognition_rdkit.rs checks that our InChI of every record
equals RDKit's.

Molecules (deterministic, all shipped with RDKit's Python package):
- the first 200 SMILES of the NCI sample rdkit/Data/NCI/first_5K.smi (no
  stereo marks in that file), 2D coordinates from RDKit;
- the first 100 molecules of rdkit/Contrib/PBF/testData/egfr.sdf with
  defined stereo centres or double bonds: 80 redrawn in 2D with wedges, 20
  with their original 3D coordinates (stereo from 3D).
Molecules RDKit gives no InChI for are skipped.

Run: python3 goldens/recognition/make_rdkit_agreement.py (needs rdkit).
"""

import os

from rdkit import Chem, RDConfig, RDLogger, rdBase
from rdkit.Chem import AllChem, inchi

RDLogger.DisableLog("rdApp.*")
HERE = os.path.dirname(os.path.abspath(__file__))
NCI = os.path.join(RDConfig.RDDataDir, "NCI", "first_5K.smi")
EGFR = os.path.join(RDConfig.RDContribDir, "PBF", "testData", "egfr.sdf")


def nci():
    with open(NCI) as f:
        for line in f:
            smiles, ident = line.split()[:2]
            mol = Chem.MolFromSmiles(smiles)
            if mol is not None:
                AllChem.Compute2DCoords(mol)
                yield "NCI " + ident, mol


def has_stereo(mol):
    return Chem.FindMolChiralCenters(mol, includeUnassigned=False) or any(
        b.GetStereo() > Chem.BondStereo.STEREOANY for b in mol.GetBonds()
    )


def egfr():
    supplier = Chem.SDMolSupplier(EGFR, removeHs=False)
    for i, mol in enumerate(supplier):
        if mol is not None and has_stereo(mol):
            yield f"egfr.sdf record {i + 1}", mol


def take(source, n, keep=lambda mol: True):
    out = []
    for ident, mol in source:
        if len(out) == n:
            break
        if keep(mol):
            out.append((ident, mol))
    return out


def records():
    chosen = take(nci(), 200)
    stereo = take(egfr(), 100)
    for ident, mol in stereo[:80]:
        flat = Chem.RemoveHs(mol)
        flat.RemoveAllConformers()
        AllChem.Compute2DCoords(flat)
        chosen.append((ident + " (2D)", flat))
    chosen += [(ident + " (3D)", mol) for ident, mol in stereo[80:]]
    for k, (ident, mol) in enumerate(chosen):
        if mol.GetNumConformers() and not mol.GetConformer().Is3D():
            Chem.WedgeMolBonds(mol, mol.GetConformer())
        block = Chem.MolToV3KMolBlock(mol) if k % 5 == 4 else Chem.MolToMolBlock(mol)
        again = Chem.MolFromMolBlock(block, removeHs=False)
        value = inchi.MolToInchi(again) if again is not None else ""
        if value:
            yield ident, block, value


def main():
    out = os.path.join(HERE, "rdkit", "agreement.sdf")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    n = 0
    with open(out, "w") as f:
        for ident, block, value in records():
            lines = block.split("\n")
            lines[0] = ident
            f.write("\n".join(lines))
            f.write(f"> <RDKIT_INCHI>\n{value}\n\n$$$$\n")
            n += 1
    print(f"{n} records written to {out} (RDKit {rdBase.rdkitVersion}, "
          f"InChI {inchi.GetInchiVersion()})")


if __name__ == "__main__":
    main()
