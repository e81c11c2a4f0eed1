"""Independent reference for comparing retrieval runs (docs/retrieval.md,
"Comparing runs").

Writes every case of per-topic score tables to cases/NAME.json and the
values it computes for them to expected/NAME.json:

- paired t-test: scipy.stats.ttest_rel (two-sided), with the conventions
  the definition adds (all differences zero: t = 0, p = 1; one topic: no
  test; t infinite: null);
- randomization test: its own implementation of the documented generator
  (SplitMix64, one bit per topic per permutation) with the statistics
  computed by a matrix product (another summation order than clefeval's),
  and, for at most 12 topics, the exact p over all 2^n sign flips;
- Holm's correction written out by hand;
- Kendall's tau-b (scipy.stats.kendalltau) and Spearman's rho
  (scipy.stats.spearmanr) between the runs' means, null when scipy
  returns nan (a constant side).

Cases are built from fixed seeds, so `python3 reference.py && git diff
--exit-code .` checks that the committed files are reproduced.
"""

import itertools
import json
import math
import random
import warnings
from pathlib import Path

import numpy as np
from scipy import stats

HERE = Path(__file__).resolve().parent
MASK = (1 << 64) - 1
TIE_TOLERANCE = 1e-9
HEADLINE = "MAP@100"


# ---------------------------------------------------------------------------
# Generator and randomization test
# ---------------------------------------------------------------------------

def splitmix64(state):
    """Yields SplitMix64's outputs from `state`."""
    while True:
        state = (state + 0x9E3779B97F4A7C15) & MASK
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        yield z ^ (z >> 31)


def swap_matrix(n, permutations, seed):
    """permutations x n array: 1 where the permutation swaps the topic.

    Permutation k takes the next ceil(n/64) outputs; topic i is bit i % 64
    (least significant first) of output i // 64."""
    words = (n + 63) // 64
    gen = splitmix64(seed)
    raw = np.array([next(gen) for _ in range(permutations * words)], dtype="<u8")
    bits = np.unpackbits(raw.view(np.uint8), bitorder="little")
    return bits.reshape(permutations, words * 64)[:, :n]


def plain_sum(values):
    """Left-to-right float sum (Python's sum() compensates since 3.12)."""
    total = 0.0
    for v in values:
        total += v
    return total


def is_extreme(statistics, d):
    """|T| >= |sum d| - TIE_TOLERANCE * sum |d|, elementwise."""
    observed = plain_sum(d)
    scale = plain_sum(abs(x) for x in d)
    return np.abs(statistics) >= abs(observed) - TIE_TOLERANCE * scale


def randomization_count(d, swaps):
    signs = 1.0 - 2.0 * swaps.astype(np.float64)
    return int(np.count_nonzero(is_extreme(signs @ np.array(d), d)))


def exact_p(d):
    """The share of all 2^n sign flips at least as extreme as observed."""
    n = len(d)
    signs = np.array(list(itertools.product((1.0, -1.0), repeat=n)))
    return float(np.count_nonzero(is_extreme(signs @ np.array(d), d))) / 2 ** n


# ---------------------------------------------------------------------------
# t-test, Holm, correlations
# ---------------------------------------------------------------------------

def t_test(a, b):
    d = [x - y for x, y in zip(a, b)]
    if len(d) < 2:
        return None, None
    if all(x == 0.0 for x in d):
        return 0.0, 1.0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = stats.ttest_rel(a, b)
    t, p = float(r.statistic), float(r.pvalue)
    if math.isinf(t):
        return None, p
    return t, p


def holm(ps):
    """Step-down: k-th smallest (from 0) times (m - k), running maximum,
    capped at 1."""
    m = len(ps)
    order = sorted(range(m), key=lambda i: (ps[i], i))
    adjusted = [0.0] * m
    running = 0.0
    for k, i in enumerate(order):
        running = max(running, min(1.0, (m - k) * ps[i]))
        adjusted[i] = running
    return adjusted


def nan_to_none(x):
    x = float(x)
    return None if math.isnan(x) else x


def correlations(x, y):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tau = stats.kendalltau(x, y, variant="b").statistic
        rho = stats.spearmanr(x, y).statistic
    return nan_to_none(tau), nan_to_none(rho)


# ---------------------------------------------------------------------------
# Cases
# ---------------------------------------------------------------------------

def mean(values):
    return plain_sum(values) / len(values)


