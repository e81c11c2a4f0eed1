"""Flowcharts: the folder function against the command's JSON on the
goldens, the pair function against the command's topics and against
distances computed by hand on a tiny pair."""

import pathlib

import pytest

import clefeval

GOLD = "goldens/flowchart/gold"
RUNS = ["goldens/flowchart/runs/recognizer-a", "goldens/flowchart/runs/recognizer-b"]


def test_folders_give_the_commands_json(cli):
    expected = cli("flowchart", "--gold", GOLD, "--run", RUNS[0], "--run", RUNS[1])
    assert clefeval.flowchart(GOLD, RUNS) == expected


def test_every_switch_gives_the_commands_json(cli):
    switches = ["--level", "complete", "--denominator", "max", "--ignore-direction",
                "--edge-types", "--exact-labels", "--max-mappings", "7",
                "--budget", "5000000", "--strict"]
    expected = cli("flowchart", "--gold", GOLD, "--run", RUNS[0], *switches)
    got = clefeval.flowchart(GOLD, RUNS[0], levels="complete", denominator="max",
                             ignore_direction=True, edge_types=True, exact_labels=True,
                             max_mappings=7, budget=5_000_000, strict=True)
    assert got == expected
    expected = cli("flowchart", "--gold", GOLD, "--run", RUNS[1], "--level", "basic",
                   "--induced", "--budget", "none")
    got = clefeval.flowchart(pathlib.Path(GOLD), [pathlib.Path(RUNS[1])], levels="basic",
                             induced=True, budget=None)
    assert got == expected


def test_results_do_not_depend_on_the_thread_count():
    assert clefeval.flowchart(GOLD, RUNS, threads=1) == clefeval.flowchart(GOLD, RUNS, threads=2)


def test_pairs_give_the_commands_topics(cli):
    expected = cli("flowchart", "--gold", GOLD, "--run", RUNS[0])
    topics = expected["runs"][0]["topics"]
    scored = [t for t in topics if t["status"] == "ok"]
    assert scored
    for topic in scored:
        gold = pathlib.Path(GOLD, topic["topic"] + ".txt")
        run = pathlib.Path(RUNS[0], topic["topic"] + ".txt")
        pair = clefeval.flowchart_pair(gold, run)
        assert pair["levels"] == topic["levels"]
        assert (pair["gold_size"], pair["run_size"]) == (topic["gold_size"], topic["run_size"])
        # Texts score as their files do.
        assert clefeval.flowchart_pair(gold_text=gold.read_text(),
                                       run_text=run.read_bytes())["levels"] == topic["levels"]


# A chain START → check → END against an out-star start → {check, END}.
GOLD_TEXT = """NO 1 oval "START"
NO 2 rectangle "Check stock"
NO 3 oval "END"
DE 1 2 plain
DE 2 3 dotted
"""
RUN_TEXT = """NO 1 oval "start"
NO 2 rectangle "Check stok"
NO 3 diamond "END"
DE 1 2 plain
DE 1 3 plain
"""


def test_a_tiny_pair_computed_by_hand():
    r = clefeval.flowchart_pair(gold_text=GOLD_TEXT, run_text=RUN_TEXT)
    assert (r["gold_size"], r["run_size"]) == (5, 5)
    basic, inter, complete = (r["levels"][k] for k in ("basic", "intermediate", "complete"))
    # Basic: three nodes and one of the chain's edges (the star has no path of two).
    assert basic["mcs"] == 4 and basic["exact"]
    assert basic["distance"] == pytest.approx(1 - 4 / (5 + 5 - 4))
    # Intermediate: oval→oval and rectangle→rectangle with their edge; the
    # diamond matches nothing.
    assert inter["mcs"] == 3
    assert inter["distance"] == pytest.approx(1 - 3 / 7)
    # Complete: that one mapping; ned(start, start) = 0 after case folding,
    # ned(check stock, check stok) = 1/11.
    assert complete["mcs"] == 3
    assert complete["mappings"] == 1
    assert complete["mapping"] == [[1, 1], [2, 2]]
    assert complete["label_cost_best"] == pytest.approx(1 / 11)
    assert complete["histogram"] == [1] + [0] * 9
    m = 3 - 1 / 11
    assert complete["distance"] == pytest.approx(1 - m / (10 - m))


def test_the_switches_on_the_tiny_pair():
    r = clefeval.flowchart_pair(gold_text=GOLD_TEXT, run_text=RUN_TEXT, denominator="max")["levels"]
    assert r["basic"]["distance"] == pytest.approx(1 - 4 / 5)
    assert r["intermediate"]["distance"] == pytest.approx(1 - 3 / 5)
    # Exact labels: START against start costs 5/5.
    r = clefeval.flowchart_pair(gold_text=GOLD_TEXT, run_text=RUN_TEXT, levels="complete", exact_labels=True)
    assert list(r["levels"]) == ["complete"]
    assert r["levels"]["complete"]["label_cost_best"] == pytest.approx(1 + 1 / 11)
    # Undirected, the chain and the star are both paths of three nodes.
    r = clefeval.flowchart_pair(gold_text=GOLD_TEXT, run_text=RUN_TEXT, levels="basic", ignore_direction=True)
    assert r["levels"]["basic"]["mcs"] == 5 and r["levels"]["basic"]["distance"] == 0
    # Induced: no three nodes induce the same edges in both.
    r = clefeval.flowchart_pair(gold_text=GOLD_TEXT, run_text=RUN_TEXT, levels=["basic"], induced=True)
    assert r["levels"]["basic"]["mcs"] == 3
    # Edge types: the dotted gold edge 2→3 is kept by no plain edge, the
    # plain 1→2 still is.
    r = clefeval.flowchart_pair(gold_text=GOLD_TEXT, run_text=RUN_TEXT, levels="intermediate", edge_types=True)
    assert r["levels"]["intermediate"]["mcs"] == 3
    r = clefeval.flowchart_pair(gold_text=GOLD_TEXT.replace("DE 1 2 plain", "DE 1 2 dotted"),
                                run_text=RUN_TEXT,
                                levels="intermediate", edge_types=True)
    assert r["levels"]["intermediate"]["mcs"] == 2


