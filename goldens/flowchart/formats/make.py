#!/usr/bin/env python3
"""Writes the DOT, GraphML (yEd) and draw.io fixtures of this folder from the
bundled CLEF-IP flowchart files, by a converter independent of clefeval's
code (Python standard library only):

  ../gold/<stem>.txt              -> dot/gold/<stem>.dot
                                     graphml/gold/<stem>.graphml
                                     drawio/gold/<stem>.drawio
  ../runs/recognizer-a/<stem>.txt -> dot/runs/recognizer-a/<stem>.gv
                                     graphml/runs/recognizer-a/<stem>.graphml
                                     drawio/runs/recognizer-a/<stem>.drawio
  ../runs/recognizer-b/<stem>.txt -> dot/runs/recognizer-b/<stem>.dot
                                     (FC-0005 as a Markdown answer, .md)
                                     graphml/runs/recognizer-b/<stem>.graphml
                                     drawio/runs/recognizer-b/<stem>.drawio

Every node and edge is written in the format's own way (shape, line style,
arrow, label); the attribute `clef_type` is written only where the format
has no own form for a CLEF-IP type:

  DOT      node `unknown`;                     edges `wiggly`, `unknown`
  GraphML  nodes `circle`, `point`, `unknown`; edges `wiggly`, `unknown`
  draw.io  nodes `point`, `unknown`;           edges `wiggly`, `unknown`

Texts are written unchanged (only escaped for each syntax), so each file
reads back to the flowchart it comes from. The per-file variations (DOT
defaults, compressed draw.io pages, edge labels as child cells, wrapped
cells, a second page, yEd's generic flowchart nodes) are listed in the
tables DOT, GRAPHML and DRAWIO below and in README.md; check.sh checks the
output. Run from anywhere: python3 make.py
"""
import base64
import pathlib
import re
import urllib.parse
import zlib

HERE = pathlib.Path(__file__).resolve().parent
SRC = HERE.parent

NODE_TYPES = (
    "rectangle", "oval", "circle", "diamond", "parallelogram",
    "double-rectangle", "cylinder", "no-box", "point", "unknown",
)
EDGE_TYPES = ("plain", "dotted", "wiggly", "unknown")

# ---------------------------------------------------------------- CLEF-IP


def decode(raw: bytes) -> str:
    if raw.startswith(b"\xff\xfe") or raw.startswith(b"\xfe\xff"):
        return raw.decode("utf-16")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = raw.decode("latin-1")
    return text[1:] if text.startswith("\ufeff") else text


NUM = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
LOCATION = re.compile(r"\(\s*(" + NUM + r")\s*,\s*(" + NUM + r")\s*\)")


def read_clef(path: pathlib.Path) -> dict:
    """Reads a CLEF-IP flowchart file as written: nodes in file order (a
    duplicate id is kept as a second node), edges in file order (an edge
    may name an undefined node). The text of a record is everything between
    the first and the last double quote of its line."""
    chart = {"title": None, "nodes": [], "edges": []}
    for line in decode(path.read_bytes()).split("\n"):
        if line.endswith("\r"):
            line = line[:-1]
        first = line.find('"')
        if first < 0:
            head, text, tail = line, None, ""
        else:
            last = line.rfind('"')
            head = line[:first]
            if last > first:
                text, tail = line[first + 1:last], line[last + 1:]
            else:
                text, tail = line[first + 1:].rstrip(" \t"), ""
        fields = head.split()
        if not fields:
            continue
        kind = fields[0].upper()
        try:
            if kind == "MT":
                if len(fields) > 1 and fields[1].lower() == "title":
                    if chart["title"] is None:
                        chart["title"] = text if text is not None else " ".join(fields[2:])
            elif kind == "NO":
                ntype = fields[2].lower() if len(fields) > 2 else "unknown"
                if ntype not in NODE_TYPES:
                    ntype = "unknown"
                where = tail if text is not None else " ".join(fields[3:])
                m = LOCATION.search(where)
                loc = (float(m.group(1)), float(m.group(2))) if m else None
                chart["nodes"].append(
                    {"id": int(fields[1]), "type": ntype, "text": text, "loc": loc})
            elif kind in ("DE", "UE"):
                etype = fields[3].lower() if len(fields) > 3 else "unknown"
                if etype not in EDGE_TYPES:
                    etype = "unknown"
                chart["edges"].append({
                    "directed": kind == "DE", "a": int(fields[1]),
                    "b": int(fields[2]), "type": etype, "text": text})
        except (IndexError, ValueError):
            continue  # a malformed record; none in the bundled files
    return chart


