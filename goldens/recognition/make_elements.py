#!/usr/bin/env python3
"""Writes src/recognition/smiles/elements.rs: per element (atomic numbers
1-118) its symbol, its allowed valences, its number of outer electrons and
its most common isotope's mass number, as RDKit's periodic table gives them.
The SMILES reader follows RDKit's valence model with this table.

Run: python3 goldens/recognition/make_elements.py (needs rdkit).
"""

import os

from rdkit import Chem, rdBase

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.normpath(os.path.join(HERE, "..", "..", "src", "recognition", "smiles", "elements.rs"))


def main():
    table = Chem.GetPeriodicTable()
    lines = [
        "//! The elements as RDKit's periodic table gives them (RDKit "
        f"{rdBase.rdkitVersion}): symbol, allowed",
        "//! valences (`-1` alone: any), outer electrons. Written by",
        "//! goldens/recognition/make_elements.py; not edited by hand.",
        "",
        "/// One element: symbol, allowed valences (ascending; `[-1]` means any),",
        "/// number of outer electrons.",
        "pub struct Element {",
        "    pub symbol: &'static str,",
        "    pub valences: &'static [i32],",
        "    pub outer_electrons: i32,",
        "}",
        "",
        "/// Indexed by atomic number; index 0 is the wildcard `*`.",
        "pub const ELEMENTS: [Element; 119] = [",
    ]
    for z in range(0, 119):
        symbol = "*" if z == 0 else table.GetElementSymbol(z)
        valences = ", ".join(str(v) for v in table.GetValenceList(z))
        outer = table.GetNOuterElecs(z)
        lines.append(
            f'    Element {{ symbol: "{symbol}", valences: &[{valences}], '
            f"outer_electrons: {outer} }},"
        )
    lines.append("];")
    with open(OUT, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"written {OUT}")


if __name__ == "__main__":
    main()
