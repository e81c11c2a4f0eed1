#!/usr/bin/env python3
"""Compares `reference.py --flowgen` with FlowGen-Eval's own scripts.

Usage:
    python3 check.py                 # reference.py --flowgen against expected-flowgen.jsonl
    python3 check.py FLOWGEN         # also run FlowGen's scripts on the same examples
    python3 check.py FLOWGEN --results   # and on FlowGen's published Results/Eval_Results

FLOWGEN is a clone of github.com/nju-websoft/FlowGen (a work tree, or a bare
git directory: files are then read with `git show HEAD:<path>`). Standard
library only: when `tqdm` (imported by FlowGen's eval.py, used only as a
progress bar) is not installed, a stand-in that gives back its argument is put
on the path of that one process. Nothing of FlowGen is copied here; its
files are read from FLOWGEN and run in a temporary folder.

What is compared:
  * triples/: FlowGen-format gold files and model answers. FlowGen's eval.py
    reads one JSON record per answer (an answer with no file is scored as an
    empty answer, as eval.py does for an empty response).
  * clef/: CLEF-IP flowcharts for reference.py, and the same flowcharts
    written as Mermaid in the style of FlowGen's synthesizer (junctions are
    S<n>/M<n> circles) for FlowGen's triples_parser.py; the parser's triples
    become the gold file and the answer given to eval.py.
  * --results: every record of FlowGen's Results/Eval_Results/*.json that
    the clone holds (its gold and predicted triples, already normalized) is
    written back as a gold file and an answer, scored by eval.py and by
    reference.py, and both are compared with the numbers FlowGen published.
Per topic: the rounded precision, recall and F1 and the set sizes; per run:
the three means, compared exactly (==).
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REFERENCE = os.path.join(HERE, "..", "reference.py")


def run_reference(gold, run):
    out = subprocess.run([sys.executable, REFERENCE, "--flowgen", gold, run],
                         check=True, capture_output=True, text=True).stdout
    return [json.loads(line) for line in out.splitlines()]


class FlowGen:
    def __init__(self, root):
        self.root = root
        self.bare = not os.path.isdir(os.path.join(root, "FlowGen_Eval"))

    def read(self, rel):
        if not self.bare:
            with open(os.path.join(self.root, rel), "rb") as f:
                return f.read()
        return subprocess.run(["git", "--git-dir", self.root, "show", f"HEAD:{rel}"],
                              check=True, capture_output=True).stdout

    def results(self):
        if not self.bare:
            base = os.path.join(self.root, "Results", "Eval_Results")
            names = [os.path.relpath(os.path.join(d, f), self.root)
                     for d, _, fs in os.walk(base) for f in fs if f.endswith(".json")]
        else:
            names = subprocess.run(["git", "--git-dir", self.root, "ls-tree", "-r", "--name-only",
                                    "HEAD", "Results/Eval_Results"], check=True,
                                   capture_output=True, text=True).stdout.split()
        return sorted(names)


def prepare(flowgen, tmp):
    """Writes FlowGen's scripts to tmp/src (and a tqdm stand-in if needed)."""
    src = os.path.join(tmp, "src")
    os.makedirs(src)
    for rel in ("FlowGen_Eval/eval.py", "triples_parser.py", "batch_extract_triples.py"):
        with open(os.path.join(src, os.path.basename(rel)), "wb") as f:
            f.write(flowgen.read(rel))
    stub = os.path.join(tmp, "stub")
    os.makedirs(stub)
    try:
        import tqdm  # noqa: F401
    except ImportError:
        with open(os.path.join(stub, "tqdm.py"), "w") as f:
            f.write("def tqdm(iterable, *args, **kwargs):\n    return iterable\n")
    return src, stub