def test_warnings_come_back_with_their_lines():
    r = clefeval.flowchart_pair(gold_text="MT NO 9\n" + GOLD_TEXT, run_text=RUN_TEXT, levels="basic")
    assert r["diagnostic_list"] == [{
        "file": "<gold>", "line": 1, "severity": "warning",
        "message": r["diagnostic_list"][0]["message"]}]
    assert "9" in r["diagnostic_list"][0]["message"]
    assert r["diagnostics"] == [f"<gold>:1: warning: {r['diagnostic_list'][0]['message']}"]


def test_plain_strings_are_paths(cli):
    # The mistake a new user makes, paths as plain strings, scores the files.
    gold = "goldens/flowchart/gold/FC-0001.txt"
    run = "goldens/flowchart/runs/recognizer-b/FC-0001.txt"
    topic = cli("flowchart", "--gold", GOLD, "--run", "goldens/flowchart/runs/recognizer-b")
    topic = topic["runs"][0]["topics"][0]
    assert topic["topic"] == "FC-0001"
    got = clefeval.flowchart_pair(gold, run)
    assert (got["gold_size"], got["run_size"]) == (37, 31)
    assert got["levels"] == topic["levels"]
    assert got["levels"]["complete"]["distance"] > 0


def test_a_side_given_wrongly_is_a_type_error():
    with pytest.raises(TypeError, match="give a text as gold_text="):
        clefeval.flowchart_pair(GOLD_TEXT, run_text=RUN_TEXT)
    with pytest.raises(TypeError, match="give a text as run_text="):
        clefeval.flowchart_pair(gold_text=GOLD_TEXT, run=RUN_TEXT.encode())
    with pytest.raises(TypeError, match="not both"):
        clefeval.flowchart_pair("a.txt", gold_text=GOLD_TEXT, run_text=RUN_TEXT)
    with pytest.raises(TypeError, match="give run"):
        clefeval.flowchart_pair(gold_text=GOLD_TEXT)


FORMATS = pathlib.Path("goldens/flowchart/formats")


def without_mapping(levels):
    """Levels without the complete level's mapping: it pairs node ids, and
    the other formats number their nodes 1, 2, … in order."""
    levels = dict(levels)
    levels["complete"] = {k: v for k, v in levels["complete"].items() if k != "mapping"}
    return levels


def test_every_format_scores_as_its_clef_ip_original(cli):
    """The bundled run written as DOT, GraphML and draw.io — as a path, as a
    text, and as a text read with `format=` beside the gold in the same
    format — gives the topic of its CLEF-IP original."""
    expected = cli("flowchart", "--gold", GOLD, "--run", RUNS[1])
    topic = next(t for t in expected["runs"][0]["topics"] if t["topic"] == "FC-0002")
    gold = pathlib.Path(GOLD, "FC-0002.txt")
    for name in ["dot", "graphml", "drawio"]:
        ext = "dot" if name == "dot" else name
        run = FORMATS / name / "runs" / "recognizer-b" / f"FC-0002.{ext}"
        gold_as = FORMATS / name / "gold" / f"FC-0002.{ext}"
        pairs = [
            clefeval.flowchart_pair(gold, run),
            clefeval.flowchart_pair(gold_text=gold.read_text(), run_text=run.read_text()),
            clefeval.flowchart_pair(gold_text=gold_as.read_text(), run_text=run.read_bytes(),
                                    format=name),
        ]
        for pair in pairs:
            assert without_mapping(pair["levels"]) == without_mapping(topic["levels"]), name
            assert pair["triplets"] == topic["triplets"], name


def test_a_format_reads_both_texts_and_an_unknown_one_is_refused():
    mermaid = "flowchart TD\n  A([START]) --> B[Check stock]\n"
    dot = 'digraph { a [shape=oval, label="START"]; b [shape=box, label="Check stock"]; a -> b }'
    by_mermaid = clefeval.flowchart_pair(gold_text=mermaid, run_text=mermaid, format="mermaid")
    by_dot = clefeval.flowchart_pair(gold_text=mermaid, run_text=dot)
    for pair in (by_mermaid, by_dot):
        assert pair["levels"]["complete"]["distance"] == 0.0
        assert pair["triplets"]["f1"] == 1.0
    # Read as DOT, a Mermaid text is a syntax error naming its line.
    with pytest.raises(clefeval.InputError) as caught:
        clefeval.flowchart_pair(gold_text=mermaid, run_text=dot, format="dot")
    assert (caught.value.file, caught.value.line) == ("<gold>", 1)
    with pytest.raises(ValueError, match="unknown flowchart format `svg`: one of clef, mermaid, dot, graphml, drawio"):
        clefeval.flowchart_pair(gold_text=mermaid, run_text=mermaid, format="svg")
    # A text longer than 1000 characters is refused, the format named or not.
    long = f"flowchart TD\n  A --> B\n  B[{'x' * 1001}]\n"
    for format in ("mermaid", None):
        with pytest.raises(clefeval.InputError) as caught:
            clefeval.flowchart_pair(gold_text=mermaid, run_text=long, format=format)
        assert (caught.value.file, caught.value.line) == ("<run>", 2), format
        assert "a node text of 1001 characters; a text may have at most 1000" in str(caught.value)
