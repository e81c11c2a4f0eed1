"""Detection: paths and in-memory lists of dicts give the command's JSON,
the options reach the evaluation, and the numbers are pycocotools' (the
goldens' expected files were written by pycocotools)."""

import json

import pytest

import clefeval

GOLD = "goldens/detection/random/gold.json"
RUN = "goldens/detection/random/run.json"


def load(path):
    with open(path) as f:
        return json.load(f)


def test_paths_give_the_commands_json(cli):
    expected = cli("detection", "--gold", GOLD, "--run", RUN)
    assert clefeval.detection(GOLD, RUN) == expected
    expected = cli("detection", "--gold", GOLD, "--run", RUN, "--max-dets", "1,5,20",
                   "--iou-thresholds", "0.3,0.5,0.7", "--categories", "1,3")
    got = clefeval.detection(GOLD, [RUN], max_dets=[20, 5, 1], iou_thresholds=[0.3, 0.5, 0.7],
                             categories=[1, 3])
    assert got == expected


def test_lists_of_dicts_give_the_same_numbers_as_files(cli):
    from_files = cli("detection", "--gold", GOLD, "--run", RUN)
    got = clefeval.detection(load(GOLD), {"mine": load(RUN)})
    run = got["runs"][0]
    assert run["run"] == "mine"
    assert got["settings"]["gold"] == ["<gold>"]
    want = from_files["runs"][0]
    for key in ("summary", "categories", "curves", "images", "detections"):
        assert run[key] == want[key], key
    # One run given as its list of detections is named by its place.
    assert clefeval.detection(load(GOLD), load(RUN))["runs"][0]["run"] == "run 1"
    # Only the files are digested.
    assert [i["role"] for i in got["inputs"]] == []


def test_numbers_are_pycocotools(cli):
    want = load("goldens/detection/random/expected_pooled.json")
    got = clefeval.detection(GOLD, RUN, use_cats=False)
    values = [s["value"] for s in got["runs"][0]["summary"]]
    assert all(abs(a - b) <= 1e-12 for a, b in zip(values, want["stats"]))
    assert len(values) == 12


def test_mistakes_are_named():
    with pytest.raises(clefeval.InputError, match=r"<gold>: \$.annotations\[0\]: no `area`"):
        clefeval.detection({"images": [{"id": 1}], "categories": [{"id": 1, "name": "a"}],
                            "annotations": [{"id": 1, "image_id": 1, "category_id": 1,
                                             "bbox": [0, 0, 1, 1], "iscrowd": 0}]}, [])
    with pytest.raises(ValueError, match="max_dets takes three values"):
        clefeval.detection(GOLD, RUN, max_dets=[1, 2])
    bad = [{"image_id": 999999, "category_id": 1, "bbox": [0, 0, 1, 1], "score": 0.5}]
    got = clefeval.detection(GOLD, {"good": RUN, "bad": bad})
    assert got["rejected_runs"][0]["run"] == "bad"
    assert "<bad>: $[0].image_id: image 999999 is not in the gold's images" in \
        got["rejected_runs"][0]["diagnostics"][0]
