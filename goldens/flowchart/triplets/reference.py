#!/usr/bin/env python3
"""Independent reference for the flowchart triplet F1 (Python standard library only).

Usage:
    python3 reference.py GOLD_DIR RUN_DIR...            # this project's triplet F1
    python3 reference.py --flowgen GOLD_DIR RUN_DIR...  # FlowGen-Eval's conventions

Topics are the stems of GOLD_DIR/*.txt (hidden files skipped), in sorted
order; a run's file for a topic is RUN_DIR/<topic>.txt. One JSON line is
printed per run and topic, then one line per run with the means over all
gold topics (a topic without a usable run file counts 0).

Project measure (default). Flowcharts are CLEF-IP text files, read with the
rules of docs/formats.md (first/last double quote delimit the text, an
unterminated text runs to the end of the line without trailing blanks,
UTF-8 with or without BOM, UTF-16 with BOM, Latin-1 fallback; a file with
an error is rejected). Every edge is one triplet

    (source node text, edge text, target node text)

with each text normalized: str.lower(), then every character of
string.punctuation and every character with str.isspace() removed. A node
or edge without quoted text has the empty text. For an undirected edge the
two NORMALIZED node texts are put in sorted order (plain str comparison),
the smaller first. Gold and run triplets are multisets; matched = size of
the multiset intersection (Counter &). precision = matched / run count,
recall = matched / gold count (0 when the count is 0), f1 = 2PR / (P + R)
(0 when P + R = 0). Floats are printed unrounded (Python repr).
A run with no file for a topic: status "missing"; a run file with an error:
status "rejected"; both score 0.

--flowgen mode: the conventions of FlowGen-Eval (github.com/nju-websoft/FlowGen,
FlowGen_Eval/eval.py and triples_parser.py, as read at commit 8a7d415),
re-implemented here without its code:
  * triplets are SETS (duplicates count once);
  * texts are normalized like FlowGen's normalize_text: lower-case, then the
    32 ASCII punctuation characters, the zero-width characters U+200B,
    U+200C, U+200D, U+FEFF and all white space removed;
  * per topic, precision, recall and f1 are rounded to 4 decimals (round());
    the means are plain means of those rounded values, not rounded;
  * a file that is not a CLEF-IP flowchart is read as FlowGen text: a gold
    file holds one "<head, relation, tail>" per line (lines that are not a
    well-formed triple are skipped), a run file is a model answer from which
    "`<...>`" triples are taken (or, when there are none, plain "<...>"
    triples); elements are split at commas (ASCII or U+FF0C) outside quotes,
    backslash escapes the next character, and a triple needs exactly three
    elements;
  * a CLEF-IP flowchart (gold or run) is made into triples the way
    FlowGen's code-to-triple parser treats diagram code: an edge without
    text gets the relation "connectedTo"; an undirected edge gives two
    triples, one each way; a node without text is named by its id; a
    junction (a `point` node) with exactly one incoming "connectedTo" edge
    and two or more outgoing edges, or exactly one outgoing "connectedTo"
    edge and two or more incoming edges, is bypassed (FlowGen does this for
    its split/merge nodes S<n>/M<n>); MN lines give no "partOf" triples.
"""
import json
import os
import re
import string
import sys
from collections import Counter

MAX_FILE_BYTES = 16 << 20
BLANKS = " \t"
RECORD_KINDS = ("MT", "NO", "DE", "UE", "CO", "MN")
ID_RE = re.compile(r"[+-]?[0-9]+\Z")
I64_MIN, I64_MAX = -(1 << 63), (1 << 63) - 1


# --------------------------------------------------------------------------
# CLEF-IP flowchart text (docs/formats.md)
# --------------------------------------------------------------------------

class Rejected(Exception):
    """The file has an error: its topic scores as rejected."""


