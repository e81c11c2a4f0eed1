//! Between runs: for every pair of scored runs, the mean difference of one
//! measure over the evaluated topics, the two-sided paired randomization
//! test, the two-sided paired t-test, and Holm's correction of each test's
//! p-values over the pairs. Pure functions of an [`Evaluation`];
//! definitions and the generator in `docs/retrieval.md` ("Comparing runs").
//!
//! Invariant: the result depends on the evaluation, the measure, the
//! number of permutations and the seed only — never on the thread count
//! (pairs are tested independently, each one sequentially).

use super::report::Evaluation;
use rayon::prelude::*;
use serde::Serialize;
use std::fmt::Write as _;
use std::iter::repeat_n;

/// Adjusted p-values below this level are marked significant in tables.
pub const LEVEL: f64 = 0.05;

/// A permutation's statistic counts as at least as extreme as the observed
/// one when |T| ≥ |T_obs| − `TIE_TOLERANCE` · Σ|d_i|: sums of the same
/// differences in another order may differ by a few units in the last
/// place (at most about n·2⁻⁵³·Σ|d_i| for n topics), and such rounding must
/// not turn an exact tie (the identity permutation, swaps of equal scores,
/// equal differences) into a miss.
pub const TIE_TOLERANCE: f64 = 1e-9;

pub use crate::rng::SplitMix64;

/// The comparison of every pair of scored runs under one measure.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Comparison {
    pub measure: String,
    /// Evaluated topics (missing ones at 0).
    pub topics: usize,
    pub permutations: usize,
    pub seed: u64,
    /// Adjusted p-values below it are marked significant.
    pub level: f64,
    /// The scored runs compared, in the order given.
    pub runs: Vec<String>,
    /// Rejected runs, left out of the comparison.
    pub skipped: Vec<String>,
    /// Pairs (0, 1), (0, 2), …, (1, 2), … of `runs`.
    pub pairs: Vec<PairComparison>,
}

/// One pair of runs, A before B in the order given.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PairComparison {
    pub a: String,
    pub b: String,
    pub mean_a: f64,
    pub mean_b: f64,
    /// The mean over the topics of A's score minus B's.
    pub mean_difference: f64,
    /// Share of the permutations at least as extreme as the observed sum.
    pub randomization_p: f64,
    /// Holm-adjusted over the pairs.
    pub randomization_p_holm: f64,
    /// `null` with one topic, or when every difference is the same nonzero
    /// value (t infinite, p 0).
    pub t: Option<f64>,
    pub df: usize,
    /// `null` with one topic.
    pub t_p: Option<f64>,
    /// Holm-adjusted over the pairs.
    pub t_p_holm: Option<f64>,
}

/// The per-topic scores of the scored runs under one measure.
struct Scores {
    pub runs: Vec<String>,
    pub skipped: Vec<String>,
    /// Per run, one value per evaluated topic (the same topics, same order).
    pub values: Vec<Vec<f64>>,
}

/// The index of `name` in the evaluation's measures, or an error listing
/// them.
pub(crate) fn measure_index(evaluation: &Evaluation, name: &str) -> Result<usize, String> {
    evaluation
        .measures
        .iter()
        .position(|m| m == name)
        .ok_or_else(|| {
            format!(
                "unknown measure `{name}` (known: {})",
                evaluation.measures.join(", ")
            )
        })
}

