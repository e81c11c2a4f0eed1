//! Correlation of the runs' means under two views: two topic groups (the
//! headline MAP@N under each) or two measures (overall means), or one of
//! each. Kendall's τ-b and Spearman's ρ between the scored runs' values,
//! the bundle correlation of the 2009 overview. Pure; definitions in
//! `docs/retrieval.md` ("Comparing runs").

use super::evaluate::Measure;
use super::report::{Evaluation, RunScores};
use super::significance::{columns, measure_index};
use serde::Serialize;
use std::fmt::Write as _;

/// One side of a correlation: a measure's mean over a group's topics.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct View {
    /// The name given: a group, `all`, or a measure.
    pub name: String,
    /// `all` or a group name.
    pub group: String,
    pub measure: String,
}

/// Kendall's τ-b and Spearman's ρ between the scored runs' values under
/// two views.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Correlation {
    pub a: View,
    pub b: View,
    /// Number of runs correlated.
    pub n: usize,
    /// The scored runs, in the order given.
    pub runs: Vec<String>,
    /// Rejected runs, left out.
    pub skipped: Vec<String>,
    pub values_a: Vec<f64>,
    pub values_b: Vec<f64>,
    /// `null` when one side is constant.
    pub kendall_tau_b: Option<f64>,
    /// `null` when one side is constant.
    pub spearman_rho: Option<f64>,
}

/// Resolves a name: a measure gives its overall mean; `all` or a group
/// gives the headline MAP@N over that group. A name that is both a
/// measure and a group is refused as ambiguous.
fn view(evaluation: &Evaluation, first: &RunScores, name: &str) -> Result<View, String> {
    let is_measure = evaluation.measures.iter().any(|m| m == name);
    let is_group = name == "all" || first.groups.iter().any(|(g, _)| g == name);
    match (is_measure, is_group) {
        (true, true) => Err(format!("`{name}` names both a measure and a topic group")),
        (true, false) => Ok(View {
            name: name.to_string(),
            group: "all".into(),
            measure: name.to_string(),
        }),
        (false, true) => {
            let headline = Measure::Map.name(&evaluation.settings);
            measure_index(evaluation, &headline)?;
            Ok(View {
                name: name.to_string(),
                group: name.to_string(),
                measure: headline,
            })
        }
        (false, false) => {
            let groups: Vec<&str> = first.groups.iter().map(|(g, _)| g.as_str()).collect();
            Err(format!(
                "`{name}` is neither a topic group (known: all{}{}) nor a measure (known: {})",
                if groups.is_empty() { "" } else { ", " },
                groups.join(", "),
                evaluation.measures.join(", ")
            ))
        }
    }
}

/// A run's mean under a view; an error when the run lacks the group or
/// the group has no scored topic.
fn value(evaluation: &Evaluation, run: &str, sc: &RunScores, v: &View) -> Result<f64, String> {
    let k = measure_index(evaluation, &v.measure)?;
    let summary = if v.group == "all" {
        &sc.all
    } else {
        let found = sc.groups.iter().find(|(g, _)| *g == v.group);
        let (_, summary) =
            found.ok_or_else(|| format!("run `{run}` has no group `{}`", v.group))?;
        summary
    };
    match summary.means.get(k) {
        Some(Some(x)) => Ok(*x),
        _ => Err(format!(
            "group `{}` has no scored topic: no `{}` mean to correlate",
            v.group, v.measure
        )),
    }
}

/// Kendall's τ-b and Spearman's ρ between the scored runs' means under
/// `a` and under `b`, each a topic group (`all` for every topic: the
/// headline MAP@N over the group) or a measure (its overall mean).
/// Rejected runs are skipped and listed; fewer than two scored runs is an
/// error.
pub fn correlate(evaluation: &Evaluation, a: &str, b: &str) -> Result<Correlation, String> {
    let scored: Vec<(&str, &RunScores)> = evaluation
        .runs
        .iter()
        .filter_map(|r| r.scores.as_ref().map(|s| (r.run.as_str(), s)))
        .collect();
    let first = match scored.as_slice() {
        [(_, first), _, ..] => *first,
        _ => {
            return Err(format!(
                "correlating runs needs at least two scored runs, found {}",
                scored.len()
            ));
        }
    };
    let (va, vb) = (view(evaluation, first, a)?, view(evaluation, first, b)?);
    let mut values_a = Vec::new();
    let mut values_b = Vec::new();
    for &(run, sc) in &scored {
        values_a.push(value(evaluation, run, sc, &va)?);
        values_b.push(value(evaluation, run, sc, &vb)?);
    }
    Ok(Correlation {
        kendall_tau_b: kendall_tau_b(&values_a, &values_b),
        spearman_rho: spearman_rho(&values_a, &values_b),
        a: va,
        b: vb,
        n: scored.len(),
        runs: scored.iter().map(|(r, _)| r.to_string()).collect(),
        skipped: evaluation
            .runs
            .iter()
            .filter(|r| r.scores.is_none())
            .map(|r| r.run.clone())
            .collect(),
        values_a,
        values_b,
    })
}

