//! Label comparison for the complete level (`docs/flowchart-distance.md`):
//! normalization and the normalized Levenshtein distance over Unicode
//! scalar values.

/// Trims, collapses every run of white space to one blank and lower-cases
/// (Unicode `to_lowercase`, the simple case folding of most scripts);
/// `exact` keeps the text as written.
pub fn normalize(text: &str, exact: bool) -> String {
    if exact {
        return text.to_string();
    }
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// ned(a, b) = lev(a, b) / max(len(a), len(b)) over `char`s (Unicode scalar
/// values); 0 when both are empty.
pub fn ned(a: &str, b: &str) -> f64 {
    let longest = a.chars().count().max(b.chars().count());
    if longest == 0 {
        return 0.0;
    }
    strsim::levenshtein(a, b) as f64 / longest as f64
}

/// ned from one label to many (the complete level's matrix): the label's
/// bit masks are built once and each comparison runs Myers' bit-parallel
/// Levenshtein (`rapidfuzz`), O(⌈len/64⌉ · len) instead of the O(len²)
/// table of [`ned`] (which stays for single comparisons).
pub struct NedFrom {
    scorer: rapidfuzz::distance::levenshtein::BatchComparator<char>,
    len: usize,
}

impl NedFrom {
    pub fn new(a: &str) -> Self {
        NedFrom {
            scorer: rapidfuzz::distance::levenshtein::BatchComparator::new(a.chars()),
            len: a.chars().count(),
        }
    }

    /// ned(a, `b`), equal to [`ned`].
    pub fn to(&self, b: &str) -> f64 {
        let longest = self.len.max(b.chars().count());
        if longest == 0 {
            return 0.0;
        }
        self.scorer.distance(b.chars()) as f64 / longest as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The bit-parallel one-to-many ned equals the table's, on labels
        /// of ASCII, accented and CJK letters, short and past 64 chars.
        #[test]
        fn ned_from_matches_ned(a in "[a-cé日 ]{0,80}", b in "[a-cé日 ]{0,80}") {
            prop_assert_eq!(NedFrom::new(&a).to(&b), ned(&a, &b));
        }
    }

    #[test]
    fn normalization_trims_collapses_and_folds() {
        assert_eq!(normalize("  Start \t  NOW\n", false), "start now");
        assert_eq!(normalize("  Start \t  NOW\n", true), "  Start \t  NOW\n");
        assert_eq!(normalize("ÉTAPE  Ω", false), "étape ω");
    }

    #[test]
    fn ned_counts_scalar_values() {
        assert_eq!(ned("", ""), 0.0);
        assert_eq!(ned("", "abc"), 1.0);
        // kitten → sitting: 3 edits over 7 chars.
        assert_eq!(ned("kitten", "sitting"), 3.0 / 7.0);
        // "é" is one scalar value (two UTF-8 bytes): one substitution over 4.
        assert_eq!(ned("café", "cafe"), 0.25);
        assert_eq!(ned("日本語", "日本"), 1.0 / 3.0);
    }
}
