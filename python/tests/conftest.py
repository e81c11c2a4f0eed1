"""Shared by the tests: the repository's goldens, and the ``clefeval``
binary whose JSON output the package's results are checked against.

``CLEFEVAL_ROOT`` names the repository (default: two folders up from this
one) and ``CLEFEVAL_BINARY`` the binary (default: the root's
``target/release/clefeval``); the InChI workers of the recognition tests
run that binary too."""

import json
import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(os.environ.get("CLEFEVAL_ROOT",
                                   pathlib.Path(__file__).resolve().parents[2]))


def binary():
    path = os.environ.get("CLEFEVAL_BINARY") or str(ROOT / "target" / "release" / "clefeval")
    if not os.access(path, os.X_OK):
        pytest.fail(f"the tests compare with the clefeval binary, and {path} is not one: "
                    "build it (cargo build --release) or set CLEFEVAL_BINARY")
    return path


def run_text(*args):
    """What ``clefeval ARGS`` writes on standard output, run in the
    repository root; it must succeed."""
    done = subprocess.run([binary(), *map(str, args)],
                          cwd=ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def run_cli(*args):
    """The JSON ``clefeval ARGS --format json`` writes, run in the repository root."""
    return json.loads(run_text(*args, "--format", "json", "--quiet"))


@pytest.fixture(autouse=True)
def in_root(monkeypatch):
    """Every test runs in the repository root, so relative paths (and the
    paths the results echo) read as the command's."""
    monkeypatch.chdir(ROOT)


@pytest.fixture
def cli():
    return run_cli