def key(prefix: str, clef_id: int) -> str:
    """A non-numeric id for a CLEF-IP node id: n7, or nm7 for -7."""
    return f"{prefix}{clef_id}" if clef_id >= 0 else f"{prefix}m{-clef_id}"


# ------------------------------------------------------------------ layout

SIZE = {
    "rectangle": (160, 60), "oval": (120, 50), "circle": (50, 50),
    "diamond": (160, 90), "parallelogram": (170, 60),
    "double-rectangle": (170, 60), "cylinder": (70, 80), "no-box": (60, 30),
    "point": (10, 10), "unknown": (120, 60),
}


def layout(chart: dict) -> list:
    """Centre (x, y) of every node, by its position in chart["nodes"]: the
    file's location when it has one; boxes without one in a column below;
    a no-box node beside the box its undirected edge joins."""
    nodes = chart["nodes"]
    centre = [n["loc"] for n in nodes]
    placed = [c for c in centre if c is not None]
    y = max((c[1] for c in placed), default=-50.0) + 110.0
    for i, n in enumerate(nodes):
        if centre[i] is None and n["type"] != "no-box":
            centre[i] = (310.0, y)
            y += 110.0
    index = {}
    for i, n in enumerate(nodes):
        index.setdefault(n["id"], i)
    partner = {}
    for e in chart["edges"]:
        if not e["directed"]:
            for me, other in ((e["a"], e["b"]), (e["b"], e["a"])):
                if me in index and other in index and nodes[index[other]]["type"] != "no-box":
                    partner.setdefault(me, index[other])
    stacked = {}
    spare_y = 60.0
    for i, n in enumerate(nodes):
        if centre[i] is not None:
            continue
        j = partner.get(n["id"])
        if j is not None and centre[j] is not None:
            k = stacked.get(j, 0)
            stacked[j] = k + 1
            centre[i] = (centre[j][0] + 190.0, centre[j][1] - 20.0 + 35.0 * k)
        else:
            centre[i] = (900.0, spare_y)
            spare_y += 50.0
    return centre


def box(n: dict, c: tuple) -> tuple:
    w, h = SIZE[n["type"]]
    return c[0] - w / 2, c[1] - h / 2, w, h


