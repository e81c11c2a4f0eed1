"""Independent reference for the text-retrieval measures of CLEF-IP.

Scores prior-art document runs (2009) and claims-to-passage runs
(2012-2013) exactly as the definitions in README.md state them.  Written
for clarity, not speed: every measure is one small function, rational
measures are computed with fractions.Fraction and turned into floats only
when written out, and nDCG (which needs logarithms) is the one measure
computed in floating point.

Used by make_reference.py (which writes the expected outputs) and by
check_trec_eval.py / check_properties.py (which verify this module).
"""

import gzip
import math
import re
import tarfile
import zipfile
from fractions import Fraction
from functools import cmp_to_key

P_RANKS = (5, 10, 20, 100)
PRES_DEPTHS = (20, 100)


# ---------------------------------------------------------------------------
# Reading files
# ---------------------------------------------------------------------------

def read_text(path):
    """The text of a plain or compressed file (.gz, .zip, .tgz/.tar.gz).

    An archive must hold exactly one regular file."""
    p = str(path)
    if p.endswith(".gz") and not p.endswith(".tar.gz"):
        with gzip.open(p, "rb") as f:
            data = f.read()
    elif p.endswith(".zip"):
        with zipfile.ZipFile(p) as z:
            files = [i for i in z.infolist() if not i.is_dir()]
            if len(files) != 1:
                raise ValueError(f"{p}: a zip run must hold exactly one file")
            data = z.read(files[0])
    elif p.endswith(".tgz") or p.endswith(".tar.gz"):
        with tarfile.open(p, "r:gz") as t:
            files = [m for m in t.getmembers() if m.isfile()]
            if len(files) != 1 or len(files) != len(t.getmembers()):
                raise ValueError(f"{p}: a tar run must hold exactly one file")
            data = t.extractfile(files[0]).read()
    else:
        with open(p, "rb") as f:
            data = f.read()
    text = data.decode("utf-8")
    if text.startswith("\ufeff"):
        text = text[1:]
    return text


def entries(path):
    """(line number, fields) for every line that is not blank or a comment."""
    for no, line in enumerate(read_text(path).split("\n"), start=1):
        line = line.rstrip("\r")
        fields = line.split()
        if not fields or fields[0].startswith("#"):
            continue
        yield no, fields


def run_name(path):
    """A run's name: its file name minus a compression extension."""
    name = str(path).replace("\\", "/").rsplit("/", 1)[-1]
    for ext in (".tar.gz", ".tgz", ".gz", ".zip"):
        if name.endswith(ext):
            return name[: -len(ext)]
    return name


# ---------------------------------------------------------------------------
# XPaths
# ---------------------------------------------------------------------------

_FIRST_STEP = re.compile(r"\[1\](?=/|$)")


def normalize_xpath(xpath):
    """Drop every `[1]` predicate: /a[1]/p[1] and /a/p name one passage."""
    return _FIRST_STEP.sub("", xpath)


def is_heading(xpath):
    """True when one element step of the XPath is named exactly `heading`."""
    for step in xpath.split("/")[1:]:
        if step.split("[", 1)[0] == "heading":
            return True
    return False


# ---------------------------------------------------------------------------
# Qrels
# ---------------------------------------------------------------------------

class Qrels:
    """Judgements of one qrels file.

    topics: topic ids in order of first appearance.
    docs[topic][doc] = document grade (highest grade of its entries).
    passages[topic][doc][normalized xpath] = passage grade (passage qrels).
    Grades are kept as written; min_relevance is applied by relevant()."""

    def __init__(self):
        self.topics = []
        self.docs = {}
        self.passages = {}
        self.is_passage = False

    def _topic(self, topic):
        if topic not in self.docs:
            self.topics.append(topic)
            self.docs[topic] = {}
            self.passages[topic] = {}

    def relevant_docs(self, topic, min_relevance=1):
        """{doc: grade} of the documents with grade >= min_relevance (> 0)."""
        lo = max(1, min_relevance)
        if self.is_passage:
            out = {}
            for doc, ps in self.passages.get(topic, {}).items():
                grades = [g for g in ps.values() if g >= lo]
                if grades:
                    out[doc] = max(grades)
            return out
        return {d: g for d, g in self.docs.get(topic, {}).items() if g >= lo}

    def relevant_passages(self, topic, doc, min_relevance=1):
        """Normalized XPaths of the relevant passages of doc (headings too)."""
        lo = max(1, min_relevance)
        ps = self.passages.get(topic, {}).get(doc, {})
        return {x for x, g in ps.items() if g >= lo}


