"""The Python examples of README.md and docs/python.md run as written and
print what the command's JSON holds."""

import contextlib
import io
import re

from conftest import ROOT


def example(path, after):
    """The first ```python block of ``path`` after the line starting with ``after``."""
    text = (ROOT / path).read_text()
    start = text.index("\n" + after)
    return re.search(r"```python\n(.*?)```", text[start:], re.S).group(1)


def printed(code):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "example", "exec"), {})
    return out.getvalue().splitlines()


def test_the_readme_example(cli):
    lines = printed(example("README.md", "From Python"))
    topics = cli("flowchart", "--gold", "goldens/flowchart/gold",
                 "--run", "goldens/flowchart/runs/recognizer-a")["runs"][0]["topics"]
    fc1 = next(t for t in topics if t["topic"] == "FC-0001")
    f1 = cli("segmentation", "--gold", "goldens/segmentation/gold",
             "--run", "goldens/segmentation/run-osra")["runs"][0]["tolerances"][10]
    assert f1["t"] == 10
    assert lines == [repr(fc1["levels"]["complete"]["distance"]), repr(f1["f1"])]


def test_the_docs_example(cli):
    lines = printed(example("docs/python.md", "## Installing"))
    report = cli("flowchart", "--gold", "goldens/flowchart/gold",
                 "--run", "goldens/flowchart/runs/recognizer-a",
                 "--run", "goldens/flowchart/runs/recognizer-b")
    assert lines[1] == repr([run["summary"]["mean_distance"] for run in report["runs"]])


def test_the_docs_parts_example():
    assert printed(example("docs/python.md", "## Parts of")) == ["True"]
