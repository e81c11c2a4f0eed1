//! Document-level measures of one topic, one function each, pure.
//!
//! `gains` is the cut list (at most N documents) in rank order, each
//! document's gain: its grade when it is relevant (grade ≥ the minimum
//! relevance), 0 otherwise, so a positive gain means relevant. `n` is the
//! topic's number of relevant documents (≥ 1: topics without any are left
//! out before scoring). Definitions in `docs/retrieval.md`.

/// Relevant documents among the first `k` of the list.
fn hits(gains: &[i64], k: usize) -> usize {
    gains.iter().take(k).filter(|&&g| g > 0).count()
}

fn ratio(a: usize, b: usize) -> f64 {
    if b == 0 { 0.0 } else { a as f64 / b as f64 }
}

/// P@k: relevant documents among the first k of the cut list, over k (a
/// short list is not padded; k beyond the cut-off counts the cut list only).
pub fn precision_at(gains: &[i64], k: usize) -> f64 {
    ratio(hits(gains, k), k)
}

/// R@k: relevant documents among the first k of the cut list, over n.
pub fn recall_at(gains: &[i64], k: usize, n: usize) -> f64 {
    ratio(hits(gains, k), n)
}

/// Precision of the whole cut list; 0 when it is empty.
pub fn precision(gains: &[i64]) -> f64 {
    ratio(hits(gains, gains.len()), gains.len())
}

/// Recall of the whole cut list.
pub fn recall(gains: &[i64], n: usize) -> f64 {
    ratio(hits(gains, gains.len()), n)
}

/// AP@N = (Σ_i i / r_i) / n over the relevant documents of the cut list
/// (r_i the rank of the i-th); relevant documents not retrieved add 0 and
/// count in n (trec_eval's `map_cut_N`).
pub fn average_precision(gains: &[i64], n: usize) -> f64 {
    let mut found = 0usize;
    let mut sum = 0.0;
    for (i, _) in gains.iter().enumerate().filter(|(_, g)| **g > 0) {
        found += 1;
        sum += found as f64 / (i + 1) as f64;
    }
    if n == 0 { 0.0 } else { sum / n as f64 }
}

/// PRES@M (Magdy & Jones, SIGIR 2010): the relevant documents within the
/// first M of the cut list keep their ranks; the n − j others take the
/// ranks M + j + 1, …, M + n. PRES = 1 − (mean rank − (n + 1) / 2) / M,
/// computed as one exact integer fraction
/// (2nM − 2Σr + n(n + 1)) / (2nM), rounded once.
pub fn pres(gains: &[i64], n: usize, depth: usize) -> f64 {
    if n == 0 || depth == 0 {
        return 0.0;
    }
    let mut j = 0u128;
    let mut sum = 0u128;
    for (i, _) in gains
        .iter()
        .take(depth)
        .enumerate()
        .filter(|(_, g)| **g > 0)
    {
        j += 1;
        sum += (i + 1) as u128;
    }
    let (n, m) = (n as u128, depth as u128);
    // Ranks M + j + 1 ..= M + n of the n − j others.
    let missing = n.saturating_sub(j);
    sum += missing * m + (n * (n + 1) - j * (j + 1)) / 2;
    let denominator = 2 * n * m;
    let numerator = (denominator + n * (n + 1)).saturating_sub(2 * sum);
    numerator as f64 / denominator as f64
}

/// DCG with the Järvelin–Kekäläinen discount in base `base`: ranks below
/// the base are not discounted, rank i ≥ base is divided by log_base(i)
/// (= ln i / ln base).
pub fn dcg(gains: &[i64], base: u32) -> f64 {
    let ln_base = f64::from(base).ln();
    gains
        .iter()
        .enumerate()
        .filter(|(_, g)| **g > 0)
        .map(|(i, &g)| {
            let rank = i + 1;
            if rank < base as usize {
                g as f64
            } else {
                g as f64 / ((rank as f64).ln() / ln_base)
            }
        })
        .sum()
}

