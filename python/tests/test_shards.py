"""Parts of an evaluation (``shard``) and their merge: each part is the
command's ``--shard K/N`` document, and ``clefeval.merge`` of the parts,
given as results or as the command's part files, is byte for byte what
one whole run of the command writes; parts that are not those of one
evaluation are refused with the reason."""

import json
import subprocess

import pytest

import clefeval

from conftest import binary, run_text

FLOWCHART = ("goldens/flowchart/gold",
             ["goldens/flowchart/runs/recognizer-a", "goldens/flowchart/runs/recognizer-b"])
SEGMENTATION = ("goldens/segmentation/gold",
                ["goldens/segmentation/run-osra", "goldens/segmentation/run-shifted"])
RECOGNITION = ("goldens/recognition/gold", ["goldens/recognition/runs/handmade"])


def command(task, gold, runs):
    args = [task, "--gold", gold]
    for run in runs:
        args += ["--run", run]
    return args


def score(task, gold, runs, **options):
    if task == "recognition":
        options = {"jobs": 2, **options}
    return getattr(clefeval, task)(gold, runs, **options)


@pytest.mark.parametrize("task, gold, runs", [
    ("flowchart", *FLOWCHART),
    ("segmentation", *SEGMENTATION),
    ("recognition", *RECOGNITION),
])
@pytest.mark.parametrize("count", [1, 3, 7])
def test_parts_merge_into_the_whole_runs_bytes(tmp_path, cli, task, gold, runs, count):
    whole = run_text(*command(task, gold, runs), "--format", "json", "--quiet")
    parts, files = [], []
    for index in range(1, count + 1):
        shard = (index, count) if index % 2 else f"{index}/{count}"
        part = score(task, gold, runs, shard=shard)
        assert part == cli(*command(task, gold, runs), "--shard", f"{index}/{count}")
        assert part["shard"] == {"index": index, "count": count}
        parts.append(part)
        files.append(tmp_path / f"part-{index}.json")
        files[-1].write_text(json.dumps(part))
    assert "shard" not in score(task, gold, runs)
    # Any order; results, their files, or both.
    assert clefeval.merge(reversed(parts), text=True) == whole
    assert clefeval.merge(files, text=True) == whole
    assert clefeval.merge(parts[:1] + [str(f) for f in files[1:]]) == json.loads(whole)
    # The command merges the package's parts alike.
    assert run_text("merge", *files) == whole


def test_more_parts_than_topics_leave_parts_empty():
    gold, runs = SEGMENTATION
    documents = {d["doc"] for r in clefeval.segmentation(gold, runs)["runs"] for d in r["documents"]}
    assert len(documents) == 2
    parts = [clefeval.segmentation(gold, runs, shard=(k, 3)) for k in (1, 2, 3)]
    sizes = sorted(len(p["runs"][0]["documents"]) for p in parts)
    assert sizes == [0, 1, 1]


def test_a_missing_or_doubled_part_is_refused():
    gold, runs = FLOWCHART
    one, two, three = (clefeval.flowchart(gold, runs, shard=(k, 3)) for k in (1, 2, 3))
    with pytest.raises(clefeval.InputError) as caught:
        clefeval.merge([one, three])
    assert str(caught.value) == "part 2 of 3 missing (given: 1, 3)"
    with pytest.raises(clefeval.InputError) as caught:
        clefeval.merge([one, two, three, two])
    assert str(caught.value) == "part 2 of 3 is given 2 times: parts[1], parts[3]"
    with pytest.raises(clefeval.InputError) as caught:
        clefeval.merge([one, clefeval.flowchart(gold, runs)])
    assert str(caught.value).startswith('parts[1]: no "shard" field')
    # Parts of another evaluation: other settings.
    with pytest.raises(clefeval.InputError) as caught:
        clefeval.merge([one, two, clefeval.flowchart(gold, runs, shard=(3, 3), levels="basic")])
    assert str(caught.value).startswith("parts[0] and parts[2] are not parts of one evaluation")
    with pytest.raises(clefeval.InputError) as caught:
        clefeval.merge([])
    assert str(caught.value) == "no result file to merge"


def test_a_part_file_that_is_missing_or_no_json_is_named(tmp_path):
    with pytest.raises(clefeval.InputError) as caught:
        clefeval.merge([tmp_path / "no-such.json"])
    assert caught.value.file == str(tmp_path / "no-such.json")
    assert str(caught.value).endswith("no such file or folder")
    bad = tmp_path / "bad.json"
    bad.write_text('{"task": "flowchart",\n oops}\n')
    with pytest.raises(clefeval.InputError) as caught:
        clefeval.merge([bad])
    assert caught.value.file == str(bad)
    assert str(caught.value).startswith(f"{bad}:2: not a JSON result file")


@pytest.mark.parametrize("shard, error", [
    ((0, 3), ValueError), ((4, 3), ValueError), ("2", ValueError), ("a/b", ValueError),
    ((1, 2, 3), TypeError), ((1.0, 2), TypeError), ((True, 2), TypeError), (3, TypeError),
])
def test_a_part_out_of_range_is_refused(shard, error):
    gold, runs = FLOWCHART
    with pytest.raises(error) as caught:
        clefeval.flowchart(gold, runs, shard=shard)
    assert "shard" in str(caught.value)
    with pytest.raises(error):
        clefeval.segmentation(*SEGMENTATION, shard=shard)


def test_a_part_of_another_type_is_refused():
    with pytest.raises(TypeError) as caught:
        clefeval.merge([b"{}"])
    assert str(caught.value).startswith("parts[0]: a part is a result")


@pytest.mark.parametrize("function, qrels, runs", [
    (clefeval.prior_art, "goldens/passage/doc/qrels.txt", "goldens/passage/doc/runs"),
    (clefeval.passage, "goldens/passage/passage/qrels.txt",
     "goldens/passage/passage/runs/lab1-bm25-PSG"),
])
def test_the_text_tasks_are_scored_whole(function, qrels, runs):
    task = "prior-art" if function is clefeval.prior_art else "passage"
    with pytest.raises(ValueError) as caught:
        function(qrels, runs, shard=(1, 2))
    # The command's reason for refusing --shard.
    done = subprocess.run([binary(), task, "--qrels", qrels, "--run", runs, "--shard", "1/2"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 2
    assert done.stderr == f"clefeval: error: --{caught.value}\n"
    assert "not scored in parts" in str(caught.value)
