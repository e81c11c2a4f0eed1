"""Checks reference.py against trec_eval's own C code (pytrec_eval).

    pip install pytrec-eval-terrier
    python3 check_trec_eval.py          # exit 0: all agree; 1: a mismatch

For every run of the fixtures (document runs, and passage runs reduced to
their document ranking), every qrels file, cut-off N in {100, 20} and
minimum relevance in {1, 2}, the reference is run with trec_eval's order
(`order="score"`: score descending, ties by document id descending) and
compared topic by topic with trec_eval's P_k, recall_k, map_cut_N, map,
set_P, set_recall, num_ret, num_rel and num_rel_ret, to 1e-12.

What trec_eval is given, so that both sides score the same thing:
  * its own dictionaries cannot hold a document twice: each document gets
    the score of its best line (the copy that comes first in trec_eval's
    order, which is the copy the reference keeps);
  * passage runs: the heading lines are removed first (a rule of the task,
    not of trec_eval) and each document gets its best passage score;
  * the "cut" run holds the first N documents in trec_eval's order, which
    is what `trec_eval -M N` would score; the "full" run holds everything
    (P_k, recall_k for k <= N and map_cut_N do not depend on the cut);
  * only topics in both the run and the qrels with at least one relevant
    document are compared: the reference leaves topics without relevant
    documents out (trec_eval scores them 0) and scores topics missing from
    the run 0 (trec_eval only does so with -c);
  * the means of the reference are compared with trec_eval's per-topic
    values averaged over the topics with a relevant document, 0 for a topic
    the run lacks (as -c would), and the summed counts likewise.
PRES@20, PRES@100 (and PRES@N) and nDCG in both bases, which trec_eval
does not compute, are computed a second time here from the ranking in
trec_eval's order built in this file, and compared the same way.
The qrels are read here with a few lines of code of their own, not with
reference.py.
"""

import glob
import math
import os
import sys
from fractions import Fraction

import pytrec_eval

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import reference as ref  # noqa: E402

TOL = 1e-12
KS = (5, 10, 20, 100)


def heading(xpath):
    return any(step.split("[")[0] == "heading" for step in xpath.split("/")[1:])


def load_qrels(path, passage):
    """{topic: {doc: grade}}, a document's grade the highest of its lines."""
    q = {}
    for line in open(path, encoding="utf-8-sig"):
        f = line.split()
        if not f or f[0].startswith("#"):
            continue
        if passage and len(f) == 6:
            grade = 1
        else:
            grade = int(f[-1])
        docs = q.setdefault(f[0], {})
        docs[f[2]] = max(grade, docs.get(f[2], grade))
    return q


def load_run(path, passage):
    """{topic: {doc: best score}} (passage runs: heading lines removed)."""
    run = {}
    for line in open(path, encoding="utf-8-sig"):
        f = line.split()
        if not f or f[0].startswith("#"):
            continue
        if passage and heading(f[3]):
            continue
        score = float(f[5] if passage else f[4])
        docs = run.setdefault(f[0], {})
        docs[f[2]] = max(score, docs.get(f[2], score))
    return run


def cut(run, n):
    """The first n documents of each topic in trec_eval's order."""
    out = {}
    for topic, docs in run.items():
        ids = sorted(docs, key=lambda d: d.encode(), reverse=True)
        ids.sort(key=lambda d: docs[d], reverse=True)       # stable
        out[topic] = {d: docs[d] for d in ids[:n]}
    return out


def second_pres(ranking, rel, depth):
    """PRES@depth written out again, from a ranking built in this file."""
    n = len(rel)
    ranks = [i for i, d in enumerate(ranking[:depth], start=1) if d in rel]
    ranks += [depth + j for j in range(len(ranks) + 1, n + 1)]
    return 1 - (Fraction(sum(ranks), n) - Fraction(n + 1, 2)) / depth


def second_ndcg(ranking, rel, n_cut, base):
    """nDCG with the Jarvelin-Kekalainen discount, written out again (log10
    and log2 here, where reference.py divides natural logarithms)."""
    log = math.log10 if base == 10 else math.log2

    def dcg(gains):
        return sum(g if i < base else g / log(i) for i, g in enumerate(gains, start=1))

    ideal = sorted(rel.values(), reverse=True)[:n_cut]
    return dcg([rel.get(d, 0) for d in ranking[:n_cut]]) / dcg(ideal)


