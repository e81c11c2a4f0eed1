#!/usr/bin/env python3
"""Side by side: clefeval prior-art against trec_eval, pytrec_eval and ranx
on one generated document run, each tool reading the files itself.

The files (20 000 topics x 1 000 documents, 20 M lines, scores tied in
groups of four; qrels of 1-30 relevant documents a topic) are written by
`cargo bench --bench retrieval_trec -- write DIR` when DIR lacks them.

    python3 benches/retrieval_vs_trec_eval.py [--data DIR] [--clefeval BIN]
        [--trec-eval PATH] [--repeat 3] [--skip pytrec_eval,ranx]

Measures, the same in every tool: P@5, 10, 20, 100 and R@5, 10, 20, 100
per topic and their means, MAP, set precision and recall. clefeval runs
with `--order score` (trec_eval's order), the cut-off 100 and the trec
line layout, and computes PRES and nDCG besides; trec_eval runs with
`-q -M 100` (the same cut-off, per-topic output); pytrec_eval and ranx
have no cut-off option and score all 1 000 documents for MAP and set
precision. Each tool is timed as a whole process (wall time and peak
memory from /usr/bin/time), `--repeat` times; the medians are printed
with their ratio to clefeval's. clefeval's per-topic values are checked
against trec_eval's when both ran (largest difference printed).

`--trec-eval PATH` is a trec_eval binary built from its public source
(`make` in a checkout of usnistgov/trec_eval); the bench needs it, CI
never does. pytrec_eval is PyPI's `pytrec-eval-terrier`, ranx PyPI's
`ranx`.
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

PYTREC = r"""
import sys, pytrec_eval
with open(sys.argv[1]) as f: qrels = pytrec_eval.parse_qrel(f)
with open(sys.argv[2]) as f: run = pytrec_eval.parse_run(f)
ev = pytrec_eval.RelevanceEvaluator(
    qrels, {'P.5,10,20,100', 'recall.5,10,20,100', 'map', 'set_P', 'set_recall'})
res = ev.evaluate(run)
print(len(res), sum(v['map'] for v in res.values()) / len(res))
"""

RANX = r"""
import sys
from ranx import Qrels, Run, evaluate
qrels = Qrels.from_file(sys.argv[1], kind='trec')
run = Run.from_file(sys.argv[2], kind='trec')
m = ['precision@5', 'precision@10', 'precision@20', 'precision@100',
     'recall@5', 'recall@10', 'recall@20', 'recall@100', 'map@100']
print(evaluate(qrels, run, m))
"""

# clefeval's names -> trec_eval's, for the value check.
NAMES = {
    'P@5': 'P_5', 'P@10': 'P_10', 'P@20': 'P_20', 'P@100': 'P_100',
    'R@5': 'recall_5', 'R@10': 'recall_10', 'R@20': 'recall_20',
    'R@100': 'recall_100', 'MAP@100': 'map', 'Precision': 'set_P',
    'Recall': 'set_recall', 'num_ret': 'num_ret', 'num_rel': 'num_rel',
    'num_rel_ret': 'num_rel_ret',
}


def timed(cmd, out_path):
    """Runs cmd with stdout to out_path; returns (seconds, peak MiB)."""
    with tempfile.NamedTemporaryFile('r', suffix='.time') as t, \
            open(out_path, 'w') as out:
        full = ['/usr/bin/time', '-f', '%e %M', '-o', t.name] + cmd
        proc = subprocess.run(full, stdout=out, stderr=subprocess.PIPE, text=True)
        if proc.returncode != 0:
            sys.exit(f"{' '.join(cmd)} failed ({proc.returncode}): {proc.stderr[-2000:]}")
        seconds, kib = t.read().split()[-2:]
    return float(seconds), int(kib) / 1024


def read_trec_lines(path, names=None):
    """{(measure, topic): value} of a three-column trec layout file."""
    values = {}
    with open(path) as f:
        for line in f:
            parts = line.split()
            if len(parts) != 3 or parts[0] == 'runid':
                continue
            name = parts[0] if names is None else names.get(parts[0])
            if name is None:
                continue
            try:
                values[(name, parts[1])] = float(parts[2])
            except ValueError:
                pass
    return values


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--data', default=os.path.join(ROOT, 'target', 'retrieval-trec'))
    ap.add_argument('--clefeval', default=os.path.join(ROOT, 'target', 'release', 'clefeval'))
    ap.add_argument('--trec-eval', help='a trec_eval binary (bench only)')
    ap.add_argument('--repeat', type=int, default=3)
    ap.add_argument('--skip', default='', help='comma list: pytrec_eval,ranx')
    args = ap.parse_args()
    qrels = os.path.join(args.data, 'qrels.txt')
    run = os.path.join(args.data, 'run.txt')
    if not (os.path.isfile(qrels) and os.path.isfile(run)):
        subprocess.run(['cargo', 'bench', '--bench', 'retrieval_trec', '--', 'write',
                        args.data], cwd=ROOT, check=True)
    skip = set(filter(None, args.skip.split(',')))
    work = tempfile.mkdtemp(prefix='clefeval-vs-trec-')
    tools = [('clefeval', [args.clefeval, 'prior-art', '--qrels', qrels, '--run', run,
                           '--order', 'score', '--format', 'trec', '--quiet'])]
    if args.trec_eval:
        tools.append(('trec_eval', [args.trec_eval, '-q', '-M', '100',
                                    '-m', 'P.5,10,20,100', '-m', 'recall.5,10,20,100',
                                    '-m', 'map', '-m', 'set_P', '-m', 'set_recall',
                                    '-m', 'num_ret', '-m', 'num_rel', '-m', 'num_rel_ret',
                                    qrels, run]))
    if 'pytrec_eval' not in skip:
        tools.append(('pytrec_eval', [sys.executable, '-c', PYTREC, qrels, run]))
    if 'ranx' not in skip:
        tools.append(('ranx', [sys.executable, '-c', RANX, qrels, run]))
    lines = sum(1 for _ in open(run, 'rb'))
    size = os.path.getsize(run) / 1e6
    print(f'run: {lines} lines, {size:.0f} MB; {args.repeat} runs each, medians')
    results = {}
    for name, cmd in tools:
        times, mems = [], []
        for i in range(args.repeat):
            s, m = timed(cmd, os.path.join(work, f'{name}.out'))
            times.append(s)
            mems.append(m)
        results[name] = (statistics.median(times), max(mems))
    base = results['clefeval'][0]
    print(f"{'tool':<12} {'wall s':>8} {'peak MiB':>9} {'× clefeval':>11}")
    for name, (s, m) in results.items():
        print(f'{name:<12} {s:8.2f} {m:9.0f} {s / base:11.2f}')
    print(f"clefeval: {lines / base / 1e6:.1f} M lines/s")
    if 'trec_eval' in results:
        ours = read_trec_lines(os.path.join(work, 'clefeval.out'), NAMES)
        theirs = read_trec_lines(os.path.join(work, 'trec_eval.out'))
        common = [k for k in theirs if k in ours]
        worst = max((abs(ours[k] - theirs[k]) for k in common), default=float('nan'))
        absent = [k for k in theirs if k not in ours]
        print(f'values checked against trec_eval: {len(common)} '
              f'(largest difference {worst:.3g}; {len(absent)} of trec_eval\'s not compared)')
        if worst > 1e-4 or not common:
            sys.exit('clefeval and trec_eval disagree')


if __name__ == '__main__':
    main()