def case(name, topics, runs, groups, compare, correlate, measures=None):
    """A case: `runs` maps a run name to {measure: [value per topic]} or to
    None (a rejected run); `groups` maps a group to its topics."""
    measures = measures or [HEADLINE, "P@10"]
    out_runs = []
    for run, values in runs.items():
        if values is None:
            out_runs.append({"run": run, "rejected": True})
            continue
        summary = {"all": [mean(values[m]) for m in measures]}
        for g, members in groups.items():
            idx = [topics.index(t) for t in members]
            summary[g] = [mean([values[m][i] for i in idx]) for m in measures]
        missing = [t for i, t in enumerate(topics)
                   if all(values[m][i] == 0.0 for m in measures)]
        out_runs.append({"run": run, "rejected": False,
                         "values": [values[m] for m in measures],
                         "missing": missing, "means": summary})
    return {"name": name, "measures": measures, "topics": topics,
            "groups": list(groups.items()), "runs": out_runs,
            "compare": compare, "correlate": correlate}


def expected(c):
    measures = c["measures"]
    scored = [r for r in c["runs"] if not r["rejected"]]
    out = {"compare": [], "correlate": []}
    n = len(c["topics"])
    for spec in c["compare"]:
        k = measures.index(spec["measure"])
        swaps = swap_matrix(n, spec["permutations"], spec["seed"])
        pairs = []
        for ra, rb in itertools.combinations(scored, 2):
            a, b = ra["values"][k], rb["values"][k]
            d = [x - y for x, y in zip(a, b)]
            count = randomization_count(d, swaps)
            t, tp = t_test(a, b)
            pair = {"a": ra["run"], "b": rb["run"],
                    "mean_a": mean(a), "mean_b": mean(b),
                    "mean_difference": mean(d),
                    "randomization_count": count,
                    "randomization_p": count / spec["permutations"],
                    "t": t, "t_p": tp}
            if n <= 12:
                pair["exact_p"] = exact_p(d)
            pairs.append(pair)
        for key in ("randomization_p", "t_p"):
            ps = [p[key] for p in pairs]
            adjusted = holm(ps) if None not in ps else [None] * len(ps)
            for p, h in zip(pairs, adjusted):
                p[key + "_holm"] = h
        out["compare"].append({**spec, "topics": n,
                               "runs": [r["run"] for r in scored],
                               "skipped": [r["run"] for r in c["runs"] if r["rejected"]],
                               "pairs": pairs})
    for a, b in c["correlate"]:
        def side(name):
            if name in measures:
                return "all", measures.index(name)
            return name, measures.index(HEADLINE)
        (ga, ka), (gb, kb) = side(a), side(b)
        x = [r["means"][ga][ka] for r in scored]
        y = [r["means"][gb][kb] for r in scored]
        tau, rho = correlations(x, y)
        out["correlate"].append({"a": a, "b": b, "n": len(scored),
                                 "values_a": x, "values_b": y,
                                 "kendall_tau_b": tau, "spearman_rho": rho})
    return out


def grid(rng, n, step):
    """n random multiples of `step` in [0, 1] (ties likely for big steps)."""
    top = round(1 / step)
    return [rng.randint(0, top) * step for _ in range(n)]