def main():
    cases = []
    for run in sorted(glob.glob(os.path.join(HERE, "doc", "runs", "*"))):
        cases.append((run, os.path.join(HERE, "doc", "qrels.txt"), False))
    for run in sorted(glob.glob(os.path.join(HERE, "passage", "runs", "*"))):
        for q in ("qrels.txt", "qrels-6col.txt"):
            cases.append((run, os.path.join(HERE, "passage", q), True))

    compared = 0
    max_diff = 0.0
    mismatches = 0
    topics_compared = 0
    skipped_no_relevant = 0
    means_compared = 0
    max_mean_diff = 0.0
    second_compared = 0
    max_second_diff = 0.0

    def check(cond):
        nonlocal mismatches, means_compared
        means_compared += 1
        if not cond:
            mismatches += 1
            print(f"MISMATCH in the summed counts or num_q: {run_path}")
    for run_path, qrels_path, passage in cases:
        trec_qrels = load_qrels(qrels_path, passage)
        full_run = load_run(run_path, passage)
        qrels = (ref.read_passage_qrels if passage else ref.read_doc_qrels)(qrels_path)
        for n in (100, 20):
            cut_run = cut(full_run, n)
            for g in (1, 2):
                mine = ref.evaluate_run(run_path, qrels, order="score", cutoff=n,
                                        min_relevance=g, passage=passage)
                names = ref.measure_names(n, 10, passage)
                rows = {r["topic"]: r for r in mine["topics"]}
                ev_cut = pytrec_eval.RelevanceEvaluator(
                    trec_qrels,
                    {"P.5,10,20,100", "recall.5,10,20,100", f"map_cut.{n}", "map",
                     "set_P", "set_recall", "num_ret", "num_rel", "num_rel_ret"},
                    relevance_level=g).evaluate(cut_run)
                ev_full = pytrec_eval.RelevanceEvaluator(
                    trec_qrels, {"P.5,10,20,100", "recall.5,10,20,100", f"map_cut.{n}"},
                    relevance_level=g).evaluate(full_run)
                for topic, t in ev_cut.items():
                    if topic not in rows:
                        # trec_eval scores it; the reference leaves it out
                        assert topic in mine["left_out"], (run_path, topic)
                        assert t["num_rel"] == 0
                        skipped_no_relevant += 1
                        continue
                    r = rows[topic]
                    assert r["status"] == "ok"
                    topics_compared += 1
                    pairs = [("num_ret", "num_ret"), ("num_rel", "num_rel"),
                             ("num_rel_ret", "num_rel_ret"),
                             ("Precision", "set_P"), ("Recall", "set_recall"),
                             (f"MAP@{n}", f"map_cut_{n}"), (f"MAP@{n}", "map")]
                    pairs += [(f"P@{k}", f"P_{k}") for k in KS]
                    pairs += [(f"R@{k}", f"recall_{k}") for k in KS]
                    checks = [(mine_name, t[trec_name], "cut " + trec_name)
                              for mine_name, trec_name in pairs]
                    f = ev_full[topic]
                    checks += [(f"P@{k}", f["P_%d" % k], f"full P_{k}") for k in KS if k <= n]
                    checks += [(f"R@{k}", f["recall_%d" % k], f"full recall_{k}") for k in KS if k <= n]
                    checks.append((f"MAP@{n}", f[f"map_cut_{n}"], f"full map_cut_{n}"))
                    for mine_name, theirs, label in checks:
                        ours = r[mine_name]
                        d = abs(float(ours) - float(theirs))
                        compared += 1
                        max_diff = max(max_diff, d)
                        if d > TOL:
                            mismatches += 1
                            print(f"MISMATCH {os.path.relpath(run_path, HERE)} "
                                  f"qrels={os.path.basename(qrels_path)} N={n} "
                                  f"min_rel={g} {topic} {mine_name}={ours} "
                                  f"trec_eval {label}={theirs}")
                # PRES and nDCG (not in trec_eval) computed a second time
                # from the ranking in trec_eval's order built here
                rows_b2 = {x["topic"]: x for x in ref.evaluate_run(
                    run_path, qrels, order="score", cutoff=n, ndcg_base=2,
                    min_relevance=g, passage=passage)["topics"]}
                for topic, docs in cut_run.items():
                    if topic not in rows:
                        continue
                    ranking = sorted(docs, key=lambda d: d.encode(), reverse=True)
                    ranking.sort(key=lambda d: docs[d], reverse=True)
                    rel = {d: v for d, v in trec_qrels[topic].items() if v >= g}
                    r = rows[topic]
                    seconds = [(f"PRES@{m}", float(second_pres(ranking, rel, m)))
                               for m in sorted({20, 100, n})]
                    seconds.append((f"nDCG@{n}", second_ndcg(ranking, rel, n, 10)))
                    seconds.append((f"nDCG@{n}/b2", second_ndcg(ranking, rel, n, 2)))
                    for name, value in seconds:
                        ours = rows_b2[topic][name] if name.endswith("/b2") else r[name]
                        d = abs(ours - value)
                        second_compared += 1
                        max_second_diff = max(max_second_diff, d)
                        if d > TOL:
                            mismatches += 1
                            print(f"SECOND MISMATCH {os.path.relpath(run_path, HERE)} "
                                  f"N={n} min_rel={g} {topic} {name}={ours} second={value}")
                # the means: trec_eval's per-topic values averaged over the
                # topics with a relevant document, 0 for a topic the run
                # lacks (what `trec_eval -c` does), against the reference's
                # "all" row
                scored = [x for x in trec_qrels
                          if any(v >= g for v in trec_qrels[x].values())]
                check_means = [(f"P@{k}", f"P_{k}") for k in KS]
                check_means += [(f"R@{k}", f"recall_{k}") for k in KS]
                check_means += [("Precision", "set_P"), ("Recall", "set_recall"),
                                (f"MAP@{n}", f"map_cut_{n}")]
                for mine_name, trec_name in check_means if scored else []:
                    theirs = sum(ev_cut.get(x, {}).get(trec_name, 0.0)
                                 for x in scored) / len(scored)
                    ours = mine["all"][mine_name]
                    d = abs(ours - theirs)
                    means_compared += 1
                    max_mean_diff = max(max_mean_diff, d)
                    if d > TOL:
                        mismatches += 1
                        print(f"MEAN MISMATCH {os.path.relpath(run_path, HERE)} "
                              f"N={n} min_rel={g} {mine_name}={ours} trec_eval={theirs}")
                check(mine["all"]["num_q"] == len(scored))
                for c in ("num_ret", "num_rel", "num_rel_ret"):
                    # a topic the run lacks still has its relevant documents
                    absent = {"num_ret": 0, "num_rel_ret": 0}
                    check(mine["all"][c] == sum(
                        ev_cut[x][c] if x in ev_cut else
                        absent.get(c, sum(v >= g for v in trec_qrels[x].values()))
                        for x in scored))
                # every topic the reference scores as present is one that
                # trec_eval evaluated too, except a topic whose lines were
                # all headings (present, but it retrieves nothing)
                for topic, r in rows.items():
                    if r["status"] == "ok" and topic not in ev_cut:
                        assert r["num_ret"] == 0 and passage, (run_path, topic)
                        assert all(r[k] == 0 for k in names), (run_path, topic)
    print(f"cases: {len(cases)} run/qrels pairs x 2 cut-offs x 2 minimum relevances")
    print(f"topic evaluations compared: {topics_compared}")
    print(f"topic x measure values compared: {compared}")
    print(f"topics trec_eval scores but the reference leaves out "
          f"(no relevant document): {skipped_no_relevant}")
    print(f"max abs difference: {max_diff:.3g}")
    print(f"means and summed counts compared: {means_compared}, "
          f"max abs difference of the means: {max_mean_diff:.3g}")
    print(f"PRES and nDCG values computed a second time: {second_compared}, "
          f"max abs difference: {max_second_diff:.3g}")
    print(f"mismatches: {mismatches}")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
