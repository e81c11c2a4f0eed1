//! Comparing runs against `goldens/passage/stats/` (an independent Python
//! reference: scipy's t-test and correlations, its own copy of the
//! generator, exact p-values over every sign flip for small cases): mean
//! differences, randomization p-values (exactly), t and its p, Holm's
//! adjustments, Kendall's τ-b and Spearman's ρ; then the errors, the
//! thread-count independence and the tables.

use clefeval::retrieval::correlate::correlate;
use clefeval::retrieval::report::{TopicRow, TopicStatus};
use clefeval::retrieval::significance::compare_runs;
use clefeval::retrieval::{Evaluation, RunResult};
use serde_json::Value;
use std::path::Path;

#[path = "support/retrieval_runs.rs"]
mod retrieval_runs;
use retrieval_runs::{scored_run, summary};

const ROOT: &str = "goldens/passage/stats";
const TOLERANCE: f64 = 1e-12;

/// The evaluation a case file describes: passage settings (headline
/// `MAP@100`), its measures, per run the topic values and the means.
fn evaluation(case: &Value) -> Evaluation {
    let names = |v: &Value| -> Vec<String> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap().to_string())
            .collect()
    };
    let floats = |v: &Value| -> Vec<Option<f64>> {
        v.as_array().unwrap().iter().map(|x| x.as_f64()).collect()
    };
    let measures = names(&case["measures"]);
    let topics = names(&case["topics"]);
    let groups: Vec<(String, Vec<String>)> = case["groups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| (g[0].as_str().unwrap().to_string(), names(&g[1])))
        .collect();
    let runs = case["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let run = r["run"].as_str().unwrap().to_string();
            if r["rejected"].as_bool().unwrap() {
                return RunResult {
                    file: format!("runs/{run}"),
                    run,
                    diagnostics: Vec::new(),
                    scores: None,
                };
            }
            let missing = names(&r["missing"]);
            let values: Vec<Vec<Option<f64>>> =
                r["values"].as_array().unwrap().iter().map(floats).collect();
            let rows = topics
                .iter()
                .enumerate()
                .map(|(i, t)| TopicRow {
                    topic: t.clone(),
                    status: if missing.contains(t) {
                        TopicStatus::Missing
                    } else {
                        TopicStatus::Ok
                    },
                    num_ret: 0,
                    num_rel: 1,
                    num_rel_ret: 0,
                    values: values.iter().map(|v| v[i].unwrap()).collect(),
                })
                .collect();
            let means = &r["means"];
            let groups = groups
                .iter()
                .map(|(g, members)| (g.clone(), summary(members.len(), floats(&means[g]))))
                .collect();
            scored_run(
                &run,
                rows,
                summary(topics.len(), floats(&means["all"])),
                groups,
            )
        })
        .collect();
    retrieval_runs::evaluation(measures, runs)
}

