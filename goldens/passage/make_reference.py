"""Writes the text-retrieval fixtures and their expected outputs.

    python3 make_reference.py            # from this folder, or any folder

Everything is generated from fixed seeds, so the output is the same on
every run.  Inputs:
    doc/        prior-art document qrels, topic groups and four runs
    passage/    passage qrels (5-column graded and 6-column), topic groups,
                three passage runs
    demo/       a small realistic passage set; one run gzip-compressed,
                one zipped
    hand/       tiny cases whose values README.md works out by hand
Expected outputs (computed by reference.py) go to expected/,
demo/expected/ and hand/expected/, one JSON file per option set.
"""

import gzip
import json
import os
import random
import sys
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import reference as ref  # noqa: E402

# The option sets: the defaults, then each option changed on its own.
OPTION_SETS = [
    ("default", {}),
    ("order-score", {"order": "score"}),
    ("cutoff-20", {"cutoff": 20}),
    ("ndcg-base-2", {"ndcg_base": 2}),
    ("min-relevance-2", {"min_relevance": 2}),
]
DEFAULTS = {"order": "file", "cutoff": 100, "ndcg_base": 10,
            "min_relevance": 1, "keep_headings": False}


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", newline="") as f:
        f.write(text)


def rel(path):
    return os.path.relpath(path, HERE).replace(os.sep, "/")


# ---------------------------------------------------------------------------
# Identifiers
# ---------------------------------------------------------------------------

def ep_id(rng):
    return f"EP-{rng.randint(1000000, 1999999)}-{rng.choice(['A1', 'A1', 'A2', 'B1'])}"


def wo_id(rng):
    return f"WO-{rng.randint(1998, 2008)}{rng.randint(0, 99999):06d}-A{rng.choice('12')}"


def distinct(gen, count, rng, taken):
    out = []
    while len(out) < count:
        x = gen(rng)
        if x not in taken:
            taken.add(x)
            out.append(x)
    return out


# ---------------------------------------------------------------------------
# Prior-art document task (2009 style)
# ---------------------------------------------------------------------------

def make_doc_inputs(base):
    rng = random.Random(2009)
    taken = set()
    numbers = sorted(rng.sample(range(1, 10001), 30))
    topics = [f"PAC-{n}" for n in numbers]
    no_relevant = {topics[3], topics[17]}        # judged, nothing relevant
    graded = set(rng.sample(topics, 15))          # 2013-style grades 1-3
    pool = distinct(ep_id, 1500, rng, taken)      # non-relevant documents

    qrels, relevant = [], {}
    for t in topics:
        if t in no_relevant:
            for d in rng.sample(pool, 3):
                qrels.append((t, d, 0))
            relevant[t] = {}
            continue
        n = rng.choice([1, 1, 2, 3, 4, 5, 6, 8, 10, 12])
        docs = distinct(ep_id, n, rng, taken)
        relevant[t] = {}
        for d in docs:
            g = rng.choice([1, 1, 2, 3]) if t in graded else 1
            relevant[t][d] = g
            qrels.append((t, d, g))
        if rng.random() < 0.4:                    # judged non-relevant
            for d in rng.sample(pool, 2):
                qrels.append((t, d, 0))
    # one entry listed twice with two grades: the higher one (3) counts
    t = topics[9]
    d = next(iter(relevant[t]))
    qrels.insert(qrels.index((t, d, relevant[t][d])) + 1, (t, d, 3))
    relevant[t][d] = 3

    lines = ["# prior-art qrels: topic 0 doc relevance (0 = judged non-relevant)"]
    lines += [f"{t} 0 {d} {g}" for t, d, g in qrels]
    write(os.path.join(base, "qrels.txt"), "\n".join(lines) + "\n")

    # groups: language, and the nested 2009 bundles S < M < L < XL
    order = topics[:]
    rng.shuffle(order)
    g_lines = []
    for i, t in enumerate(topics):
        g_lines.append(f"{t} {rng.choices(['EN', 'DE', 'FR'], [6, 3, 2])[0]}")
    for t in topics:
        pos = order.index(t)
        for bundle, size in (("S", 8), ("M", 14), ("L", 22), ("XL", 30)):
            if pos < size:
                g_lines.append(f"{t} {bundle}")
    write(os.path.join(base, "groups.txt"), "\n".join(g_lines) + "\n")

    runs = [
        ("lab1-bm25-PAC", dict(quality=0.75, lengths=(8, 32), long=2, ties=2,
                               shuffle=False, absent=[], unknown=True,
                               dups=3)),
        ("lab2-lm-PAC", dict(quality=0.6, lengths=(6, 30), long=1, ties=1,
                             shuffle=True, absent=[topics[5]], unknown=False,
                             dups=0)),
        ("lab3-rerank-PAC", dict(quality=0.7, lengths=(8, 28), long=1,
                                 ties=0, shuffle=False, rerank=True,
                                 absent=[topics[22]], unknown=True, dups=3)),
        ("lab4-short-PAC", dict(quality=0.5, lengths=(3, 15), long=0, ties=0,
                                shuffle=False, absent=[topics[5], topics[22]],
                                unknown=False, dups=1, zero_based=True,
                                integer_scores=True)),
    ]
    paths = []
    for name, cfg in runs:
        path = os.path.join(base, "runs", name)
        text = doc_run_text(rng, name, topics, relevant, pool, cfg)
        if name == "lab2-lm-PAC":
            # written on another system: a byte-order mark, CRLF line ends
            # and a comment line
            text = "\ufeff# lab2 language-model run\n" + text
            text = text.replace("\n", "\r\n")
        write(path, text)
        paths.append(path)
    return paths


