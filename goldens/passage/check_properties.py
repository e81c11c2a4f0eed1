"""Checks reference.py against known properties and hand-computed values,
recomputes the passage measures of the fixtures with separate code, and
checks that the generated fixtures hold every edge case they are meant to
hold.

    python3 check_properties.py        # exit 0 when every assert holds
"""

import glob
import json
import math
import os
import random
import sys
from fractions import Fraction as F

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import reference as ref  # noqa: E402

checked = 0


def check(cond, what):
    global checked
    checked += 1
    if not cond:
        raise AssertionError(what)


# ---------------------------------------------------------------------------
# PRES: all relevant at the top => 1; none retrieved => 0;
# n R^2 / N <= PRES <= R (R the recall within the depth)
# ---------------------------------------------------------------------------

def pres_properties():
    rng = random.Random(7)
    for _ in range(3000):
        depth = rng.choice([1, 2, 5, 10, 20, 50, 100])
        n = rng.randint(1, 30)
        rel = {f"r{i}": 1 for i in range(n)}
        others = [f"x{i}" for i in range(200)]
        # all at the top (as many as fit within the depth)
        top = list(rel)[: depth] + others[:5]
        p = ref.pres(depth, top, rel)
        if n <= depth:
            check(p == 1, ("top", depth, n, p))
        else:
            # only `depth` fit: the rest are missing, PRES = recall
            check(p == F(depth, n), ("top-overflow", depth, n, p))
        # nothing relevant retrieved
        check(ref.pres(depth, others[: rng.randint(0, 150)], rel) == 0,
              ("none", depth, n))
        check(ref.pres(depth, [], rel) == 0, ("empty", depth, n))
        # random rankings: the bounds
        length = rng.randint(0, 150)
        ranking = others[:length]
        for d in rel:
            if rng.random() < 0.6 and ranking:
                ranking.insert(rng.randrange(len(ranking) + 1), d)
        p = ref.pres(depth, ranking, rel)
        k = len(ref.relevant_ranks(ranking[:depth], rel))
        recall = F(k, n)
        check(n * recall * recall / depth <= p <= recall,
              ("bounds", depth, n, k, p))
        # the lower bound is reached with the k relevant at the bottom of
        # the depth
        if k and len(ranking) >= depth:
            bottom = others[: depth - k] + list(rel)[:k]
            check(ref.pres(depth, bottom, rel) == n * recall * recall / depth,
                  ("lower bound reached", depth, n, k))


def other_properties():
    rng = random.Random(8)
    for _ in range(2000):
        n = rng.randint(1, 15)
        rel = {f"r{i}": rng.randint(1, 3) for i in range(n)}
        ranking = [f"x{i}" for i in range(rng.randint(0, 120))]
        for d in rel:
            if rng.random() < 0.7:
                ranking.insert(rng.randrange(len(ranking) + 1), d)
        cut = ranking[:100]
        ap = ref.average_precision(cut, rel)
        check(0 <= ap <= ref.recall(cut, rel), "AP <= recall")
        for base in (2, 10):
            v = ref.ndcg(100, cut, rel, base)
            check(0 <= v <= 1 + 1e-12, ("nDCG in [0, 1]", v))
            ideal = sorted(rel, key=lambda d: -rel[d])
            check(abs(ref.ndcg(100, ideal, rel, base) - 1) < 1e-12, "ideal nDCG = 1")
        # ranks below the base are not discounted (base 10, all within 9)
        small = sorted(rel, key=lambda d: -rel[d])[:9]
        check(ref.discounted_gain([rel[d] for d in small], 10) ==
              sum(rel[d] for d in small), "no discount below rank 10")
        # P@k with k beyond the list counts only what is there
        check(ref.precision_at(100, cut[:20], rel) ==
              F(len(ref.relevant_ranks(cut[:20], rel)), 100), "P@100 of 20")


# ---------------------------------------------------------------------------
# Hand-computed cases: the fixtures in hand/, values worked out in README.md
# ---------------------------------------------------------------------------

def rows(path):
    j = json.load(open(path))
    cols = j["columns"]
    run = j["runs"][0]
    return {r[0]: dict(zip(cols, r)) for r in run["topics"]}, run


