#!/usr/bin/env python3
"""Writes smiles/rdkit_cases.tsv: SMILES, each with what RDKit makes of it
(`MolToInchi(MolFromSmiles(s))`). tests/recognition_smiles.rs checks that
clefeval's SMILES reader gives the same Standard InChI, or refuses the same
SMILES.

Columns: the SMILES; `inchi` (RDKit gave this InChI), `refused` (RDKit's
MolFromSmiles gave no molecule: syntax, valence or kekulization) or
`no-inchi` (a molecule, but no InChI: `*` atoms, the InChI library's
refusals); the InChI or RDKit's message; where the case comes from.

Cases (deterministic):
- hand-written ones for every feature of the syntax (organic subset and
  implicit hydrogens, brackets, charges, isotopes, explicit hydrogens, ring
  closures with `%nn` and `%(nnn)`, components, aromatic and Kekule forms,
  tetrahedral and double-bond stereo written in several orders) and invalid
  ones (syntax, valence, kekulization);
- the first 60 SMILES of RDKit's NCI sample (rdkit/Data/NCI/first_5K.smi),
  each as written there, in two random atom orders and in Kekule form;
- the first 40 molecules of rdkit/Contrib/PBF/testData/egfr.sdf with defined
  stereo, each as RDKit's isomeric SMILES and in two random atom orders (the
  stereo marks then fall on other atoms and neighbours).

Run: python3 goldens/recognition/make_smiles.py (needs rdkit).
"""

import os

from rdkit import Chem, RDConfig, RDLogger, rdBase
from rdkit.Chem import inchi

HERE = os.path.dirname(os.path.abspath(__file__))
NCI = os.path.join(RDConfig.RDDataDir, "NCI", "first_5K.smi")
EGFR = os.path.join(RDConfig.RDContribDir, "PBF", "testData", "egfr.sdf")