/// nDCG@N: DCG of the cut list over the DCG of the ideal ranking, `ideal`
/// being the grades of all relevant documents sorted descending; both cut
/// at `cutoff`. 0 when the ideal DCG is 0.
pub fn ndcg(gains: &[i64], ideal: &[i64], cutoff: usize, base: u32) -> f64 {
    let best = dcg(
        ideal.get(..cutoff.min(ideal.len())).unwrap_or_default(),
        base,
    );
    if best > 0.0 {
        dcg(
            gains.get(..cutoff.min(gains.len())).unwrap_or_default(),
            base,
        ) / best
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOL: f64 = 1e-12;

    /// H-1: relevant (grades 3, 1, 2) at ranks 2, 15, 30 of 30; a fourth
    /// relevant document (grade 1) is not retrieved.
    fn h1() -> Vec<i64> {
        let mut g = vec![0; 30];
        g[1] = 3;
        g[14] = 1;
        g[29] = 2;
        g
    }

    #[test]
    fn precision_recall_h1() {
        let g = h1();
        assert_eq!(precision_at(&g, 5), 0.2);
        assert_eq!(precision_at(&g, 20), 0.1);
        assert_eq!(precision_at(&g, 100), 0.03);
        assert_eq!(recall_at(&g, 20, 4), 0.5);
        assert!((precision(&g) - 0.1).abs() < TOL);
        assert_eq!(recall(&g, 4), 0.75);
        assert_eq!(precision(&[]), 0.0);
        // A short list is not padded: 2 relevant of 3 gives P@5 = 0.4.
        assert_eq!(precision_at(&[1, 0, 2], 5), 0.4);
    }

    #[test]
    fn average_precision_h1() {
        assert!((average_precision(&h1(), 4) - 11.0 / 60.0).abs() < TOL);
        assert_eq!(average_precision(&[], 3), 0.0);
        assert_eq!(average_precision(&[1, 1], 2), 1.0);
    }

    #[test]
    fn pres_h1_and_limits() {
        let g = h1();
        assert!((pres(&g, 4, 100) - 0.6475).abs() < TOL);
        assert!((pres(&g, 4, 20) - 0.325).abs() < TOL);
        assert_eq!(pres(&[1, 1, 1], 3, 20), 1.0);
        assert_eq!(pres(&[0, 0], 3, 20), 0.0);
        assert_eq!(pres(&[], 2, 100), 0.0);
        // H-2 in score order: the only relevant document at rank 2.
        assert!((pres(&[0, 1, 0], 1, 20) - 0.95).abs() < TOL);
        // Relevant exactly at rank M counts.
        let mut g = vec![0; 20];
        g[19] = 1;
        assert!((pres(&g, 1, 20) - 0.05).abs() < TOL);
    }

    #[test]
    fn ndcg_h1_both_bases() {
        let g = h1();
        let ideal = [3, 2, 1, 1];
        assert!((ndcg(&g, &ideal, 100, 10) - 0.743466).abs() < 1e-6);
        assert!((ndcg(&g, &ideal, 100, 2) - 0.597552).abs() < 1e-6);
        assert_eq!(ndcg(&ideal, &ideal, 100, 10), 1.0);
        assert_eq!(ndcg(&[0, 0], &ideal, 100, 2), 0.0);
        // Base 10: ranks 1..=10 undiscounted (log10 10 = 1).
        assert_eq!(dcg(&[1; 10], 10), 10.0);
    }

    proptest::proptest! {
        /// PRES lies between n·R²/M and R (R = recall within M), is 1 with
        /// every relevant document on top and 0 with none within M; AP ≤
        /// recall; nDCG in [0, 1].
        #[test]
        fn bounds(
            gains in proptest::collection::vec(0i64..4, 0..60),
            extra in 0usize..5,
            depth in 1usize..70,
        ) {
            let retrieved = gains.iter().filter(|&&g| g > 0).count();
            let n = retrieved + extra;
            proptest::prop_assume!(n > 0);
            let within = gains.iter().take(depth).filter(|&&g| g > 0).count();
            let r = within as f64 / n as f64;
            let p = pres(&gains, n, depth);
            let lower = n as f64 * r * r / depth as f64;
            proptest::prop_assert!(p <= r + 1e-12, "PRES {p} > R {r}");
            proptest::prop_assert!(p + 1e-12 >= lower.min(r), "PRES {p} < {lower}");
            if within == 0 {
                proptest::prop_assert_eq!(p, 0.0);
            }
            let top = vec![1i64; n];
            proptest::prop_assert_eq!(pres(&top, n, depth.max(n)), 1.0);
            let ap = average_precision(&gains, n);
            proptest::prop_assert!(ap <= recall(&gains, n) + 1e-12);
            let mut ideal: Vec<i64> = gains.iter().copied().filter(|&g| g > 0).collect();
            ideal.extend(std::iter::repeat_n(1, extra));
            ideal.sort_unstable_by(|a, b| b.cmp(a));
            let cut = gains.len().max(1);
            let v = ndcg(&gains, &ideal, cut, 10);
            proptest::prop_assert!((0.0..=1.0 + 1e-12).contains(&v));
            proptest::prop_assert!((ndcg(&ideal, &ideal, cut, 2) - 1.0).abs() < 1e-12 || ideal.is_empty());
        }
    }
}
