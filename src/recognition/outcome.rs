//! Outcomes (docs/recognition.md) from the two conversions of a gold structure and its
//! submission, and the per-run summary (the 2012 overview's table).

use super::inchi::Conversion;
use serde::{Deserialize, Serialize};

/// What became of one gold structure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// Standard InChI strings equal.
    Match,
    /// Equal once the stereo layers (`/b /t /m /s`) are dropped.
    Stereo,
    /// Same formula layer, different structure.
    Formula,
    /// Different formula.
    Wrong,
    /// The submitted file exists but yields no InChI.
    Unreadable,
    /// No submitted file.
    Missing,
    /// The gold structure yields no InChI: left to visual review.
    Manual,
}

impl Outcome {
    /// Every outcome, best first (docs/recognition.md).
    pub const ALL: [Outcome; 7] = [
        Outcome::Match,
        Outcome::Stereo,
        Outcome::Formula,
        Outcome::Wrong,
        Outcome::Unreadable,
        Outcome::Missing,
        Outcome::Manual,
    ];

    /// The name used in JSON, tables and the review page.
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Match => "match",
            Outcome::Stereo => "stereo",
            Outcome::Formula => "formula",
            Outcome::Wrong => "wrong",
            Outcome::Unreadable => "unreadable",
            Outcome::Missing => "missing",
            Outcome::Manual => "manual",
        }
    }
}

/// The outcome for a gold conversion and the submitted one (`None`: no
/// submitted file).
pub fn classify(gold: &Conversion, run: Option<&Conversion>) -> Outcome {
    let Ok(gold) = gold else {
        return Outcome::Manual;
    };
    let Some(run) = run else {
        return Outcome::Missing;
    };
    let Ok(run) = run else {
        return Outcome::Unreadable;
    };
    let (gold, run) = (gold.inchi.as_str(), run.inchi.as_str());
    if gold == run {
        Outcome::Match
    } else if without_stereo(gold) == without_stereo(run) {
        Outcome::Stereo
    } else if formula(gold) == formula(run) {
        Outcome::Formula
    } else {
        Outcome::Wrong
    }
}

/// The InChI without its stereo layers: every `/b`, `/t`, `/m` and `/s`
/// layer, in the main and in the isotopic part.
pub fn without_stereo(inchi: &str) -> String {
    let mut parts = inchi.split('/');
    let mut out = String::from(parts.next().unwrap_or(""));
    for layer in parts.filter(|l| !l.starts_with(['b', 't', 'm', 's'])) {
        out.push('/');
        out.push_str(layer);
    }
    out
}

/// The formula layer: the one after `InChI=1S/`.
pub fn formula(inchi: &str) -> &str {
    inchi.split('/').nth(1).unwrap_or("")
}

/// Counts of one run, with the recall of the automatic set.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Gold structures.
    pub structures: usize,
    pub manual: usize,
    /// `structures - manual`: the automatic set.
    pub automatic: usize,
    #[serde(rename = "match")]
    pub matched: usize,
    pub stereo: usize,
    pub formula: usize,
    pub wrong: usize,
    pub unreadable: usize,
    pub missing: usize,
    /// `match / automatic` (0 when nothing is automatic).
    pub recall: f64,
}

impl Summary {
    /// Counts the outcomes of one run.
    pub fn of(outcomes: impl IntoIterator<Item = Outcome>) -> Self {
        let mut s = Summary::default();
        for outcome in outcomes {
            s.structures += 1;
            *s.count_mut(outcome) += 1;
        }
        s.automatic = s.structures - s.manual;
        s.recall = if s.automatic == 0 {
            0.0
        } else {
            s.matched as f64 / s.automatic as f64
        };
        s
    }

    /// How many structures have `outcome`.
    pub fn count(&self, outcome: Outcome) -> usize {
        match outcome {
            Outcome::Match => self.matched,
            Outcome::Stereo => self.stereo,
            Outcome::Formula => self.formula,
            Outcome::Wrong => self.wrong,
            Outcome::Unreadable => self.unreadable,
            Outcome::Missing => self.missing,
            Outcome::Manual => self.manual,
        }
    }

