//! The maximum search's mappings and bounds on a folder of pairs, under a
//! work budget: how far the first mapping, the mapping at the root (after
//! the relaxation and the neighbourhood search) and the final mapping are
//! from the bound and, where known, from the optimum.
//!
//! `cargo bench --bench mcs_primal -- DIR LEVEL BUDGET [KNOWN...]` scores
//! every pair of `DIR/{gold,run}` at `LEVEL` (basic, intermediate or
//! complete) with a budget of `BUDGET` units per search, on the pool's
//! threads (the results do not depend on them), and prints one JSON line
//! per pair, in pair order: `pair`, `first`, `root` (the best size before
//! the walk), `root_bound` (the bound the walk starts from), `steps`
//! (relaxation steps), `mcs`, `upper`, `exact`, `nodes`, `probes` (search
//! nodes whose restricted relaxation was solved), `pruned` (of those, the
//! ones it pruned), `seconds` (of this pair's
//! scoring, files already read), `optimum` when known and, at the complete
//! level, `label_cost` (the least found), `label_bound` (the label
//! relaxation's bound on it at the root, where it ran), `mappings`
//! (counted) and `truncated` (the enumeration was cut). Each `KNOWN` file
//! holds such lines (this command's output, or any JSON lines with
//! `pair`, `level` when not `LEVEL` skips the line, `mcs` and `exact`):
//! the exact ones give the optimum of their pair. A closing line sums
//! up: pairs, exact, the median and largest gap between `mcs` and
//! `upper`, and, over the cut pairs whose optimum is known, how many end
//! within 1 % of it.

use clefeval::flowchart::mcs::{Level, Settings, maximum_common_subgraph};
use clefeval::flowchart::{ParseOptions, read_file};
use rayon::prelude::*;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

const USAGE: &str = "usage: cargo bench --bench mcs_primal -- DIR LEVEL BUDGET [KNOWN...]";

/// The optimum of each pair at `level` in the `known` files.
fn known_optima(files: &[String], level: &str) -> Result<HashMap<String, u64>, String> {
    let mut optima = HashMap::new();
    for file in files {
        let text = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
        for (number, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let value: Value =
                serde_json::from_str(line).map_err(|e| format!("{file}:{}: {e}", number + 1))?;
            if value.get("level").and_then(Value::as_str).unwrap_or(level) != level
                || value.get("exact") != Some(&Value::Bool(true))
            {
                continue;
            }
            if let (Some(pair), Some(mcs)) = (
                value.get("pair").and_then(Value::as_str),
                value.get("mcs").and_then(Value::as_u64),
            ) {
                optima.insert(pair.to_string(), mcs);
            }
        }
    }
    Ok(optima)
}

fn median(mut values: Vec<u64>) -> f64 {
    values.sort_unstable();
    match values.len() {
        0 => 0.0,
        n if n % 2 == 1 => values[n / 2] as f64,
        n => (values[n / 2 - 1] + values[n / 2]) as f64 / 2.0,
    }
}

fn run(args: &[String]) -> Result<(), String> {
    let [dir, level, budget, known @ ..] = args else {
        return Err("expected DIR LEVEL BUDGET".into());
    };
    let level_value = match level.as_str() {
        "basic" => Level::Basic,
        "intermediate" => Level::Intermediate,
        "complete" => Level::Complete,
        _ => {
            return Err(format!(
                "LEVEL must be basic, intermediate or complete, not {level:?}"
            ));
        }
    };
    let budget: u64 = budget
        .parse()
        .map_err(|_| format!("BUDGET must be a number of units, not {budget:?}"))?;
    let optima = known_optima(known, level)?;
    let dir = PathBuf::from(dir);
    let mut golds: Vec<PathBuf> = std::fs::read_dir(dir.join("gold"))
        .map_err(|e| format!("{}: {e}", dir.join("gold").display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    golds.sort();
    let settings = Settings {
        budget: Some(budget),
        ..Settings::default()
    };
    let options = ParseOptions::default();
    let lines: Vec<Value> = golds
        .par_iter()
        .filter_map(|gold_path| {
            let file = gold_path.file_name()?;
            let pair = Path::new(file).with_extension("").display().to_string();
            let run_path = dir.join("run").join(file);
            let (gold, run) = (
                read_file(gold_path, &options),
                read_file(&run_path, &options),
            );
            if gold.is_rejected() || run.is_rejected() {
                eprintln!("{pair}: cannot be read");
                return None;
            }
            let t0 = Instant::now();
            let found =
                maximum_common_subgraph(&gold.flowchart, &run.flowchart, level_value, &settings);
            let mut line = json!({
                "pair": pair,
                "level": level,
                "first": found.stats.first,
                "root": found.stats.incumbent,
                "root_bound": found.stats.root_bound,
                "steps": found.stats.relaxation_steps,
                "mcs": found.size,
                "upper": found.upper,
                "exact": found.exact,
                "nodes": found.stats.nodes,
                "probes": found.stats.probes,
                "pruned": found.stats.pruned,
                "seconds": t0.elapsed().as_secs_f64(),
            });
            if let Some(labels) = &found.labels {
                line["label_cost"] = json!(labels.best);
                line["mappings"] = json!(labels.mappings);
                line["truncated"] = json!(labels.truncated);
                if let Some(bound) = found.stats.label_bound {
                    line["label_bound"] = json!(bound);
                }
            }
            if let Some(&optimum) = optima.get(&pair) {
                line["optimum"] = json!(optimum);
            }
            Some(line)
        })
        .collect();
    let (mut exact, mut gaps, mut cut_known, mut within) = (0, Vec::new(), 0, 0);
    for line in &lines {
        println!("{line}");
        let (mcs, upper) = (
            line["mcs"].as_u64().unwrap_or(0),
            line["upper"].as_u64().unwrap_or(0),
        );
        if line["exact"] == Value::Bool(true) {
            exact += 1;
            continue;
        }
        gaps.push(upper - mcs);
        if let Some(optimum) = line.get("optimum").and_then(Value::as_u64) {
            cut_known += 1;
            if mcs as f64 >= 0.99 * optimum as f64 {
                within += 1;
            }
        }
    }
    let summary = json!({
        "pairs": lines.len(),
        "exact": exact,
        "median_gap_of_cut": median(gaps.clone()),
        "largest_gap": gaps.iter().max(),
        "cut_with_known_optimum": cut_known,
        "within_1_percent": within,
    });
    println!("{summary}");
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("{message}\n{USAGE}");
            ExitCode::from(2)
        }
    }
}
