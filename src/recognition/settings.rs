//! The settings of a recognition evaluation, checked in one place: every
//! entry point (the command line, Python, C) gives them as a
//! [`Requested`], and [`Requested::check`] applies the rule that the time
//! one structure's conversion may take is a positive number of seconds;
//! [`Requested::columns`] gives the columns SMILES tables are read by.

use super::smiles::table::Columns;
use crate::task::OptionError;
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// The time one structure's InChI conversion may take unless asked
/// otherwise, in seconds.
pub const DEFAULT_TIMEOUT_SECONDS: f64 = 10.0;

/// The settings as given, by the names of the command line's options in
/// snake case; one not given is its default.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(default)]
pub struct Requested {
    /// Seconds one structure's conversion may take.
    pub timeout: f64,
    /// The header of a SMILES table's name column (`None`: found by the
    /// usual headers).
    pub name_column: Option<String>,
    /// The header of a SMILES table's SMILES column.
    pub smiles_column: Option<String>,
}

impl Default for Requested {
    fn default() -> Self {
        Requested {
            timeout: DEFAULT_TIMEOUT_SECONDS,
            name_column: None,
            smiles_column: None,
        }
    }
}

impl Requested {
    /// The columns SMILES tables are read by.
    pub fn columns(&self) -> Columns {
        Columns {
            name: self.name_column.clone(),
            smiles: self.smiles_column.clone(),
        }
    }

    /// The time one structure may take; the error names the option.
    pub fn check(&self) -> Result<Duration, OptionError> {
        Duration::try_from_secs_f64(self.timeout)
            .ok()
            .filter(|t| !t.is_zero())
            .ok_or_else(|| {
                OptionError::new(
                    "timeout",
                    format!("must be a positive number of seconds, not {}", self.timeout),
                )
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_timeout_is_a_positive_number_of_seconds() {
        assert_eq!(Requested::default().check(), Ok(Duration::from_secs(10)));
        for bad in [0.0, -1.0, f64::NAN, f64::INFINITY] {
            let given = Requested {
                timeout: bad,
                ..Requested::default()
            };
            let e = given.check().unwrap_err();
            assert_eq!(
                e.to_string(),
                format!("timeout must be a positive number of seconds, not {bad}")
            );
        }
    }
}
