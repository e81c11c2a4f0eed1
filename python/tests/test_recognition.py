"""Recognition: the folder function against the command's JSON on the
goldens, pairs of texts in worker processes and in-process against the
command's structures, InChIs known from the literature on hand-written
MOL texts, and a crashing or hanging worker costing its structure alone."""

import pathlib
import stat

import pytest

import clefeval

from conftest import binary

GOLD = "goldens/recognition/gold"
RUN = "goldens/recognition/runs/handmade"


def test_folders_give_the_commands_json(cli):
    expected = cli("recognition", "--gold", GOLD, "--run", RUN)
    assert clefeval.recognition(GOLD, RUN, jobs=2, worker=binary()) == expected


def pairs_of_the_goldens():
    gold = sorted(pathlib.Path(GOLD).iterdir())
    runs = {p.stem: p for p in pathlib.Path(RUN).iterdir()}
    return [(g, runs.get(g.stem)) for g in gold]


@pytest.mark.parametrize("inchi", ["workers", "in-process"])
def test_pairs_of_texts_give_the_commands_structures(cli, inchi):
    expected = cli("recognition", "--gold", GOLD, "--run", RUN)["runs"][0]["structures"]
    pairs = pairs_of_the_goldens()
    assert [g.stem for g, _ in pairs] == [s["name"] for s in expected]
    texts = [{"gold_text": g.read_bytes()} | ({} if r is None else {"run_text": r.read_bytes()})
             for g, r in pairs]
    got = clefeval.recognize_many(texts, inchi=inchi, jobs=2, worker=binary())
    assert got == [{k: v for k, v in s.items() if k != "name"} for s in expected]
    # Paths read as the command reads files, plain strings as paths too.
    assert clefeval.recognize_many(pairs, inchi=inchi, worker=binary()) == got
    as_strings = [(str(g), None if r is None else str(r)) for g, r in pairs]
    assert clefeval.recognize_many(as_strings, inchi=inchi, worker=binary()) == got


ETHANOL = """
  hand

  3  2  0  0  0  0  0  0  0  0999 V2000
    0.0000    0.0000    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0
    1.2990    0.7500    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0
    2.5981    0.0000    0.0000 O   0  0  0  0  0  0  0  0  0  0  0  0
  1  2  1  0
  2  3  1  0
M  END
"""
# The same atoms bonded C-O-C: dimethyl ether, same formula.
DIMETHYL_ETHER = ETHANOL.replace("  1  2  1  0\n  2  3  1  0", "  1  3  1  0\n  2  3  1  0")
METHANOL = """
  hand

  2  1  0  0  0  0  0  0  0  0999 V2000
    0.0000    0.0000    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0
    1.2990    0.7500    0.0000 O   0  0  0  0  0  0  0  0  0  0  0  0
  1  2  1  0
M  END
"""


@pytest.mark.parametrize("inchi", ["workers", "in-process"])
def test_outcomes_of_hand_written_structures(inchi):
    def outcome(gold, run):
        return clefeval.recognize(gold_text=gold, run_text=run, inchi=inchi, worker=binary())

    same = outcome(ETHANOL, ETHANOL)
    assert same["outcome"] == "match"
    assert same["gold_inchi"] == same["run_inchi"] == "InChI=1S/C2H6O/c1-2-3/h3H,2H2,1H3"
    ether = outcome(ETHANOL, DIMETHYL_ETHER)
    assert ether["outcome"] == "formula"
    assert ether["run_inchi"] == "InChI=1S/C2H6O/c1-3-2/h1-2H3"
    assert outcome(ETHANOL, METHANOL)["outcome"] == "wrong"
    assert outcome(ETHANOL, None)["outcome"] == "missing"
    broken = outcome(ETHANOL, "not a MOL file")
    assert broken["outcome"] == "unreadable" and broken["reason"]
    manual = outcome(ETHANOL.replace(" O ", " * "), ETHANOL)
    assert manual["outcome"] == "manual" and "`*`" in manual["reason"]


MEASURES = "goldens/recognition/smiles/measures"


def test_smiles_files_give_the_commands_json(cli):
    gold, run = f"{MEASURES}/gold.smi", f"{MEASURES}/run.csv"
    expected = cli("recognition", "--gold", gold, "--run", run)
    assert clefeval.recognition(gold, run, jobs=2, worker=binary()) == expected
    assert expected["runs"][0]["summary"]["stereo_structures"] == 6
    chosen = cli("recognition", "--gold", gold, "--run", run, "--smiles-column", "SMILES")
    got = clefeval.recognition(gold, run, jobs=2, worker=binary(), smiles_column="SMILES")
    assert got == chosen and got["settings"]["smiles_column"] == "SMILES"


