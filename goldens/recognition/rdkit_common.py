"""Shared helpers of the fixture scripts: RDKit's Standard InChI of a MOL
block and the outcome rules of docs/metrics.md, written independently of the Rust
code so that the expected outcomes are a real cross-check."""

import json
import os

from rdkit import Chem, RDLogger, rdBase
from rdkit.Chem import inchi

RDLogger.DisableLog("rdApp.*")

STEREO_LAYERS = ("b", "t", "m", "s")


def rdkit_inchi(molblock):
    """RDKit's Standard InChI of a MOL block, or None when there is none."""
    if not molblock or not molblock.strip():
        return None
    mol = Chem.MolFromMolBlock(molblock, sanitize=True, removeHs=False)
    if mol is None:
        return None
    for atom in mol.GetAtoms():
        if atom.GetAtomicNum() == 0:
            return None  # R-groups and '*' atoms have no InChI
        if atom.HasProp("molFileAlias"):
            return None  # the drawn structure is the alias text
    value = inchi.MolToInchi(mol)
    return value or None


def without_stereo(value):
    prefix, _, rest = value.partition("/")
    layers = [l for l in rest.split("/") if not l.startswith(STEREO_LAYERS)]
    return "/".join([prefix] + layers)


def formula(value):
    return value.split("/")[1]


def outcome(gold, run, run_exists):
    """The outcome (docs/metrics.md) from the two InChIs (None = no InChI)."""
    if gold is None:
        return "manual"
    if not run_exists:
        return "missing"
    if run is None:
        return "unreadable"
    if gold == run:
        return "match"
    if without_stereo(gold) == without_stereo(run):
        return "stereo"
    if formula(gold) == formula(run):
        return "formula"
    return "wrong"


def write_expected(path, rows):
    """rows: (name, outcome, gold_inchi, run_inchi), written sorted by name."""
    rows = sorted(rows)
    data = {
        "made_by": "RDKit " + rdBase.rdkitVersion + ", InChI " + inchi.GetInchiVersion(),
        "structures": [
            {"name": n, "outcome": o, "gold_inchi": g, "run_inchi": r} for n, o, g, r in rows
        ],
    }
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump(data, f, indent=1)
        f.write("\n")