def same(a, b, what):
    """a from the JSON, b an exact Fraction or a float computed here."""
    if isinstance(b, F):
        check(a == float(b), (what, a, b))
    else:
        check(abs(a - b) < 1e-12, (what, a, b))


def hand_cases():
    h = os.path.join(HERE, "hand", "expected")
    t, run = rows(os.path.join(h, "prior-art.default.json"))
    h1 = t["H-1"]
    # relevant at ranks 2 (grade 3), 15 (grade 1), 30 (grade 2); a fourth
    # relevant document (grade 1) never retrieved; n = 4
    same(h1["P@5"], F(1, 5), "H-1 P@5")
    same(h1["P@20"], F(2, 20), "H-1 P@20")
    same(h1["P@100"], F(3, 100), "H-1 P@100")
    same(h1["R@20"], F(2, 4), "H-1 R@20")
    same(h1["Precision"], F(3, 30), "H-1 Precision")
    same(h1["MAP@100"], (F(1, 2) + F(2, 15) + F(3, 30)) / 4, "H-1 AP")
    check(h1["MAP@100"] == float(F(11, 60)), "H-1 AP = 11/60")
    # PRES@100: missing document at 100 + 3 + 1 = 104
    same(h1["PRES@100"], 1 - (F(2 + 15 + 30 + 104, 4) - F(5, 2)) / 100, "H-1 PRES@100")
    check(h1["PRES@100"] == 0.6475, "H-1 PRES@100 = 0.6475")
    # PRES@20: ranks 2, 15 within 20; two missing at 23 and 24
    same(h1["PRES@20"], 1 - (F(2 + 15 + 23 + 24, 4) - F(5, 2)) / 20, "H-1 PRES@20")
    check(h1["PRES@20"] == 0.325, "H-1 PRES@20 = 0.325")
    # nDCG base 10: rank 2 undiscounted, ranks 15 and 30 divided by log10
    dcg = 3 + 1 / math.log10(15) + 2 / math.log10(30)
    same(h1["nDCG@100"], dcg / (3 + 2 + 1 + 1), "H-1 nDCG@100")
    # ties: file order puts the relevant document first
    check(t["H-2"]["MAP@100"] == 1.0, "H-2 file order AP = 1")
    check(t["H-2"]["num_ret"] == 3, "H-2 duplicate dropped")
    check(t["H-4"]["status"] == "missing" and t["H-4"]["MAP@100"] == 0, "H-4 missing")
    check(run["left_out"] == ["H-3"] and run["unknown"] == ["H-5"], "H-3 / H-5")
    check(run["all"]["num_q"] == 3, "H-3 not counted, H-4 counted")
    same(run["all"]["MAP@100"], (F(11, 60) + 1 + 0) / 3, "mean AP = 71/180")

    t, run = rows(os.path.join(h, "prior-art.order-score.json"))
    # trec_eval's order: EP-1000002-A1 (score 5.0) before EP-1000001-A1
    # (score 5.0) since ties go by document id descending
    check(t["H-2"]["MAP@100"] == 0.5, "H-2 score order AP = 1/2")

    t, _ = rows(os.path.join(h, "prior-art.ndcg-base-2.json"))
    dcg2 = 3 / math.log2(2) + 1 / math.log2(15) + 2 / math.log2(30)
    idcg2 = 3 + 2 / math.log2(2) + 1 / math.log2(3) + 1 / math.log2(4)
    same(t["H-1"]["nDCG@100/b2"], dcg2 / idcg2, "H-1 nDCG base 2")

    t, run = rows(os.path.join(h, "passage.default.json"))
    p1 = t["P-1"]
    # documents after heading removal: EP-1200004-A1, EP-1200001-A1 (D1),
    # WO-2001012345-A1 (D2); D3 = EP-1200003-B1 not retrieved
    check(p1["num_ret"] == 3, "heading-only document left the ranking")
    same(p1["MAP@100"], (F(1, 2) + F(2, 3)) / 3, "P-1 AP@100")
    # D1 passages: p[4] (rel), p[9], p[3] (rel); n_p = 3 (heading counts)
    ap_d1 = (F(1, 1) + F(2, 3)) / 3
    ap_d2 = F(1, 1)             # abstract[1]/p[1] = abstract/p, first
    same(p1["MAP(D)"], (ap_d1 + ap_d2 + 0) / 3, "P-1 MAP(D)")
    check(p1["MAP(D)"] == float(F(14, 27)), "P-1 MAP(D) = 14/27")
    same(p1["Precision(D)"], (F(2, 3) + F(1, 2) + 0) / 3, "P-1 Precision(D)")
    same(p1["nDCG@100"], F(3, 4), "P-1 nDCG")
    check(run["headings_removed"] == [1, 6], "heading lines 1 and 6")

    t, run = rows(os.path.join(h, "passage.keep-headings.json"))
    p1 = t["P-1"]
    # headings kept: EP-1200005-A1 is rank 1, D1 rank 3, D2 rank 4
    check(p1["num_ret"] == 4 and run["headings_removed"] == [], "headings kept")
    same(p1["MAP@100"], (F(1, 3) + F(2, 4)) / 3, "P-1 kept AP@100")
    # D1 passages: p[4] (rel), p[9], heading[2] (rel), p[3] (rel)
    ap_d1 = (F(1, 1) + F(2, 3) + F(3, 4)) / 3
    same(p1["MAP(D)"], (ap_d1 + 1 + 0) / 3, "P-1 kept MAP(D) = 65/108")
    same(p1["Precision(D)"], (F(3, 4) + F(1, 2) + 0) / 3, "P-1 kept Precision(D)")


