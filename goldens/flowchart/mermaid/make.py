#!/usr/bin/env python3
"""Writes the Mermaid fixtures of this folder from the bundled CLEF-IP
flowchart files, by a converter independent of clefeval's code:

- gold/FC-0001.mmd, gold/FC-0003.mmd   from ../gold/*.txt
- runs/recognizer-a/FC-0001.md         from ../runs/recognizer-a/FC-0001.txt,
  as a Markdown answer (text around a ```mermaid block)
- runs/recognizer-a/FC-0003.mmd        from ../runs/recognizer-a/FC-0003.txt

Every node is written with its shape and quoted text (no-box nodes as
`@{ shape: text }`); directed edges `-->` (`-.->` dotted), undirected `---`
(`-.-` dotted or wiggly: Mermaid has no wiggly line; edge types do not
count by default). The distances of these files are then those of the CLEF
files they come from (tests/flowchart_formats.rs). Run from this folder:
python3 make.py
"""
import pathlib
import re

HERE = pathlib.Path(__file__).parent
SHAPES = {
    "rectangle": ('["', '"]'),
    "oval": ('(["', '"])'),
    "circle": ('(("', '"))'),
    "diamond": ('{"', '"}'),
    "parallelogram": ('[/"', '"/]'),
    "double-rectangle": ('[["', '"]]'),
    "cylinder": ('[("', '")]'),
}


def mermaid(clef: str) -> str:
    out = ["flowchart TD"]
    for line in clef.splitlines():
        m = re.match(r'NO (\d+) (\S+)(?: "(.*)")?', line)
        if m:
            nid, kind, text = m.group(1), m.group(2), m.group(3) or ""
            text = text.replace('"', "#quot;")
            if kind == "no-box":
                out.append(f'    n{nid}@{{ shape: text, label: "{text}" }}')
            elif kind == "point":
                out.append(f"    n{nid}@{{ shape: sm-circ }}")
            else:
                a, b = SHAPES[kind]
                out.append(f"    n{nid}{a}{text}{b}")
            continue
        m = re.match(r'(DE|UE) (\d+) (\d+) (\S+)(?: "(.*)")?', line)
        if m:
            kind, a, b, style, text = m.groups()
            text = (text or "").replace('"', "#quot;")
            if kind == "DE":
                link = "-.->" if style == "dotted" else "-->"
            else:
                link = "---" if style == "plain" else "-.-"
            label = f"|{text}|" if text else ""
            out.append(f"    n{a} {link}{label} n{b}")
    return "\n".join(out) + "\n"


def main() -> None:
    src = HERE.parent
    for rel, dest, answer in [
        ("gold/FC-0001.txt", "gold/FC-0001.mmd", False),
        ("gold/FC-0003.txt", "gold/FC-0003.mmd", False),
        ("runs/recognizer-a/FC-0001.txt", "runs/recognizer-a/FC-0001.md", True),
        ("runs/recognizer-a/FC-0003.txt", "runs/recognizer-a/FC-0003.mmd", False),
    ]:
        text = mermaid((src / rel).read_text(encoding="utf-8"))
        if answer:
            text = (
                "Here is the flowchart of the figure as Mermaid:\n\n```mermaid\n"
                + text
                + "```\n\nThe two branches join before the end.\n"
            )
        path = HERE / dest
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