    fn count_mut(&mut self, outcome: Outcome) -> &mut usize {
        match outcome {
            Outcome::Match => &mut self.matched,
            Outcome::Stereo => &mut self.stereo,
            Outcome::Formula => &mut self.formula,
            Outcome::Wrong => &mut self.wrong,
            Outcome::Unreadable => &mut self.unreadable,
            Outcome::Missing => &mut self.missing,
            Outcome::Manual => &mut self.manual,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::recognition::inchi::Inchi;

    fn ok(s: &str) -> Conversion {
        Ok(Inchi {
            inchi: s.into(),
            warning: None,
        })
    }

    const L_ALA: &str = "InChI=1S/C3H7NO2/c1-2(4)3(5)6/h2H,4H2,1H3,(H,5,6)/t2-/m0/s1";
    const D_ALA: &str = "InChI=1S/C3H7NO2/c1-2(4)3(5)6/h2H,4H2,1H3,(H,5,6)/t2-/m1/s1";
    const ALA: &str = "InChI=1S/C3H7NO2/c1-2(4)3(5)6/h2H,4H2,1H3,(H,5,6)";
    const SARCOSINE: &str = "InChI=1S/C3H7NO2/c1-4-2-3(5)6/h4H,2H2,1H3,(H,5,6)";
    const GLYCINE: &str = "InChI=1S/C2H5NO2/c3-1-2(4)5/h1,3H2,(H,4,5)";

    #[test]
    fn every_outcome_from_hand_picked_inchis() {
        let fail: Conversion = Err("no".into());
        assert_eq!(classify(&ok(L_ALA), Some(&ok(L_ALA))), Outcome::Match);
        assert_eq!(classify(&ok(L_ALA), Some(&ok(D_ALA))), Outcome::Stereo);
        assert_eq!(classify(&ok(L_ALA), Some(&ok(ALA))), Outcome::Stereo);
        assert_eq!(classify(&ok(ALA), Some(&ok(SARCOSINE))), Outcome::Formula);
        assert_eq!(classify(&ok(ALA), Some(&ok(GLYCINE))), Outcome::Wrong);
        assert_eq!(classify(&ok(ALA), Some(&fail)), Outcome::Unreadable);
        assert_eq!(classify(&ok(ALA), None), Outcome::Missing);
        assert_eq!(classify(&fail, Some(&ok(ALA))), Outcome::Manual);
        assert_eq!(classify(&fail, None), Outcome::Manual);
    }

    #[test]
    fn stereo_layers_dropped_in_main_and_isotopic_parts() {
        let labelled = "InChI=1S/C4H8/c1-3-4-2/h3-4H,1-2H3/b4-3+/i1D/b4-3-";
        assert_eq!(
            without_stereo(labelled),
            "InChI=1S/C4H8/c1-3-4-2/h3-4H,1-2H3/i1D"
        );
        assert_eq!(without_stereo(L_ALA), ALA);
        assert_eq!(formula(L_ALA), "C3H7NO2");
        assert_eq!(
            formula("InChI=1S/C2H4O2.Na/c1-2(3)4;/q;+1/p-1"),
            "C2H4O2.Na"
        );
    }

    #[test]
    fn summary_counts_and_recall_of_the_automatic_set() {
        use Outcome::*;
        let s = Summary::of([
            Match, Match, Match, Stereo, Manual, Missing, Unreadable, Manual,
        ]);
        assert_eq!(
            (s.structures, s.manual, s.automatic, s.matched),
            (8, 2, 6, 3)
        );
        assert_eq!((s.stereo, s.missing, s.unreadable, s.wrong), (1, 1, 1, 0));
        assert_eq!(s.recall, 0.5);
        assert_eq!(Summary::of([Manual]).recall, 0.0);
        let total: usize = Outcome::ALL.iter().map(|&o| s.count(o)).sum();
        assert_eq!(total, s.structures);
    }
}