# ---------------------------------------------------------------------------
# The fixtures hold every edge case they are meant to
# ---------------------------------------------------------------------------

def fixture_coverage():
    def load(name):
        return json.load(open(os.path.join(HERE, "expected", name)))

    d, ds = load("prior-art.default.json"), load("prior-art.order-score.json")
    p, ps = load("passage.default.json"), load("passage.order-score.json")
    for j in (d, p):
        check(any(r["left_out"] for r in j["runs"]), "a topic without relevant documents")
        check(any(r["missing"] for r in j["runs"]), "a topic missing from a run")
        check(any(r["unknown"] for r in j["runs"]), "a topic unknown to the qrels")
        check(any(r["duplicates"] for r in j["runs"]), "duplicates")
        check(any(row[2] == 100 for r in j["runs"] for row in r["topics"]),
              "a list cut at 100")
    check(d != ds and p != ps, "file order and score order differ")
    check(any(r1["duplicates"] != r2["duplicates"] for r1, r2 in zip(d["runs"], ds["runs"])),
          "the two orders keep different copies of a duplicate")
    check(any(r["headings_removed"] for r in p["runs"]), "headings removed")
    check(any(row[1] == "ok" and row[2] == 0 for r in p["runs"] for row in r["topics"]),
          "a topic whose lines are all headings")
    # raw file features
    def lines(f):
        for l in open(f, encoding="utf-8-sig"):
            x = l.split()
            if x and not x[0].startswith("#"):
                yield x

    doc_lines = [x for f in glob.glob(os.path.join(HERE, "doc", "runs", "*"))
                 for x in lines(f)]
    check(any(l[3] == "0" for l in doc_lines), "zero-based ranks")
    for folder, rank_col in (("doc", 3), ("passage", 4)):
        ties = out_of_order = interleaved = False
        for f in glob.glob(os.path.join(HERE, folder, "runs", "*")):
            last, seen, prev_topic = {}, {}, None
            for x in lines(f):
                t, r = x[0], float(x[rank_col])
                if t in last and r == last[t]:
                    ties = True
                if t in last and r < last[t]:
                    out_of_order = True
                if t != prev_topic and t in seen:
                    interleaved = True
                last[t], seen[t], prev_topic = r, True, t
        check(ties and out_of_order, (folder, "rank ties and lines out of rank order"))
        if folder == "doc":
            check(interleaved, "a run whose topics are interleaved")
    psg = "".join(open(f).read() for f in glob.glob(os.path.join(HERE, "passage", "runs", "*")))
    check("[1]/" in psg and "/abstract/p " in psg, "XPaths with and without [1]")
    check("/heading[" in psg, "heading XPaths in runs")
    q = open(os.path.join(HERE, "passage", "qrels.txt")).read()
    check("/heading[" in q and "[1]/" in q, "headings and [1] steps in the qrels")
    six = open(os.path.join(HERE, "passage", "qrels-6col.txt")).read().split("\n")[1].split()
    check(len(six) == 6, "6-column qrels")
    raw = open(os.path.join(HERE, "doc", "runs", "lab2-lm-PAC"), "rb").read()
    check(raw.startswith(b"\xef\xbb\xbf") and b"\r\n" in raw, "BOM and CRLF")
    raw = open(os.path.join(HERE, "passage", "runs", "lab3-mix-PSG")).read()
    check("\n\n" in raw and "\n#" in raw, "blank and comment lines in a run")
    g = open(os.path.join(HERE, "doc", "groups.txt")).read().split()
    check({"EN", "DE", "FR", "S", "M", "L", "XL"} <= set(g[1::2]), "groups")