def doc_run_text(rng, name, topics, relevant, pool, cfg):
    tag = name.split("-")[1]
    long_topics = set(rng.sample(topics, cfg["long"]))
    blocks = []
    for t in topics:
        if t in cfg["absent"]:
            continue
        length = 110 if t in long_topics else rng.randint(*cfg["lengths"])
        ranking = rng.sample(pool, length)
        for d in relevant[t]:
            if rng.random() < cfg["quality"]:
                # relevant documents lean towards the top; in the long lists
                # some land below rank 100
                pos = min(length - 1, int(rng.expovariate(1 / (0.35 * length))))
                ranking[pos] = d
        ranking = list(dict.fromkeys(ranking))
        # the ranked lines: (doc, rank, score)
        rows = []
        score = rng.uniform(18, 30)
        for i, d in enumerate(ranking):
            score -= rng.uniform(0.01, 0.6)
            s = score
            if cfg.get("rerank"):
                s = score + rng.uniform(-3, 3)   # scores of a first stage
            rows.append([d, i + 1, s])
        if cfg.get("integer_scores"):
            for r in rows:
                r[2] = max(1, min(9, int(r[2] / 3)))
        elif cfg["ties"] == 2:
            for r in rows:
                r[2] = round(r[2], 1)
        elif cfg["ties"] == 1:
            for r in rows:
                r[2] = round(r[2] * 2) / 2
        else:
            for r in rows:
                r[2] = round(r[2], 4)
        if cfg.get("zero_based"):
            for r in rows:
                r[1] -= 1
        # a document listed twice; the later line has a higher score
        # in the rerank run, so the two orders keep different copies
        for _ in range(cfg["dups"] if rng.random() < 0.3 else 0):
            if len(rows) > 4:
                src = rng.randrange(1, len(rows) // 2)
                d = rows[src][0]
                s = rows[0][2] + 1 if cfg.get("rerank") else rows[-1][2]
                rows.append([d, len(rows) + (0 if cfg.get("zero_based") else 1), s])
        # the rerank run writes every rank as 1 for some topics: the file
        # order decides
        if cfg.get("rerank") and rng.random() < 0.2:
            for r in rows:
                r[1] = 1
        text = [f"{t} Q0 {d} {r} {fmt_score(s)} {tag}" for d, r, s in rows]
        if cfg["shuffle"] and rng.random() < 0.5:
            rng.shuffle(text)                    # rank column still correct
        blocks.append(text)
    if cfg["unknown"]:
        blocks.append([f"PAC-10001 Q0 {d} {i + 1} {fmt_score(10 - i / 10)} {tag}"
                       for i, d in enumerate(rng.sample(pool, 5))])
    out = []
    if cfg.get("rerank"):
        # topics interleaved two by two: a topic's lines need not be together
        for a, b in zip(blocks[0::2], blocks[1::2] + [[]]):
            for i in range(max(len(a), len(b))):
                out.extend(x[i] for x in (a, b) if i < len(x))
    else:
        for b in blocks:
            out.extend(b)
    return "\n".join(out) + "\n"


def fmt_score(s):
    if isinstance(s, int):
        return str(s)
    return f"{s:.4f}".rstrip("0").rstrip(".") if s != int(s) else f"{s:.1f}"


# ---------------------------------------------------------------------------
# Claims-to-passage task (2012-2013 style)
# ---------------------------------------------------------------------------

def doc_passages():
    """The passage XPaths a patent document offers, in document order."""
    xs = ["/patent-document/abstract/p"]
    xs += [f"/patent-document/description/heading[{i}]" for i in range(1, 9)]
    xs += [f"/patent-document/description/p[{i}]" for i in range(1, 61)]
    xs += [f"/patent-document/claims/claim[{i}]" for i in range(1, 16)]
    return xs


def spell(rng, xpath, with_ones):
    """Write an XPath with or without explicit [1] steps (same passage)."""
    if not with_ones:
        return xpath
    steps = xpath.split("/")[1:]
    out = []
    for s in steps:
        if "[" not in s and rng.random() < 0.7:
            s += "[1]"
        out.append(s)
    return "/" + "/".join(out)


def unspell(xpath):
    """`p[1]` written as `p`: the same passage."""
    return ref.normalize_xpath(xpath)


def make_passage_inputs(base):
    rng = random.Random(2012)
    taken = set()
    numbers = sorted(rng.sample(range(1, 150), 16))
    topics = [f"tPSG-{n}" for n in numbers]
    no_relevant = {topics[6]}
    pool = distinct(ep_id, 250, rng, taken) + distinct(wo_id, 100, rng, taken)
    all_xp = doc_passages()
    headings = [x for x in all_xp if "heading" in x]

    q_lines = ["# passage qrels: topic 0 doc xpath relevance"]
    six_lines = ["# passage qrels in the run layout: every line relevant, grade 1"]
    relevant = {}
    for ti, t in enumerate(topics):
        relevant[t] = {}
        if t in no_relevant:
            d = rng.choice(pool)
            for x in rng.sample(all_xp, 3):
                q_lines.append(f"{t} 0 {d} {x} 0")
            continue
        n = rng.choice([1, 2, 2, 3, 3, 4, 5])
        gen = ep_id if rng.random() < 0.7 else wo_id
        docs = distinct(gen, n, rng, taken)
        for d in docs:
            start = rng.randint(1, 55)
            ps = [f"/patent-document/description/p[{i}]"
                  for i in range(start, start + rng.randint(1, 5))]
            if rng.random() < 0.35:
                ps.append(rng.choice(headings))          # a judged heading
            if rng.random() < 0.3:
                ps.append("/patent-document/abstract/p")
            if rng.random() < 0.3:
                ps.append(f"/patent-document/claims/claim[{rng.randint(1, 15)}]")
            if rng.random() < 0.25:
                ps.append("/patent-document/description/p")   # = p[1]
            grades = {}
            for x in ps:
                grades[ref.normalize_xpath(x)] = rng.choice([1, 1, 2, 3])
                q_lines.append(f"{t} 0 {d} {spell(rng, x, rng.random() < 0.3)} "
                               f"{grades[ref.normalize_xpath(x)]}")
            relevant[t][d] = grades
            for i, x in enumerate(ps):
                six_lines.append(f"{t} Q0 {d} {spell(rng, x, rng.random() < 0.3)} "
                                 f"{i + 1} 1.0")
        if rng.random() < 0.3:                           # judged non-relevant
            d = rng.choice(docs)
            x = "/patent-document/claims/claim[15]"
            if ref.normalize_xpath(x) not in relevant[t][d]:
                q_lines.append(f"{t} 0 {d} {x} 0")
    # one passage listed twice, spelt two ways with two grades: counts once,
    # grade 3
    t = topics[2]
    d = next(iter(relevant[t]))
    x = next(iter(relevant[t][d]))
    q_lines.append(f"{t} 0 {d} {spell(random.Random(1), x, True)} 3")
    relevant[t][d][x] = 3
    six_lines.append(f"{t} Q0 {d} {x} 99 1.0")
    write(os.path.join(base, "qrels.txt"), "\n".join(q_lines) + "\n")
    write(os.path.join(base, "qrels-6col.txt"), "\n".join(six_lines) + "\n")

    g = [f"{t} {rng.choices(['EN', 'DE', 'FR'], [5, 3, 2])[0]}" for t in topics]
    write(os.path.join(base, "groups.txt"), "\n".join(g) + "\n")

    runs = [
        ("lab1-bm25-PSG", dict(quality=0.8, docs=(3, 23), long=1,
                               grouped=True, ones=0.0, dups=0, heading=0.1,
                               absent=[], unknown=False, ties=False)),
        ("lab2-lm-PSG", dict(quality=0.65, docs=(3, 22), long=0,
                             grouped=False, ones=0.5, dups=2, heading=0.25,
                             absent=[topics[11]], unknown=True, ties=True,
                             all_heading_topic=topics[13])),
        ("lab3-mix-PSG", dict(quality=0.7, docs=(2, 24), long=0,
                              grouped=False, ones=0.2, dups=1, heading=0.15,
                              absent=[], unknown=True, ties=True,
                              rank_ties=True)),
    ]
    paths = []
    for name, cfg in runs:
        path = os.path.join(base, "runs", name)
        text = passage_run_text(rng, topics, relevant, pool, cfg)
        if name == "lab3-mix-PSG":
            # a blank line and a comment line in the middle of the file
            lines = text.split("\n")
            lines[40:40] = ["", "# second part of the run"]
            text = "\n".join(lines)
        write(path, text)
        paths.append(path)
    return paths


def passage_run_text(rng, topics, relevant, pool, cfg):
    all_xp = doc_passages()
    headings = [x for x in all_xp if "heading" in x]
    long_topics = set(rng.sample(topics, cfg["long"]))
    out = []
    for t in topics:
        if t in cfg["absent"]:
            continue
        if t == cfg.get("all_heading_topic"):
            # every line of this topic is a heading: after heading removal
            # the topic has lines but retrieves nothing
            d = rng.choice(list(relevant[t]) or pool)
            for i, x in enumerate(rng.sample(headings, 2)):
                out.append(f"{t} Q0 {d} {x} {i + 1} {fmt_score(5.0 - i)}")
            continue
        if t in long_topics:
            n_docs = 108                                  # past the cut-off
        else:
            n_docs = rng.randint(*cfg["docs"])
        docs = rng.sample(pool, n_docs)
        for d in relevant[t]:
            if rng.random() < cfg["quality"]:
                docs[min(n_docs - 1, int(rng.expovariate(1 / (0.3 * n_docs))))] = d
        docs = list(dict.fromkeys(docs))
        scored = []      # (score, doc, xpath)
        for i, d in enumerate(docs):
            doc_score = 40 - i * rng.uniform(0.5, 1.5)
            k = 1 if t in long_topics else rng.choice([1, 1, 1, 2, 2, 3, 4])
            rel_ps = list(relevant[t].get(d, {}))
            chosen = []
            for _ in range(k):
                if rel_ps and rng.random() < 0.6:
                    x = rng.choice(rel_ps)
                elif t in long_topics:
                    x = rng.choice(all_xp[9:])           # no heading here
                elif rng.random() < cfg["heading"]:
                    x = rng.choice(headings)
                else:
                    x = rng.choice(all_xp)
                if x not in chosen:
                    chosen.append(x)
            if t not in long_topics and rng.random() < cfg["heading"] / 2:
                # a document whose passages are all headings leaves the
                # document ranking
                chosen = rng.sample(headings, 2)
            for j, x in enumerate(chosen):
                s = doc_score - j * rng.uniform(0.1, 0.8)
                if cfg["ties"]:
                    s = round(s * 2) / 2
                else:
                    s = round(s, 3)
                scored.append((s, d, x))
        if cfg["grouped"]:
            rows = scored                    # one document's passages together
        else:
            rows = sorted(scored, key=lambda r: -r[0])   # interleaved
        lines = []
        for i, (s, d, x) in enumerate(rows):
            lines.append([t, d, spell(rng, x, rng.random() < cfg["ones"]), i + 1, s])
        # passages listed twice (a second spelling of the same XPath counts
        # as the same passage)
        for _ in range(cfg["dups"]):
            if len(lines) > 3 and rng.random() < 0.5:
                src = lines[rng.randrange(len(lines) // 2)]
                lines.append([t, src[1], spell(rng, unspell(src[2]), True),
                              len(lines) + 1, src[4]])
        if cfg.get("rank_ties") and rng.random() < 0.25:
            for row in lines:
                row[3] = 1                   # every rank 1: the file decides
        elif cfg.get("rank_ties") and rng.random() < 0.3:
            rng.shuffle(lines)               # lines out of rank order
        out.extend(f"{a} Q0 {b} {c} {r} {fmt_score(s)}" for a, b, c, r, s in lines)
    if cfg["unknown"]:
        d = rng.choice(pool)
        out.append(f"tPSG-999 Q0 {d} /patent-document/description/p[3] 1 2.5")
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------
# Demo: a handful of topics, realistic identifiers, compressed runs
# ---------------------------------------------------------------------------

DEMO_QRELS = """\
# demo passage qrels: topic 0 doc xpath relevance
tPSG-1 0 EP-1310580-A2 /patent-document/description/p[22] 2
tPSG-1 0 EP-1310580-A2 /patent-document/description/p[23] 1
tPSG-1 0 EP-1310580-A2 /patent-document/description/heading[3] 1
tPSG-1 0 WO-2002015251-A1 /patent-document/abstract/p 3
tPSG-1 0 WO-2002015251-A1 /patent-document/claims/claim[1] 1
tPSG-2 0 EP-0995791-A1 /patent-document/description/p[7] 1
tPSG-2 0 EP-0995791-A1 /patent-document/description/p[8] 2
tPSG-3 0 EP-1142881-B1 /patent-document/description[1]/p[14] 1
tPSG-3 0 EP-1142881-B1 /patent-document/description/p[15] 1
tPSG-3 0 WO-2004039823-A2 /patent-document/description/p[40] 2
tPSG-3 0 EP-1254327-A1 /patent-document/abstract[1]/p[1] 1
tPSG-4 0 EP-1616565-A1 /patent-document/description/p[3] 3
tPSG-4 0 EP-1616565-A1 /patent-document/description/p[4] 3
tPSG-5 0 WO-2005107796-A1 /patent-document/description/p[61] 0
"""

DEMO_GROUPS = """\
tPSG-1 EN
tPSG-2 DE
tPSG-3 EN
tPSG-4 FR
tPSG-5 DE
"""

DEMO_RUNS = {
    "acme-bm25-PSG": """\
tPSG-1 Q0 EP-1310580-A2 /patent-document/description/p[22] 1 14.21
tPSG-1 Q0 EP-1310580-A2 /patent-document/description/heading[3] 2 13.80
tPSG-1 Q0 EP-1310580-A2 /patent-document/description/p[30] 3 12.95
tPSG-1 Q0 EP-1421877-A1 /patent-document/description/p[5] 4 12.40
tPSG-1 Q0 WO-2002015251-A1 /patent-document/abstract/p 5 11.02
tPSG-2 Q0 EP-1012002-A1 /patent-document/claims/claim[2] 1 9.70
tPSG-2 Q0 EP-0995791-A1 /patent-document/description/p[8] 2 9.10
tPSG-2 Q0 EP-0995791-A1 /patent-document/description/p[9] 3 8.50
tPSG-3 Q0 EP-1142881-B1 /patent-document/description/p[14] 1 20.3
tPSG-3 Q0 EP-1142881-B1 /patent-document/description/p[15] 2 19.9
tPSG-3 Q0 EP-1254327-A1 /patent-document/abstract/p 3 17.4
tPSG-4 Q0 EP-1738200-A2 /patent-document/description/p[11] 1 6.6
tPSG-4 Q0 EP-1616565-A1 /patent-document/description/p[4] 2 6.1
""",
    "lab2-lm-PSG": """\
tPSG-1 Q0 WO-2002015251-A1 /patent-document/claims/claim[1] 1 -3.12
tPSG-1 Q0 WO-2002015251-A1 /patent-document/abstract[1]/p[1] 2 -3.40
tPSG-1 Q0 EP-1310580-A2 /patent-document/description/p[23] 3 -3.41
tPSG-1 Q0 EP-1310580-A2 /patent-document/description/p[23] 4 -3.95
tPSG-2 Q0 EP-0995791-A1 /patent-document/description/p[7] 1 -2.80
tPSG-3 Q0 WO-2004039823-A2 /patent-document/description/p[40] 1 -4.05
tPSG-3 Q0 WO-2004039823-A2 /patent-document/description/p[41] 2 -4.05
tPSG-3 Q0 EP-1142881-B1 /patent-document/description/p[2] 3 -4.31
tPSG-4 Q0 EP-1616565-A1 /patent-document/description/p[3] 1 -1.90
tPSG-4 Q0 EP-1616565-A1 /patent-document/description/p[4] 2 -2.25
tPSG-5 Q0 WO-2005107796-A1 /patent-document/description/p[61] 1 -5.00
""",
    "lab3-rerank-PSG": """\
tPSG-1 Q0 EP-1310580-A2 /patent-document/description/heading[3] 1 0.97
tPSG-1 Q0 EP-1421877-A1 /patent-document/description/heading[1] 2 0.95
tPSG-1 Q0 WO-2002015251-A1 /patent-document/abstract/p 3 0.90
tPSG-1 Q0 EP-1310580-A2 /patent-document/description/p[22] 4 0.88
tPSG-2 Q0 EP-0995791-A1 /patent-document/description/p[8] 1 0.93
tPSG-2 Q0 EP-0995791-A1 /patent-document/description/p[7] 2 0.93
tPSG-4 Q0 EP-1616565-A1 /patent-document/description/p[4] 1 0.81
tPSG-4 Q0 EP-1738200-A2 /patent-document/description/p[11] 2 0.64
tPSG-4 Q0 EP-1616565-A1 /patent-document/description/p[3] 3 0.60
tPSG-7 Q0 EP-1616565-A1 /patent-document/description/p[3] 1 0.50
""",
}


def make_demo(base):
    write(os.path.join(base, "qrels.txt"), DEMO_QRELS)
    write(os.path.join(base, "groups.txt"), DEMO_GROUPS)
    runs = os.path.join(base, "runs")
    os.makedirs(runs, exist_ok=True)
    plain = os.path.join(runs, "acme-bm25-PSG")
    write(plain, DEMO_RUNS["acme-bm25-PSG"])
    gz = os.path.join(runs, "lab2-lm-PSG.gz")
    with open(gz, "wb") as raw:
        # no file name and a zero time stamp: the bytes never change
        with gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) as f:
            f.write(DEMO_RUNS["lab2-lm-PSG"].encode())
    zp = os.path.join(runs, "lab3-rerank-PSG.zip")
    with zipfile.ZipFile(zp, "w", zipfile.ZIP_DEFLATED) as z:
        info = zipfile.ZipInfo("lab3-rerank-PSG.txt", (2013, 9, 1, 0, 0, 0))
        info.compress_type = zipfile.ZIP_DEFLATED
        info.external_attr = 0o644 << 16
        z.writestr(info, DEMO_RUNS["lab3-rerank-PSG"])
    return [plain, gz, zp]


# ---------------------------------------------------------------------------
# Hand-computed cases (README.md shows the arithmetic)
# ---------------------------------------------------------------------------

HAND_QRELS = """\
# H-1: four relevant documents with grades, one never retrieved
H-1 0 EP-1100001-A1 3
H-1 0 EP-1100002-A1 1
H-1 0 EP-1100003-A1 2
H-1 0 EP-1100004-A1 1
# H-2: one relevant document; the run ties it with another on score
H-2 0 EP-1000001-A1 1
H-2 0 EP-1000003-A1 0
# H-3: judged, nothing relevant: left out of every mean
H-3 0 EP-1300001-A1 0
# H-4: relevant documents, but the run has no line for the topic
H-4 0 EP-1400001-A1 1
H-4 0 EP-1400002-A1 2
"""


def hand_doc_run():
    lines = []
    fillers = iter(f"EP-19{i:05d}-A1" for i in range(1, 100))
    relevant_at = {2: "EP-1100001-A1", 15: "EP-1100002-A1", 30: "EP-1100003-A1"}
    for r in range(1, 31):
        d = relevant_at.get(r) or next(fillers)
        lines.append(f"H-1 Q0 {d} {r} {100 - r} hand")
    lines += [
        "H-2 Q0 EP-1000001-A1 1 5.0 hand",
        "H-2 Q0 EP-1000002-A1 2 5.0 hand",
        "H-2 Q0 EP-1000003-A1 3 4.0 hand",
        "H-2 Q0 EP-1000003-A1 4 3.0 hand",
        "H-3 Q0 EP-1300001-A1 1 1.0 hand",
        "H-5 Q0 EP-1500001-A1 1 1.0 hand",
    ]
    return "\n".join(lines) + "\n"


HAND_PASSAGE_QRELS = """\
# P-1: three relevant documents; a heading is judged relevant in D1
P-1 0 EP-1200001-A1 /patent-document/description/p[3] 1
P-1 0 EP-1200001-A1 /patent-document/description/p[4] 2
P-1 0 EP-1200001-A1 /patent-document/description/heading[2] 1
P-1 0 WO-2001012345-A1 /patent-document/abstract/p 1
P-1 0 EP-1200003-B1 /patent-document/claims/claim[1] 1
"""

HAND_PASSAGE_RUN = """\
P-1 Q0 EP-1200005-A1 /patent-document/description/heading[1] 1 9.0
P-1 Q0 EP-1200004-A1 /patent-document/description/p[1] 2 8.0
P-1 Q0 EP-1200001-A1 /patent-document/description/p[4] 3 7.0
P-1 Q0 WO-2001012345-A1 /patent-document/abstract[1]/p[1] 4 6.0
P-1 Q0 EP-1200001-A1 /patent-document/description/p[9] 5 5.0
P-1 Q0 EP-1200001-A1 /patent-document/description/heading[2] 6 4.0
P-1 Q0 EP-1200001-A1 /patent-document/description/p[3] 7 3.0
P-1 Q0 WO-2001012345-A1 /patent-document/claims/claim[2] 8 2.0
"""


def make_hand(base):
    write(os.path.join(base, "qrels.txt"), HAND_QRELS)
    write(os.path.join(base, "hand-doc"), hand_doc_run())
    write(os.path.join(base, "passage-qrels.txt"), HAND_PASSAGE_QRELS)
    write(os.path.join(base, "hand-passage"), HAND_PASSAGE_RUN)
    write(os.path.join(base, "groups.txt"), "H-1 EN\nH-2 EN\nH-4 DE\nP-1 EN\n")


# ---------------------------------------------------------------------------
# Expected outputs
# ---------------------------------------------------------------------------

def dumps(obj, indent=0):
    """JSON with every flat object (a topic row, a summary) on one line."""
    pad = " " * indent
    if isinstance(obj, dict):
        if all(not isinstance(v, (dict, list)) or
               (isinstance(v, list) and all(not isinstance(x, (dict, list)) for x in v))
               for v in obj.values()):
            return json.dumps(obj, separators=(", ", ": "), allow_nan=False)
        inner = ",\n".join(f'{pad} {json.dumps(k)}: {dumps(v, indent + 1)}'
                           for k, v in obj.items())
        return "{\n" + inner + "\n" + pad + "}"
    if isinstance(obj, list):
        if not obj or all(not isinstance(x, (dict, list)) for x in obj):
            return json.dumps(obj, separators=(", ", ": "))
        inner = ",\n".join(pad + " " + dumps(x, indent + 1) for x in obj)
        return "[\n" + inner + "\n" + pad + "]"
    return json.dumps(obj, allow_nan=False)


def expected(task, name, options, qrels_path, groups_path, runs, passage):
    settings = dict(DEFAULTS, **options)
    qrels = (ref.read_passage_qrels if passage else ref.read_doc_qrels)(qrels_path)
    groups = ref.read_groups(groups_path)
    measures = ref.measure_names(settings["cutoff"], settings["ndcg_base"], passage)
    columns = ["topic", "status", "num_ret", "num_rel", "num_rel_ret"] + measures
    out = {
        "task": task,
        "option_set": name,
        "settings": settings,
        "qrels": rel(qrels_path),
        "groups": rel(groups_path),
        "measures": measures,
        "columns": columns,
        "runs": [],
    }
    for path in runs:
        r = ref.evaluate_run(path, qrels, groups, passage=passage, **settings)
        # topic rows as arrays in the order of "columns" (keeps files small)
        r["topics"] = [[row[c] for c in columns] for row in r["topics"]]
        r = {"run": r["run"], "file": rel(path), **{k: v for k, v in r.items() if k != "run"}}
        out["runs"].append(r)
    return out


def write_expected(path, obj):
    write(path, dumps(obj) + "\n")


def main():
    doc_runs = make_doc_inputs(os.path.join(HERE, "doc"))
    psg_runs = make_passage_inputs(os.path.join(HERE, "passage"))
    demo_runs = make_demo(os.path.join(HERE, "demo"))
    exp = os.path.join(HERE, "expected")
    d = os.path.join(HERE, "doc")
    p = os.path.join(HERE, "passage")
    for name, opts in OPTION_SETS:
        write_expected(os.path.join(exp, f"prior-art.{name}.json"),
                       expected("prior-art", name, opts, os.path.join(d, "qrels.txt"),
                                os.path.join(d, "groups.txt"), doc_runs, False))
        write_expected(os.path.join(exp, f"passage.{name}.json"),
                       expected("passage", name, opts, os.path.join(p, "qrels.txt"),
                                os.path.join(p, "groups.txt"), psg_runs, True))
    write_expected(os.path.join(exp, "passage.keep-headings.json"),
                   expected("passage", "keep-headings", {"keep_headings": True},
                            os.path.join(p, "qrels.txt"),
                            os.path.join(p, "groups.txt"), psg_runs, True))
    write_expected(os.path.join(exp, "passage-6col.default.json"),
                   expected("passage", "default", {}, os.path.join(p, "qrels-6col.txt"),
                            os.path.join(p, "groups.txt"), psg_runs, True))
    hand = os.path.join(HERE, "hand")
    make_hand(hand)
    for name, opts in (("default", {}), ("order-score", {"order": "score"}),
                       ("ndcg-base-2", {"ndcg_base": 2}),
                       ("keep-headings", {"keep_headings": True})):
        if name != "keep-headings":             # document runs have no headings
            write_expected(
                os.path.join(hand, "expected", f"prior-art.{name}.json"),
                expected("prior-art", name, opts, os.path.join(hand, "qrels.txt"),
                         os.path.join(hand, "groups.txt"),
                         [os.path.join(hand, "hand-doc")], False))
        write_expected(os.path.join(hand, "expected", f"passage.{name}.json"),
                       expected("passage", name, opts,
                                os.path.join(hand, "passage-qrels.txt"),
                                os.path.join(hand, "groups.txt"),
                                [os.path.join(hand, "hand-passage")], True))
    demo = os.path.join(HERE, "demo")
    for name, opts in (("default", {}), ("order-score", {"order": "score"})):
        write_expected(os.path.join(demo, "expected", f"passage.{name}.json"),
                       expected("passage", name, opts, os.path.join(demo, "qrels.txt"),
                                os.path.join(demo, "groups.txt"), demo_runs, True))


if __name__ == "__main__":
    main()