def read_doc_qrels(path):
    """TREC qrels `topic 0 doc relevance`; an entry listed twice keeps its
    highest grade."""
    q = Qrels()
    for no, f in entries(path):
        if len(f) != 4:
            raise ValueError(f"{path}:{no}: expected 4 columns")
        topic, _, doc, rel = f
        q._topic(topic)
        grade = int(rel)
        q.docs[topic][doc] = max(grade, q.docs[topic].get(doc, grade))
    return q


def read_passage_qrels(path):
    """Passage qrels: `topic 0 doc xpath relevance`, or the 6-column run
    layout `topic Q0 doc xpath rank score` where every line has grade 1."""
    q = Qrels()
    q.is_passage = True
    for no, f in entries(path):
        if len(f) == 5:
            topic, _, doc, xpath, rel = f
            grade = int(rel)
        elif len(f) == 6 and f[3].startswith("/"):
            topic, _, doc, xpath = f[:4]
            grade = 1
        else:
            raise ValueError(f"{path}:{no}: not a passage qrels line")
        q._topic(topic)
        x = normalize_xpath(xpath)
        ps = q.passages[topic].setdefault(doc, {})
        ps[x] = max(grade, ps.get(x, grade))
        q.docs[topic][doc] = max(grade, q.docs[topic].get(doc, grade))
    return q


def read_groups(path):
    """{group: [topics]} from `topic group` lines; groups in order of first
    appearance."""
    groups = {}
    for no, f in entries(path):
        if len(f) != 2:
            raise ValueError(f"{path}:{no}: expected `topic group`")
        members = groups.setdefault(f[1], [])
        if f[0] not in members:
            members.append(f[0])
    return groups


# ---------------------------------------------------------------------------
# Runs
# ---------------------------------------------------------------------------

class Line:
    """One run line. xpath is the normalized XPath (None in document runs)."""

    def __init__(self, no, topic, doc, xpath, rank, score):
        self.no, self.topic, self.doc = no, topic, doc
        self.xpath, self.rank, self.score = xpath, rank, score


def read_doc_run(path):
    """`topic Q0 doc rank score [tag]` lines, in file order."""
    out = []
    for no, f in entries(path):
        if len(f) not in (5, 6) or (len(f) == 6 and f[3].startswith("/")):
            raise ValueError(f"{path}:{no}: not a document run line")
        out.append(Line(no, f[0], f[2], None, float(f[3]), float(f[4])))
    return out


def read_passage_run(path):
    """`topic Q0 doc xpath rank score` lines, in file order."""
    out = []
    for no, f in entries(path):
        if len(f) != 6 or not f[3].startswith("/"):
            raise ValueError(f"{path}:{no}: not a passage run line")
        out.append(Line(no, f[0], f[2], normalize_xpath(f[3]),
                        float(f[4]), float(f[5])))
    return out


def _file_order(a, b):
    """The file's ranking: rank column ascending, ties by line position."""
    if a.rank != b.rank:
        return -1 if a.rank < b.rank else 1
    return -1 if a.no < b.no else (1 if a.no > b.no else 0)


def _score_order(a, b):
    """trec_eval's ranking: score descending, ties by document id descending
    (byte order); lines still tied (passages of one document with one
    score) keep the file's ranking."""
    if a.score != b.score:
        return -1 if a.score > b.score else 1
    da, db = a.doc.encode("utf-8"), b.doc.encode("utf-8")
    if da != db:
        return -1 if da > db else 1
    return _file_order(a, b)


class TopicRanking:
    """A topic's ranking after ordering, heading removal and duplicate
    removal, cut at N documents.

    docs: the documents in rank order (at most N).
    passages[doc]: that document's passages in rank order (passage runs).
    duplicates: the dropped lines.  headings: the removed heading lines."""

    def __init__(self):
        self.docs = []
        self.passages = {}
        self.duplicates = []
        self.headings = []


def rank_topic(lines, order="file", cutoff=100, passage=False,
               keep_headings=False):
    """Build a topic's ranking from its run lines."""
    key = cmp_to_key(_file_order if order == "file" else _score_order)
    t = TopicRanking()
    kept = []
    for line in sorted(lines, key=key):
        if passage and not keep_headings and is_heading(line.xpath):
            t.headings.append(line)
        else:
            kept.append(line)
    seen = set()
    all_docs = []
    all_passages = {}
    for line in kept:
        ident = (line.doc, line.xpath)
        if ident in seen:
            t.duplicates.append(line)
            continue
        seen.add(ident)
        if line.doc not in all_passages:
            all_docs.append(line.doc)
            all_passages[line.doc] = []
        if passage:
            all_passages[line.doc].append(line.xpath)
    t.docs = all_docs[:cutoff]
    t.passages = {d: all_passages[d] for d in t.docs}
    return t