def decode(data):
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    for bom, codec in ((b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be")):
        if data.startswith(bom):
            body = data[2:]
            body = body[: len(body) - len(body) % 2]  # an odd last byte is dropped
            return body.decode(codec, errors="replace")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def looks_like_clef(data):
    """True for UTF-16 with BOM, or when the first non-blank line starts with
    a record kind followed by a blank or the end of the line."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return True
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    for raw in data.split(b"\n"):
        line = raw.strip(b" \t\r\n\x0c")
        if not line:
            continue
        head, rest = line[:2], line[2:3]
        return head.upper().decode("latin-1") in RECORD_KINDS and rest in (b"", b" ", b"\t")
    return False


def split_line(line):
    """(head, text): head is what precedes the first double quote, text what
    lies between the first and the last one (None without a quote)."""
    first = line.find('"')
    if first < 0:
        return line, None
    last = line.rfind('"')
    if last == first:  # unterminated: to the end of the line, trailing blanks dropped
        return line[:first], line[first + 1:].rstrip(BLANKS)
    return line[:first], line[first + 1:last]


def tokens(s):
    return [t for t in re.split(r"[ \t]+", s) if t]


def parse_id(token):
    if not ID_RE.match(token):
        return None
    value = int(token)
    return value if I64_MIN <= value <= I64_MAX else None


def read_clef(path):
    """Reads a flowchart into (nodes, edges): nodes {id: (type, text)}, edges
    [(directed, from, to, text)]. Raises Rejected on an error."""
    try:
        if os.path.getsize(path) > MAX_FILE_BYTES:
            raise Rejected("larger than the 16 MiB limit")
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise Rejected(f"cannot read: {e}")
    text = decode(data)
    if "\0" in text:
        raise Rejected("binary data (a NUL byte)")
    nodes, edges, errors = {}, [], []
    for number, raw in enumerate(text.split("\n"), 1):
        line = raw[:-1] if raw.endswith("\r") else raw
        if not line.strip(BLANKS):
            continue
        head, quoted = split_line(line)
        fields = tokens(head)
        if not fields:
            continue  # a line starting with a quote: ignored (warning)
        kind = fields[0].upper()
        if kind == "NO":
            if len(fields) < 2:
                errors.append(f"line {number}: NO without id")
                continue
            node_id = parse_id(fields[1])
            if node_id is None:
                errors.append(f"line {number}: bad node id")
                continue
            if node_id in nodes:
                errors.append(f"line {number}: duplicate node id {node_id}")
                continue
            node_type = fields[2].lower() if len(fields) > 2 else "unknown"
            nodes[node_id] = (node_type, quoted if quoted is not None else "")
        elif kind in ("DE", "UE"):
            if len(fields) < 3:
                errors.append(f"line {number}: {kind} without two node ids")
                continue
            a, b = parse_id(fields[1]), parse_id(fields[2])
            if a is None or b is None:
                errors.append(f"line {number}: bad edge endpoint")
                continue
            edges.append((kind == "DE", a, b, quoted if quoted is not None else "", number))
        # MT, MN, CO and unknown kinds add nothing to the graph
    for _, a, b, _, number in edges:
        if a not in nodes or b not in nodes:
            errors.append(f"line {number}: edge names an undefined node")
    if errors:
        raise Rejected("; ".join(errors[:3]))
    return nodes, [e[:4] for e in edges]


# --------------------------------------------------------------------------
# This project's triplet F1
# --------------------------------------------------------------------------

PUNCTUATION = frozenset(string.punctuation)


def normalize(text):
    return "".join(c for c in text.lower() if c not in PUNCTUATION and not c.isspace())


def project_triplets(path):
    nodes, edges = read_clef(path)
    out = Counter()
    for directed, a, b, text in edges:
        head, tail = normalize(nodes[a][1]), normalize(nodes[b][1])
        if not directed and tail < head:
            head, tail = tail, head
        out[(head, normalize(text), tail)] += 1
    return out


def prf(matched, n_gold, n_run):
    precision = matched / n_run if n_run else 0.0
    recall = matched / n_gold if n_gold else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0
    return precision, recall, f1


# --------------------------------------------------------------------------
# FlowGen-Eval conventions (--flowgen)
# --------------------------------------------------------------------------

FLOWGEN_DROPPED = frozenset(string.punctuation) | frozenset("\u200b\u200c\u200d\ufeff")
PLACEHOLDER = "connectedTo"


def flowgen_normalize(text):
    return "".join(c for c in text.lower() if c not in FLOWGEN_DROPPED and not c.isspace())


def split_elements(body):
    """Splits the inside of <...> into elements: separators are ',' and
    U+FF0C outside quotes; a quote (' or ") opens a quoted stretch closed
    by the same character, the other quote character inside is literal;
    a backslash makes the next character literal. Quotes that open or
    close are dropped."""
    elements, buf = [], []
    quote = None
    chars = iter(body)
    for c in chars:
        if c == "\\":
            nxt = next(chars, None)
            if nxt is not None:
                buf.append(nxt)
            continue
        if c in "\"'":
            if quote is None:
                quote = c
                continue
            if quote == c:
                quote = None
                continue
            buf.append(c)
            continue
        if quote is None and c in ",\uff0c":
            elements.append("".join(buf).strip())
            buf = []
            continue
        buf.append(c)
    if buf or elements:
        elements.append("".join(buf).strip())
    return elements


def flowgen_triple(candidate):
    """One "<a, b, c>" string (already stripped) to a normalized triple, or None."""
    if not (candidate.startswith("<") and candidate.endswith(">")):
        return None
    elements = split_elements(candidate[1:-1].strip())
    if len(elements) != 3:
        return None
    return tuple(flowgen_normalize(e) for e in elements)


def flowgen_gold_text(text):
    out = set()
    for line in text.split("\n"):
        line = line.strip()
        if line:
            t = flowgen_triple(line)
            if t is not None:
                out.add(t)
    return out


TICKED = re.compile(r"`<\s*([^<>]+?)\s*>`")
PLAIN = re.compile(r"<\s*([^<>]+?)\s*>")


def flowgen_answer_text(text):
    found = TICKED.findall(text) or PLAIN.findall(text)
    out = set()
    for inner in found:
        t = flowgen_triple("<" + inner.strip() + ">")
        if t is not None:
            out.add(t)
    return out


def flowgen_from_clef(nodes, edges):
    """Raw triples (before normalization) of a CLEF-IP flowchart, the way
    FlowGen's code parser builds them, with junctions bypassed."""
    def name(node_id):
        text = nodes[node_id][1].strip()
        return text if text else str(node_id)

    raw = []
    for directed, a, b, text in edges:
        relation = text.strip() or PLACEHOLDER
        raw.append((name(a), relation, name(b)))
        if not directed:
            raw.append((name(b), relation, name(a)))
    junctions = {name(i) for i, (node_type, _) in nodes.items() if node_type == "point"}

    incoming, outgoing = {}, {}
    for h, r, t in raw:
        if r == "partOf":
            continue
        incoming.setdefault(t, []).append((h, r))
        outgoing.setdefault(h, []).append((t, r))
    remove, add = set(), []
    for j in sorted(junctions):
        ins, outs = incoming.get(j, []), outgoing.get(j, [])
        if len(ins) == 1 and ins[0][1] == PLACEHOLDER and len(outs) >= 2:  # a split
            source = ins[0][0]
            remove.add((source, PLACEHOLDER, j))
            for target, relation in outs:
                remove.add((j, relation, target))
                add.append((source, relation, target))
        elif len(outs) == 1 and outs[0][1] == PLACEHOLDER and len(ins) >= 2:  # a merge
            target = outs[0][0]
            remove.add((j, PLACEHOLDER, target))
            for source, relation in ins:
                remove.add((source, relation, j))
                add.append((source, relation, target))
    return [t for t in raw if t not in remove] + add


def flowgen_triplets(path, gold):
    with open(path, "rb") as f:
        data = f.read()
    if looks_like_clef(data):
        nodes, edges = read_clef(path)
        return {tuple(flowgen_normalize(x) for x in t) for t in flowgen_from_clef(nodes, edges)}
    # FlowGen reads its files as UTF-8 in text mode: a BOM is kept as a
    # character, CR LF and CR end lines.
    text = data.decode("utf-8", errors="replace")
    if gold:
        return flowgen_gold_text(text.replace("\r\n", "\n").replace("\r", "\n"))
    return flowgen_answer_text(text)


# --------------------------------------------------------------------------
# Driver
# --------------------------------------------------------------------------

def gold_topics(gold_dir):
    names = [n for n in os.listdir(gold_dir)
             if n.endswith(".txt") and not n.startswith(".") and os.path.isfile(os.path.join(gold_dir, n))]
    return sorted(n[: -len(".txt")] for n in names)


def emit(obj):
    print(json.dumps(obj, ensure_ascii=False))


def main(argv):
    flowgen = "--flowgen" in argv
    args = [a for a in argv if a != "--flowgen"]
    if len(args) < 2 or any(a.startswith("--") for a in args):
        sys.stderr.write(__doc__.split("\n\n")[1] + "\n")
        return 2
    gold_dir, run_dirs = args[0], args[1:]
    topics = gold_topics(gold_dir)
    if not topics:
        sys.stderr.write(f"{gold_dir}: no *.txt gold files\n")
        return 2

    gold = {}
    for topic in topics:
        path = os.path.join(gold_dir, topic + ".txt")
        try:
            gold[topic] = flowgen_triplets(path, True) if flowgen else project_triplets(path)
        except Rejected as e:
            sys.stderr.write(f"{path}: gold rejected: {e}\n")
            return 2

    for run_dir in run_dirs:
        run_name = os.path.basename(os.path.normpath(run_dir))
        sums = [0.0, 0.0, 0.0]
        for topic in topics:
            g = gold[topic]
            n_gold = len(g) if flowgen else sum(g.values())
            path = os.path.join(run_dir, topic + ".txt")
            status, r = "ok", None
            if not os.path.isfile(path):
                status = "missing"
            else:
                try:
                    r = flowgen_triplets(path, False) if flowgen else project_triplets(path)
                except Rejected as e:
                    sys.stderr.write(f"{path}: rejected: {e}\n")
                    status = "rejected"
            if r is None:
                n_run = matched = 0
            elif flowgen:
                n_run, matched = len(r), len(g & r)
            else:
                n_run, matched = sum(r.values()), sum((g & r).values())
            scores = prf(matched, n_gold, n_run)
            if flowgen:
                scores = tuple(round(x, 4) for x in scores)
            for i, x in enumerate(scores):
                sums[i] += x
            emit({"run": run_name, "topic": topic, "status": status,
                  "gold_triplets": n_gold, "run_triplets": n_run, "matched": matched,
                  "precision": scores[0], "recall": scores[1], "f1": scores[2]})
        n = len(topics)
        emit({"run": run_name, "mean_precision": sums[0] / n,
              "mean_recall": sums[1] / n, "mean_f1": sums[2] / n})
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