def num(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else repr(float(v))


# --------------------------------------------------------------------- DOT

DOT_SHAPE = {
    "rectangle": "box", "oval": "ellipse", "circle": "circle",
    "diamond": "diamond", "parallelogram": "parallelogram",
    "double-rectangle": "box", "cylinder": "cylinder", "no-box": "plaintext",
    "point": "point", "unknown": "hexagon",
}


def dot_str(s: str) -> str:
    """A DOT quoted string: a backslash and a double quote are escaped."""
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def to_dot(chart: dict, opt: dict) -> str:
    shape = dict(DOT_SHAPE, **opt.get("shapes", {}))
    name = dot_str(chart["title"]) if chart["title"] else "flowchart"
    out = []
    if opt.get("comment"):
        out.append(opt["comment"])
    out.append(f"digraph {name} {{")
    out.append("    rankdir=TB;")
    if opt.get("box_default"):
        out.append("    node [shape=box];")
    for n in chart["nodes"]:
        attrs = []
        t = n["type"]
        if t == "oval" and opt.get("oval_default") and not opt.get("box_default"):
            pass  # DOT's default shape, the ellipse
        elif t in ("rectangle", "double-rectangle") and opt.get("box_default"):
            pass  # the node [shape=box] default
        else:
            attrs.append(f"shape={shape[t]}")
        if t == "double-rectangle":
            attrs.append("peripheries=2")
        if t == "unknown":
            attrs.append('clef_type="unknown"')
        attrs.append("label=" + dot_str(n["text"] or ""))
        out.append(f"    {key('n', n['id'])} [{', '.join(attrs)}];")
    edges = chart["edges"]
    if opt.get("undirected_default"):
        edges = [e for e in edges if e["directed"]] + [e for e in edges if not e["directed"]]
    in_default = False
    for e in edges:
        attrs = []
        if not e["directed"]:
            if opt.get("undirected_default"):
                if not in_default:
                    out.append("    edge [dir=none];")
                    in_default = True
            else:
                attrs.append("dir=none")
        if e["type"] == "dotted":
            attrs.append("style=" + opt.get("dotted", "dotted"))
        elif e["type"] in ("wiggly", "unknown"):
            attrs.append(f'clef_type="{e["type"]}"')
        if e["text"]:
            attrs.append("label=" + dot_str(e["text"]))
        line = f"    {key('n', e['a'])} -> {key('n', e['b'])}"
        out.append(line + (f" [{', '.join(attrs)}];" if attrs else ";"))
    out.append("}")
    return "\n".join(out) + "\n"


# ----------------------------------------------------------------- GraphML


def xml_attr(s: str) -> str:
    return (s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;"))


def xml_text(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


GRAPHML_HEAD = """<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<graphml xmlns="http://graphml.graphdrawing.org/xmlns" xmlns:java="http://www.yworks.com/xml/yfiles-common/1.0/java" xmlns:sys="http://www.yworks.com/xml/yfiles-common/markup/primitives/2.0" xmlns:x="http://www.yworks.com/xml/yfiles-common/markup/2.0" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:y="http://www.yworks.com/xml/graphml" xmlns:yed="http://www.yworks.com/xml/yed/3" xsi:schemaLocation="http://graphml.graphdrawing.org/xmlns http://www.yworks.com/xml/schema/graphml/1.1/ygraphml.xsd">
  <!--Created by yEd 3.23.2-->
  <key attr.name="Description" attr.type="string" for="graph" id="d0"/>
  <key for="port" id="d1" yfiles.type="portgraphics"/>
  <key for="port" id="d2" yfiles.type="portgeometry"/>
  <key for="port" id="d3" yfiles.type="portuserdata"/>
  <key attr.name="url" attr.type="string" for="node" id="d4"/>
  <key attr.name="description" attr.type="string" for="node" id="d5"/>
  <key for="node" id="d6" yfiles.type="nodegraphics"/>
  <key for="graphml" id="d7" yfiles.type="resources"/>
  <key attr.name="url" attr.type="string" for="edge" id="d8"/>
  <key attr.name="description" attr.type="string" for="edge" id="d9"/>
  <key for="edge" id="d10" yfiles.type="edgegraphics"/>
"""

# (element, shape type or generic configuration), the native yEd form
YED_SHAPE = {
    "rectangle": ("ShapeNode", "rectangle"),
    "oval": ("ShapeNode", "ellipse"),
    "circle": ("ShapeNode", "ellipse"),          # + clef_type: no own form
    "diamond": ("ShapeNode", "diamond"),
    "parallelogram": ("ShapeNode", "parallelogram"),
    "double-rectangle": ("GenericNode", "com.yworks.flowchart.predefinedProcess"),
    "cylinder": ("GenericNode", "com.yworks.flowchart.dataBase"),
    "no-box": ("GenericNode", "com.yworks.flowchart.annotation"),
    "point": ("ShapeNode", "ellipse"),           # + clef_type
    "unknown": ("ShapeNode", "hexagon"),         # + clef_type
}
YED_GENERIC = {
    "rectangle": ("GenericNode", "com.yworks.flowchart.process"),
    "oval": ("GenericNode", "com.yworks.flowchart.terminator"),
    "diamond": ("GenericNode", "com.yworks.flowchart.decision"),
    "parallelogram": ("GenericNode", "com.yworks.flowchart.data"),
}
GRAPHML_NODE_CLEF = ("circle", "point", "unknown")
CLEF_EDGE = ("wiggly", "unknown")


def yed_label(tag: str, text: str, w: float, h: float) -> str:
    tw = round(7.0 * len(text) + 4.0, 1)
    if tag == "NodeLabel":
        return (
            '<y:NodeLabel alignment="center" autoSizePolicy="content" fontFamily="Dialog" '
            'fontSize="12" fontStyle="plain" hasBackgroundColor="false" hasLineColor="false" '
            f'height="17.96875" horizontalTextPosition="center" iconTextGap="4" modelName="custom" '
            f'textColor="#000000" verticalTextPosition="bottom" visible="true" width="{tw}" '
            f'x="{round((w - tw) / 2, 3)}" xml:space="preserve" y="{round((h - 17.96875) / 2, 6)}">'
            f"{xml_text(text)}"
            '<y:LabelModel><y:SmartNodeLabelModel distance="4.0"/></y:LabelModel>'
            '<y:ModelParameter><y:SmartNodeLabelModelParameter labelRatioX="0.0" labelRatioY="0.0" '
            'nodeRatioX="0.0" nodeRatioY="0.0" offsetX="0.0" offsetY="0.0" upX="0.0" upY="-1.0"/>'
            "</y:ModelParameter></y:NodeLabel>")
    return (
        '<y:EdgeLabel alignment="center" configuration="AutoFlippingLabel" distance="2.0" '
        'fontFamily="Dialog" fontSize="12" fontStyle="plain" hasBackgroundColor="false" '
        'hasLineColor="false" height="17.96875" horizontalTextPosition="center" iconTextGap="4" '
        'modelName="custom" preferredPlacement="anywhere" ratio="0.5" textColor="#000000" '
        f'verticalTextPosition="bottom" visible="true" width="{tw}" x="4.0" xml:space="preserve" '
        f'y="10.0">{xml_text(text)}'
        '<y:LabelModel><y:SmartEdgeLabelModel autoRotationEnabled="false" defaultAngle="0.0" '
        'defaultDistance="10.0"/></y:LabelModel><y:ModelParameter>'
        '<y:SmartEdgeLabelModelParameter angle="0.0" distance="30.0" distanceToCenter="true" '
        'position="right" ratio="0.5" segment="0"/></y:ModelParameter>'
        '<y:PreferredPlacementDescriptor angle="0.0" angleOffsetOnRightSide="0" '
        'angleReference="absolute" angleRotationOnRightSide="co" distance="-1.0" frozen="true" '
        'placement="anywhere" side="anywhere" sideReference="relative_to_edge_flow"/>'
        "</y:EdgeLabel>")


def to_graphml(chart: dict, opt: dict) -> str:
    forms = dict(YED_SHAPE)
    if opt.get("generic"):
        forms.update(YED_GENERIC)
    if opt.get("roundrectangle"):
        forms["rectangle"] = ("ShapeNode", "roundrectangle")
    node_clef = any(n["type"] in GRAPHML_NODE_CLEF for n in chart["nodes"])
    edge_clef = any(e["type"] in CLEF_EDGE for e in chart["edges"])
    out = [GRAPHML_HEAD.rstrip("\n")]
    # the key of the CLEF-IP type is found by its attr.name; its id varies
    if node_clef:
        node_key, edge_key = "d11", "d12"
        out.append('  <key attr.name="clef_type" attr.type="string" for="node" id="d11"/>')
        if edge_clef:
            out.append('  <key attr.name="clef_type" attr.type="string" for="edge" id="d12"/>')
    else:
        node_key, edge_key = None, "clef_type"
        if edge_clef:
            out.append('  <key id="clef_type" for="edge" attr.name="clef_type" attr.type="string"/>')
    out.append('  <graph edgedefault="directed" id="G">')
    out.append(f'    <data key="d0" xml:space="preserve">{xml_text(chart["title"] or "")}</data>')
    centres = layout(chart)
    for n, c in zip(chart["nodes"], centres):
        x, y, w, h = box(n, c)
        kind, form = forms[n["type"]]
        out.append(f'    <node id="{key("n", n["id"])}">')
        out.append('      <data key="d6">')
        if kind == "ShapeNode":
            out.append("        <y:ShapeNode>")
        else:
            out.append(f'        <y:GenericNode configuration="{form}">')
        out.append(f'          <y:Geometry height="{h:.1f}" width="{w:.1f}" x="{x:.1f}" y="{y:.1f}"/>')
        if n["type"] == "no-box":
            out.append('          <y:Fill hasColor="false" transparent="false"/>')
        elif n["type"] == "point":
            out.append('          <y:Fill color="#000000" transparent="false"/>')
        else:
            out.append('          <y:Fill color="#E8EEF7" color2="#B7C9E3" transparent="false"/>')
        out.append('          <y:BorderStyle color="#000000" raised="false" type="line" width="1.0"/>')
        if n["text"]:
            out.append("          " + yed_label("NodeLabel", n["text"], w, h))
        if kind == "ShapeNode":
            out.append(f'          <y:Shape type="{form}"/>')
            out.append("        </y:ShapeNode>")
        else:
            if n["type"] == "no-box":
                out.append("          <y:StyleProperties>")
                out.append('            <y:Property class="java.lang.Byte" '
                           'name="com.yworks.flowchart.style.orientation" value="4"/>')
                out.append("          </y:StyleProperties>")
            out.append("        </y:GenericNode>")
        out.append("      </data>")
        if n["type"] in GRAPHML_NODE_CLEF:
            out.append(f'      <data key="{node_key}">{n["type"]}</data>')
        out.append("    </node>")
    for i, e in enumerate(chart["edges"]):
        directed = "true" if e["directed"] else "false"
        out.append(f'    <edge id="e{i}" source="{key("n", e["a"])}" '
                   f'target="{key("n", e["b"])}" directed="{directed}">')
        out.append('      <data key="d10">')
        out.append("        <y:PolyLineEdge>")
        out.append('          <y:Path sx="0.0" sy="0.0" tx="0.0" ty="0.0"/>')
        line = opt.get("dotted", "dotted") if e["type"] == "dotted" else "line"
        out.append(f'          <y:LineStyle color="#000000" type="{line}" width="1.0"/>')
        target = "standard" if e["directed"] else "none"
        out.append(f'          <y:Arrows source="none" target="{target}"/>')
        if e["text"]:
            out.append("          " + yed_label("EdgeLabel", e["text"], 0, 0))
        out.append('          <y:BendStyle smoothed="false"/>')
        out.append("        </y:PolyLineEdge>")
        out.append("      </data>")
        if e["type"] in CLEF_EDGE:
            out.append(f'      <data key="{edge_key}">{e["type"]}</data>')
        out.append("    </edge>")
    out.append("  </graph>")
    out.append('  <data key="d7">')
    out.append("    <y:Resources/>")
    out.append("  </data>")
    out.append("</graphml>")
    return "\n".join(out) + "\n"


# ----------------------------------------------------------------- draw.io

DRAWIO_STYLE = {
    "rectangle": "rounded=0;whiteSpace=wrap;html=1;",
    "oval": "ellipse;whiteSpace=wrap;html=1;",
    "circle": "ellipse;whiteSpace=wrap;html=1;aspect=fixed;",
    "diamond": "rhombus;whiteSpace=wrap;html=1;",
    "parallelogram": "shape=parallelogram;perimeter=parallelogramPerimeter;whiteSpace=wrap;html=1;fixedSize=1;",
    "double-rectangle": "shape=process;whiteSpace=wrap;html=1;backgroundOutline=1;",
    "cylinder": "shape=cylinder3;whiteSpace=wrap;html=1;boundedLbl=1;backgroundOutline=1;size=15;",
    "no-box": "text;html=1;align=center;verticalAlign=middle;resizable=0;points=[];autosize=1;strokeColor=none;fillColor=none;",
    # no own form in draw.io: the shape is drawn, clef_type says what it is
    "point": "shape=waypoint;sketch=0;fillStyle=solid;size=6;pointerEvents=1;points=[];fillColor=none;resizable=0;rotatable=0;perimeter=centerPerimeter;snapToPoint=1;",
    "unknown": "shape=hexagon;perimeter=hexagonPerimeter2;whiteSpace=wrap;html=1;fixedSize=1;",
}
DRAWIO_NODE_CLEF = ("point", "unknown")
EDGE_STYLE = "edgeStyle=orthogonalEdgeStyle;rounded=0;orthogonalLoop=1;jettySize=auto;html=1;"
MODEL_ATTRS = ('dx="1426" dy="797" grid="1" gridSize="10" guides="1" tooltips="1" '
               'connect="1" arrows="1" fold="1" page="1" pageScale="1" pageWidth="850" '
               'pageHeight="1100" math="0" shadow="0"')


def drawio_value(text: str, html: bool) -> str:
    """An attribute value for a cell's text. With html=1 in the style the
    text is HTML, so & < > are escaped once for HTML, then for XML, as
    draw.io saves a typed `a < b`; without it, for XML only."""
    if html:
        text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return xml_attr(text)


def drawio_cells(chart: dict, opt: dict) -> list:
    """The <root> children of the diagram, one string per cell."""
    cells = ['<mxCell id="0"/>', '<mxCell id="1" parent="0"/>']
    wrap_user = set(opt.get("userobject", ()))
    plain_text = set(opt.get("no_html", ()))
    for n, c in zip(chart["nodes"], layout(chart)):
        x, y, w, h = box(n, c)
        style = DRAWIO_STYLE[n["type"]]
        if n["type"] == "rectangle" and opt.get("rounded"):
            style = style.replace("rounded=0;", "rounded=1;")
        if n["id"] in plain_text:
            style = style.replace("html=1;", "")
        html = "html=1" in style
        value = drawio_value(n["text"] or "", html)
        vid = key("v", n["id"])
        geometry = (f'<mxGeometry x="{num(x)}" y="{num(y)}" width="{num(w)}" '
                    f'height="{num(h)}" as="geometry"/>')
        if n["type"] in DRAWIO_NODE_CLEF:
            cells.append(f'<object label="{value}" clef_type="{n["type"]}" id="{vid}">'
                         f'<mxCell style="{style}" vertex="1" parent="1">{geometry}</mxCell></object>')
        elif n["id"] in wrap_user:
            cells.append(f'<UserObject label="{value}" id="{vid}">'
                         f'<mxCell style="{style}" vertex="1" parent="1">{geometry}</mxCell></UserObject>')
        else:
            cells.append(f'<mxCell id="{vid}" value="{value}" style="{style}" vertex="1" parent="1">'
                         f"{geometry}</mxCell>")
    child_labels = opt.get("edge_label_child", "none")
    labelled = 0
    for i, e in enumerate(chart["edges"], start=1):
        style = EDGE_STYLE
        if not e["directed"]:
            style += "endArrow=none;"
        if e["type"] == "dotted":
            style += opt.get("dotted", "dashed=1;")
        eid = f"e{i}"
        text = e["text"] or ""
        as_child = False
        if text:
            labelled += 1
            as_child = child_labels == "all" or (child_labels == "alternate" and labelled % 2 == 1)
        value = "" if as_child else drawio_value(text, True)
        ends = f'source="{key("v", e["a"])}" target="{key("v", e["b"])}"'
        geometry = '<mxGeometry relative="1" as="geometry"/>'
        if e["type"] in CLEF_EDGE:
            cells.append(f'<object label="{value}" clef_type="{e["type"]}" id="{eid}">'
                         f'<mxCell style="{style}" edge="1" parent="1" {ends}>{geometry}</mxCell></object>')
        else:
            cells.append(f'<mxCell id="{eid}" value="{value}" style="{style}" edge="1" parent="1" '
                         f"{ends}>{geometry}</mxCell>")
        if as_child:
            cells.append(
                f'<mxCell id="{eid}-label" value="{drawio_value(text, True)}" '
                'style="edgeLabel;html=1;align=center;verticalAlign=middle;resizable=0;points=[];" '
                f'vertex="1" connectable="0" parent="{eid}">'
                '<mxGeometry x="-0.2" relative="1" as="geometry"><mxPoint as="offset"/></mxGeometry>'
                "</mxCell>")
    return cells


def legend_cells() -> list:
    """A tiny second page: two boxes and an arrow."""
    return [
        '<mxCell id="0"/>', '<mxCell id="1" parent="0"/>',
        '<mxCell id="L1" value="Process step" style="rounded=0;whiteSpace=wrap;html=1;" vertex="1" parent="1">'
        '<mxGeometry x="40" y="40" width="120" height="60" as="geometry"/></mxCell>',
        '<mxCell id="L2" value="Decision" style="rhombus;whiteSpace=wrap;html=1;" vertex="1" parent="1">'
        '<mxGeometry x="220" y="30" width="120" height="80" as="geometry"/></mxCell>',
        f'<mxCell id="L3" value="" style="{EDGE_STYLE}" edge="1" parent="1" source="L1" target="L2">'
        '<mxGeometry relative="1" as="geometry"/></mxCell>',
    ]


def model_xml(cells: list, pretty: bool) -> str:
    if not pretty:  # as draw.io serializes the model before compressing it
        return f"<mxGraphModel {MODEL_ATTRS}><root>{''.join(cells)}</root></mxGraphModel>"
    body = "\n".join("        " + c for c in cells)
    return (f"    <mxGraphModel {MODEL_ATTRS}>\n      <root>\n{body}\n"
            "      </root>\n    </mxGraphModel>")


def compress(xml: str) -> str:
    """draw.io's compressed diagram: base64 of the raw deflate of the
    URL-encoded (encodeURIComponent) XML."""
    quoted = urllib.parse.quote(xml, safe="~()*!.'")
    deflater = zlib.compressobj(9, zlib.DEFLATED, -15)
    raw = deflater.compress(quoted.encode("ascii")) + deflater.flush()
    return base64.b64encode(raw).decode("ascii")


def to_drawio(chart: dict, opt: dict, stem: str) -> str:
    pages = [("Page-1", drawio_cells(chart, opt))]
    if opt.get("second_page"):
        pages.append(("Legend", legend_cells()))
    out = ['<mxfile host="app.diagrams.net" agent="Mozilla/5.0 (X11; Linux x86_64)" version="24.7.17">']
    for number, (name, cells) in enumerate(pages, start=1):
        pid = f"{stem.lower()}-page-{number}"
        if opt.get("compressed"):
            out.append(f'  <diagram id="{pid}" name="{name}">{compress(model_xml(cells, False))}</diagram>')
        else:
            out.append(f'  <diagram id="{pid}" name="{name}">')
            out.append(model_xml(cells, True))
            out.append("  </diagram>")
    out.append("</mxfile>")
    return "\n".join(out) + "\n"


# ------------------------------------------------------------------- files

GOLD, RUN_A, RUN_B = "gold", "runs/recognizer-a", "runs/recognizer-b"

# What varies from file to file. DOT: extension, defaults, shape aliases.
DOT = {
    (GOLD, "FC-0001"): {"oval_default": True,
                        "comment": "// FIG. 3 of EP-1234567-A1; START and END use DOT's default shape"},
    (GOLD, "FC-0002"): {"box_default": True},
    (GOLD, "FC-0003"): {"oval_default": True},
    (GOLD, "FC-0004"): {},
    (GOLD, "FC-0005"): {"shapes": {"oval": "oval", "rectangle": "rect"}},
    (GOLD, "FC-0006"): {"comment": "/* Temperaturregelung, written by hand from the patent figure */"},
    (RUN_A, "FC-0001"): {"ext": ".gv"},
    (RUN_A, "FC-0002"): {"ext": ".gv", "box_default": True},
    (RUN_A, "FC-0003"): {"ext": ".gv", "shapes": {"no-box": "none"}},
    (RUN_A, "FC-0005"): {"ext": ".gv", "dotted": "dashed"},
    (RUN_A, "FC-0006"): {"ext": ".gv"},
    (RUN_B, "FC-0001"): {"shapes": {"rectangle": "rectangle", "no-box": "plain"}},
    (RUN_B, "FC-0002"): {},
    (RUN_B, "FC-0003"): {},
    (RUN_B, "FC-0004"): {"undirected_default": True},
    (RUN_B, "FC-0005"): {"ext": ".md", "shapes": {"rectangle": "square"}},
}

GRAPHML = {
    (GOLD, "FC-0001"): {},
    (GOLD, "FC-0002"): {"generic": True},
    (GOLD, "FC-0003"): {"roundrectangle": True},
    (GOLD, "FC-0004"): {"dotted": "dashed"},
    (GOLD, "FC-0005"): {"generic": True},
    (GOLD, "FC-0006"): {},
    (RUN_A, "FC-0001"): {"generic": True},
    (RUN_A, "FC-0002"): {},
    (RUN_A, "FC-0003"): {},
    (RUN_A, "FC-0005"): {"dotted": "dashed"},
    (RUN_A, "FC-0006"): {"generic": True},
    (RUN_B, "FC-0001"): {},
    (RUN_B, "FC-0002"): {"roundrectangle": True},
    (RUN_B, "FC-0003"): {},
    (RUN_B, "FC-0004"): {"generic": True},
    (RUN_B, "FC-0005"): {},
}

DRAWIO = {
    (GOLD, "FC-0001"): {"edge_label_child": "alternate", "userobject": [5, 6]},
    (GOLD, "FC-0002"): {"compressed": True, "rounded": True},
    (GOLD, "FC-0003"): {"second_page": True, "userobject": [2]},
    (GOLD, "FC-0004"): {"compressed": True, "edge_label_child": "all"},
    (GOLD, "FC-0005"): {"userobject": [4, 5], "dotted": "dashed=1;dashPattern=1 4;"},
    (GOLD, "FC-0006"): {"compressed": True, "no_html": [6], "userobject": [4]},
    (RUN_A, "FC-0001"): {},
    (RUN_A, "FC-0002"): {"compressed": True, "edge_label_child": "all"},
    (RUN_A, "FC-0003"): {"userobject": [1, 6]},
    (RUN_A, "FC-0005"): {"compressed": True, "no_html": [2]},
    (RUN_A, "FC-0006"): {"edge_label_child": "alternate"},
    (RUN_B, "FC-0001"): {"compressed": True},
    (RUN_B, "FC-0002"): {"rounded": True},
    (RUN_B, "FC-0003"): {"compressed": True},
    (RUN_B, "FC-0004"): {},
    (RUN_B, "FC-0005"): {"compressed": True, "edge_label_child": "all", "userobject": [4]},
}


def answer(dot: str) -> str:
    return ("Here is the flowchart of the figure in Graphviz DOT:\n\n```dot\n" + dot
            + "```\n\nEach reference sign is joined to its box by an undirected edge.\n")


def write(path: pathlib.Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8", newline="\n")


def sources() -> list:
    """(folder, stem, source path) of every bundled CLEF-IP file."""
    found = []
    for folder in (GOLD, RUN_A, RUN_B):
        for path in sorted((SRC / folder).glob("*.txt")):
            found.append((folder, path.stem, path))
    return found


def outputs() -> list:
    """(format, folder, stem, output path) of every file make.py writes."""
    files = []
    for folder, stem, _ in sources():
        ext = DOT[(folder, stem)].get("ext", ".dot")
        files.append(("dot", folder, stem, HERE / "dot" / folder / (stem + ext)))
        files.append(("graphml", folder, stem, HERE / "graphml" / folder / (stem + ".graphml")))
        files.append(("drawio", folder, stem, HERE / "drawio" / folder / (stem + ".drawio")))
    return files


def main() -> None:
    charts = {(folder, stem): read_clef(path) for folder, stem, path in sources()}
    for fmt, folder, stem, path in outputs():
        chart = charts[(folder, stem)]
        if fmt == "dot":
            opt = DOT[(folder, stem)]
            text = to_dot(chart, opt)
            write(path, answer(text) if opt.get("ext") == ".md" else text)
        elif fmt == "graphml":
            write(path, to_graphml(chart, GRAPHML[(folder, stem)]))
        else:
            write(path, to_drawio(chart, DRAWIO[(folder, stem)], stem))
        print(path.relative_to(HERE))


if __name__ == "__main__":
    main()