/// The scored runs' topic values under `measure`; an error with fewer than
/// two scored runs, no evaluated topic, or runs whose topics differ.
fn scores(evaluation: &Evaluation, measure: &str) -> Result<Scores, String> {
    let k = measure_index(evaluation, measure)?;
    let mut s = Scores {
        runs: Vec::new(),
        skipped: Vec::new(),
        values: Vec::new(),
    };
    let mut topics: Option<Vec<&str>> = None;
    for run in &evaluation.runs {
        let Some(sc) = &run.scores else {
            s.skipped.push(run.run.clone());
            continue;
        };
        let names: Vec<&str> = sc.topics.iter().map(|r| r.topic.as_str()).collect();
        match &topics {
            Some(first) if *first != names => {
                return Err(format!(
                    "run `{}` is scored on other topics than run `{}`",
                    run.run,
                    s.runs.first().map_or("", String::as_str)
                ));
            }
            Some(_) => {}
            None => topics = Some(names),
        }
        let values = sc.topics.iter().map(|r| r.values.get(k).copied());
        let values: Option<Vec<f64>> = values.collect();
        let values = values.ok_or_else(|| format!("run `{}` has no `{measure}` value", run.run))?;
        s.runs.push(run.run.clone());
        s.values.push(values);
    }
    if s.runs.len() < 2 {
        return Err(format!(
            "comparing runs needs at least two scored runs, found {}",
            s.runs.len()
        ));
    }
    if topics.is_none_or(|t| t.is_empty()) {
        return Err("no evaluated topic: every qrels topic is left out".into());
    }
    Ok(s)
}

/// Compares every pair of scored runs under `measure` (a name of
/// [`Evaluation::measures`]) over the evaluated topics: mean difference,
/// randomization test with `permutations` permutations drawn from `seed`,
/// paired t-test, Holm's correction over the pairs for each test.
/// Rejected runs are skipped and listed.
pub fn compare_runs(
    evaluation: &Evaluation,
    measure: &str,
    permutations: usize,
    seed: u64,
) -> Result<Comparison, String> {
    if permutations == 0 {
        return Err("the randomization test needs at least one permutation".into());
    }
    let s = scores(evaluation, measure)?;
    let n = s.values.first().map_or(0, Vec::len);
    let runs: Vec<(&String, &Vec<f64>)> = s.runs.iter().zip(&s.values).collect();
    let pairs: Vec<_> = runs
        .iter()
        .enumerate()
        .flat_map(|(i, a)| runs.iter().skip(i + 1).map(move |b| (a, b)))
        .collect();
    let mut pairs: Vec<PairComparison> = pairs
        .par_iter()
        .map(|&(&(a, va), &(b, vb))| {
            let d: Vec<f64> = va.iter().zip(vb).map(|(x, y)| x - y).collect();
            let extreme = randomization_count(&d, permutations, seed);
            let (t, t_p) = t_test(&d);
            PairComparison {
                a: a.clone(),
                b: b.clone(),
                mean_a: mean(va),
                mean_b: mean(vb),
                mean_difference: mean(&d),
                randomization_p: extreme as f64 / permutations as f64,
                randomization_p_holm: 1.0,
                t,
                df: n.saturating_sub(1),
                t_p,
                t_p_holm: None,
            }
        })
        .collect();
    let rand_p: Vec<f64> = pairs.iter().map(|p| p.randomization_p).collect();
    let t_p: Option<Vec<f64>> = pairs.iter().map(|p| p.t_p).collect();
    let t_holm = t_p.map(|p| holm(&p));
    for (k, (pair, h)) in pairs.iter_mut().zip(holm(&rand_p)).enumerate() {
        pair.randomization_p_holm = h;
        pair.t_p_holm = t_holm.as_ref().and_then(|t| t.get(k).copied());
    }
    Ok(Comparison {
        measure: measure.to_string(),
        topics: n,
        permutations,
        seed,
        level: LEVEL,
        runs: s.runs,
        skipped: s.skipped,
        pairs,
    })
}

/// The sum of `v` in order, over its length.
fn mean(v: &[f64]) -> f64 {
    v.iter().sum::<f64>() / v.len() as f64
}

