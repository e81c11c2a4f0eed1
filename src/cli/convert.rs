//! `clefeval convert IN... --to FORMAT (-o FILE | --out-dir DIR)`: parses
//! the arguments, runs [`crate::flowchart::convert`] (flowchart files) or
//! [`crate::segmentation::convert`] (box files to COCO and back) and
//! writes its files. Exit status 0 when every file was written, 2 when any
//! input cannot be read or converted (nothing is written then).

use super::{Fatal, Status, check_inputs, check_output_file, write_file};
use crate::flowchart::convert::{Target, convert};
use crate::flowchart::formats::{self, Format};
use crate::segmentation::convert::{self as boxes, Images};
use clap::Args;
use std::path::PathBuf;

#[derive(Debug, Clone, Args)]
pub struct ConvertArgs {
    /// Flowchart files or folders of them, in any format clefeval reads;
    /// or box files (CSV, OSRA SDF, COCO JSON) for --to coco and --to csv.
    #[arg(required = true, value_name = "IN")]
    pub inputs: Vec<PathBuf>,
    /// The format to write: clef, mermaid, dot, graphml or drawio
    /// (flowcharts); coco or csv (boxes).
    #[arg(long, value_name = "FORMAT", value_parser = target_key)]
    pub to: To,
    /// --to coco: the page images (<doc>.tif), every page an image; the
    /// boxes become a COCO ground truth.
    #[arg(long, value_name = "DIR", conflicts_with = "gold")]
    pub pages: Option<PathBuf>,
    /// --to coco: the COCO ground truth whose image ids the boxes take (a
    /// detections list, score 1); --to csv: the ground truth whose images
    /// name the pages of a detections list.
    #[arg(long, value_name = "PATH")]
    pub gold: Option<PathBuf>,
    /// --to csv: leave out the COCO detections scored below this.
    #[arg(long, value_name = "X", allow_negative_numbers = true)]
    pub min_score: Option<f64>,
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

/// What `--to` names: a flowchart format, or a box format.
#[derive(Clone, Copy, Debug)]
pub enum To {
    Flowchart(&'static Format),
    Coco,
    BoxCsv,
}

fn target_key(key: &str) -> Result<To, String> {
    match key {
        "coco" => Ok(To::Coco),
        "csv" => Ok(To::BoxCsv),
        _ => formats::by_key(key)
            .map(To::Flowchart)
            .map_err(|e| format!("{e}; or coco, csv (box files)")),
    }
}

/// The top-level entry point for `clefeval convert`.
pub fn run(args: &ConvertArgs) -> Result<Status, Fatal> {
    check_inputs("", &args.inputs)?;
    let to = match args.to {
        To::Flowchart(format) => format,
        To::Coco | To::BoxCsv => return run_boxes(args),
    };
    for (given, flag) in [
        (args.pages.is_some(), "--pages"),
        (args.gold.is_some(), "--gold"),
        (args.min_score.is_some(), "--min-score"),
    ] {
        if given {
            return Err(Fatal(format!(
                "{flag} is for box files (--to coco, --to csv), not flowcharts"
            )));
        }
    }
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
    let conversion = convert(&args.inputs, to, &target).map_err(|errors| {
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
                to.name,
                if n == 1 { "" } else { "s" },
                dir.display()
            ),
        }
    }
    Ok(0)
}

/// `clefeval convert --to coco|csv`: box files into one COCO or box CSV
/// file (`-o FILE`, `-` standard output).
fn run_boxes(args: &ConvertArgs) -> Result<Status, Fatal> {
    let Some(output) = &args.output else {
        return Err(Fatal(
            "box files are converted into one file: give -o FILE, not --out-dir".into(),
        ));
    };
    if output.as_os_str() != "-" {
        check_output_file(Some(output))?;
    }
    let converted = match args.to {
        To::Coco => {
            if args.min_score.is_some() {
                return Err(Fatal("--min-score is for --to csv".into()));
            }
            let images = match (&args.pages, &args.gold) {
                (Some(dir), None) => {
                    check_inputs("--pages", std::slice::from_ref(dir))?;
                    Images::Pages(dir.clone())
                }
                (None, Some(gold)) => {
                    check_inputs("--gold", std::slice::from_ref(gold))?;
                    Images::Gold(gold.clone())
                }
                _ => {
                    return Err(Fatal(
                        "--to coco needs --pages DIR (a ground truth, every page an image) or \
                         --gold GT.json (a detections list on its images)"
                            .into(),
                    ));
                }
            };
            boxes::to_coco(&args.inputs, &images)
        }
        _ => {
            if args.pages.is_some() {
                return Err(Fatal("--pages is for --to coco".into()));
            }
            if let Some(gold) = &args.gold {
                check_inputs("--gold", std::slice::from_ref(gold))?;
            }
            if let Some(min) = args.min_score.filter(|m| !m.is_finite()) {
                return Err(Fatal(format!("--min-score must be a number, not {min}")));
            }
            boxes::to_csv(&args.inputs, args.gold.as_deref(), args.min_score)
        }
    };
    let converted = converted.map_err(|errors| {
        let lines: Vec<String> = errors.iter().map(ToString::to_string).collect();
        Fatal(format!("nothing converted:\n{}", lines.join("\n")))
    })?;
    if !args.quiet {
        for warning in &converted.warnings {
            eprintln!("{warning}");
        }
    }
    if output.as_os_str() == "-" {
        print!("{}", converted.text);
    } else {
        write_file(output, &converted.text)?;
        if !args.quiet {
            eprintln!("clefeval: wrote {}", output.display());
        }
    }
    Ok(0)
}
