"""The test-only toy flowchart format (the ``toy-format`` feature, with
which tests/python.rs builds the package) is read by the Python functions
with no change of theirs: a format is one reader module and one line in the
library's format table. Skipped by a build without it."""

import os

import pytest

import clefeval

pytestmark = pytest.mark.skipif(os.environ.get("CLEFEVAL_TOY_FORMAT") != "1",
                                reason="the package was built without the toy format")

NODES = 'NO 1 rectangle "A"\nNO 2 rectangle "B"\nNO 3 rectangle "C"\n'
GOLD = NODES + "DE 1 2 plain\nDE 2 3 plain\n"
TOY = "toy flowchart\nA -> B\nA -> C\n"


def test_a_toy_folder_is_scored_as_the_same_chart_in_clef_ip_text(tmp_path):
    for rel, text in [("gold/FC-1.txt", GOLD), ("toy/FC-1.toy", TOY),
                      ("text/FC-1.txt", NODES + "DE 1 2 plain\nDE 1 3 plain\n")]:
        (tmp_path / rel).parent.mkdir(exist_ok=True)
        (tmp_path / rel).write_text(text)
    got = clefeval.flowchart(tmp_path / "gold", [tmp_path / "toy", tmp_path / "text"])
    toy, text = got["runs"]
    assert toy["topics"][0]["levels"] == text["topics"][0]["levels"]
    # 3 nodes and 1 edge in common of 5 + 5: d = 1 - 4 / (5 + 5 - 4).
    assert toy["topics"][0]["levels"]["basic"]["distance"] == 1 - 4 / 6


def test_a_toy_text_and_file_are_read_by_the_pair_function(tmp_path):
    (tmp_path / "FC-1.toy").write_text(TOY)
    for run in ({"run_text": TOY}, {"run": tmp_path / "FC-1.toy"}):
        got = clefeval.flowchart_pair(gold_text=GOLD, levels="basic", **run)
        assert got["levels"]["basic"]["mcs"] == 4
