//! What `--compare` and `--correlate` ask for between the runs of an
//! evaluation, and their results beside it in the JSON: made by the
//! scoring command from the whole evaluation, or by `clefeval merge` from
//! the joined parts (a part records what was asked and computes none of
//! it: the tests need every topic), with the same code, so the merged file
//! is the whole run's.

use super::correlate::{Correlation, correlate};
use super::report::{Asked, Evaluation};
use super::significance::{Comparison, compare_runs};
use crate::task::OptionError;
use serde::Serialize;

/// The comparisons and correlations asked for, in the order given.
#[derive(Default, Serialize)]
pub struct Between {
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub comparisons: Vec<Comparison>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub correlations: Vec<Correlation>,
}

impl Between {
    /// The comparisons and correlations `asked` of `evaluation`; the error
    /// names the option, what it asked and the library's reason (fewer
    /// than two scored runs, an unknown group, …).
    pub fn of(evaluation: &Evaluation, asked: &Asked) -> Result<Self, OptionError> {
        let comparisons = (asked.compare.iter())
            .map(|m| {
                compare_runs(evaluation, m, asked.permutations, asked.seed)
                    .map_err(|e| OptionError::new("compare", format!("{m}: {e}")))
            })
            .collect::<Result<_, _>>()?;
        let correlations = (asked.correlate.iter())
            .map(|(a, b)| {
                correlate(evaluation, a, b)
                    .map_err(|e| OptionError::new("correlate", format!("{a},{b}: {e}")))
            })
            .collect::<Result<_, _>>()?;
        Ok(Between {
            comparisons,
            correlations,
        })
    }

    /// The comparisons and correlations `asked` of an evaluation, whole or
    /// a part. A part records what was asked and makes none: the tests
    /// need every topic, so the merge makes them.
    pub fn asked_of(evaluation: &mut Evaluation, asked: Asked) -> Result<Self, OptionError> {
        match &mut evaluation.shard {
            Some(part) => {
                part.asked = asked;
                Ok(Between::default())
            }
            None => Between::of(evaluation, &asked),
        }
    }

    /// Every comparison's and correlation's table, each under a heading
    /// and after a blank line; empty when none was asked for.
    pub fn tables(&self) -> String {
        let comparisons = (self.comparisons.iter())
            .map(|c| format!("\n== runs compared by {} ==\n{}", c.measure, c.table()));
        let correlations = (self.correlations.iter())
            .map(|c| format!("\n== correlation of the runs ==\n{}", c.table()));
        comparisons.chain(correlations).collect()
    }
}

/// The JSON of an evaluation with the comparisons and correlations as
/// top-level fields after its own, each absent when empty.
#[derive(Serialize)]
pub struct WithBetween<'a> {
    #[serde(flatten)]
    pub evaluation: &'a Evaluation,
    #[serde(flatten)]
    pub between: &'a Between,
}
