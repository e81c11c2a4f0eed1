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
    match ::inchi::from_molfile(molfile, options) {
        Ok(out) => {
            let message = out.message().trim();
            Ok(Inchi {
                inchi: out.inchi().to_owned(),
                warning: (!message.is_empty()).then(|| message.to_owned()),
            })
        }
        Err(::inchi::InchiError::Failed { status, message }) => {
            let message = message.trim();
            Err(if message.is_empty() {
                format!("InChI library: {status:?}, no InChI")
            } else {
                format!("InChI library: {message}")
            })
        }
        Err(e) => Err(format!("InChI library: {e}")),
    }
}