# ---------------------------------------------------------------------------
# MAP(D) and Precision(D) of every fixture topic computed a second time,
# with code written separately from reference.py, in file order
# ---------------------------------------------------------------------------

def second_passage_measures():
    import re

    def norm(x):
        return re.sub(r"\[1\](/|$)", r"\1", x)

    def is_head(x):
        return "heading" in [s.split("[")[0] for s in x.split("/")]

    def rows_of(path):
        for no, line in enumerate(open(path, encoding="utf-8-sig"), start=1):
            f = line.split()
            if f and not f[0].startswith("#"):
                yield no, f

    for name in ("default", "cutoff-20", "min-relevance-2", "keep-headings"):
        j = json.load(open(os.path.join(HERE, "expected", f"passage.{name}.json")))
        st = j["settings"]
        qp = {}                                  # (topic, doc) -> {xpath: grade}
        for _, f in rows_of(os.path.join(HERE, j["qrels"])):
            grade = 1 if len(f) == 6 else int(f[4])
            ps = qp.setdefault((f[0], f[2]), {})
            x = norm(f[3])
            ps[x] = max(grade, ps.get(x, grade))
        lo = max(1, st["min_relevance"])
        for run in j["runs"]:
            lines = [(f[0], float(f[4]), no, f[2], norm(f[3]))
                     for no, f in rows_of(os.path.join(HERE, run["file"]))]
            lines.sort(key=lambda x: (x[1], x[2]))      # rank, then line
            per_topic = {}
            for topic, _, _, doc, x in lines:
                if not st["keep_headings"] and is_head(x):
                    continue
                docs = per_topic.setdefault(topic, {})  # insertion-ordered
                if x not in docs.setdefault(doc, []):
                    docs[doc].append(x)
            cols = j["columns"]
            for row in run["topics"]:
                r = dict(zip(cols, row))
                topic = r["topic"]
                kept = dict(list(per_topic.get(topic, {}).items())[: st["cutoff"]])
                rel_docs = {d: {x for x, v in ps.items() if v >= lo}
                            for (t, d), ps in qp.items() if t == topic}
                rel_docs = {d: ps for d, ps in rel_docs.items() if ps}
                ap_sum, prec_sum = F(0), F(0)
                for d, relevant in rel_docs.items():
                    got = kept.get(d, [])
                    hits = [i for i, x in enumerate(got, start=1) if x in relevant]
                    ap_sum += sum((F(k, i) for k, i in enumerate(hits, start=1)), F(0)) / len(relevant)
                    prec_sum += F(len(hits), len(got)) if got else 0
                check(r["MAP(D)"] == float(ap_sum / len(rel_docs)),
                      (name, run["run"], topic, "MAP(D)"))
                check(r["Precision(D)"] == float(prec_sum / len(rel_docs)),
                      (name, run["run"], topic, "Precision(D)"))


def main():
    pres_properties()
    other_properties()
    hand_cases()
    fixture_coverage()
    second_passage_measures()
    print(f"{checked} checks passed")


if __name__ == "__main__":
    main()
