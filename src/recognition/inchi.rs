//! Standard InChI of a MOL record through the IUPAC InChI library (the
//! `inchi` crate, in-process). The library reads the MOL text itself
//! (`MakeINCHIFromMolfileText`), so stereo comes from wedges, parities and
//! 2D coordinates exactly as the reference implementation sees them.
//!
//! The library is not thread-safe and may crash on malformed input: the
//! evaluation calls [`convert`] only inside worker processes
//! ([`super::worker`]).

use serde::{Deserialize, Serialize};

/// A Standard InChI with the library's warning, if it gave one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Inchi {
    /// `InChI=1S/...`.
    pub inchi: String,
    /// The library's message when it succeeded with a warning.
    pub warning: Option<String>,
}

/// The result of converting one structure: the InChI, or why there is none.
pub type Conversion = Result<Inchi, String>;

/// Converts one MOL record (V2000 or V3000 text) to its Standard InChI.
pub fn convert(molfile: &str) -> Conversion {
    let options = ::inchi::Options::new().aux_info(false);
    outcome(::inchi::from_molfile(molfile, options))
}

/// The library's answer as an InChI with its warning, or the reason.
fn outcome(result: Result<::inchi::InchiOutput, ::inchi::InchiError>) -> Conversion {
    match result {
        Ok(out) => {
            let message = one_line(out.message());
            Ok(Inchi {
                inchi: out.inchi().to_owned(),
                warning: (!message.is_empty()).then_some(message),
            })
        }
        Err(::inchi::InchiError::Failed { status, message }) => {
            let message = one_line(&message);
            Err(if message.is_empty() {
                format!("InChI library: {status:?}, no InChI")
            } else {
                format!("InChI library: {message}")
            })
        }
        Err(e) => Err(format!("InChI library: {e}")),
    }
}

/// The Standard InChI of a connection table built in memory (a SMILES).
pub fn from_molecule(molecule: &::inchi::Molecule) -> Conversion {
    let options = ::inchi::Options::new().aux_info(false);
    outcome(molecule.to_inchi(options))
}

/// The library's message on one line (runs of white space become a blank).
/// The library writes an error as `Error 190 (no InChI; …) inp structure
/// #1.` and cuts its own line before ` structure #`, which leaves its
/// abbreviation `inp` (input) dangling at the end: that word is dropped, so
/// the message ends with the library's parenthesis.
fn one_line(message: &str) -> String {
    let line = message.split_whitespace().collect::<Vec<_>>().join(" ");
    match line.strip_suffix(") inp") {
        Some(head) => format!("{head})"),
        None => line,
    }
}

#[cfg(test)]
mod tests {
    use super::one_line;

    #[test]
    fn the_librarys_dangling_inp_is_dropped_and_lines_joined() {
        assert_eq!(
            one_line("Error 190 (no InChI; Unknown element(s): R#) inp"),
            "Error 190 (no InChI; Unknown element(s): R#)"
        );
        assert_eq!(
            one_line("Warning: (Proton(s) added/removed)\n  inp"),
            "Warning: (Proton(s) added/removed)"
        );
        // Only the library's remnant: a message that merely ends in `inp`
        // keeps it.
        assert_eq!(
            one_line("Omitted undefined stereo"),
            "Omitted undefined stereo"
        );
        assert_eq!(one_line("ends with inp"), "ends with inp");
    }
}
