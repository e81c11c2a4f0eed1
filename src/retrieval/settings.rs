//! The settings of a text-retrieval evaluation, checked in one place. Every
//! entry point gives them as a [`Requested`] — the command line from its
//! options, Python from its keyword arguments, C as JSON, a result file
//! from its `settings` object — and [`Requested::check`] applies every
//! rule (an order it knows, a cut-off and ranks of at least 1, a grade of
//! at least 1, an nDCG base of 10 or 2, headings kept only for passage
//! runs, measures to compare that the settings give, correlations of two
//! views, at least one permutation) and gives the scoring [`Settings`] and
//! what is [`Asked`] between the runs.

use super::order::Order;
use crate::task::OptionError;
use serde::{Deserialize, Serialize};

/// Which task: document runs (2009) or passage runs (2012–2013).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Task {
    #[serde(rename = "prior-art")]
    PriorArt,
    #[serde(rename = "passage")]
    Passage,
}

/// What to compute.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Settings {
    #[serde(skip)]
    pub task: Task,
    pub order: Order,
    /// N: documents of a topic's ranking that count.
    pub cutoff: usize,
    /// Base of the nDCG discount: 10 (the 2009 overview) or 2.
    pub ndcg_base: u32,
    /// Entries of a smaller grade are not relevant.
    pub min_relevance: i64,
    pub keep_headings: bool,
    /// P@k and R@k beyond 5, 10, 20, 100.
    pub ranks: Vec<usize>,
}

impl Settings {
    /// The defaults of `task`: file order, N = 100, base 10, grade ≥ 1,
    /// headings removed.
    pub fn new(task: Task) -> Self {
        Settings {
            task,
            order: Order::File,
            cutoff: 100,
            ndcg_base: 10,
            min_relevance: 1,
            keep_headings: false,
            ranks: Vec::new(),
        }
    }
}

/// What `--compare` (with `--permutations` and `--seed`) and
/// `--correlate` ask for between the runs.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Asked {
    /// A measure per comparison, in the order given.
    pub compare: Vec<String>,
    /// The randomization test's permutations.
    pub permutations: usize,
    /// The randomization test's seed.
    pub seed: u64,
    /// Two views per correlation, in the order given.
    pub correlate: Vec<(String, String)>,
}

impl Asked {
    /// Nothing is asked for.
    pub fn is_empty(&self) -> bool {
        self.compare.is_empty() && self.correlate.is_empty()
    }
}

/// One measure of the printed list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Measure {
    PrecisionAt(usize),
    RecallAt(usize),
    Precision,
    Recall,
    /// MAP@N (AP@N per topic).
    Map,
    Pres(usize),
    Ndcg,
    /// MAP(D), passage runs.
    MapD,
    /// Precision(D), passage runs.
    PrecisionD,
}

/// The ranks of P@k and R@k always reported.
pub const RANKS: [usize; 4] = [5, 10, 20, 100];
/// The depths of PRES always reported (plus N when it is neither).
pub const PRES_DEPTHS: [usize; 2] = [20, 100];

/// The measures of `settings`, in print order.
pub fn measure_list(settings: &Settings) -> Vec<Measure> {
    let mut ranks = RANKS.to_vec();
    for &k in &settings.ranks {
        if k > 0 && !ranks.contains(&k) {
            ranks.push(k);
        }
    }
    let mut list: Vec<Measure> = ranks.iter().map(|&k| Measure::PrecisionAt(k)).collect();
    list.extend(ranks.iter().map(|&k| Measure::RecallAt(k)));
    list.extend([Measure::Precision, Measure::Recall, Measure::Map]);
    list.extend(PRES_DEPTHS.iter().map(|&m| Measure::Pres(m)));
    if !PRES_DEPTHS.contains(&settings.cutoff) {
        list.push(Measure::Pres(settings.cutoff));
    }
    list.push(Measure::Ndcg);
    if settings.task == Task::Passage {
        list.extend([Measure::MapD, Measure::PrecisionD]);
    }
    list
}

impl Measure {
    /// The printed name (`P@5`, `MAP@100`, `nDCG@100/b2`, `MAP(D)`, …).
    pub fn name(self, settings: &Settings) -> String {
        let n = settings.cutoff;
        match self {
            Measure::PrecisionAt(k) => format!("P@{k}"),
            Measure::RecallAt(k) => format!("R@{k}"),
            Measure::Precision => "Precision".into(),
            Measure::Recall => "Recall".into(),
            Measure::Map => format!("MAP@{n}"),
            Measure::Pres(m) => format!("PRES@{m}"),
            Measure::Ndcg if settings.ndcg_base == 10 => format!("nDCG@{n}"),
            Measure::Ndcg => format!("nDCG@{n}/b{}", settings.ndcg_base),
            Measure::MapD => "MAP(D)".into(),
            Measure::PrecisionD => "Precision(D)".into(),
        }
    }
}
/// The randomization test's permutations unless asked otherwise.
pub const PERMUTATIONS: usize = 10_000;

/// The settings as given, by the names of the command line's options in
/// snake case; one not given is its default.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(default)]
pub struct Requested {
    /// `file` or `score`.
    pub order: String,
    pub cutoff: usize,
    pub ranks: Vec<usize>,
    pub min_relevance: i64,
    pub ndcg_base: u32,
    pub keep_headings: bool,
    /// Measures by which to compare every pair of scored runs.
    pub compare: Vec<String>,
    pub permutations: usize,
    pub seed: u64,
    /// Pairs of views (a topic group, `all`, or a measure) to correlate.
    pub correlate: Vec<(String, String)>,
}

