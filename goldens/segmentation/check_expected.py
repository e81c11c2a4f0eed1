#!/usr/bin/env python3
"""Independent reference for the fixtures' expected scores (docs/metrics.md), written
without looking at the Rust code: reads gold/gold.csv, run-osra/*.sdf (OSRA's
inclusive corners) and run-shifted/run.csv, and for every t in 0..55 takes a
maximum bipartite matching per page with networkx (Hopcroft-Karp). Writes
expected/<run>.csv: t,tp,fp,fn,precision,recall,f1,max_unambiguous (the last
column repeats the run's largest tolerance at which no submitted box has two
gold boxes within t). Needs networkx."""
import csv, glob, os
import networkx as nx

HERE = os.path.dirname(os.path.abspath(__file__))


def read_csv(path):
    boxes = []
    with open(path, newline="") as f:
        for row in csv.reader(f):
            try:
                doc, page, x, y, w, h = row[0], *map(int, row[1:6])
            except ValueError:
                continue  # header
            boxes.append((doc, page, x, y, w, h))
    return boxes


def read_sdf(path):
    doc = os.path.splitext(os.path.basename(path))[0]
    boxes, fields, name = [], {}, None
    for line in open(path):
        line = line.rstrip("\r\n")
        if line.strip() == "$$$$":
            x1y1, x2y2 = fields["Surrounding_box"].split("-")
            x1, y1 = map(int, x1y1.split("x"))
            x2, y2 = map(int, x2y2.split("x"))
            boxes.append((doc, int(fields.get("Page", 1)), x1, y1, x2 - x1 + 1, y2 - y1 + 1))
            fields, name = {}, None
        elif name is not None:
            fields[name] = line.strip()
            name = None
        elif line.startswith(">"):
            name = line[line.index("<") + 1:line.index(">", line.index("<"))]
    return boxes


def tol(a, b):
    _, _, ax, ay, aw, ah = a
    _, _, bx, by, bw, bh = b
    return max(abs(ax - bx), abs(ay - by), abs(ax + aw - bx - bw), abs(ay + ah - by - bh))


def score(gold, run):
    pages = sorted({(b[0], b[1]) for b in gold + run})
    rows = []
    for t in range(56):
        tp = 0
        ambiguous = False
        for key in pages:
            g = [b for b in gold if (b[0], b[1]) == key]
            s = [b for b in run if (b[0], b[1]) == key]
            graph = nx.Graph()
            graph.add_nodes_from(("s", i) for i in range(len(s)))
            graph.add_nodes_from(("g", j) for j in range(len(g)))
            for i, a in enumerate(s):
                near = [j for j, b in enumerate(g) if tol(a, b) <= t]
                ambiguous |= len(near) >= 2
                graph.add_edges_from((("s", i), ("g", j)) for j in near)
            top = [("s", i) for i in range(len(s))]
            tp += len(nx.bipartite.hopcroft_karp_matching(graph, top_nodes=top)) // 2
        p = tp / len(run) if run else 0.0
        r = tp / len(gold) if gold else 0.0
        f1 = 2 * p * r / (p + r) if p + r else 0.0
        rows.append([t, tp, len(run) - tp, len(gold) - tp, p, r, f1, ambiguous])
    # largest t such that no tolerance up to t is ambiguous
    limit = None
    for row in rows:
        if row[7]:
            break
        limit = row[0]
    return [row[:7] + [limit] for row in rows]


def main():
    gold = read_csv(os.path.join(HERE, "gold", "gold.csv"))
    runs = {
        "run-osra": sum((read_sdf(p) for p in sorted(glob.glob(os.path.join(HERE, "run-osra", "*.sdf")))), []),
        "run-shifted": read_csv(os.path.join(HERE, "run-shifted", "run.csv")),
    }
    os.makedirs(os.path.join(HERE, "expected"), exist_ok=True)
    for name, run in runs.items():
        with open(os.path.join(HERE, "expected", name + ".csv"), "w", newline="") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(["t", "tp", "fp", "fn", "precision", "recall", "f1", "max_unambiguous"])
            for row in score(gold, run):
                w.writerow([row[0], row[1], row[2], row[3], repr(row[4]), repr(row[5]), repr(row[6]), row[7]])


if __name__ == "__main__":
    main()