# ---------------------------------------------------------------------------
# Document-level measures.  `ranking` is the cut list of documents (at most
# N), `rel` maps each relevant document of the topic to its grade.
# ---------------------------------------------------------------------------

def relevant_ranks(ranking, rel):
    """Ranks (1-based) of the relevant documents in the ranking."""
    return [i for i, d in enumerate(ranking, start=1) if d in rel]


def precision_at(k, ranking, rel):
    """P@k: relevant documents in the first k of the cut list, over k."""
    return Fraction(len(relevant_ranks(ranking[:k], rel)), k)


def recall_at(k, ranking, rel):
    """R@k: relevant documents in the first k of the cut list, over n."""
    return Fraction(len(relevant_ranks(ranking[:k], rel)), len(rel))


def precision(ranking, rel):
    """Precision of the whole cut list; 0 when nothing is retrieved."""
    if not ranking:
        return Fraction(0)
    return Fraction(len(relevant_ranks(ranking, rel)), len(ranking))


def recall(ranking, rel):
    """Recall of the whole cut list."""
    return Fraction(len(relevant_ranks(ranking, rel)), len(rel))


def average_precision(ranking, rel):
    """AP@N = (sum over the i-th retrieved relevant document of i / r_i) / n."""
    total = sum(Fraction(i, r) for i, r in
                enumerate(relevant_ranks(ranking, rel), start=1))
    return Fraction(total) / len(rel)


def pres(depth, ranking, rel):
    """PRES@depth (Magdy & Jones 2010).

    Relevant documents retrieved within the depth keep their ranks; the
    others take the ranks depth + k + 1, ..., depth + n just after it
    (k = the number retrieved)."""
    n = len(rel)
    ranks = relevant_ranks(ranking[:depth], rel)
    k = len(ranks)
    ranks += [depth + j for j in range(k + 1, n + 1)]
    mean_rank = Fraction(sum(ranks), n)
    return 1 - (mean_rank - Fraction(n + 1, 2)) / depth


def discounted_gain(gains, base):
    """DCG with the Jarvelin-Kekalainen discount: ranks below the base are
    not discounted, rank i >= base is divided by log_base(i)."""
    total = []
    for i, g in enumerate(gains, start=1):
        if g == 0:
            continue
        if i < base:
            total.append(float(g))
        else:
            total.append(g / (math.log(i) / math.log(base)))
    return math.fsum(total)


def ndcg(cutoff, ranking, rel, base):
    """nDCG@N: DCG of the cut list over the DCG of the ideal ranking of all
    relevant documents (grades descending), cut at N."""
    gains = [rel.get(d, 0) for d in ranking[:cutoff]]
    ideal = sorted(rel.values(), reverse=True)[:cutoff]
    return discounted_gain(gains, base) / discounted_gain(ideal, base)


# ---------------------------------------------------------------------------
# Passage-level measures.  `retrieved` is the run's passages of one relevant
# document in rank order (normalized XPaths, headings already removed unless
# kept), `relevant` the set of its relevant passages in the qrels.
# ---------------------------------------------------------------------------

def passage_average_precision(retrieved, relevant):
    """AP(D_i) = (1 / n_p) * sum over ranks r of Precision(r) * rel(r)."""
    hits = 0
    total = Fraction(0)
    for r, x in enumerate(retrieved, start=1):
        if x in relevant:
            hits += 1
            total += Fraction(hits, r)
    return total / len(relevant)


def passage_precision(retrieved, relevant):
    """Precision(D_i): relevant passages retrieved over passages retrieved;
    0 when none is retrieved."""
    if not retrieved:
        return Fraction(0)
    return Fraction(sum(1 for x in retrieved if x in relevant), len(retrieved))


def topic_passage_map(t, qrels, topic, min_relevance):
    """AP(D, T): mean of AP(D_i) over the topic's relevant documents; a
    relevant document not retrieved within N contributes 0."""
    rel = qrels.relevant_docs(topic, min_relevance)
    total = Fraction(0)
    for doc in rel:
        if doc in t.passages:
            total += passage_average_precision(
                t.passages[doc], qrels.relevant_passages(topic, doc, min_relevance))
    return total / len(rel)


def topic_passage_precision(t, qrels, topic, min_relevance):
    """Precision(D, T): mean of Precision(D_i) over the relevant documents."""
    rel = qrels.relevant_docs(topic, min_relevance)
    total = Fraction(0)
    for doc in rel:
        if doc in t.passages:
            total += passage_precision(
                t.passages[doc], qrels.relevant_passages(topic, doc, min_relevance))
    return total / len(rel)


# ---------------------------------------------------------------------------
# Putting it together
# ---------------------------------------------------------------------------