HANDWRITTEN = """
C organic subset, implicit hydrogens
CC ethane
CCO ethanol
OCC ethanol, other order
C=C ethene
C#C ethyne
C#N hydrogen cyanide
N ammonia
O water
S hydrogen sulfide
P phosphine
B borane
F hydrogen fluoride
Cl hydrogen chloride
Br hydrogen bromide
I hydrogen iodide
CS(=O)C dimethyl sulfoxide (S valence 4)
OS(=O)(=O)O sulfuric acid (S valence 6)
CP(=O)(O)O methylphosphonic acid (P valence 5)
OP(O)(O)=O phosphoric acid
ClCCl dichloromethane
C-C explicit single bond
C1CC1 cyclopropane
C1CCCCC1 cyclohexane
C1CC2CCC1C2 bicycle
C12CC1C2 two closures on one atom
C%10CC%10 two-digit closure
C%99CC%99 two-digit closure 99
C%(100)CC%(100) three-digit closure
C1CC%11CC1%11 mixed closures
C=1CC=1 bond order on both closure digits
C=1CC1 bond order on the opening digit
C1CC=1 bond order on the closing digit
C1.C1 closure across a dot
CC.O two components
[Na+].[Cl-] salt
OC(=O)C1CC1.[Na+] acid and a counter-ion
CC(=O)[O-].[Na+] sodium acetate
[NH4+] ammonium
[NH3+]C methylammonium
C[N+](C)(C)C tetramethylammonium
C[N+](=O)[O-] nitromethane, charge-separated
CN(=O)=O nitromethane, pentavalent nitrogen
[O-][N+](=O)c1ccccc1 nitrobenzene
[OH-] hydroxide
[H+] proton
[H] hydrogen atom
[H][H] hydrogen molecule
[2H]C deuteromethane
[2H][2H] deuterium
[13CH4] carbon-13 methane
[13CH3][OH] carbon-13 methanol
C[13CH2]O isotope in the chain
[18OH2] heavy water oxygen
[235U] uranium-235
[CH4] bracket methane
[CH3] methyl radical
[CH2] methylene
[CH3]C ethyl with bracket methyl
[C] bare carbon atom
[OH] hydroxyl radical
[O] oxygen atom
[Fe] iron
[Fe+2] iron(II)
[Fe++] iron(II), doubled sign
[Fe+3] iron(III)
[Cu+] copper(I)
[Zn+2].[Cl-].[Cl-] zinc chloride
[Na] sodium metal
[Cl-] chloride
[I-] iodide
[O-2] oxide
[NH2-] amide anion
[CH3-] methanide
[CH3+] methylium
[U] uranium
[Og] oganesson
[Uuo] oganesson by its former name
[Uun]C darmstadtium by its former name
[D] deuterium symbol (not read)
[Ts] tennessine
[Cn] copernicium
[Xe] xenon
[He] helium
F[Xe]F xenon difluoride
[SiH4] silane
[PH4+] phosphonium
[S-2] sulfide
[Se] selenium
[se]1cccc1 selenophene
c1cc[se]c1 selenophene, other order
[te]1cccc1 tellurophene
C[CH2:1]O atom map
[CH3:12]C atom map 12
c1ccccc1 benzene
C1=CC=CC=C1 benzene, Kekule
C1C=CC=CC=1 benzene, Kekule, other bonds
c1ccc2ccccc2c1 naphthalene
c1ccc2cc3ccccc3cc2c1 anthracene
c1ccncc1 pyridine
n1ccccc1 pyridine, starting at n
c1cc[nH]c1 pyrrole
[nH]1cccc1 pyrrole, starting at nH
c1ccoc1 furan
c1ccsc1 thiophene
c1cnc[nH]1 imidazole
c1ncc[nH]1 imidazole, other tautomer written
c1cc2ccccc2[nH]1 indole
c1ccc2[nH]ccc2c1 indole, other order
O=c1cc[nH]cc1 4-pyridone
Oc1ccncc1 4-hydroxypyridine
c1cc[n+](C)cc1 N-methylpyridinium
C[n+]1ccccc1 N-methylpyridinium, other order
[O-][n+]1ccccc1 pyridine N-oxide
c1cc[cH-]c1 cyclopentadienide
[cH-]1cccc1 cyclopentadienide, other order
c1cc[o+]cc1 pyrylium
c1ccc2c(c1)ccc1ccccc12 phenanthrene
c1ccc-2c(c1)-c1ccccc1-2 biphenylene
c1ccc2c(c1)c1ccccc1[nH]2 carbazole
Cn1cnc2c1c(=O)n(C)c(=O)n2C caffeine
CN1C=NC2=C1C(=O)N(C)C(=O)N2C caffeine, Kekule
c1ccc(cc1)c1ccccc1 biphenyl
c1ccc2ccc3cccc4ccc1c2c34 pyrene
c1cc2ccc3cccc4c3c2c(c1)cc4 pyrene, other order
c1ccc2cc1 benzene ring not closed
c1cccc1 five-ring of aromatic carbons (no Kekule form)
c1ccccc ring bond never closed
n1cccc1 pyrrole without its H (no Kekule form)
c1ccncc1C aromatic ring with a methyl
Cc1ccccc1 toluene
c1ccccc1C toluene, methyl last
c1ccccc1-c1ccccc1 biphenyl with explicit single bond
C/C=C/C trans-2-butene
C/C=C\\C cis-2-butene
C\\C=C\\C trans-2-butene, both down
C\\C=C/C cis-2-butene, other marks
C(/C)=C/C trans-2-butene, mark in a branch
C(\\C)=C/C cis-2-butene, mark in a branch
F/C=C/F trans-difluoroethene
F/C=C\\F cis-difluoroethene
F\\C=C/F cis-difluoroethene, other marks
C/C=C/C=C/C two stereo double bonds
C/C=C/C=C\\C two stereo double bonds, one cis
F/C=C/Cl trans-chlorofluoroethene
Cl/C=C(/F)C mark on a branch of the far end
Cl/C=C(\\F)C other mark on a branch of the far end
C/C=C(/C)C no stereo: two equal substituents
CC=CC 2-butene without stereo
C/C=C/1.Cl1 mark on a closure digit, ring of one bond across a dot
C/1=C/C.Cl1 mark on the opening digit
F/C=C/C1CC1 stereo bond beside a ring
C1CCC/C=C/CCC1 trans-cyclononene
C1CCC/C=C\\CCC1 cis-cyclononene
C1CC/C=C/CC1 trans in a seven-ring
N[C@@H](C)C(=O)O L-alanine
N[C@H](C)C(=O)O D-alanine
C[C@H](N)C(=O)O L-alanine, other order
C[C@@H](C(=O)O)N L-alanine, another order
OC(=O)[C@@H](N)C L-alanine, acid first
[C@@H](N)(C)C(=O)O chiral atom first
[C@H](C)(N)C(=O)O chiral atom first, other neighbour order
[H][C@](N)(C)C(=O)O explicit hydrogen atom before the centre
N[C@](C)([H])C(=O)O explicit hydrogen atom as a branch
N[C@@](C)(C(=O)O)[H] explicit hydrogen atom last
F[C@H](Cl)Br bromochlorofluoromethane
F[C@@H](Cl)Br bromochlorofluoromethane, other hand
Br[C@H](Cl)F bromochlorofluoromethane, reversed
F[C@](Cl)(Br)I four heavy neighbours
F[C@@](Cl)(Br)I four heavy neighbours, other hand
I[C@](F)(Cl)Br four heavy neighbours, rotated
C[C@@]1(O)CCCC1N ring closure after the centre
C[C@]12CCC(CC1)C2 closures on a centre (not a stereocentre)
C1CC[C@H]2CCCC[C@@H]2C1 trans-decalin
C1CC[C@H]2CCCC[C@H]2C1 cis-decalin
[C@@H]12CCCC[C@H]1CCCC2 decalin, centres first
O[C@H]1CC[C@@H](C)CC1 ring stereo, 1,4-substituted cyclohexane
O[C@H]1CC[C@H](C)CC1 ring stereo, other
C[C@H]1CCCC[C@@H]1C ring stereo, 1,2-dimethylcyclohexane
C[C@@H](O)[C@H](C)O meso butanediol
C[C@@H](O)[C@@H](C)O chiral butanediol
C[C@@H](Cl)C non-stereo centre marked
C[C@TH1H](O)CC @TH1
C[C@TH2H](O)CC @TH2
C[S@](=O)c1ccccc1 sulfoxide, stereo on sulfur
C[S@@](=O)c1ccccc1 sulfoxide, other hand
C[P@](=O)(O)c1ccccc1 phosphonate centre
N[C@@H](CC1=CC=CC=C1)C(O)=O phenylalanine, Kekule
C[C@H]1C[C@@H](O)[C@H](N)C1 three centres in a ring
C[C@H]([2H])O isotope makes the centre
[2H][C@@H](C)O isotope first
F/C=C/[C@H](O)C double bond and centre
C(C)(C)(C)(C)C carbon with five bonds
CN(C)(C)C nitrogen with four bonds, neutral
O(C)(C)C oxygen with three bonds, neutral
[CH5] bracket carbon with five
FF(F) fluorine with two bonds
C(=O)=O carbon dioxide
O=C=O carbon dioxide, other order
[NH4] ammonium without its charge
C1CC trailing closure
C(C unclosed branch
C)C unexpected close
CC(C)) extra close
C==C two bond symbols
C=#C two bond symbols, different
C=.C bond before a dot
C. trailing dot
.C leading dot
C..C two dots
C[ unclosed bracket
C[C unclosed bracket
[C+ unclosed bracket with charge
[Xx] unknown element
[cH4] aromatic methane
X unknown organic symbol
Ca calcium outside a bracket
cc aromatic chain (no ring)
c aromatic lone atom
C1CC11 closure on its own atom
C1CC1C1 reused closure digit, left open
C% percent without digits
C%1CC%1 percent with one digit
C%(1000)CC%(1000) four-digit closure in parentheses
C$C quadruple bond
C->[Fe] dative bond
[C@@@H](F)(Cl)Br three at signs
[CH-2] methylene dianion
[N+5] nitrogen charge five
[C+10] charge ten
[14C] carbon-14 atom
[0C] isotope zero
* a wildcard atom
C* methyl and a wildcard
[*] bracketed wildcard
[R] unknown bracket symbol R
C.C.C.C four components
CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC long chain
C1CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC1 large ring
OCC(O)C(O)C(O)C(O)C=O glucose open chain
OC[C@H]1OC(O)[C@H](O)[C@@H](O)[C@@H]1O glucose ring
OC[C@H]1O[C@@H](O)[C@H](O)[C@@H](O)[C@@H]1O beta-glucose
CC(=O)Oc1ccccc1C(=O)O aspirin
CC(C)Cc1ccc(cc1)[C@@H](C)C(=O)O ibuprofen
CN1CCC[C@H]1c1cccnc1 nicotine
C[C@]12CC[C@H]3[C@@H](CCc4cc(O)ccc34)[C@@H]1CC[C@@H]2O estradiol
C[C@@]12CC[C@@H](C1)C2 both bridgeheads marked
C[C@H]1CC[C@@H](C)CC1 trans-1,4-dimethylcyclohexane
C[C@H]1CC[C@H](C)CC1 cis-1,4-dimethylcyclohexane
C[C@H]1CCCCC1 methylcyclohexane, centre on a symmetric ring
C[C@H]1CC[C@@H](C)C1 1,3-dimethylcyclopentane
OC[C@@H](O)CO glycerol, centre with two equal arms
F[C@H]1C[C@@H]1F trans-1,2-difluorocyclopropane
F[C@H]1C[C@H]1F cis-1,2-difluorocyclopropane
C1C[C@H]2CC[C@@H]1C2 norbornane, both bridgeheads marked
[C@H](Cl)(F)Br hydrogen first
[C@@H](Cl)(F)Br hydrogen first, other hand
Cl[C@@](F)(Br)[H] explicit hydrogen last
C/C(F)=C(\F)/C tetrasubstituted double bond
F/C(/Cl)=C/F two marks on one end, agreeing
C(\F)(/Cl)=C/F two marks on one end, branches
C[S@@](=O)CC sulfoxide, two alkyls
O=[S@@](C)c1ccccc1 sulfoxide, oxygen first
[S@@](=O)(C)c1ccccc1 sulfoxide, centre first
CC[S@](=O)c1ccc(C)cc1 sulfoxide, tolyl
C[P@@](=O)(CC)c1ccccc1 phosphine oxide centre
C[N@+](CC)(CCC)CCCC quaternary nitrogen centre
[O+] bare oxonium
[OH3+] hydronium
[BH4-] borohydride
[B-](F)(F)(F)F tetrafluoroborate
[AlH4-] aluminium hydride anion
C[N-]C dimethylamide anion
[N-]=[N+]=N hydrazoic acid, charge-separated
N=N#N hydrazoic acid, pentavalent
CN=N#N methyl azide, pentavalent
CN=[N+]=[N-] methyl azide, charge-separated
O=N(=O)c1ccccc1 nitrobenzene, pentavalent
O=n1ccccc1 pyridine N-oxide, pentavalent aromatic
CC=P(=O)C phosphorus ylide oxide
OCl(=O)(=O)=O perchloric acid
[O-]Cl(=O)(=O)=O perchlorate
O=I(=O)O iodic acid
OBr=O bromous acid
[O-][I+2]([O-])O iodic acid, charge-separated
CS(C)(C)(C)(C)C hexamethyl sulfur
[SH6] sulfur hexahydride
[PH5] phosphorane
FP(F)(F)(F)F phosphorus pentafluoride
F[S-](F)(F)(F)F pentafluorosulfanide
[CH2]C ethyl radical written with a bracket carbon
C[O] methoxyl radical
[N] nitrogen atom
[CH] methylidyne
[Na+].[O-]C sodium methoxide
[n-]1cccc1 pyrrolide
c1cc[n-]c1 pyrrolide, other order
[c-]1cccc1 cyclopentadienide without its hydrogen written
C1=CC=C[CH-]1 cyclopentadienide, Kekule
O=s1cccc1 thiophene oxide
c1cc[bH-]cc1 boratabenzene
b1ccccc1 borabenzene
[as]1cccc1 arsole
[13cH]1ccccc1 carbon-13 in an aromatic ring
C1=CC=CN1 pyrrole, Kekule
c1cc2cccccc2c1 azulene
c1ncc2[nH]cnc2n1 purine
c1ccc2c(c1)[nH]c1ccccc12 carbazole, other order
c1ccc2c(c1)oc1ccccc12 dibenzofuran
c1csc(n1)N 2-aminothiazole
Cc1nnc(o1)C 2,5-dimethyl-1,3,4-oxadiazole
c1ccc2ncccc2c1 quinoline
c1ccc2cnccc2c1 isoquinoline
c12ccccc1cccc2 naphthalene, closures first
[2H+] deuteron
[H-] hydride
[HH] hydrogen with a hydrogen count
[H]C([H])([H])[H] methane, every hydrogen an atom
[2H]C([2H])([2H])[2H] tetradeuteromethane
[CH3:0]C atom map zero
C%(0)CC%(0) ring number zero in parentheses
C(.C)C dot inside a branch
1CC1 ring number before any atom
C=1CC-1 ring bond given two different orders
C/1CC\1 ring bond given two directions
C12CC12 two ring bonds doubling a bond
C1CC1=1 ring number reused on its own atom
[C@H] marked atom alone
[C@@H](C)(C)C marked atom, three equal methyls
C[C@]([H])(F)Cl explicit hydrogen in a branch
C(F)(Cl)(Br)I no marks on a stereocentre
CC(C)(C)[C@@H](O)C marked centre, tert-butyl
O[C@@H]1[C@@H](O)[C@H](O)[C@@H](O)[C@H](O)[C@H]1O inositol
C[C@H]1O[C@H](C)O[C@H](C)O1 paraldehyde
"""


