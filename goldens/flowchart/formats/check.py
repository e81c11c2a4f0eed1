#!/usr/bin/env python3
"""Checks the fixtures make.py wrote (run by check.sh, after Graphviz has
parsed every DOT file):

1. draw.io: every <diagram> page is either an inline <mxGraphModel> or
   compressed text, which is decompressed as draw.io does it (base64, raw
   inflate, URL-decoding) and must parse as XML with an mxGraphModel root
   holding the cells 0 and 1;
2. GraphML: every file parses as XML with a graphml root;
3. every file is read back and compared with the CLEF-IP file it comes
   from: node ids, types and texts, and the multiset of edges (direction,
   endpoints, type, text). DOT is read by Graphviz itself (`dot -Tjson0`,
   which applies node and edge defaults); draw.io and GraphML by the small
   readers below, which follow each format's own meaning of shapes, arrows
   and line styles, and the `clef_type` attribute.

Two bundled runs are broken on purpose (an edge to an undefined node, a node
id given twice); their files are compared with what each format makes of
that, and the difference is printed. Exit status 1 on any failure.
"""
import base64
import html
import json
import pathlib
import re
import subprocess
import sys
import urllib.parse
import xml.etree.ElementTree as ET
import zlib

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import make  # noqa: E402  (its CLEF-IP reader and the list of files only)

GRAPHML_NS = "{http://graphml.graphdrawing.org/xmlns}"
Y_NS = "{http://www.yworks.com/xml/graphml}"
failures = []


def fail(path, message):
    failures.append(f"{path}: {message}")
    print(f"FAIL {path}: {message}")


# ------------------------------------------------------------ the source


def source_graph(chart):
    """The flowchart as the CLEF-IP reader keeps it: the first of two nodes
    with one id, edges to undefined nodes dropped. Also the problems."""
    nodes, problems = {}, []
    for n in chart["nodes"]:
        if n["id"] in nodes:
            problems.append(f"node {n['id']} defined twice")
            continue
        nodes[n["id"]] = (n["type"], n["text"] or "")
    edges = []
    for e in chart["edges"]:
        missing = [i for i in (e["a"], e["b"]) if i not in nodes]
        if missing:
            problems.append(f"edge to undefined node {missing[0]}")
            continue
        edges.append(edge_key(e["directed"], e["a"], e["b"], e["type"], e["text"] or ""))
    return nodes, sorted(edges), problems


def edge_key(directed, a, b, etype, text):
    if not directed and b < a:
        a, b = b, a
    return (directed, a, b, etype, text)


def clef_id(name, prefix):
    m = re.fullmatch(prefix + r"(m?)(\d+)", name)
    if not m:
        return None
    return -int(m.group(2)) if m.group(1) else int(m.group(2))


def compare(path, got, want):
    """got/want: (nodes, edges). Prints and records every difference."""
    gn, ge = got
    wn, we = want
    diffs = []
    for i in sorted(set(gn) | set(wn), key=lambda i: (i is None, i or 0)):
        if gn.get(i) != wn.get(i):
            diffs.append(f"node {i}: read {gn.get(i)}, source {wn.get(i)}")
    extra, missing = list(ge), []
    for e in we:
        if e in extra:
            extra.remove(e)
        else:
            missing.append(e)
    diffs += [f"edge only in the file: {e}" for e in extra]
    diffs += [f"edge only in the source: {e}" for e in missing]
    for d in diffs:
        fail(path, d)
    return not diffs


# -------------------------------------------------------------------- DOT

DOT_TYPES = {
    "box": "rectangle", "rect": "rectangle", "rectangle": "rectangle", "square": "rectangle",
    "ellipse": "oval", "oval": "oval", "circle": "circle", "doublecircle": "circle",
    "diamond": "diamond", "parallelogram": "parallelogram", "cylinder": "cylinder",
    "plaintext": "no-box", "plain": "no-box", "none": "no-box", "point": "point",
}