def measure_names(cutoff=100, ndcg_base=10, passage=False):
    names = [f"P@{k}" for k in P_RANKS] + [f"R@{k}" for k in P_RANKS]
    names += ["Precision", "Recall", f"MAP@{cutoff}"]
    depths = list(PRES_DEPTHS) + ([] if cutoff in PRES_DEPTHS else [cutoff])
    names += [f"PRES@{d}" for d in depths]
    names.append(f"nDCG@{cutoff}" + ("/b2" if ndcg_base == 2 else ""))
    if passage:
        names += ["MAP(D)", "Precision(D)"]
    return names


def score_topic(t, qrels, topic, cutoff, ndcg_base, min_relevance, passage):
    """{measure: Fraction or float} plus the counts for one topic."""
    rel = qrels.relevant_docs(topic, min_relevance)
    docs = t.docs
    m = {}
    for k in P_RANKS:
        m[f"P@{k}"] = precision_at(k, docs, rel)
    for k in P_RANKS:
        m[f"R@{k}"] = recall_at(k, docs, rel)
    m["Precision"] = precision(docs, rel)
    m["Recall"] = recall(docs, rel)
    m[f"MAP@{cutoff}"] = average_precision(docs, rel)
    for d in PRES_DEPTHS + (() if cutoff in PRES_DEPTHS else (cutoff,)):
        m[f"PRES@{d}"] = pres(d, docs, rel)
    m[f"nDCG@{cutoff}" + ("/b2" if ndcg_base == 2 else "")] = \
        ndcg(cutoff, docs, rel, ndcg_base)
    if passage:
        m["MAP(D)"] = topic_passage_map(t, qrels, topic, min_relevance)
        m["Precision(D)"] = topic_passage_precision(t, qrels, topic, min_relevance)
    counts = {"num_ret": len(docs), "num_rel": len(rel),
              "num_rel_ret": len(relevant_ranks(docs, rel))}
    return m, counts


def mean(values):
    """Exact mean of Fractions; correctly rounded mean of floats."""
    if all(isinstance(v, Fraction) for v in values):
        return sum(values, Fraction(0)) / len(values)
    return math.fsum(float(v) for v in values) / len(values)


def as_number(v):
    return float(v) if isinstance(v, Fraction) else v


def evaluate_run(path, qrels, groups=None, order="file", cutoff=100,
                 ndcg_base=10, min_relevance=1, keep_headings=False,
                 passage=False):
    """Score one run; returns the JSON-ready result for it."""
    lines = read_passage_run(path) if passage else read_doc_run(path)
    by_topic = {}
    run_topics = []
    for line in lines:
        if line.topic not in by_topic:
            by_topic[line.topic] = []
            run_topics.append(line.topic)
        by_topic[line.topic].append(line)

    names = measure_names(cutoff, ndcg_base, passage)
    topics_out, scored = [], {}
    left_out, missing, duplicates, headings = [], [], [], []
    for topic in qrels.topics:
        if not qrels.relevant_docs(topic, min_relevance):
            left_out.append(topic)
            continue
        t = rank_topic(by_topic.get(topic, []), order, cutoff, passage,
                       keep_headings)
        status = "ok" if topic in by_topic else "missing"
        if status == "missing":
            missing.append(topic)
        m, counts = score_topic(t, qrels, topic, cutoff, ndcg_base,
                                min_relevance, passage)
        scored[topic] = (m, counts)
        row = {"topic": topic, "status": status, **counts}
        row.update({k: as_number(m[k]) for k in names})
        topics_out.append(row)
    # duplicates and headings are reported for every topic of the run,
    # including topics that are not scored
    for topic in run_topics:
        t = rank_topic(by_topic[topic], order, cutoff, passage, keep_headings)
        for line in t.duplicates:
            d = {"topic": topic, "doc": line.doc, "line": line.no}
            if passage:
                d["xpath"] = line.xpath
            duplicates.append(d)
        headings.extend(line.no for line in t.headings)
    duplicates.sort(key=lambda d: d["line"])
    headings.sort()

    def summary(topic_ids):
        ids = [x for x in topic_ids if x in scored]
        out = {"num_q": len(ids)}
        for c in ("num_ret", "num_rel", "num_rel_ret"):
            out[c] = sum(scored[x][1][c] for x in ids)
        for k in names:
            out[k] = as_number(mean([scored[x][0][k] for x in ids])) if ids else None
        return out

    result = {
        "run": run_name(path),
        "topics": topics_out,
        "all": summary(qrels.topics),
        "groups": {g: summary(members) for g, members in (groups or {}).items()},
        "left_out": left_out,
        "missing": missing,
        "unknown": [x for x in run_topics if x not in qrels.docs],
        "duplicates": duplicates,
    }
    if passage:
        result["headings_removed"] = headings
    return result