def random_case(name, seed, runs, n, step):
    rng = random.Random(seed)
    topics = [f"T{i + 1}" for i in range(n)]
    skill = [rng.uniform(-0.2, 0.2) for _ in range(runs)]
    table = {}
    for r in range(runs):
        base = [min(1.0, max(0.0, x + skill[r])) for x in grid(rng, n, step)]
        p10 = [min(1.0, max(0.0, round(x * 10) / 10)) for x in base]
        # A topic missing from the run: every measure 0.
        if rng.random() < 0.5:
            i = rng.randrange(n)
            base[i] = p10[i] = 0.0
        table[f"run{r + 1}"] = {HEADLINE: base, "P@10": p10}
    half = topics[: n // 2]
    groups = {"G1": half, "G2": topics[n // 3:], "G3": topics[::3]}
    correlate = [["G1", "G2"], ["all", "G3"], [HEADLINE, "P@10"], ["G2", "P@10"]]
    compare = [{"measure": HEADLINE, "permutations": 10000, "seed": 0},
               {"measure": "P@10", "permutations": 5000, "seed": 42}]
    return case(name, topics, table, groups, compare, correlate)


def hand_cases():
    cases = []
    t6 = [f"T{i}" for i in range(1, 7)]
    same = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6]
    cases.append(case(
        "equal", t6,
        {"A": {HEADLINE: same, "P@10": same}, "B": {HEADLINE: same, "P@10": same},
         "C": {HEADLINE: same, "P@10": same}},
        {"G1": t6[:3], "G2": t6[3:]},
        [{"measure": HEADLINE, "permutations": 1000, "seed": 0}],
        [["G1", "G2"]]))
    t10 = [f"T{i}" for i in range(1, 11)]
    b = [0.1, 0.3, 0.2, 0.05, 0.4, 0.15, 0.25, 0.35, 0.0, 0.1]
    a = [x + 0.3 + 0.01 * (i % 3) for i, x in enumerate(b)]
    c = [x + (0.02 if i % 2 else -0.02) for i, x in enumerate(b)]
    c[8] = 0.0
    cases.append(case(
        "clear", t10,
        {"A": {HEADLINE: a, "P@10": a}, "B": {HEADLINE: b, "P@10": b},
         "C": {HEADLINE: c, "P@10": c}},
        {"G1": t10[:5], "G2": t10[5:]},
        [{"measure": HEADLINE, "permutations": 10000, "seed": 0},
         {"measure": HEADLINE, "permutations": 200000, "seed": 3}],
        [["G1", "G2"], [HEADLINE, "P@10"]]))
    # Differences of 0.1, 0.2, 0.3 (sums inexact in binary, so only the
    # tie tolerance makes equal sums compare equal) and tied values.
    t8 = [f"T{i}" for i in range(1, 9)]
    x = [0.5, 0.4, 0.3, 0.6, 0.2, 0.7, 0.1, 0.3]
    y = [v - dd for v, dd in zip(x, [0.1, 0.2, 0.3, 0.1, -0.2, 0.1, -0.1, 0.3])]
    z = [v - 0.1 if i % 2 else v + 0.2 for i, v in enumerate(x)]
    cases.append(case(
        "ties", t8,
        {"X": {HEADLINE: x, "P@10": [0.5] * 4 + [0.3] * 4},
         "Y": {HEADLINE: y, "P@10": [0.5] * 4 + [0.3] * 4},
         "Z": {HEADLINE: z, "P@10": [0.3] * 8},
         "W": {HEADLINE: x, "P@10": [0.3] * 8}},
        {"G1": t8[:4], "G2": t8[4:]},
        [{"measure": HEADLINE, "permutations": 20000, "seed": 7},
         {"measure": HEADLINE, "permutations": 200000, "seed": 11}],
        [["G1", "G2"], [HEADLINE, "P@10"], ["all", "G1"]]))
    # A constant difference (t infinite, p 0), a constant side for the
    # correlation (P@10 equal for every run) and a rejected run.
    t4 = ["T1", "T2", "T3", "T4"]
    cases.append(case(
        "constant", t4,
        {"A": {HEADLINE: [0.5, 0.25, 0.5, 0.75], "P@10": [0.5, 0.5, 0.5, 0.5]},
         "R": None,
         "B": {HEADLINE: [0.25, 0.0, 0.25, 0.5], "P@10": [0.5, 0.5, 0.5, 0.5]},
         "C": {HEADLINE: [0.5, 0.25, 0.0, 1.0], "P@10": [0.5, 0.5, 0.5, 0.5]}},
        {"G1": ["T1", "T2"], "G2": ["T3", "T4"]},
        [{"measure": HEADLINE, "permutations": 4096, "seed": 1}],
        [["G1", "G2"], [HEADLINE, "P@10"], ["all", "G2"]]))
    # One topic: no t-test; every permutation is as extreme.
    cases.append(case(
        "one-topic", ["T1"],
        {"A": {HEADLINE: [0.5], "P@10": [0.4]}, "B": {HEADLINE: [0.25], "P@10": [0.1]}},
        {},
        [{"measure": HEADLINE, "permutations": 100, "seed": 0}],
        [[HEADLINE, "P@10"]]))
    return cases


def main():
    cases = hand_cases()
    cases.append(random_case("random-4x10", 1, 4, 10, 0.05))
    cases.append(random_case("random-5x30", 2, 5, 30, 0.01))
    cases.append(random_case("random-8x100", 3, 8, 100, 0.001))
    cases.append(random_case("random-6x70", 4, 6, 70, 0.1))
    (HERE / "cases").mkdir(exist_ok=True)
    (HERE / "expected").mkdir(exist_ok=True)
    for c in cases:
        name = c.pop("name")
        (HERE / "cases" / f"{name}.json").write_text(json.dumps(c, indent=1) + "\n")
        e = expected(c)
        (HERE / "expected" / f"{name}.json").write_text(json.dumps(e, indent=1) + "\n")
        # The sampled p converges to the exact one (5 standard errors).
        for spec in e["compare"]:
            for p in spec["pairs"]:
                if "exact_p" in p:
                    q, n = p["exact_p"], spec["permutations"]
                    assert abs(p["randomization_p"] - q) <= 5 * math.sqrt(q * (1 - q) / n) + 1 / n, (name, p)
        print(f"{name}: {len(c['runs'])} runs, {len(c['topics'])} topics")


if __name__ == "__main__":
    main()
