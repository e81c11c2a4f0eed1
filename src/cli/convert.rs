//! `clefeval convert IN... --to FORMAT (-o FILE | --out-dir DIR)`: parses
//! the arguments, runs [`crate::flowchart::convert`] and writes its files.
//! Exit status 0 when every file was written, 2 when any input cannot be
//! read or converted (nothing is written then).

use super::{Fatal, Status, check_inputs, check_output_file, write_file};
use crate::flowchart::convert::{Target, convert};
use crate::flowchart::formats::{self, Format};
use clap::Args;
use std::path::PathBuf;

#[derive(Debug, Clone, Args)]
pub struct ConvertArgs {
    /// Flowchart files or folders of them, in any format clefeval reads.
    #[arg(required = true, value_name = "IN")]
    pub inputs: Vec<PathBuf>,
    /// The format to write: clef, mermaid, dot, graphml or drawio.
    #[arg(long, value_name = "FORMAT", value_parser = format_key)]
    pub to: &'static Format,
    /// Write the one input file converted to this file (`-`: standard output).
    #[arg(
        short,
        long,
        value_name = "FILE",
        conflicts_with = "out_dir",
        required_unless_present = "out_dir"
    )]
    pub output: Option<PathBuf>,
    /// Write every input file converted into this folder (made if missing), as STEM.EXTENSION.
    #[arg(long, value_name = "DIR")]
    pub out_dir: Option<PathBuf>,
    /// No warnings and no closing line on stderr.
    #[arg(short, long)]
    pub quiet: bool,
}

fn format_key(key: &str) -> Result<&'static Format, String> {
    formats::by_key(key)
}

/// The top-level entry point for `clefeval convert`.
pub fn run(args: &ConvertArgs) -> Result<Status, Fatal> {
    check_inputs("", &args.inputs)?;
    let target = match (&args.output, &args.out_dir) {
        (Some(file), _) => {
            if file.as_os_str() != "-" {
                check_output_file(Some(file))?;
            }
            Target::File(file.clone())
        }
        (None, Some(dir)) => {
            if dir.exists() && !dir.is_dir() {
                return Err(Fatal(format!(
                    "cannot write into {}: it is a file, not a folder",
                    dir.display()
                )));
            }
            Target::Folder(dir.clone())
        }
        (None, None) => return Err(Fatal("give -o FILE or --out-dir DIR".into())),
    };
    let conversion = convert(&args.inputs, args.to, &target).map_err(|errors| {
        let lines: Vec<String> = errors.iter().map(ToString::to_string).collect();
        Fatal(format!("nothing converted:\n{}", lines.join("\n")))
    })?;
    if !args.quiet {
        for warning in &conversion.warnings {
            eprintln!("{warning}");
        }
        for skipped in &conversion.skipped {
            eprintln!("{skipped}");
        }
    }
    if let Target::Folder(dir) = &target {
        std::fs::create_dir_all(dir)
            .map_err(|e| Fatal(format!("cannot make folder {}: {e}", dir.display())))?;
    }
    for file in &conversion.files {
        if file.target.as_os_str() == "-" {
            print!("{}", file.text);
        } else {
            write_file(&file.target, &file.text)?;
        }
    }
    if !args.quiet {
        let n = conversion.files.len();
        match &target {
            Target::File(path) if path.as_os_str() == "-" => {}
            Target::File(path) => eprintln!("clefeval: wrote {}", path.display()),
            Target::Folder(dir) => eprintln!(
                "clefeval: wrote {n} {} file{} into {}",
                args.to.name,
                if n == 1 { "" } else { "s" },
                dir.display()
            ),
        }
    }
    Ok(0)
}