def flowgen_eval(src, stub, work, records):
    """records: [(stem, gold text, answer text)]; gives eval.py's output list."""
    lines = []
    for i, (stem, gold, answer) in enumerate(records):
        folder = os.path.join(work, "eval", f"{i:05d}")
        os.makedirs(folder)
        with open(os.path.join(folder, stem + ".txt"), "w", encoding="utf-8") as f:
            f.write(gold)
        lines.append(json.dumps({"response": answer,
                                 "images": [{"path": os.path.join(folder, stem + ".png")}]}))
    with open(os.path.join(work, "input.jsonl"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    out = os.path.join(work, "out", "eval.json")
    env = dict(os.environ, PYTHONPATH=stub)
    subprocess.run([sys.executable, os.path.join(src, "eval.py"), "--input_json",
                    os.path.join(work, "input.jsonl"), "--output_json", out],
                   check=True, capture_output=True, env=env)
    with open(out, encoding="utf-8") as f:
        return json.load(f)


def compare(label, theirs, mine, stored=None):
    """theirs: eval.py output; mine: reference.py lines (same order)."""
    per_topic = [(t["precision"], t["recall"], t["f1_score"], len(t["gt_count"]), len(t["pred_count"]))
                 for t in theirs[:-1]]
    ours = [(m["precision"], m["recall"], m["f1"], m["gold_triplets"], m["run_triplets"])
            for m in mine[:-1]]
    same = sum(a == b for a, b in zip(per_topic, ours))
    t_mean = (theirs[-1]["precision"], theirs[-1]["recall"], theirs[-1]["f1_score"])
    m_mean = (mine[-1]["mean_precision"], mine[-1]["mean_recall"], mine[-1]["mean_f1"])
    ok = same == len(per_topic) == len(ours) and t_mean == m_mean
    note = ""
    if stored is not None:
        published = [(s["precision"], s["recall"], s["f1_score"]) for s in stored[:-1]]
        agree = sum(p == t[:3] for p, t in zip(published, per_topic))
        s_mean = (stored[-1]["precision"], stored[-1]["recall"], stored[-1]["f1_score"])
        ok = ok and agree == len(published) and s_mean == t_mean
        note = f"; published == eval.py on {agree}/{len(published)}, mean {s_mean == t_mean}"
    print(f"{'ok  ' if ok else 'DIFF'} {label}: {same}/{len(per_topic)} topics equal, "
          f"means equal: {t_mean == m_mean} {m_mean}{note}")
    return ok


def check_triples(src, stub, tmp):
    gold_dir = os.path.join(HERE, "triples", "gold")
    run_dir = os.path.join(HERE, "triples", "runs", "answers")
    topics = sorted(n[:-4] for n in os.listdir(gold_dir) if n.endswith(".txt"))
    records = []
    for t in topics:
        with open(os.path.join(gold_dir, t + ".txt"), encoding="utf-8") as f:
            gold = f.read()
        path = os.path.join(run_dir, t + ".txt")
        answer = open(path, encoding="utf-8", newline="").read() if os.path.exists(path) else ""
        records.append((t, gold, answer))
    theirs = flowgen_eval(src, stub, os.path.join(tmp, "triples"), records)
    return compare("triples/ (FlowGen text)", theirs, run_reference(gold_dir, run_dir))


def check_clef(src, stub, tmp):
    sys.path.insert(0, src)
    import io
    import contextlib
    from triples_parser import parse_mermaid  # FlowGen's code-to-triple parser
    from batch_extract_triples import save_triples_to_txt
    ok = True
    runs_dir = os.path.join(HERE, "clef", "runs")
    for run in sorted(os.listdir(runs_dir)):
        gold_dir = os.path.join(HERE, "clef", "gold")
        topics = sorted(n[:-4] for n in os.listdir(gold_dir) if n.endswith(".txt"))
        records = []
        for t in topics:
            texts = []
            for side in ("gold", run):
                mmd = os.path.join(HERE, "clef", "mermaid", side, t + ".mmd")
                with contextlib.redirect_stdout(io.StringIO()):
                    triples = parse_mermaid(mmd)
                out = os.path.join(tmp, f"{side}-{t}.txt")
                save_triples_to_txt(triples, out)
                with open(out, encoding="utf-8") as f:
                    texts.append(f.read())
            records.append((t, texts[0], texts[1]))
        theirs = flowgen_eval(src, stub, os.path.join(tmp, "clef-" + run), records)
        ok &= compare(f"clef/ run {run} (Mermaid via triples_parser.py vs CLEF-IP)", theirs,
                      run_reference(gold_dir, os.path.join(runs_dir, run)))
    return ok


def check_results(flowgen, src, stub, tmp):
    ok = True
    for rel in flowgen.results():
        try:
            stored = json.loads(flowgen.read(rel))
        except (subprocess.CalledProcessError, ValueError, OSError):
            print(f"skip {rel}: not readable in this clone")
            continue
        work = os.path.join(tmp, "results", rel.replace("/", "_"))
        gold_dir, run_dir = os.path.join(work, "gold"), os.path.join(work, "run")
        os.makedirs(gold_dir)
        os.makedirs(run_dir)
        records = []
        for i, r in enumerate(stored[:-1]):
            stem = r["image"]
            for ext in (".png", "_scanned", ".jpeg", ".jpg"):
                stem = stem.replace(ext, "")
            gold = "".join("<%s, %s, %s>\n" % tuple(t) for t in r["gt_count"])
            answer = "\n".join("<%s, %s, %s>" % tuple(t) for t in r["pred_count"])
            topic = f"{i:05d}-{stem}"  # keeps eval.py's record order
            with open(os.path.join(gold_dir, topic + ".txt"), "w", encoding="utf-8") as f:
                f.write(gold)
            with open(os.path.join(run_dir, topic + ".txt"), "w", encoding="utf-8") as f:
                f.write(answer)
            records.append((stem, gold, answer))
        theirs = flowgen_eval(src, stub, work, records)
        ok &= compare(rel, theirs, run_reference(gold_dir, run_dir), stored)
    return ok


def main(argv):
    ok = True
    expected_path = os.path.join(HERE, "expected-flowgen.jsonl")
    with open(expected_path, encoding="utf-8") as f:
        expected = [json.loads(line) for line in f]
    got = (run_reference(os.path.join(HERE, "triples", "gold"), os.path.join(HERE, "triples", "runs", "answers"))
           + run_reference(os.path.join(HERE, "clef", "gold"), os.path.join(HERE, "clef", "runs", "reader")))
    same = got == expected
    print(f"{'ok  ' if same else 'DIFF'} reference.py --flowgen == expected-flowgen.jsonl")
    ok &= same
    if argv:
        flowgen = FlowGen(argv[0])
        tmp = tempfile.mkdtemp(prefix="flowgen-check-")
        try:
            src, stub = prepare(flowgen, tmp)
            ok &= check_triples(src, stub, tmp)
            ok &= check_clef(src, stub, tmp)
            if "--results" in argv[1:]:
                ok &= check_results(flowgen, src, stub, tmp)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
