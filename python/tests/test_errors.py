"""Errors: a missing path is an InputError naming it, a malformed line an
InputError carrying its file and line, an argument out of range a
ValueError, a worker that cannot start a WorkerError."""

import pathlib

import pytest

import clefeval

MISSING = "goldens/no-such-folder"


@pytest.mark.parametrize("call", [
    lambda: clefeval.flowchart(MISSING, "goldens/flowchart/runs/recognizer-a"),
    lambda: clefeval.flowchart("goldens/flowchart/gold", [MISSING]),
    lambda: clefeval.flowchart_pair(MISSING, run_text="NO 1 oval"),
    lambda: clefeval.segmentation("goldens/segmentation/gold", MISSING),
    lambda: clefeval.segmentation_boxes(MISSING, []),
    lambda: clefeval.recognition(MISSING, "goldens/recognition/runs/handmade"),
    lambda: clefeval.recognize(MISSING, inchi="in-process"),
    lambda: clefeval.prior_art(MISSING, "goldens/passage/doc/runs"),
    lambda: clefeval.passage("goldens/passage/passage/qrels.txt", MISSING),
])
def test_a_missing_path_is_named(call):
    with pytest.raises(clefeval.InputError) as caught:
        call()
    assert caught.value.file == MISSING
    assert caught.value.line is None
    assert str(caught.value) == f"{MISSING}: no such file or folder"
    assert isinstance(caught.value, clefeval.ClefevalError)


def test_a_malformed_flowchart_line_is_named_with_its_line(tmp_path):
    text = 'NO 1 oval "A"\nNO 2 oval "B"\nDE 1 7 plain\n'
    with pytest.raises(clefeval.InputError) as caught:
        clefeval.flowchart_pair(gold_text='NO 1 oval "A"\n', run_text=text)
    e = caught.value
    assert (e.file, e.line) == ("<run>", 3)
    assert str(e).startswith("<run>:3: error: ")
    assert e.diagnostics[0]["line"] == 3 and e.diagnostics[0]["severity"] == "error"
    path = tmp_path / "FC-1.txt"
    path.write_text(text)
    with pytest.raises(clefeval.InputError) as caught:
        clefeval.flowchart_pair(path, run_text='NO 1 oval "A"\n')
    assert (caught.value.file, caught.value.line) == (str(path), 3)


def test_a_malformed_box_is_named_with_its_line(tmp_path):
    good = ("D", 1, 0, 0, 10, 10)
    with pytest.raises(clefeval.InputError) as caught:
        clefeval.segmentation_boxes([good], [good, ("D", 0, 0, 0, 10, 10)])
    assert (caught.value.file, caught.value.line) == ("<run>", 2)
    assert "page 0" in str(caught.value)
    with pytest.raises(clefeval.InputError) as caught:
        clefeval.segmentation_boxes([good, {"doc": "D", "page": 1}], [good])
    assert (caught.value.file, caught.value.line) == ("<gold>", 2)
    assert "x" in str(caught.value)
    csv = tmp_path / "run.csv"
    csv.write_text("D,1,0,0,10,10\nD,1,0,zero,10,10\n")
    with pytest.raises(clefeval.InputError) as caught:
        clefeval.segmentation_boxes([good], csv)
    assert (caught.value.file, caught.value.line) == (str(csv), 2)
    assert "not a number" in str(caught.value)


def test_arguments_out_of_range_are_value_errors():
    for call in [
        lambda: clefeval.flowchart_pair(gold_text="", run_text="", levels="everything"),
        lambda: clefeval.flowchart_pair(gold_text="", run_text="", denominator="min"),
        lambda: clefeval.flowchart_pair(gold_text="", run_text="", budget=0),
        lambda: clefeval.flowchart_pair(gold_text="", run_text="", time_limit=-1.0),
        lambda: clefeval.flowchart("goldens/flowchart/gold", "goldens/flowchart/runs/recognizer-a",
                                   threads=0),
        lambda: clefeval.segmentation_boxes([], [], tolerances="5..=1"),
        lambda: clefeval.recognize(gold_text="", run_text="", inchi="somewhere"),
        lambda: clefeval.recognize(gold_text="", run_text="", timeout=0),
        lambda: clefeval.prior_art("goldens/passage/doc/qrels.txt", "goldens/passage/doc/runs",
                                   compare="MAP@7"),
        lambda: clefeval.prior_art("goldens/passage/doc/qrels.txt", "goldens/passage/doc/runs",
                                   ndcg_base=3),
    ]:
        with pytest.raises(ValueError):
            call()


# The cases of BAD_SETTINGS in tests/cli_vocabulary.rs: the library's one
# settings constructor words each, the option named as Python spells it.
@pytest.mark.parametrize("call, message", [
    (lambda: clefeval.flowchart("goldens/flowchart/gold", "goldens/flowchart/runs/recognizer-a",
                                time_limit=-1),
     "time_limit must be a number of seconds, not -1"),
    (lambda: clefeval.segmentation("goldens/segmentation/gold", "goldens/segmentation/run-osra",
                                   tolerances="0,x"),
     'tolerances takes whole numbers of pixels in 0..=65535; not "x"'),
    (lambda: clefeval.recognition("goldens/recognition/gold", "goldens/recognition/runs/handmade",
                                  timeout=0),
     "timeout must be a positive number of seconds, not 0"),
    (lambda: clefeval.prior_art("goldens/passage/doc/qrels.txt", "goldens/passage/doc/runs",
                                cutoff=0),
     "cutoff must be at least 1, not 0"),
    (lambda: clefeval.passage("goldens/passage/passage/qrels.txt", "goldens/passage/passage/runs",
                              permutations=0),
     "permutations must be at least 1, not 0"),
])
def test_a_bad_setting_is_worded_by_the_library(call, message):
    with pytest.raises(ValueError) as caught:
        call()
    assert str(caught.value) == message


def test_a_worker_that_cannot_start(tmp_path):
    with pytest.raises(clefeval.WorkerError):
        clefeval.recognize(gold_text="", run_text="", worker=tmp_path / "no-clefeval")
    with pytest.raises(clefeval.WorkerError):
        clefeval.recognition("goldens/recognition/gold", "goldens/recognition/runs/handmade",
                             worker=tmp_path / "no-clefeval")


def test_unreadable_gold_data_is_located(tmp_path, cli):
    gold, run = tmp_path / "gold", tmp_path / "run"
    gold.mkdir()
    run.mkdir()
    (gold / "FC-1.txt").write_text('NO 1 oval "A"\nNO 1 oval "B"\n')
    (run / "FC-1.txt").write_text('NO 1 oval "A"\n')
    with pytest.raises(clefeval.InputError) as caught:
        clefeval.flowchart(gold, run)
    assert (caught.value.file, caught.value.line) == (str(gold / "FC-1.txt"), 2)
    assert str(gold / "FC-1.txt") + ":2: error: duplicate node id 1" in str(caught.value)

    boxes = tmp_path / "gold.csv"
    boxes.write_text("D,1,0,0,10,10,extra\n")
    with pytest.raises(clefeval.InputError) as caught:
        clefeval.segmentation(boxes, boxes)
    assert (caught.value.file, caught.value.line) == (str(boxes), 1)

    qrels = tmp_path / "qrels.txt"
    qrels.write_text("T1 0 D1 1\nT1 0 D2\n")
    with pytest.raises(clefeval.InputError) as caught:
        clefeval.prior_art(qrels, "goldens/passage/doc/runs")
    assert (caught.value.file, caught.value.line) == (str(qrels), 2)