/// Kendall's τ-b = (C − D) / √((P − Tx)(P − Ty)) over the P = n(n − 1)/2
/// pairs of items: C concordant, D discordant, Tx pairs tied in x (equal
/// values), Ty tied in y (a pair tied in both counts in both). `None` when
/// either side is constant (or n < 2).
pub fn kendall_tau_b(x: &[f64], y: &[f64]) -> Option<f64> {
    let n = x.len().min(y.len());
    let (mut concordant, mut discordant, mut tx, mut ty) = (0u64, 0u64, 0u64, 0u64);
    for (i, (xi, yi)) in x.iter().zip(y).enumerate() {
        for (xj, yj) in x.iter().zip(y).skip(i + 1) {
            let (dx, dy) = (sign(xi - xj), sign(yi - yj));
            match (dx, dy) {
                (0, 0) => {
                    tx += 1;
                    ty += 1;
                }
                (0, _) => tx += 1,
                (_, 0) => ty += 1,
                _ if dx == dy => concordant += 1,
                _ => discordant += 1,
            }
        }
    }
    let pairs = (n * n.saturating_sub(1) / 2) as u64;
    let (px, py) = (pairs - tx, pairs - ty);
    if px == 0 || py == 0 {
        return None;
    }
    let tau = (concordant as f64 - discordant as f64) / ((px as f64).sqrt() * (py as f64).sqrt());
    Some(tau.clamp(-1.0, 1.0))
}

/// −1, 0 or 1 (0 for ±0).
fn sign(v: f64) -> i8 {
    if v > 0.0 {
        1
    } else if v < 0.0 {
        -1
    } else {
        0
    }
}

/// 1-based ranks, tied values sharing the mean of their ranks.
pub fn average_ranks(x: &[f64]) -> Vec<f64> {
    let mut order: Vec<(f64, usize)> = x.iter().copied().zip(0..).collect();
    order.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut ranks = vec![0.0; x.len()];
    let mut start = 0;
    for tied in order.chunk_by(|a, b| a.0 == b.0) {
        // Ranks start + 1 … start + len, mean (2·start + len + 1) / 2.
        let rank = (2 * start + tied.len() + 1) as f64 / 2.0;
        for &(_, i) in tied {
            if let Some(r) = ranks.get_mut(i) {
                *r = rank;
            }
        }
        start += tied.len();
    }
    ranks
}

/// Pearson's r: Σ(x − x̄)(y − ȳ) / √(Σ(x − x̄)² · Σ(y − ȳ)²); `None` when
/// a side has no spread.
fn pearson(x: &[f64], y: &[f64]) -> Option<f64> {
    let n = x.len() as f64;
    let (mx, my) = (x.iter().sum::<f64>() / n, y.iter().sum::<f64>() / n);
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for (a, b) in x.iter().zip(y) {
        let (dx, dy) = (a - mx, b - my);
        sxy += dx * dy;
        sxx += dx * dx;
        syy += dy * dy;
    }
    if sxx == 0.0 || syy == 0.0 {
        return None;
    }
    Some((sxy / (sxx.sqrt() * syy.sqrt())).clamp(-1.0, 1.0))
}

/// Spearman's ρ: Pearson's r of the average ranks. `None` when either side
/// is constant (or n < 2).
pub fn spearman_rho(x: &[f64], y: &[f64]) -> Option<f64> {
    let constant = |v: &[f64]| v.iter().all(|&a| Some(&a) == v.first());
    if x.len() < 2 || x.len() != y.len() || constant(x) || constant(y) {
        return None;
    }
    pearson(&average_ranks(x), &average_ranks(y))
}

impl Correlation {
    /// A text table: each run's two values, then τ-b and ρ (`-` when a
    /// side is constant).
    pub fn table(&self) -> String {
        let describe = |v: &View| {
            if v.group == "all" {
                format!("{} (all topics)", v.measure)
            } else {
                format!("{} over group {}", v.measure, v.group)
            }
        };
        let mut out = String::new();
        let _ = writeln!(
            out,
            "Correlation of {} runs: A = {}, B = {}",
            self.n,
            describe(&self.a),
            describe(&self.b)
        );
        if !self.skipped.is_empty() {
            let _ = writeln!(out, "rejected runs left out: {}", self.skipped.join(", "));
        }
        let mut rows = vec![vec!["run".to_string(), "A".into(), "B".into()]];
        for ((run, a), b) in self.runs.iter().zip(&self.values_a).zip(&self.values_b) {
            rows.push(vec![run.clone(), format!("{a:.4}"), format!("{b:.4}")]);
        }
        out.push_str(&columns(&rows, 1));
        let show = |v: Option<f64>| v.map_or("- (one side constant)".into(), |x| format!("{x:.4}"));
        let _ = writeln!(out, "Kendall's tau-b  {}", show(self.kendall_tau_b));
        let _ = writeln!(out, "Spearman's rho   {}", show(self.spearman_rho));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tau_b_by_hand() {
        // Pairs of (1, 2, 3, 3) against (1, 3, 2, 4): (1,2) C, (1,3) C,
        // (1,4) C, (2,3) D, (2,4) C, (3,4) tied in x. C = 4, D = 1, Tx = 1,
        // Ty = 0: τ-b = 3 / √(5 · 6).
        let tau = kendall_tau_b(&[1.0, 2.0, 3.0, 3.0], &[1.0, 3.0, 2.0, 4.0]).unwrap();
        assert!((tau - 3.0 / 30f64.sqrt()).abs() < 1e-15);
        assert_eq!(kendall_tau_b(&[1.0, 1.0], &[1.0, 2.0]), None);
        assert_eq!(kendall_tau_b(&[1.0], &[1.0]), None);
    }

    #[test]
    fn ranks_and_rho_by_hand() {
        assert_eq!(
            average_ranks(&[0.5, 0.2, 0.5, 0.1]),
            vec![3.5, 2.0, 3.5, 1.0]
        );
        // Reversed order: ρ = −1.
        let rho = spearman_rho(&[1.0, 2.0, 3.0], &[9.0, 5.0, 1.0]).unwrap();
        assert!((rho + 1.0).abs() < 1e-15);
        assert_eq!(spearman_rho(&[1.0, 2.0, 3.0], &[4.0, 4.0, 4.0]), None);
    }
}
