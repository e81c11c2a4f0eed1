#!/usr/bin/env python3
"""Writes ../runs/vlm-answers/: one Markdown answer per gold flowchart, as an
image-to-diagram model answers ("Here is the flowchart as Mermaid: ```mermaid
... ```"), with the slips such models make, so that the demo scores a run
in the form these models write beside the CLEF-IP runs:

- the reference numerals (no-box nodes such as `S101`) and their wiggly
  leader lines are left out: the models draw the flow, not the labels;
- a double rectangle is written as a plain rectangle (`[t]`);
- edge texts are written in lower case (`YES` as `yes`);
- FC-0004's two dotted edges are written as plain arrows.

Everything else is the gold's: node shapes, texts, directions. The
Mermaid is written by make.py's converter (independent of clefeval). Run
from this folder: python3 make_answers.py
"""
import pathlib
import re

from make import mermaid

HERE = pathlib.Path(__file__).parent


def slipped(clef: str, topic: str) -> str:
    dropped = set()
    out = []
    for line in clef.splitlines():
        m = re.match(r'NO (\d+) (\S+)', line)
        if m and m.group(2) == "no-box":
            dropped.add(m.group(1))
            continue
        if m and m.group(2) == "double-rectangle":
            line = line.replace("double-rectangle", "rectangle", 1)
        m = re.match(r'(DE|UE) (\d+) (\d+) (\S+)(.*)', line)
        if m:
            kind, a, b, style, rest = m.groups()
            if a in dropped or b in dropped:
                continue
            if topic == "FC-0004" and style == "dotted":
                style = "plain"
            line = f"{kind} {a} {b} {style}{rest.lower()}"
        out.append(line)
    return "\n".join(out) + "\n"


def main() -> None:
    gold = HERE.parent / "gold"
    dest = HERE.parent / "runs" / "vlm-answers"
    dest.mkdir(parents=True, exist_ok=True)
    for path in sorted(gold.glob("*.txt")):
        topic = path.stem
        body = mermaid(slipped(path.read_text(encoding="utf-8"), topic))
        answer = (
            f"Sure! Here is the flowchart of figure {topic} as a Mermaid diagram:\n\n"
            "```mermaid\n" + body + "```\n\n"
            "Each box of the figure is a node; arrows keep their direction.\n"
        )
        (dest / f"{topic}.md").write_text(answer, encoding="utf-8")


if __name__ == "__main__":
    main()
