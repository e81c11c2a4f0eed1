"""Segmentation: the folder function against the command's JSON on the
goldens, boxes from CSV paths and from Python lists against the command's
run, and a sweep computed by hand."""

import csv
import pathlib

import pytest

import clefeval

GOLD = "goldens/segmentation/gold"
RUNS = ["goldens/segmentation/run-osra", "goldens/segmentation/run-shifted"]
PAGES = "goldens/segmentation/pages"


def test_folders_give_the_commands_json(cli):
    expected = cli("segmentation", "--gold", GOLD, "--run", RUNS[0], "--run", RUNS[1])
    assert clefeval.segmentation(GOLD, RUNS) == expected


def test_pages_and_tolerances_give_the_commands_json(cli):
    expected = cli("segmentation", "--gold", GOLD, "--run", RUNS[1], "--pages", PAGES,
                   "--tolerances", "0,5,10,20")
    assert clefeval.segmentation(GOLD, RUNS[1], pages=PAGES, tolerances=[0, 5, 10, 20]) == expected
    expected = cli("segmentation", "--gold", GOLD, "--run", RUNS[0], "--pages", PAGES,
                   "--tolerance-mm", "0.5,2")
    assert clefeval.segmentation(GOLD, RUNS[0], pages=PAGES, tolerance_mm=[0.5, 2]) == expected


def test_overlays_are_drawn(cli, tmp_path):
    got = clefeval.segmentation(GOLD, RUNS[1], pages=PAGES, overlays=tmp_path, at=10)
    assert got["settings"]["overlay_tolerance"] == 10
    assert sorted(p.suffix for p in tmp_path.rglob("*.png"))


def read_boxes(path):
    with open(path, newline="") as f:
        rows = [r for r in csv.reader(f) if r and r[0] != "doc"]
    return [(r[0], int(r[1]), int(r[2]), int(r[3]), int(r[4]), int(r[5])) for r in rows]


def test_boxes_from_paths_and_lists_give_the_commands_run(cli):
    expected = cli("segmentation", "--gold", GOLD, "--run", RUNS[1])["runs"][0]
    from_paths = clefeval.segmentation_boxes(GOLD, RUNS[1])
    assert from_paths == expected
    gold = read_boxes(pathlib.Path(GOLD, "gold.csv"))
    run = read_boxes(pathlib.Path(RUNS[1], "run.csv"))
    as_dicts = [dict(zip(("doc", "page", "x", "y", "width", "height"), b)) for b in run]
    for side in (run, as_dicts):
        from_lists = clefeval.segmentation_boxes(gold, side)
        assert from_lists["run"] == "<run>"
        for field in ("tolerances", "max_unambiguous_tolerance", "documents"):
            assert from_lists[field] == expected[field]


def test_a_sweep_computed_by_hand():
    gold = [("D", 1, 10, 10, 100, 100), ("D", 1, 300, 300, 50, 50)]
    run = [
        {"doc_id": "D", "page": 1, "x": 12, "y": 10, "width": 100, "height": 100},  # 2 px off
        ("D", 1, 300, 300, 50, 50),  # exact
        ("D", 2, 0, 0, 5.0, 5),  # a page without gold boxes
    ]
    r = clefeval.segmentation_boxes(gold, run, tolerances="0,2,5")
    t0, t2, t5 = r["tolerances"]
    assert (t0["t"], t0["tp"], t0["fp"], t0["fn"]) == (0, 1, 2, 1)
    assert t0["precision"] == pytest.approx(1 / 3)
    assert t0["recall"] == pytest.approx(1 / 2)
    assert t0["f1"] == pytest.approx(2 * (1 / 3) * (1 / 2) / (1 / 3 + 1 / 2))
    for t, row in ((2, t2), (5, t5)):
        assert (row["t"], row["tp"], row["fp"], row["fn"]) == (t, 2, 1, 0)
        assert row["f1"] == pytest.approx(2 * (2 / 3) / (2 / 3 + 1))
    assert r["max_unambiguous_tolerance"] == 5
    assert [d["doc"] for d in r["documents"]] == ["D"]


def test_a_mapping_names_the_runs_and_one_name_twice_is_refused(cli):
    named = clefeval.segmentation(GOLD, {"first": RUNS[0], "second": RUNS[0]})
    assert [run["run"] for run in named["runs"]] == ["first", "second"]
    assert named["runs"][0]["tolerances"] == named["runs"][1]["tolerances"]
    assert [run["run"] for run in clefeval.segmentation(GOLD, RUNS)["runs"]] == \
        ["run-osra", "run-shifted"]
    with pytest.raises(clefeval.InputError) as caught:
        clefeval.segmentation(GOLD, [RUNS[0], RUNS[0]])
    assert str(caught.value) == (
        f"two runs are named `run-osra`: {RUNS[0]} and {RUNS[0]}; "
        "name them apart with --run NAME=PATH")