/// How many of `permutations` sign flips of the differences `d` give
/// |Σ ±d_i| ≥ |Σ d_i| (within [`TIE_TOLERANCE`]).
///
/// Permutation k (0-based) takes the next ⌈n/64⌉ outputs of
/// `SplitMix64(seed)`; topic i is swapped (its difference negated) when bit
/// i mod 64 (least significant first) of output ⌊i/64⌋ is 1. The statistic
/// is T = D − 2F with D = Σ d_i and F the sum of the swapped differences;
/// F adds, per byte of the outputs, a precomputed sum of the byte's (up to)
/// eight differences, so a permutation of n topics costs n/8 look-ups.
pub fn randomization_count(d: &[f64], permutations: usize, seed: u64) -> usize {
    // tables[c][m] = the sum of the differences of chunk c (topics 8c to
    // 8c + 7) whose bit is set in m; topics past the end count 0. Entry m
    // adds its lowest set bit's difference to entry m without that bit.
    let tables: Vec<[f64; 256]> = d
        .chunks(8)
        .map(|chunk| {
            let mut t = [0.0f64; 256];
            for m in 1..256usize {
                let low = m.trailing_zeros() as usize;
                let value = chunk.get(low).copied().unwrap_or(0.0);
                let sum = t.get(m & (m - 1)).copied().unwrap_or(0.0) + value;
                if let Some(entry) = t.get_mut(m) {
                    *entry = sum;
                }
            }
            t
        })
        .collect();
    let observed: f64 = d.iter().sum();
    let scale: f64 = d.iter().map(|x| x.abs()).sum();
    let bound = observed.abs() - TIE_TOLERANCE * scale;
    let mut rng = SplitMix64(seed);
    let mut count = 0;
    for _ in 0..permutations {
        let mut flipped = 0.0;
        // One generator output for each 8 chunks (64 topics), its bytes in
        // order from the least significant.
        for word in tables.chunks(8) {
            let bits = rng.next_u64().to_le_bytes();
            for (t, byte) in word.iter().zip(bits) {
                // Always present: a table has 256 entries.
                flipped += t.get(usize::from(byte)).copied().unwrap_or(0.0);
            }
        }
        if (observed - 2.0 * flipped).abs() >= bound {
            count += 1;
        }
    }
    count
}

/// The two-sided paired t-test of the differences `d` with n − 1 degrees
/// of freedom: t = mean / (s / √n), s the sample standard deviation, and
/// p = I_{df/(df+t²)}(df/2, 1/2) (the regularized incomplete beta, which
/// equals 2·P(T > |t|) without cancellation for small p). One topic: no
/// test. Every difference equal: t = 0, p = 1 when they are 0; t infinite
/// (`None`), p = 0 otherwise.
pub fn t_test(d: &[f64]) -> (Option<f64>, Option<f64>) {
    let n = d.len();
    if n < 2 {
        return (None, None);
    }
    let first = d.first().copied().unwrap_or(0.0);
    if d.iter().all(|&x| x == first) {
        return if first == 0.0 {
            (Some(0.0), Some(1.0))
        } else {
            (None, Some(0.0))
        };
    }
    let m = mean(d);
    let var = d.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (n - 1) as f64;
    let t = m / (var.sqrt() / (n as f64).sqrt());
    let df = (n - 1) as f64;
    let p = statrs::function::beta::beta_reg(df / 2.0, 0.5, df / (df + t * t));
    (Some(t), Some(p.clamp(0.0, 1.0)))
}

/// Holm's step-down adjustment: the k-th smallest p (k from 0) becomes
/// min(1, (m − k)·p), then a running maximum keeps the order. Equal
/// p-values get equal adjusted values.
pub fn holm(p: &[f64]) -> Vec<f64> {
    let m = p.len();
    let mut order: Vec<(f64, usize)> = p.iter().copied().zip(0..).collect();
    order.sort_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
    let mut adjusted = vec![0.0; m];
    let mut running = 0.0f64;
    for (k, (p, i)) in order.into_iter().enumerate() {
        running = running.max(((m - k) as f64 * p).min(1.0));
        if let Some(a) = adjusted.get_mut(i) {
            *a = running;
        }
    }
    adjusted
}

/// `p` with four decimals and a `*` when below the level.
fn marked(p: Option<f64>) -> String {
    match p {
        Some(p) if p < LEVEL => format!("{p:.4} *"),
        Some(p) => format!("{p:.4}  "),
        None => "-".into(),
    }
}

