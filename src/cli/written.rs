//! The line that closes a command's work on stderr, naming the files and
//! folders it wrote.

use crate::report::validation::plural;
use clap::ValueEnum;
use std::path::Path;

/// What a command wrote into files and folders, in the order written, for
/// the line that closes its work on stderr (unless `--quiet`):
/// `clefeval: wrote the JSON to out.json and the HTML page to page.html`.
/// Paths are printed as the user gave them; standard output is not named.
#[derive(Debug, Default)]
pub struct Written(Vec<String>);

impl Written {
    /// `what` written to the file `path`.
    pub fn file(&mut self, what: &str, path: &Path) {
        self.0.push(format!("{what} to {}", path.display()));
    }

    /// The output in `format` written to `path`, if the output went to a
    /// file: `the table`, `the CSV`, `the JSON` or `the trec_eval lines`.
    pub fn output<F: ValueEnum>(&mut self, format: &F, path: Option<&Path>) {
        let Some(path) = path else { return };
        let name = format.to_possible_value();
        let what = match name.as_ref().map(|v| v.get_name()) {
            Some("csv") => "the CSV",
            Some("json") => "the JSON",
            Some("trec") => "the trec_eval lines",
            _ => "the table",
        };
        self.file(what, path);
    }

    /// `count` files of `noun` written into the folder `path` (and its
    /// subfolders, `within`).
    pub fn folder(&mut self, count: usize, noun: &str, path: &Path, within: &str) {
        self.0.push(format!(
            "{} into {}{within}",
            plural(count, noun),
            path.display()
        ));
    }

    /// The closing line, `clefeval: wrote A, B and C`; none when `quiet`
    /// or nothing went to a file.
    pub fn close(&self, quiet: bool) {
        if let Some(line) = self.line().filter(|_| !quiet) {
            eprintln!("{line}");
        }
    }

    /// The closing line's text, if anything was written.
    fn line(&self) -> Option<String> {
        let (last, rest) = self.0.split_last()?;
        Some(match rest {
            [] => format!("clefeval: wrote {last}"),
            _ => format!("clefeval: wrote {} and {last}", rest.join(", ")),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::OutputFormat;

    #[test]
    fn the_closing_line_joins_what_was_written_in_order() {
        let mut written = Written::default();
        assert_eq!(written.line(), None);
        written.output(&OutputFormat::Table, None);
        assert_eq!(written.line(), None);
        written.output(&OutputFormat::Csv, Some(Path::new("a b/x.csv")));
        assert_eq!(
            written.line().unwrap(),
            "clefeval: wrote the CSV to a b/x.csv"
        );
        written.folder(1, "overlay image", Path::new("../ovl"), "");
        written.file("the HTML page", Path::new("p.html"));
        assert_eq!(
            written.line().unwrap(),
            "clefeval: wrote the CSV to a b/x.csv, 1 overlay image into ../ovl and the HTML page to p.html"
        );
    }
}