def dot_source(path):
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".md":
        m = re.search(r"^```(?:dot|graphviz)[ \t]*\n(.*?)^```", text, re.S | re.M)
        return m.group(1)
    return text


def read_dot(path):
    """The graph as Graphviz reads it (layout attributes ignored)."""
    run = subprocess.run(["dot", "-Tjson0"], input=dot_source(path), capture_output=True,
                         text=True, check=False)
    if run.returncode != 0 or run.stderr.strip():
        raise ValueError("dot -Tjson0: " + run.stderr.strip())
    graph = json.loads(run.stdout)
    if not graph["directed"]:
        raise ValueError("not a digraph")
    names, nodes = {}, {}
    for obj in graph.get("objects", []):
        names[obj["_gvid"]] = obj["name"]
        shape = obj.get("shape", "ellipse").lower()
        ntype = DOT_TYPES.get(shape, "unknown")
        if ntype == "rectangle" and obj.get("peripheries") == "2":
            ntype = "double-rectangle"
        ntype = obj.get("clef_type", ntype)
        label = obj.get("label", "\\N")
        text = obj["name"] if label == "\\N" else label
        nodes[clef_id(obj["name"], "n")] = (ntype, text)
    edges = []
    for e in graph.get("edges", []):
        directed = e.get("dir", "forward") != "none"
        etype = "dotted" if e.get("style") in ("dotted", "dashed") else "plain"
        etype = e.get("clef_type", etype)
        a, b = clef_id(names[e["tail"]], "n"), clef_id(names[e["head"]], "n")
        edges.append(edge_key(directed, a, b, etype, e.get("label", "")))
    return nodes, sorted(edges)


def dot_expected(chart):
    """What Graphviz makes of the source: a node given twice takes the
    attributes given last; an edge to an undefined node defines it, bare
    (named by its id, in the default shape). Returns the graph and the
    differences from the CLEF-IP reading that this implies."""
    nodes = {}
    for n in chart["nodes"]:
        nodes[n["id"]] = (n["type"], n["text"] or "")
    implied = set()
    edges = []
    for e in chart["edges"]:
        for i in (e["a"], e["b"]):
            if i not in nodes:
                nodes[i] = None  # filled in from the file: its type is the default shape
                implied.add(i)
        edges.append(edge_key(e["directed"], e["a"], e["b"], e["type"], e["text"] or ""))
    return nodes, sorted(edges), implied


# ----------------------------------------------------------------- draw.io


def decompress(text):
    """draw.io's Graph.decompress: base64, raw inflate, decodeURIComponent."""
    raw = base64.b64decode(text.strip(), validate=True)
    return urllib.parse.unquote(zlib.decompress(raw, -15).decode("ascii"), errors="strict")


def drawio_pages(path):
    root = ET.parse(path).getroot()
    if root.tag != "mxfile":
        raise ValueError(f"root element is {root.tag}, not mxfile")
    pages = []
    for diagram in root.findall("diagram"):
        model = diagram.find("mxGraphModel")
        compressed = model is None
        if compressed:
            model = ET.fromstring(decompress(diagram.text or ""))
        if model.tag != "mxGraphModel":
            raise ValueError(f"page {diagram.get('name')}: {model.tag}, not mxGraphModel")
        cells = model.find("root")
        ids = [c.get("id") for c in cells]
        if ids[:2] != ["0", "1"]:
            raise ValueError(f"page {diagram.get('name')}: the first cells are {ids[:2]}")
        pages.append((diagram.get("name"), compressed, model))
    if not pages:
        raise ValueError("no diagram")
    return pages


def parse_style(style):
    name, pairs = None, {}
    for part in (style or "").split(";"):
        if not part:
            continue
        if "=" in part:
            k, v = part.split("=", 1)
            pairs[k] = v
        elif name is None:
            name = part
    return name, pairs


def drawio_text(value, pairs):
    if pairs.get("html") != "1":
        return value
    value = re.sub(r"<br\s*/?>", " ", value, flags=re.I)
    value = re.sub(r"</?[A-Za-z][^>]*>", "", value)
    return html.unescape(value)


