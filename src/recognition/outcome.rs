//! Outcomes (docs/recognition.md) from the two conversions of a gold structure and its
//! submission, and the per-run summary (the 2012 overview's table).

use super::inchi::Conversion;
use super::layers::Layer;
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
    of_inchis(&gold.inchi, &run.inchi)
}

/// The outcome of two Standard InChIs, the gold's and the submitted one.
pub fn of_inchis(gold: &str, run: &str) -> Outcome {
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

/// Counts of one run, with the recall of the automatic set and the
/// measures OCSR papers report (docs/metrics.md).
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
    /// `match + stereo`: equal InChIs once the stereo layers are dropped.
    pub match_ignoring_stereo: usize,
    /// `match_ignoring_stereo / automatic` (0 when nothing is automatic).
    pub recall_ignoring_stereo: f64,
    /// Automatic structures whose gold InChI has a stereo layer.
    pub stereo_structures: usize,
    /// Those of them matched.
    pub stereo_matched: usize,
    /// `stereo_matched / stereo_structures` (0 when there are none).
    pub stereo_recall: f64,
    /// The structures whose InChIs differ, by the first layer that does.
    pub first_difference: LayerCounts,
}

/// A count per InChI layer group, in [`Layer::ALL`]'s order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LayerCounts {
    pub formula: usize,
    pub connections: usize,
    pub hydrogens: usize,
    pub charge: usize,
    pub protons: usize,
    pub stereo: usize,
    pub isotopes: usize,
}

impl LayerCounts {
    /// The count of `layer`.
    pub fn count(&self, layer: Layer) -> usize {
        match layer {
            Layer::Formula => self.formula,
            Layer::Connections => self.connections,
            Layer::Hydrogens => self.hydrogens,
            Layer::Charge => self.charge,
            Layer::Protons => self.protons,
            Layer::Stereo => self.stereo,
            Layer::Isotopes => self.isotopes,
        }
    }

    fn count_mut(&mut self, layer: Layer) -> &mut usize {
        match layer {
            Layer::Formula => &mut self.formula,
            Layer::Connections => &mut self.connections,
            Layer::Hydrogens => &mut self.hydrogens,
            Layer::Charge => &mut self.charge,
            Layer::Protons => &mut self.protons,
            Layer::Stereo => &mut self.stereo,
            Layer::Isotopes => &mut self.isotopes,
        }
    }
}

/// What a summary counts of one structure: its outcome, whether its gold
/// InChI has stereo, and the first layer in which the InChIs differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counted {
    pub outcome: Outcome,
    pub gold_stereo: bool,
    pub first_difference: Option<Layer>,
}

impl From<Outcome> for Counted {
    fn from(outcome: Outcome) -> Self {
        Counted {
            outcome,
            gold_stereo: false,
            first_difference: None,
        }
    }
}

/// `part / whole`, 0 when `whole` is 0.
fn rate(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 / whole as f64
    }
}

impl Summary {
    /// Counts the structures of one run.
    pub fn of<T: Into<Counted>>(structures: impl IntoIterator<Item = T>) -> Self {
        let mut s = Summary::default();
        for counted in structures {
            let Counted {
                outcome,
                gold_stereo,
                first_difference,
            } = counted.into();
            s.structures += 1;
            *s.count_mut(outcome) += 1;
            if gold_stereo && outcome != Outcome::Manual {
                s.stereo_structures += 1;
                s.stereo_matched += usize::from(outcome == Outcome::Match);
            }
            if let Some(layer) = first_difference {
                *s.first_difference.count_mut(layer) += 1;
            }
        }
        s.automatic = s.structures - s.manual;
        s.recall = rate(s.matched, s.automatic);
        s.match_ignoring_stereo = s.matched + s.stereo;
        s.recall_ignoring_stereo = rate(s.match_ignoring_stereo, s.automatic);
        s.stereo_recall = rate(s.stereo_matched, s.stereo_structures);
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
        assert_eq!(
            (s.match_ignoring_stereo, s.recall_ignoring_stereo),
            (4, 4.0 / 6.0)
        );
        assert_eq!((s.stereo_structures, s.stereo_recall), (0, 0.0));
    }

    #[test]
    fn stereo_gold_and_first_differences_are_counted() {
        use Outcome::*;
        let counted = |outcome, gold_stereo, first_difference| Counted {
            outcome,
            gold_stereo,
            first_difference,
        };
        let s = Summary::of([
            counted(Match, true, None),
            counted(Stereo, true, Some(Layer::Stereo)),
            counted(Missing, true, None),
            counted(Manual, true, None),
            counted(Match, false, None),
            counted(Formula, false, Some(Layer::Connections)),
            counted(Wrong, false, Some(Layer::Formula)),
            counted(Stereo, false, Some(Layer::Isotopes)),
        ]);
        assert_eq!((s.automatic, s.matched, s.match_ignoring_stereo), (7, 2, 4));
        assert_eq!(s.recall_ignoring_stereo, 4.0 / 7.0);
        // The manual structure's stereo gold does not count.
        assert_eq!((s.stereo_structures, s.stereo_matched), (3, 1));
        assert_eq!(s.stereo_recall, 1.0 / 3.0);
        let expected = LayerCounts {
            formula: 1,
            connections: 1,
            stereo: 1,
            isotopes: 1,
            ..LayerCounts::default()
        };
        assert_eq!(s.first_difference, expected);
        assert_eq!(
            Layer::ALL
                .iter()
                .map(|&l| s.first_difference.count(l))
                .sum::<usize>(),
            4
        );
    }
}