fn read(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Every case's name, sorted.
fn cases() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(Path::new(ROOT).join("cases"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .filter_map(|n| n.strip_suffix(".json").map(str::to_string))
        .collect();
    names.sort();
    assert!(names.len() >= 9, "{names:?}");
    names
}

/// `actual` equals `expected` (a JSON number or null) within the tolerance,
/// relative for magnitudes above 1 (t statistics).
fn close(actual: Option<f64>, expected: &Value, at: &str, failures: &mut Vec<String>) {
    let ok = match (actual, expected.as_f64()) {
        (None, None) => expected.is_null(),
        (Some(a), Some(e)) => (a - e).abs() <= TOLERANCE * e.abs().max(1.0),
        _ => false,
    };
    if !ok {
        failures.push(format!("{at}: {actual:?}, expected {expected}"));
    }
}

fn string_list(v: &Value) -> Vec<&str> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect()
}

/// The evaluation of case `name`.
fn case(name: &str) -> Evaluation {
    evaluation(&read(
        &Path::new(ROOT).join("cases").join(format!("{name}.json")),
    ))
}

/// The reference's values for case `name`.
fn expected(name: &str) -> Value {
    read(
        &Path::new(ROOT)
            .join("expected")
            .join(format!("{name}.json")),
    )
}

#[test]
fn comparisons_match_the_reference() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for name in cases() {
        let (ev, expected) = (case(&name), expected(&name));
        for spec in expected["compare"].as_array().unwrap() {
            let measure = spec["measure"].as_str().unwrap();
            let permutations = spec["permutations"].as_u64().unwrap() as usize;
            let seed = spec["seed"].as_u64().unwrap();
            let c = compare_runs(&ev, measure, permutations, seed).unwrap();
            let at = format!("{name} {measure} seed {seed}");
            assert_eq!(c.topics as u64, spec["topics"].as_u64().unwrap(), "{at}");
            assert_eq!(c.runs, string_list(&spec["runs"]), "{at}");
            assert_eq!(c.skipped, string_list(&spec["skipped"]), "{at}");
            let pairs = spec["pairs"].as_array().unwrap();
            assert_eq!(c.pairs.len(), pairs.len(), "{at}");
            for (p, e) in c.pairs.iter().zip(pairs) {
                let at = format!("{at} {}-{}", p.a, p.b);
                assert_eq!(
                    (p.a.as_str(), p.b.as_str()),
                    (e["a"].as_str().unwrap(), e["b"].as_str().unwrap())
                );
                assert_eq!(p.df, c.topics - 1);
                // The generator is replicated: the counts agree exactly.
                let count = e["randomization_count"].as_u64().unwrap();
                if p.randomization_p != count as f64 / permutations as f64 {
                    failures.push(format!("{at}: p {} count {count}", p.randomization_p));
                }
                close(
                    Some(p.mean_a),
                    &e["mean_a"],
                    &format!("{at} mean_a"),
                    &mut failures,
                );
                close(
                    Some(p.mean_b),
                    &e["mean_b"],
                    &format!("{at} mean_b"),
                    &mut failures,
                );
                close(
                    Some(p.mean_difference),
                    &e["mean_difference"],
                    &format!("{at} diff"),
                    &mut failures,
                );
                close(
                    Some(p.randomization_p_holm),
                    &e["randomization_p_holm"],
                    &format!("{at} rand holm"),
                    &mut failures,
                );
                close(p.t, &e["t"], &format!("{at} t"), &mut failures);
                close(p.t_p, &e["t_p"], &format!("{at} t p"), &mut failures);
                // Holm multiplies a p by up to the number of pairs, and
                // its rounding error with it.
                let m = pairs.len() as f64;
                let holm_e = e["t_p_holm"].as_f64().map(|h| h / m);
                let holm_at = format!("{at} t holm / pairs");
                close(
                    p.t_p_holm.map(|h| h / m),
                    &holm_e.into(),
                    &holm_at,
                    &mut failures,
                );
                // With at most 12 topics the exact p over all 2^n flips is
                // known: the sampled one lies within 5 standard errors.
                if let Some(exact) = e["exact_p"].as_f64() {
                    let se = (exact * (1.0 - exact) / permutations as f64).sqrt();
                    if (p.randomization_p - exact).abs() > 5.0 * se + 1.0 / permutations as f64 {
                        failures.push(format!("{at}: p {} exact {exact}", p.randomization_p));
                    }
                }
                checked += 1;
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(checked >= 100, "{checked} pairs");
}

#[test]
fn correlations_match_the_reference() {
    let mut failures = Vec::new();
    let mut checked = 0;
    let mut nulls = 0;
    for name in cases() {
        let (ev, expected) = (case(&name), expected(&name));
        for e in expected["correlate"].as_array().unwrap() {
            let (a, b) = (e["a"].as_str().unwrap(), e["b"].as_str().unwrap());
            let c = correlate(&ev, a, b).unwrap();
            let at = format!("{name} {a},{b}");
            assert_eq!(c.n as u64, e["n"].as_u64().unwrap(), "{at}");
            let values = |v: &Value| -> Vec<f64> {
                v.as_array()
                    .unwrap()
                    .iter()
                    .map(|x| x.as_f64().unwrap())
                    .collect()
            };
            assert_eq!(c.values_a, values(&e["values_a"]), "{at}");
            assert_eq!(c.values_b, values(&e["values_b"]), "{at}");
            close(
                c.kendall_tau_b,
                &e["kendall_tau_b"],
                &format!("{at} tau"),
                &mut failures,
            );
            close(
                c.spearman_rho,
                &e["spearman_rho"],
                &format!("{at} rho"),
                &mut failures,
            );
            nulls += usize::from(c.kendall_tau_b.is_none());
            checked += 1;
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(
        checked >= 20 && nulls >= 2,
        "{checked} correlations, {nulls} null"
    );
}

#[test]
fn hand_cases_hold_their_edge_cases() {
    // Identical runs: every difference 0, every permutation as extreme.
    let c = compare_runs(&case("equal"), "MAP@100", 1000, 0).unwrap();
    for p in &c.pairs {
        assert_eq!(
            (p.mean_difference, p.randomization_p, p.t, p.t_p),
            (0.0, 1.0, Some(0.0), Some(1.0))
        );
        assert_eq!((p.randomization_p_holm, p.t_p_holm), (1.0, Some(1.0)));
    }
    // A clearly above B on every topic: the exact p is 2/1024, the t-test's
    // far below; both stay significant after Holm's correction.
    let c = compare_runs(&case("clear"), "MAP@100", 10_000, 0).unwrap();
    let ab = &c.pairs[0];
    assert_eq!((ab.a.as_str(), ab.b.as_str()), ("A", "B"));
    assert!(
        ab.randomization_p_holm < 0.05 && ab.t_p_holm.unwrap() < 1e-10,
        "{ab:?}"
    );
    // A constant nonzero difference: t infinite (null), p 0; a rejected
    // run skipped and listed.
    let c = compare_runs(&case("constant"), "MAP@100", 4096, 1).unwrap();
    assert_eq!(c.skipped, ["R"]);
    assert_eq!(c.runs, ["A", "B", "C"]);
    assert_eq!((c.pairs[0].t, c.pairs[0].t_p), (None, Some(0.0)));
    // One topic: no t-test; Holm has nothing to adjust.
    let c = compare_runs(&case("one-topic"), "MAP@100", 100, 0).unwrap();
    let p = &c.pairs[0];
    assert_eq!((p.t, p.t_p, p.t_p_holm, p.df), (None, None, None, 0));
    assert_eq!(p.randomization_p, 1.0);
}

#[test]
fn pair_order_and_other_runs_do_not_change_a_pair() {
    // Every pair uses the same permutations: reversing the runs negates the
    // difference and keeps both p-values; dropping runs keeps the pair's
    // unadjusted p-values.
    let ev = case("random-8x100");
    let forward = compare_runs(&ev, "MAP@100", 3000, 9).unwrap();
    let mut reversed = ev.clone();
    reversed.runs.reverse();
    let backward = compare_runs(&reversed, "MAP@100", 3000, 9).unwrap();
    let n = ev.runs.len();
    let mut k = 0;
    for i in 0..n {
        for j in i + 1..n {
            // (i, j) forward is (n−1−j, n−1−i) backward with a and b swapped.
            let (bi, bj) = (n - 1 - j, n - 1 - i);
            let kb = bi * (2 * n - bi - 1) / 2 + (bj - bi - 1);
            let (f, b) = (&forward.pairs[k], &backward.pairs[kb]);
            assert_eq!((f.a.as_str(), f.b.as_str()), (b.b.as_str(), b.a.as_str()));
            assert_eq!(f.randomization_p, b.randomization_p);
            assert!((f.mean_difference + b.mean_difference).abs() < 1e-15);
            assert!((f.t.unwrap() + b.t.unwrap()).abs() < 1e-12);
            k += 1;
        }
    }
    let mut two = ev.clone();
    two.runs = vec![ev.runs[2].clone(), ev.runs[5].clone()];
    let pair = compare_runs(&two, "MAP@100", 3000, 9).unwrap();
    let full = forward
        .pairs
        .iter()
        .find(|p| p.a == ev.runs[2].run && p.b == ev.runs[5].run)
        .unwrap();
    assert_eq!(pair.pairs[0].randomization_p, full.randomization_p);
    assert_eq!(pair.pairs[0].t_p, full.t_p);
    // Another seed draws other permutations.
    let other = compare_runs(&ev, "MAP@100", 3000, 10).unwrap();
    assert_ne!(
        other
            .pairs
            .iter()
            .map(|p| p.randomization_p)
            .collect::<Vec<_>>(),
        forward
            .pairs
            .iter()
            .map(|p| p.randomization_p)
            .collect::<Vec<_>>()
    );
}

#[test]
fn same_result_whatever_the_thread_count() {
    let ev = case("random-8x100");
    let run = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            serde_json::to_string(&compare_runs(&ev, "MAP@100", 5000, 3).unwrap()).unwrap()
        })
    };
    let one = run(1);
    assert_eq!(one, run(2));
    assert_eq!(one, run(4));
}

#[test]
fn mistakes_are_errors_naming_what_is_known() {
    let ev = case("ties");
    let e = compare_runs(&ev, "MAP", 100, 0).unwrap_err();
    assert_eq!(e, "unknown measure `MAP` (known: MAP@100, P@10)");
    assert!(
        compare_runs(&ev, "MAP@100", 0, 0)
            .unwrap_err()
            .contains("at least one permutation")
    );
    let mut one = ev.clone();
    one.runs.truncate(1);
    let e = compare_runs(&one, "MAP@100", 100, 0).unwrap_err();
    assert_eq!(e, "comparing runs needs at least two scored runs, found 1");
    let e = correlate(&one, "G1", "G2").unwrap_err();
    assert_eq!(
        e,
        "correlating runs needs at least two scored runs, found 1"
    );
    // A rejected run does not count as scored.
    let mut rejected = ev.clone();
    rejected.runs.truncate(2);
    rejected.runs[1].scores = None;
    assert!(
        compare_runs(&rejected, "P@10", 100, 0)
            .unwrap_err()
            .ends_with("found 1")
    );
    let e = correlate(&ev, "G1", "G9").unwrap_err();
    assert_eq!(
        e,
        "`G9` is neither a topic group (known: all, G1, G2) nor a measure (known: MAP@100, P@10)"
    );
    // A group named like a measure is ambiguous.
    let mut clash = ev.clone();
    for r in &mut clash.runs {
        r.scores.as_mut().unwrap().groups[0].0 = "P@10".into();
    }
    assert_eq!(
        correlate(&clash, "P@10", "G2").unwrap_err(),
        "`P@10` names both a measure and a topic group"
    );
    // A group with no scored topic has no mean.
    let mut empty = ev.clone();
    for r in &mut empty.runs {
        r.scores.as_mut().unwrap().groups[1].1 = summary(0, vec![None, None]);
    }
    assert_eq!(
        correlate(&empty, "G1", "G2").unwrap_err(),
        "group `G2` has no scored topic: no `MAP@100` mean to correlate"
    );
    // Every qrels topic left out: nothing to compare.
    let mut none = ev.clone();
    for r in &mut none.runs {
        r.scores.as_mut().unwrap().topics.clear();
    }
    assert_eq!(
        compare_runs(&none, "MAP@100", 10, 0).unwrap_err(),
        "no evaluated topic: every qrels topic is left out"
    );
    // Runs scored on different topics cannot be paired.
    let mut other = ev.clone();
    other.runs[1].scores.as_mut().unwrap().topics[0].topic = "T99".into();
    assert_eq!(
        compare_runs(&other, "MAP@100", 10, 0).unwrap_err(),
        "run `Y` is scored on other topics than run `X`"
    );
}

#[test]
fn tables_mark_significant_pairs() {
    let c = compare_runs(&case("clear"), "MAP@100", 10_000, 0).unwrap();
    // By hand: A = B + 0.3 + 0.01·(i mod 3), means 0.19 + 0.309; B − C is
    // ±0.02 on 9 topics and 0 on one, so every sign flip gives an odd
    // multiple of 0.02, never below |−0.02|: p = 1. A's lead over B and C
    // on every topic leaves 2 of the 1 024 flips as extreme (exact p
    // 0.00195; sampled 0.0024).
    let table = c.table();
    let expected = "\
MAP@100: 3 runs, 10 topics, randomization test with 10000 permutations (seed 0)
run A  run B  mean A  mean B    A - B  rand. p      Holm        t     t p      Holm
A      B      0.4990  0.1900  +0.3090   0.0024  0.0072 *  111.598  0.0000  0.0000 *
A      C      0.4990  0.1920  +0.3070   0.0024  0.0072 *   44.887  0.0000  0.0000 *
B      C      0.1900  0.1920  -0.0020   1.0000  1.0000     -0.318  0.7577  0.7577
* significantly different at 0.05 after Holm's correction over the 3 pairs
";
    assert_eq!(table, expected);
    // Field names, in this order.
    let json = serde_json::to_string(&c.pairs[0]).unwrap();
    let keys = [
        "a",
        "b",
        "mean_a",
        "mean_b",
        "mean_difference",
        "randomization_p",
        "randomization_p_holm",
        "t",
        "df",
        "t_p",
        "t_p_holm",
    ];
    let at: Vec<usize> = keys
        .iter()
        .map(|k| json.find(&format!("\"{k}\":")).unwrap())
        .collect();
    assert!(at.windows(2).all(|w| w[0] < w[1]), "{json}");
    let r = correlate(&case("constant"), "MAP@100", "P@10").unwrap();
    let expected = "\
Correlation of 3 runs: A = MAP@100 (all topics), B = P@10 (all topics)
rejected runs left out: R
run       A       B
A    0.5000  0.5000
B    0.2500  0.5000
C    0.4375  0.5000
Kendall's tau-b  - (one side constant)
Spearman's rho   - (one side constant)
";
    assert_eq!(r.table(), expected);
    let json = serde_json::to_value(&r).unwrap();
    assert!(json["kendall_tau_b"].is_null() && json["spearman_rho"].is_null());
    assert_eq!(json["a"]["group"], "all");
    assert_eq!(json["n"], 3);
}