def read_drawio(model):
    """The first page's flowchart, and the problems found (duplicate ids,
    edges whose ends are not vertices)."""
    cells = []
    for el in model.find("root"):
        if el.tag == "mxCell":
            cells.append((el, el.get("id"), el.get("value", ""), None))
        elif el.tag in ("UserObject", "object"):
            cell = el.find("mxCell")
            cells.append((cell, el.get("id"), el.get("label", ""), el.get("clef_type")))
        else:
            raise ValueError(f"unexpected element {el.tag} in root")
    kinds = {cid: ("edge" if c.get("edge") == "1" else "vertex") for c, cid, _, _ in cells}
    nodes, problems, edges, child_text = {}, [], [], {}
    for cell, cid, value, clef in cells:
        name, pairs = parse_style(cell.get("style"))
        if cell.get("vertex") == "1" and name == "edgeLabel" and kinds.get(cell.get("parent")) == "edge":
            child_text[cell.get("parent")] = drawio_text(value, pairs)
    for cell, cid, value, clef in cells:
        name, pairs = parse_style(cell.get("style"))
        if cell.get("vertex") != "1" or name == "edgeLabel":
            continue
        geo = cell.find("mxGeometry")
        shape = pairs.get("shape")
        if name == "ellipse":
            ntype = "circle" if geo.get("width") == geo.get("height") else "oval"
        elif name == "rhombus":
            ntype = "diamond"
        elif name == "text":
            ntype = "no-box"
        elif shape == "parallelogram":
            ntype = "parallelogram"
        elif shape == "process":
            ntype = "double-rectangle"
        elif shape in ("cylinder", "cylinder3"):
            ntype = "cylinder"
        elif name is None and shape is None:
            ntype = "rectangle"
        else:
            ntype = "unknown"
        i = clef_id(cid, "v")
        if i in nodes:
            problems.append(f"node {i} defined twice")
            continue
        nodes[i] = (clef or ntype, drawio_text(value, pairs))
    for cell, cid, value, clef in cells:
        if cell.get("edge") != "1":
            continue
        name, pairs = parse_style(cell.get("style"))
        a, b = clef_id(cell.get("source", ""), "v"), clef_id(cell.get("target", ""), "v")
        missing = [i for i in (a, b) if i not in nodes]
        if missing:
            problems.append(f"edge to undefined node {missing[0]}")
            continue
        directed = not (pairs.get("endArrow") == "none" and pairs.get("startArrow", "none") == "none")
        etype = clef or ("dotted" if pairs.get("dashed") == "1" else "plain")
        text = drawio_text(value, pairs) or child_text.get(cid, "")
        edges.append(edge_key(directed, a, b, etype, text))
    return (nodes, sorted(edges)), problems


# ----------------------------------------------------------------- GraphML

SHAPE_NODE = {"rectangle": "rectangle", "roundrectangle": "rectangle", "ellipse": "oval",
              "diamond": "diamond", "parallelogram": "parallelogram"}
GENERIC_NODE = {
    "com.yworks.flowchart.process": "rectangle", "com.yworks.flowchart.terminator": "oval",
    "com.yworks.flowchart.start1": "oval", "com.yworks.flowchart.start2": "oval",
    "com.yworks.flowchart.decision": "diamond", "com.yworks.flowchart.data": "parallelogram",
    "com.yworks.flowchart.predefinedProcess": "double-rectangle",
    "com.yworks.flowchart.dataBase": "cylinder", "com.yworks.flowchart.annotation": "no-box",
}


