"""Parts of an evaluation (``shard``) and their merge: each part is the
command's ``--shard K/N`` document, and ``clefeval.merge`` of the parts,
given as results or as the command's part files, is byte for byte what
one whole run of the command writes; parts that are not those of one
evaluation are refused with the reason."""

import json

import pytest

import clefeval

from conftest import run_text

FLOWCHART = ("goldens/flowchart/gold",
             ["goldens/flowchart/runs/recognizer-a", "goldens/flowchart/runs/recognizer-b"])
SEGMENTATION = ("goldens/segmentation/gold",
                ["goldens/segmentation/run-osra", "goldens/segmentation/run-shifted"])
RECOGNITION = ("goldens/recognition/gold", ["goldens/recognition/runs/handmade"])
DOC = "goldens/passage/doc"
PSG = "goldens/passage/passage"
# Document runs with topic groups (unknown topics, duplicate lines,
# left-out topics).
PRIOR_ART = ("prior_art", f"{DOC}/qrels.txt", [f"{DOC}/runs"], {"groups": f"{DOC}/groups.txt"})
# Comparisons and correlations: the parts record them, the merge makes them.
BETWEEN = {"compare": ["MAP@100", "P@10"], "permutations": 500, "seed": 3,
           "correlate": [("all", "EN"), ("MAP@100", "PRES@100")]}
# Passage runs with language groups beside a zipped run of other topics
# and a file that is no passage run (rejected).
PASSAGE = ("passage", f"{PSG}/qrels.txt",
           [f"{PSG}/runs", "goldens/passage/demo/runs/lab3-rerank-PSG.zip", f"{DOC}/qrels.txt"],
           {"groups": f"{PSG}/groups.txt"})


def command(task, gold, runs, options=None):
    """The command line of the evaluation: a folder task's `--gold`, a
    text task's `--qrels` with its options as the command spells them."""
    if task in ("prior_art", "passage"):
        args = [task.replace("_", "-"), "--qrels", gold]
    else:
        args = [task, "--gold", gold]
    for run in runs:
        args += ["--run", run]
    for name, value in (options or {}).items():
        flag = "--" + name.replace("_", "-")
        if isinstance(value, list):
            for item in value:
                args += [flag, ",".join(item) if isinstance(item, tuple) else item]
        else:
            args += [flag, str(value)]
    return args


def score(task, gold, runs, options=None, **more):
    if task == "recognition":
        more = {"jobs": 2, **more}
    return getattr(clefeval, task)(gold, runs, **(options or {}), **more)


@pytest.mark.parametrize("task, gold, runs, options", [
    ("flowchart", *FLOWCHART, None),
    ("segmentation", *SEGMENTATION, None),
    ("recognition", *RECOGNITION, None),
    PRIOR_ART,
    (*PRIOR_ART[:3], {**PRIOR_ART[3], **BETWEEN}),
    PASSAGE,
], ids=["flowchart", "segmentation", "recognition", "prior-art", "prior-art-compared",
        "passage"])
@pytest.mark.parametrize("count", [1, 3, 7])
def test_parts_merge_into_the_whole_runs_bytes(tmp_path, cli, task, gold, runs, options, count):
    args = command(task, gold, runs, options)
    whole = run_text(*args, "--format", "json", "--quiet")
    parts, files = [], []
    for index in range(1, count + 1):
        shard = (index, count) if index % 2 else f"{index}/{count}"
        part = score(task, gold, runs, options, shard=shard)
        assert part == cli(*args, "--shard", f"{index}/{count}")
        assert part["shard"]["index"] == index and part["shard"]["count"] == count
        assert "comparisons" not in part and "correlations" not in part
        parts.append(part)
        files.append(tmp_path / f"part-{index}.json")
        files[-1].write_text(json.dumps(part))
    assert "shard" not in score(task, gold, runs, options)
    # Any order; results, their files, or both.
    assert clefeval.merge(reversed(parts), text=True) == whole
    assert clefeval.merge(files, text=True) == whole
    assert clefeval.merge(parts[:1] + [str(f) for f in files[1:]]) == json.loads(whole)
    # The command merges the package's parts alike.
    assert run_text("merge", *files) == whole


def test_a_text_part_records_the_comparisons_asked_for():
    task, qrels, runs, options = PRIOR_ART
    whole = clefeval.prior_art(qrels, runs, **options, **BETWEEN)
    assert [c["measure"] for c in whole["comparisons"]] == ["MAP@100", "P@10"]
    assert len(whole["correlations"]) == 2
    first = clefeval.prior_art(qrels, runs, **options, **BETWEEN, shard=(1, 2))
    assert first["shard"]["asked"] == {
        "compare": ["MAP@100", "P@10"], "permutations": 500, "seed": 3,
        "correlate": [["all", "EN"], ["MAP@100", "PRES@100"]],
    }
    assert "asked" not in clefeval.prior_art(qrels, runs, **options, shard=(1, 2))["shard"]
    # Parts that asked for other comparisons are not one evaluation.
    other = clefeval.prior_art(qrels, runs, **options, compare="MAP@100", shard=(2, 2))
    with pytest.raises(clefeval.InputError) as caught:
        clefeval.merge([first, other])
    assert str(caught.value) == ("parts[1]: $.shard.asked: other comparisons or correlations "
                                 "asked for than in part 1")
    # A view the whole call refuses is refused by the merge of its parts.
    with pytest.raises(ValueError) as caught:
        clefeval.prior_art(qrels, runs, **options, correlate=[("all", "XX")])
    assert str(caught.value).startswith("correlate all,XX: `XX` is neither")
    parts = [clefeval.prior_art(qrels, runs, **options, correlate=[("all", "XX")], shard=(k, 2))
             for k in (1, 2)]
    with pytest.raises(clefeval.InputError) as caught:
        clefeval.merge(parts)
    assert str(caught.value).startswith("--correlate all,XX: `XX` is neither")


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


def test_a_part_that_contradicts_itself_is_refused_with_the_json_path():
    gold, runs = FLOWCHART
    one, two = (clefeval.flowchart(gold, runs, shard=(k, 2)) for k in (1, 2))
    two["runs"][0]["topics"][0]["levels"]["basic"]["distance"] = -5.0
    with pytest.raises(clefeval.InputError) as caught:
        clefeval.merge([one, two])
    assert str(caught.value).startswith(
        "parts[1]: $.runs[0].topics[0].levels.basic.distance: the file says -5.0, "
        "|mcs|, the sizes and the best label cost make ")
    two = clefeval.flowchart(gold, runs, shard=(2, 2))
    two["runs"][1]["summary"]["mean_distance"]["basic"] = 0.3
    with pytest.raises(clefeval.InputError) as caught:
        clefeval.merge([two, one])
    assert str(caught.value).startswith(
        "parts[0]: $.runs[1].summary.mean_distance.basic: the file says 0.3, its topics make ")
    two = clefeval.flowchart(gold, runs, shard=(2, 2))
    one["version"] = "0.0.9"
    two["version"] = "0.0.9"
    with pytest.raises(clefeval.InputError) as caught:
        clefeval.merge([one, two])
    assert str(caught.value).startswith("parts[0]: $.version: written by clefeval 0.0.9")


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
    with pytest.raises(error):
        clefeval.prior_art(PRIOR_ART[1], PRIOR_ART[2], shard=shard)


def test_a_part_of_another_type_is_refused():
    with pytest.raises(TypeError) as caught:
        clefeval.merge([b"{}"])
    assert str(caught.value).startswith("parts[0]: a part is a result")