/// Right-aligned columns under a header, two spaces apart; the first two
/// columns left-aligned.
pub(crate) fn columns(rows: &[Vec<String>], left: usize) -> String {
    let mut widths: Vec<usize> = Vec::new();
    for row in rows {
        for (c, cell) in row.iter().enumerate() {
            let w = cell.chars().count();
            match widths.get_mut(c) {
                Some(width) => *width = (*width).max(w),
                None => widths.push(w),
            }
        }
    }
    let mut out = String::new();
    for row in rows {
        let mut line = String::new();
        for (c, (cell, w)) in row.iter().zip(&widths).enumerate() {
            let pad: String = repeat_n(' ', w - cell.chars().count()).collect();
            if c > 0 {
                line.push_str("  ");
            }
            if c < left {
                line.push_str(cell);
                line.push_str(&pad);
            } else {
                line.push_str(&pad);
                line.push_str(cell);
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

impl Comparison {
    /// A text table: one line per pair with the means, the difference,
    /// each test's p and Holm-adjusted p; `*` marks an adjusted p below
    /// the level.
    pub fn table(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{}: {} runs, {} topics, randomization test with {} permutations (seed {})",
            self.measure,
            self.runs.len(),
            self.topics,
            self.permutations,
            self.seed
        );
        if !self.skipped.is_empty() {
            let _ = writeln!(out, "rejected runs left out: {}", self.skipped.join(", "));
        }
        let header = [
            "run A", "run B", "mean A", "mean B", "A - B", "rand. p", "Holm", "t", "t p", "Holm",
        ];
        let mut rows = vec![header.iter().map(|s| s.to_string()).collect::<Vec<_>>()];
        for p in &self.pairs {
            let t = match (p.t, p.t_p) {
                (Some(t), _) => format!("{t:.3}"),
                (None, Some(_)) if p.mean_difference < 0.0 => "-inf".into(),
                (None, Some(_)) => "inf".into(),
                (None, None) => "-".into(),
            };
            rows.push(vec![
                p.a.clone(),
                p.b.clone(),
                format!("{:.4}", p.mean_a),
                format!("{:.4}", p.mean_b),
                format!("{:+.4}", p.mean_difference),
                format!("{:.4}", p.randomization_p),
                marked(Some(p.randomization_p_holm)),
                t,
                p.t_p.map_or("-".into(), |x| format!("{x:.4}")),
                marked(p.t_p_holm),
            ]);
        }
        out.push_str(&columns(&rows, 2));
        let _ = writeln!(
            out,
            "* significantly different at {} after Holm's correction over the {} pairs",
            self.level,
            self.pairs.len()
        );
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holm_by_hand() {
        // Sorted 0.01, 0.02, 0.04, 0.5 → 0.04, 0.06, 0.08, 0.5.
        let h = holm(&[0.04, 0.01, 0.5, 0.02]);
        let want = [0.08, 0.04, 0.5, 0.06];
        for (a, b) in h.iter().zip(want) {
            assert!((a - b).abs() < 1e-15, "{h:?}");
        }
        // Sorted 0.125, 0.1875, 0.25 → 0.375, 0.375, 0.25 raised to 0.375 by
        // the running maximum; 0.625·2 = 1.25 capped at 1.
        assert_eq!(holm(&[0.125, 0.25, 0.1875]), vec![0.375; 3]);
        assert_eq!(holm(&[0.75, 0.625]), vec![1.0, 1.0]);
    }

    #[test]
    fn t_test_degenerate_cases() {
        assert_eq!(t_test(&[0.5]), (None, None));
        assert_eq!(t_test(&[0.0, 0.0, 0.0]), (Some(0.0), Some(1.0)));
        assert_eq!(t_test(&[0.25, 0.25]), (None, Some(0.0)));
        // d = 1, 3: mean 2, s = √2, t = 2/(√2/√2) = 2, df 1: p = 1 − 2·atan(2)/π.
        let (t, p) = t_test(&[1.0, 3.0]);
        assert!((t.unwrap() - 2.0).abs() < 1e-15);
        let want = 1.0 - 2.0 * 2f64.atan() / std::f64::consts::PI;
        assert!((p.unwrap() - want).abs() < 1e-14, "{p:?} {want}");
    }

    #[test]
    fn randomization_count_all_equal_and_one_topic() {
        assert_eq!(randomization_count(&[0.0; 5], 1000, 7), 1000);
        // One topic: every permutation gives ±d, as extreme as d.
        assert_eq!(randomization_count(&[0.3], 100, 0), 100);
    }
}
