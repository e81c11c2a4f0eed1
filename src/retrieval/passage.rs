//! Passage-level measures (claims to passage, 2012–2013), pure: the
//! passages the run retrieved of one relevant document, in rank order,
//! each marked relevant or not, and the document's relevant passages in
//! the qrels. Definitions in `docs/retrieval.md`.

/// AP(D) = (1 / n_p) Σ_r Precision(r) · rel(r) over the document's
/// retrieved passages; `relevant_in_qrels` is n_p (headings included).
pub fn passage_average_precision(retrieved: &[bool], relevant_in_qrels: usize) -> f64 {
    if relevant_in_qrels == 0 {
        return 0.0;
    }
    let mut found = 0usize;
    let mut sum = 0.0;
    for (r, _) in retrieved.iter().enumerate().filter(|(_, rel)| **rel) {
        found += 1;
        sum += found as f64 / (r + 1) as f64;
    }
    sum / relevant_in_qrels as f64
}

/// Precision(D): relevant passages retrieved over passages retrieved; 0
/// when none is retrieved.
pub fn passage_precision(retrieved: &[bool]) -> f64 {
    if retrieved.is_empty() {
        return 0.0;
    }
    retrieved.iter().filter(|&&r| r).count() as f64 / retrieved.len() as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_case_p1() {
        // D1: p[4] (rel), p[9], p[3] (rel); three relevant in the qrels.
        let d1 = [true, false, true];
        assert!((passage_average_precision(&d1, 3) - 5.0 / 9.0).abs() < 1e-15);
        assert!((passage_precision(&d1) - 2.0 / 3.0).abs() < 1e-15);
        // D2: abstract/p (rel), claim[2].
        assert_eq!(passage_average_precision(&[true, false], 1), 1.0);
        assert_eq!(passage_precision(&[true, false]), 0.5);
        // Headings kept: p[4], p[9], heading[2], p[3], all but p[9] relevant.
        let kept = [true, false, true, true];
        assert!((passage_average_precision(&kept, 3) - 29.0 / 36.0).abs() < 1e-15);
        assert_eq!(passage_precision(&[]), 0.0);
    }
}