def read_graphml(path):
    root = ET.parse(path).getroot()
    if root.tag != GRAPHML_NS + "graphml":
        raise ValueError(f"root element is {root.tag}")
    clef_keys = {k.get("id") for k in root.findall(GRAPHML_NS + "key")
                 if k.get("attr.name") == "clef_type"}
    graph = root.find(GRAPHML_NS + "graph")
    default_directed = graph.get("edgedefault") == "directed"

    def clef_of(el):
        for d in el.findall(GRAPHML_NS + "data"):
            if d.get("key") in clef_keys:
                return (d.text or "").strip()
        return None

    nodes, problems, edges = {}, [], []
    for n in graph.findall(GRAPHML_NS + "node"):
        ntype, text = "unknown", ""
        shape_node = n.find(f".//{Y_NS}ShapeNode")
        generic = n.find(f".//{Y_NS}GenericNode")
        if shape_node is not None:
            ntype = SHAPE_NODE.get(shape_node.find(Y_NS + "Shape").get("type"), "unknown")
            label = shape_node.find(Y_NS + "NodeLabel")
        else:
            ntype = GENERIC_NODE.get(generic.get("configuration"), "unknown")
            label = generic.find(Y_NS + "NodeLabel")
        if label is not None:
            text = label.text or ""
        i = clef_id(n.get("id"), "n")
        if i in nodes:
            problems.append(f"node {i} defined twice")
            continue
        nodes[i] = (clef_of(n) or ntype, text)
    for e in graph.findall(GRAPHML_NS + "edge"):
        a, b = clef_id(e.get("source"), "n"), clef_id(e.get("target"), "n")
        missing = [i for i in (a, b) if i not in nodes]
        if missing:
            problems.append(f"edge to undefined node {missing[0]}")
            continue
        d = e.get("directed")
        directed = default_directed if d is None else d == "true"
        style = e.find(f".//{Y_NS}LineStyle")
        etype = "dotted" if style is not None and style.get("type") in ("dotted", "dashed") else "plain"
        label = e.find(f".//{Y_NS}EdgeLabel")
        text = label.text or "" if label is not None else ""
        edges.append(edge_key(directed, a, b, clef_of(e) or etype, text))
    return (nodes, sorted(edges)), problems


# -------------------------------------------------------------------- main


def main():
    charts = {(folder, stem): make.read_clef(path) for folder, stem, path in make.sources()}
    for fmt, folder, stem, path in make.outputs():
        rel = path.relative_to(HERE)
        chart = charts[(folder, stem)]
        src_nodes, src_edges, src_problems = source_graph(chart)
        try:
            if fmt == "dot":
                got = read_dot(path)
                want_nodes, want_edges, implied = dot_expected(chart)
                for i in implied:  # its type is the file's default shape
                    want_nodes[i] = (got[0].get(i, ("?", ""))[0], f"n{i}")
                ok = compare(rel, got, (want_nodes, want_edges))
                if ok and src_problems:
                    differ = [f"node {i} is {want_nodes.get(i)}" for i in sorted(want_nodes)
                              if want_nodes.get(i) != src_nodes.get(i)]
                    print(f"     {rel}: the source has {'; '.join(src_problems)}; Graphviz reads "
                          f"it without complaint, and {', '.join(differ)}")
                how = "Graphviz"
            elif fmt == "drawio":
                pages = drawio_pages(path)
                got, problems = read_drawio(pages[0][2])
                ok = compare(rel, got, (src_nodes, src_edges))
                if problems != src_problems:
                    ok = False
                    fail(rel, f"problems {problems}, the source has {src_problems}")
                elif problems:
                    print(f"     {rel}: as in the source: {'; '.join(problems)}")
                how = ", ".join(f"page {name!r} {'compressed' if c else 'inline'}"
                                for name, c, _ in pages)
            else:
                got, problems = read_graphml(path)
                ok = compare(rel, got, (src_nodes, src_edges))
                if problems != src_problems:
                    ok = False
                    fail(rel, f"problems {problems}, the source has {src_problems}")
                elif problems:
                    print(f"     {rel}: as in the source: {'; '.join(problems)}")
                how = "XML"
        except (ValueError, ET.ParseError, zlib.error, KeyError, AttributeError) as err:
            fail(rel, f"{type(err).__name__}: {err}")
            continue
        if ok:
            print(f"ok   {rel}: {len(got[0])} nodes, {len(got[1])} edges ({how})")
    print(f"{len(make.outputs())} files read back, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