impl Default for Requested {
    fn default() -> Self {
        let d = Settings::new(Task::PriorArt);
        Requested {
            order: "file".into(),
            cutoff: d.cutoff,
            ranks: d.ranks,
            min_relevance: d.min_relevance,
            ndcg_base: d.ndcg_base,
            keep_headings: d.keep_headings,
            compare: Vec::new(),
            permutations: PERMUTATIONS,
            seed: 0,
            correlate: Vec::new(),
        }
    }
}

impl Requested {
    /// Checks every rule for `task`; the error names the option and what
    /// is wrong with it.
    pub fn check(&self, task: Task) -> Result<(Settings, Asked), OptionError> {
        let order = match self.order.as_str() {
            "file" => Order::File,
            "score" => Order::Score,
            other => {
                return Err(OptionError::new(
                    "order",
                    format!("is file or score, not {other:?}"),
                ));
            }
        };
        let at_least_one = |option: &'static str, value: usize| match value {
            0 => Err(OptionError::new(option, "must be at least 1, not 0")),
            _ => Ok(()),
        };
        at_least_one("cutoff", self.cutoff)?;
        for &k in &self.ranks {
            at_least_one("ranks", k)?;
        }
        at_least_one("permutations", self.permutations)?;
        if self.min_relevance < 1 {
            return Err(OptionError::new(
                "min_relevance",
                format!("must be a grade of at least 1, not {}", self.min_relevance),
            ));
        }
        if !matches!(self.ndcg_base, 2 | 10) {
            return Err(OptionError::new(
                "ndcg_base",
                format!(
                    "must be 10 (the 2009 overview's) or 2, not {}",
                    self.ndcg_base
                ),
            ));
        }
        if self.keep_headings && task == Task::PriorArt {
            return Err(OptionError::new(
                "keep_headings",
                "applies to passage runs only",
            ));
        }
        let settings = Settings {
            order,
            cutoff: self.cutoff,
            ndcg_base: self.ndcg_base,
            min_relevance: self.min_relevance,
            keep_headings: self.keep_headings,
            ranks: self.ranks.clone(),
            ..Settings::new(task)
        };
        let known: Vec<String> = (measure_list(&settings).iter())
            .map(|m| m.name(&settings))
            .collect();
        if let Some(m) = self.compare.iter().find(|m| !known.contains(m)) {
            return Err(OptionError::new(
                "compare",
                format!("has an unknown measure `{m}` (known: {})", known.join(", ")),
            ));
        }
        if let Some((a, b)) =
            (self.correlate.iter()).find(|(a, b)| a.trim().is_empty() || b.trim().is_empty())
        {
            return Err(OptionError::new(
                "correlate",
                format!(
                    "takes two views, each a topic group (or `all`) or a measure; not {a:?} and {b:?}"
                ),
            ));
        }
        let asked = Asked {
            compare: self.compare.clone(),
            permutations: self.permutations,
            seed: self.seed,
            correlate: self.correlate.clone(),
        };
        Ok((settings, asked))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_defaults_are_the_tasks() {
        let (settings, asked) = Requested::default().check(Task::Passage).unwrap();
        assert_eq!(settings, Settings::new(Task::Passage));
        assert!(asked.is_empty());
        assert_eq!(asked.permutations, PERMUTATIONS);
    }

    #[test]
    fn every_rule_names_its_option() {
        let bad = |task: Task, change: fn(&mut Requested)| {
            let mut given = Requested::default();
            change(&mut given);
            given.check(task).unwrap_err().to_string()
        };
        let prior_art = Task::PriorArt;
        assert_eq!(
            bad(prior_art, |r| r.order = "rank".into()),
            "order is file or score, not \"rank\""
        );
        assert_eq!(
            bad(prior_art, |r| r.cutoff = 0),
            "cutoff must be at least 1, not 0"
        );
        assert_eq!(
            bad(prior_art, |r| r.ranks = vec![5, 0]),
            "ranks must be at least 1, not 0"
        );
        assert_eq!(
            bad(prior_art, |r| r.permutations = 0),
            "permutations must be at least 1, not 0"
        );
        assert_eq!(
            bad(prior_art, |r| r.min_relevance = 0),
            "min_relevance must be a grade of at least 1, not 0"
        );
        assert_eq!(
            bad(prior_art, |r| r.ndcg_base = 3),
            "ndcg_base must be 10 (the 2009 overview's) or 2, not 3"
        );
        assert_eq!(
            bad(prior_art, |r| r.keep_headings = true),
            "keep_headings applies to passage runs only"
        );
        assert!(
            Requested {
                keep_headings: true,
                ..Requested::default()
            }
            .check(Task::Passage)
            .is_ok()
        );
        assert!(
            bad(prior_art, |r| r.compare = vec!["MAP@10".into()])
                .starts_with("compare has an unknown measure `MAP@10` (known: P@5, ")
        );
        assert_eq!(
            bad(prior_art, |r| r.correlate =
                vec![("all".into(), " ".into())]),
            "correlate takes two views, each a topic group (or `all`) or a measure; not \"all\" and \" \""
        );
    }
}
