"""The parts of an evaluation mapped over a Dask distributed cluster (a
``LocalCluster`` of two worker processes), merged, are byte for byte the
JSON one whole run of the command writes: the package's functions
submitted as Dask tasks from here, and ``python/examples/dask_shards.py``
pointed at the cluster's scheduler and at a cluster of its own.

Dask is required: without ``dask[distributed]`` this module fails to
import, and the suite fails."""

import os
import subprocess
import sys

import pytest
from dask.distributed import Client, LocalCluster

import clefeval

from conftest import ROOT, run_text

EXAMPLE = ROOT / "python" / "examples" / "dask_shards.py"

# Absolute paths: the worker processes and the command read the same
# paths, and the results echo them.
FLOWCHART = {
    "gold": [str(ROOT / "goldens/flowchart/gold")],
    "runs": [str(ROOT / "goldens/flowchart/runs/recognizer-a"),
             str(ROOT / "goldens/flowchart/runs/recognizer-b")],
    "options": {"threads": 1},
    "flags": [],
}
SEGMENTATION = {
    "gold": [str(ROOT / "goldens/segmentation/gold")],
    "runs": [str(ROOT / "goldens/segmentation/run-osra"),
             str(ROOT / "goldens/segmentation/run-shifted")],
    "options": {"pages": str(ROOT / "goldens/segmentation/pages")},
    "flags": ["--pages", str(ROOT / "goldens/segmentation/pages")],
}
TASKS = {"flowchart": FLOWCHART, "segmentation": SEGMENTATION}


def arguments(task):
    """``TASK --gold … --run … [flags]``, as the command and the example take them."""
    spec = TASKS[task]
    args = [task]
    for gold in spec["gold"]:
        args += ["--gold", gold]
    for run in spec["runs"]:
        args += ["--run", run]
    return args + spec["flags"]


def whole_run(task):
    """The bytes ``clefeval TASK ... --format json`` writes for the whole evaluation."""
    return run_text(*arguments(task), "--format", "json", "--quiet")


@pytest.fixture(scope="module")
def cluster():
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=":0") as cluster:
        yield cluster


@pytest.mark.parametrize("task", ["flowchart", "segmentation"])
def test_parts_mapped_over_dask_merge_into_the_whole_runs_bytes(cluster, task):
    spec, count = TASKS[task], 3
    with Client(cluster) as client:
        workers = set(client.scheduler_info()["workers"])
        assert len(workers) == 2
        score = getattr(clefeval, task)
        futures = [client.submit(score, spec["gold"], spec["runs"], shard=(k, count),
                                 **spec["options"])
                   for k in range(1, count + 1)]
        parts = client.gather(futures)
        # Every part was scored in a worker process, not here.
        held = client.who_has(futures)
        assert all(set(held[f.key]) <= workers and held[f.key] for f in futures)
        pids = set(client.run(os.getpid).values())
        assert len(pids) == 2 and os.getpid() not in pids
    assert [p["shard"] for p in parts] == [{"index": k, "count": count}
                                           for k in range(1, count + 1)]
    assert clefeval.merge(parts, text=True) == whole_run(task)


def example(*args):
    """``dask_shards.py ARGS``: its stdout, and its notes of the parts on
    stderr (Dask's own warnings aside)."""
    done = subprocess.run([sys.executable, str(EXAMPLE), *args], cwd=ROOT,
                          capture_output=True, text=True, check=False, timeout=600)
    assert done.returncode == 0, done.stderr
    return done.stdout, [n for n in done.stderr.splitlines() if n.startswith("part ")]


def test_the_example_on_a_scheduler_writes_the_whole_runs_bytes(cluster, tmp_path):
    out = tmp_path / "merged.json"
    stdout, notes = example(*arguments("flowchart"), "--parts", "4",
                            "--scheduler", cluster.scheduler_address, "--threads", "1",
                            "-o", str(out))
    assert stdout == ""
    assert out.read_text() == whole_run("flowchart")
    with Client(cluster) as client:
        workers = set(client.scheduler_info()["workers"])
    assert [n.split(": ")[0] for n in notes] == [f"part {k}/4" for k in range(1, 5)]
    assert all(n.split(": ")[1] in workers for n in notes)


def test_the_example_on_a_cluster_of_its_own_writes_the_whole_runs_bytes():
    stdout, notes = example(*arguments("segmentation"), "--parts", "3", "--workers", "2")
    assert stdout == whole_run("segmentation")
    assert len(notes) == 3 and all(n.split(": ")[1].startswith("tcp://") for n in notes)
