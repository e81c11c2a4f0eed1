//! The settings of a flowchart evaluation, checked in one place. Every
//! entry point gives them as a [`Requested`] — the command line from its
//! options, Python from its keyword arguments, C from its options struct,
//! a result file from its `settings` object — and [`ReportSettings::new`]
//! checks every rule (known levels and denominator, a time limit that is
//! a duration, a budget above 0) and gives the values the engine takes.
//! A result file's `settings` object is a [`Requested`] written back, so
//! what a file records can be given again.

use super::ParseOptions;
use super::mcs::{Denominator, Level, Settings};
use crate::task::OptionError;
use serde::{Deserialize, Deserializer, Serialize};
use std::time::Duration;

/// The settings as given, by the names of the result file's `settings`
/// object (the command line's options in snake case); one not given is
/// its default.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(default)]
pub struct Requested {
    /// Level names, or `all`.
    pub levels: Vec<String>,
    /// `union` or `max`.
    pub denominator: String,
    pub induced: bool,
    pub ignore_direction: bool,
    pub edge_types: bool,
    pub exact_labels: bool,
    pub max_mappings: u64,
    /// Seconds per pair and level; `None`: no wall-clock limit.
    pub time_limit: Option<f64>,
    /// Units of search work per pair and level; `None`: no work limit.
    pub budget: Option<u64>,
    pub strict: bool,
}

impl Default for Requested {
    fn default() -> Self {
        let d = Settings::default();
        Requested {
            levels: vec!["all".into()],
            denominator: "union".into(),
            induced: d.induced,
            ignore_direction: d.ignore_direction,
            edge_types: d.edge_types,
            exact_labels: d.exact_labels,
            max_mappings: d.max_mappings,
            time_limit: None,
            budget: d.budget,
            strict: false,
        }
    }
}

/// The checked settings: the levels scored, the engine's switches and the
/// reader's; the `settings` object of the JSON output.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ReportSettings {
    pub levels: Vec<Level>,
    #[serde(flatten)]
    pub settings: Settings,
    pub strict: bool,
}

impl Default for ReportSettings {
    fn default() -> Self {
        ReportSettings {
            levels: Level::ALL.to_vec(),
            settings: Settings::default(),
            strict: false,
        }
    }
}

impl ReportSettings {
    /// Checks every rule of the settings `given`; the error names the
    /// option and what is wrong with it.
    pub fn new(given: &Requested) -> Result<Self, OptionError> {
        let time_limit = (given.time_limit)
            .map(|t| {
                Duration::try_from_secs_f64(t).map_err(|_| {
                    OptionError::new(
                        "time_limit",
                        format!("must be a number of seconds, not {t}"),
                    )
                })
            })
            .transpose()?;
        if given.budget == Some(0) {
            return Err(OptionError::new(
                "budget",
                "must be a whole number of work units above 0 (or no limit)",
            ));
        }
        let denominator = match given.denominator.as_str() {
            "union" => Denominator::Union,
            "max" => Denominator::Max,
            other => {
                return Err(OptionError::new(
                    "denominator",
                    format!("is union or max, not {other:?}"),
                ));
            }
        };
        Ok(ReportSettings {
            levels: levels(&given.levels)?,
            settings: Settings {
                denominator,
                induced: given.induced,
                ignore_direction: given.ignore_direction,
                edge_types: given.edge_types,
                exact_labels: given.exact_labels,
                max_mappings: given.max_mappings,
                time_limit,
                budget: given.budget,
            },
            strict: given.strict,
        })
    }

    /// The reader's switches.
    pub fn parse(&self) -> ParseOptions {
        ParseOptions {
            strict: self.strict,
        }
    }
}

/// Level names (or `all`) to the levels, in the engine's order, each once.
fn levels(names: &[String]) -> Result<Vec<Level>, OptionError> {
    let mut chosen = Vec::new();
    for name in names {
        match name.as_str() {
            "all" => chosen.extend(Level::ALL),
            other => chosen.push(
                (Level::ALL.into_iter())
                    .find(|l| l.name() == other)
                    .ok_or_else(|| {
                        OptionError::new(
                            "levels",
                            format!("are basic, intermediate, complete or all, not {other:?}"),
                        )
                    })?,
            ),
        }
    }
    if chosen.is_empty() {
        return Err(OptionError::new("levels", "must name at least one level"));
    }
    chosen.sort();
    chosen.dedup();
    Ok(chosen)
}

/// A result file's `settings`, read through the same checks.
impl<'de> Deserialize<'de> for ReportSettings {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let given = Requested::deserialize(d)?;
        ReportSettings::new(&given).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_defaults_are_the_engines() {
        assert_eq!(
            ReportSettings::new(&Requested::default()).unwrap(),
            ReportSettings::default()
        );
    }

    #[test]
    fn every_rule_names_its_option() {
        let bad = |change: fn(&mut Requested)| {
            let mut given = Requested::default();
            change(&mut given);
            ReportSettings::new(&given).unwrap_err().to_string()
        };
        assert_eq!(
            bad(|r| r.time_limit = Some(-1.0)),
            "time_limit must be a number of seconds, not -1"
        );
        assert_eq!(
            bad(|r| r.budget = Some(0)),
            "budget must be a whole number of work units above 0 (or no limit)"
        );
        assert_eq!(
            bad(|r| r.denominator = "min".into()),
            "denominator is union or max, not \"min\""
        );
        assert_eq!(
            bad(|r| r.levels = vec!["basic".into(), "full".into()]),
            "levels are basic, intermediate, complete or all, not \"full\""
        );
        assert_eq!(
            bad(|r| r.levels.clear()),
            "levels must name at least one level"
        );
    }

    #[test]
    fn levels_come_in_the_engines_order_each_once() {
        let given = Requested {
            levels: vec!["complete".into(), "basic".into(), "complete".into()],
            ..Requested::default()
        };
        let levels = ReportSettings::new(&given).unwrap().levels;
        assert_eq!(levels, [Level::Basic, Level::Complete]);
    }

    #[test]
    fn a_result_files_settings_read_back_as_written() {
        let written = ReportSettings {
            levels: vec![Level::Intermediate],
            settings: Settings {
                denominator: Denominator::Max,
                time_limit: Some(Duration::from_millis(1500)),
                budget: None,
                ..Settings::default()
            },
            strict: true,
        };
        let json = serde_json::to_value(&written).unwrap();
        let read: ReportSettings = serde_json::from_value(json).unwrap();
        assert_eq!(read, written);
    }
}