def cases():
    for line in HANDWRITTEN.strip().split("\n"):
        smiles, _, note = line.partition(" ")
        yield smiles, "hand-written: " + note
    with open(NCI) as f:
        for line in list(f)[:60]:
            smiles, ident = line.split()[:2]
            yield smiles, f"NCI {ident}"
            mol = Chem.MolFromSmiles(smiles)
            if mol is None:
                continue
            for k, s in enumerate(Chem.MolToRandomSmilesVect(mol, 2, randomSeed=7)):
                yield s, f"NCI {ident}, random order {k + 1}"
            kekule = Chem.Mol(mol)
            Chem.Kekulize(kekule, clearAromaticFlags=True)
            yield Chem.MolToSmiles(kekule, kekuleSmiles=True), f"NCI {ident}, Kekule"
    taken = 0
    for i, mol in enumerate(Chem.SDMolSupplier(EGFR)):
        if taken == 40:
            break
        if mol is None:
            continue
        centres = Chem.FindMolChiralCenters(mol, includeUnassigned=False)
        bonds = [b for b in mol.GetBonds() if b.GetStereo() > Chem.BondStereo.STEREOANY]
        if not centres and not bonds:
            continue
        taken += 1
        yield Chem.MolToSmiles(mol), f"egfr.sdf record {i + 1}"
        for k, s in enumerate(Chem.MolToRandomSmilesVect(mol, 2, randomSeed=11)):
            yield s, f"egfr.sdf record {i + 1}, random order {k + 1}"


def rdkit(smiles):
    """RDKit's verdict on one SMILES: (status, InChI or message)."""
    mol = Chem.MolFromSmiles(smiles)
    if mol is None:
        return "refused", ""
    value = inchi.MolToInchi(mol)
    if not value:
        return "no-inchi", ""
    return "inchi", value


def main():
    RDLogger.DisableLog("rdApp.*")
    seen = set()
    rows = []
    for smiles, note in cases():
        if smiles in seen:
            continue
        seen.add(smiles)
        status, value = rdkit(smiles)
        rows.append(f"{smiles}\t{status}\t{value}\t{note}")
    os.makedirs(os.path.join(HERE, "smiles"), exist_ok=True)
    path = os.path.join(HERE, "smiles", "rdkit_cases.tsv")
    with open(path, "w") as f:
        f.write(f"# RDKit {rdBase.rdkitVersion}, InChI {inchi.GetInchiVersion()}; "
                "written by make_smiles.py\n")
        f.write("\n".join(rows) + "\n")
    print(f"{len(rows)} cases written to {path}")


if __name__ == "__main__":
    main()