@pytest.mark.parametrize("inchi", ["workers", "in-process"])
def test_smiles_are_named_texts_and_plain_strings_stay_paths(inchi):
    def score(**sides):
        return clefeval.recognize(**sides, inchi=inchi, worker=binary())

    # L- against D-alanine: the stereo layer differs first.
    d = score(gold_smiles="N[C@@H](C)C(=O)O", run_smiles="N[C@H](C)C(=O)O")
    assert (d["outcome"], d["first_difference"], d["match_ignoring_stereo"]) == \
        ("stereo", "stereo", True)
    assert d["gold_smiles"] == "N[C@@H](C)C(=O)O"
    # A SMILES against a MOL text of the same molecule.
    same = score(gold_text=ETHANOL, run_smiles="OCC")
    assert same["outcome"] == "match" and "gold_smiles" not in same
    refused = score(gold_smiles="CCO", run_smiles="C1CC")
    assert (refused["outcome"], refused["reason"]) == \
        ("unreadable", "character 2: ring bond 1 never closed")
    assert score(gold_smiles="CCO", run_smiles="")["reason"] == "empty"
    many = clefeval.recognize_many([{"gold_smiles": "CCO", "run_smiles": "OCC"},
                                    {"gold_smiles": "CCO"}], inchi=inchi, worker=binary())
    assert [r["outcome"] for r in many] == ["match", "missing"]
    with pytest.raises(TypeError, match="give one of gold, gold_text and gold_smiles"):
        score(gold="a.mol", gold_smiles="CCO")
    with pytest.raises(TypeError, match="gold_smiles is a SMILES"):
        score(gold_smiles=b"CCO")
    assert score(gold_smiles="CCO", run_smiles="  ")["reason"] == "empty"
    # A plain str is a path, never a SMILES; a table is no one structure.
    with pytest.raises(clefeval.InputError):
        score(gold="CCO", run_smiles="CCO")
    with pytest.raises(clefeval.InputError, match="a SMILES file, not one structure"):
        score(gold=f"{MEASURES}/gold.smi", run_smiles="CCO")


def fake_worker(tmp_path, body):
    path = tmp_path / "fake-clefeval"
    path.write_text("#!/bin/sh\n" + body + "\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def test_a_dying_worker_costs_its_structure_alone(tmp_path):
    r = clefeval.recognize(gold_text=ETHANOL, run_text=ETHANOL, worker=fake_worker(tmp_path, "exit 3"))
    assert r["outcome"] == "manual"  # the gold conversion failed too
    assert "died" in r["reason"]


def test_a_hanging_worker_is_stopped_at_the_timeout(tmp_path):
    r = clefeval.recognize(gold_text=ETHANOL, timeout=0.2, worker=fake_worker(tmp_path, "exec sleep 30"))
    assert r["outcome"] == "manual"
    assert "timeout" in r["reason"]


def test_the_worker_is_found(monkeypatch):
    monkeypatch.setenv(clefeval.BINARY_VARIABLE, "/y/clefeval")
    assert clefeval.worker_command("/x/clefeval") == ["/x/clefeval", "inchi-worker"]
    assert clefeval.worker_command() == ["/y/clefeval", "inchi-worker"]


def test_the_python_worker_converts_as_the_binary_does(monkeypatch):
    monkeypatch.delenv(clefeval.BINARY_VARIABLE, raising=False)
    monkeypatch.setattr(clefeval, "_installed_binary", lambda: None)
    assert clefeval.worker_command()[1:] == ["-m", "clefeval._worker"]
    r = clefeval.recognize(gold_text=ETHANOL, run_text=DIMETHYL_ETHER)
    assert (r["outcome"], r["gold_inchi"]) == ("formula", "InChI=1S/C2H6O/c1-2-3/h3H,2H2,1H3")


def test_a_binary_on_path_serves_when_its_version_matches(monkeypatch, tmp_path):
    monkeypatch.delenv(clefeval.BINARY_VARIABLE, raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr(clefeval.sysconfig, "get_path", lambda _: str(tmp_path / "none"))
    binary = tmp_path / "clefeval"
    for version, found in ((clefeval.__version__, [str(binary), "inchi-worker"]),
                           ("0.0.0-other", None)):
        binary.write_text(f"#!/bin/sh\necho clefeval {version}\n")
        binary.chmod(0o755)
        clefeval._installed_binary.cache_clear()
        command = clefeval.worker_command()
        if found:
            assert command == found
        else:
            assert command[1:] == ["-m", "clefeval._worker"]
    clefeval._installed_binary.cache_clear()
