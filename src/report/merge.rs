//! `clefeval merge`: the parts of one evaluation (`--shard K/N`) joined
//! into the result one whole run would have written.
//!
//! What every task shares is checked here on the JSON itself: every file
//! is a part (it has `shard`), all of one task, written by one version,
//! scored with the same settings (those that name files aside: paths
//! differ from machine to machine) and on the same data (every input
//! file's name, size and digest; the paths aside), with the same runs, and
//! every part 1..N present exactly once ([`one_evaluation`]). The task's
//! own [`Merge`] (found by the `task` field, `crate::tasks::merge`) then
//! joins the topics and recomputes every summary with the task's code, and
//! [`written_back`] checks the whole. This module knows no task.

use super::compare::{At, CompareRule, same_settings};
use crate::inputs::{InputFiles, Shard};
use serde::Deserialize;
use serde_json::Value;
use std::collections::BTreeMap;

/// A task's join of the parts of one evaluation: the JSON of the whole, or
/// why a part cannot be read.
pub type Merge = fn(&[Part]) -> Result<String, String>;

/// One result file given to `merge`: its name as given and its document.
#[derive(Clone, Copy, Debug)]
pub struct Part<'a> {
    pub file: &'a str,
    pub doc: &'a Value,
}

impl Part<'_> {
    /// The document as the task's report value; the error names the file.
    /// (A report holds fixed words as `&'static str`, so it is read from
    /// a copy of the document, which can give them.)
    /// A field of the wrong type or a missing one is named by its JSON
    /// path (`serde_path_to_error` keeps the path serde walked).
    pub fn read<T: Deserialize<'static>>(&self) -> Result<T, String> {
        serde_path_to_error::deserialize(self.doc.clone()).map_err(|e| {
            let path = e.path().to_string();
            let path = if path == "." {
                "$".to_owned()
            } else {
                format!("$.{path}")
            };
            format!(
                "{}: {path}: not a result this clefeval reads: {}",
                self.file,
                e.inner()
            )
        })
    }

    /// A top-level field that must be present.
    fn field(&self, key: &str) -> Result<&Value, String> {
        (self.doc.get(key))
            .ok_or_else(|| format!("{}: no {key:?} field: not a result file", self.file))
    }

    /// The `shard` field.
    fn shard(&self) -> Result<Shard, String> {
        let shard = self.doc.get("shard").ok_or_else(|| {
            format!(
                "{}: no \"shard\" field: a whole (or merged) evaluation, not one of its parts",
                self.file
            )
        })?;
        let shard =
            Shard::deserialize(shard).map_err(|e| format!("{}: $.shard: {e}", self.file))?;
        if shard.index == 0 || shard.index > shard.count {
            return Err(format!(
                "{}: $.shard: part {} of {} is no part",
                self.file, shard.index, shard.count
            ));
        }
        Ok(shard)
    }

    /// The input files; all but their paths must be equal in every part.
    fn inputs(&self) -> Result<Vec<InputFiles>, String> {
        let inputs = self
            .doc
            .get("inputs")
            .cloned()
            .unwrap_or(Value::Array(Vec::new()));
        serde_json::from_value(inputs).map_err(|e| format!("{}: $.inputs: {e}", self.file))
    }

    /// The names of the runs, scored and rejected, in order.
    fn runs(&self) -> Vec<String> {
        let names = |key: &str| {
            (self
                .doc
                .get(key)
                .and_then(Value::as_array)
                .into_iter()
                .flatten())
            .filter_map(|r| r.get("run").and_then(Value::as_str).map(str::to_owned))
            .collect::<Vec<_>>()
        };
        let mut runs = names("runs");
        runs.extend(names("rejected_runs"));
        runs
    }
}

/// Every part read as the task's report value: the first, and the others.
pub fn read_parts<T: Deserialize<'static>>(parts: &[Part]) -> Result<(T, Vec<T>), String> {
    let mut reports = parts.iter().map(Part::read::<T>);
    let first = reports.next().ok_or("no result file to merge")??;
    Ok((first, reports.collect::<Result<_, _>>()?))
}

/// `whole`, the JSON the task's [`Merge`] made of `in_order` (the parts
/// as [`one_evaluation`] gives them), if its settings are written back as
/// the parts have them: the settings are read into the task's values and
/// written again, and a value they cannot hold as written (a time limit
/// finer than a nanosecond) would be written otherwise, so the merge stops.
pub fn written_back(in_order: &[Part], whole: String) -> Result<String, String> {
    let written: Value = serde_json::from_str(&whole).map_err(|e| e.to_string())?;
    match in_order.first() {
        Some(first) if written.get("settings") != first.doc.get("settings") => Err(format!(
            "{}: its settings are not written back as they were read: {} became {}",
            first.file,
            first.doc.get("settings").unwrap_or(&Value::Null),
            written.get("settings").unwrap_or(&Value::Null)
        )),
        _ => Ok(whole),
    }
}

/// Checks that `parts` are the parts of one evaluation, each once, and
/// gives the rule of their task and the parts in order, part 1 first:
/// what the parts may spell differently (paths) is taken from it, whatever
/// the order the files were given in.
pub fn one_evaluation<'p, 't>(
    parts: &[Part<'p>],
    rules: &[&'t CompareRule],
) -> Result<(&'t CompareRule, Vec<Part<'p>>), String> {
    let Some(first) = parts.first() else {
        return Err("no result file to merge".into());
    };
    let task = first.field("task")?;
    let rule = (rules.iter().copied())
        .find(|r| Some(r.name) == task.as_str())
        .ok_or_else(|| format!("{}: $.task: unknown task {task}", first.file))?;
    let shard = first.shard()?;
    let (inputs, runs) = (first.inputs()?, first.runs());
    let not_one = |part: &Part, what: String| {
        format!(
            "{} and {} are not parts of one evaluation: {what}",
            first.file, part.file
        )
    };
    let mut given: BTreeMap<usize, Vec<&str>> = BTreeMap::new();
    for part in parts {
        let this = part.shard()?;
        for key in ["task", "version"] {
            let (a, b) = (first.field(key)?, part.field(key)?);
            if a != b {
                return Err(not_one(
                    part,
                    format!("{key} {a} in the first, {b} in the second"),
                ));
            }
        }
        if this.count != shard.count {
            return Err(not_one(
                part,
                format!("a part of {} and a part of {}", shard.count, this.count),
            ));
        }
        same_settings(
            rule,
            &At::root(first.file, first.doc),
            &At::root(part.file, part.doc),
        )
        .map_err(|e| not_one(part, e))?;
        if let Some(what) = other_data(&inputs, &part.inputs()?) {
            return Err(not_one(part, format!("they scored other data: {what}")));
        }
        let these = part.runs();
        if these != runs {
            return Err(not_one(
                part,
                format!(
                    "runs {} in the first, {} in the second",
                    runs.join(", "),
                    these.join(", ")
                ),
            ));
        }
        given.entry(this.index).or_default().push(part.file);
    }
    if let Some((index, files)) = given.iter().find(|(_, files)| files.len() > 1) {
        return Err(format!(
            "part {index} of {} is given {} times: {}",
            shard.count,
            files.len(),
            files.join(", ")
        ));
    }
    let missing: Vec<String> = (1..=shard.count)
        .filter(|k| !given.contains_key(k))
        .map(|k| k.to_string())
        .collect();
    if !missing.is_empty() {
        let given: Vec<String> = given.keys().map(ToString::to_string).collect();
        return Err(format!(
            "part{} {} of {} missing (given: {})",
            if missing.len() == 1 { "" } else { "s" },
            missing.join(", "),
            shard.count,
            given.join(", ")
        ));
    }
    let mut in_order = parts.to_vec();
    in_order.sort_by_key(|p| p.shard().map_or(0, |s| s.index));
    Ok((rule, in_order))
}

/// The first difference between two lists of input files, paths aside:
/// a file of one list the other lacks or has with other bytes.
fn other_data(a: &[InputFiles], b: &[InputFiles]) -> Option<String> {
    if a.len() != b.len() {
        return Some(format!(
            "{} inputs in the first, {} in the second",
            a.len(),
            b.len()
        ));
    }
    for (x, y) in a.iter().zip(b) {
        if x.role != y.role {
            return Some(format!(
                "a {} input in the first where the second has a {} input",
                x.role, y.role
            ));
        }
        let names = |i: &InputFiles| i.files.iter().map(|f| f.name.clone()).collect::<Vec<_>>();
        if names(x) != names(y) {
            return Some(format!(
                "{} {} holds {} in the first, {} {} holds {} in the second",
                x.role,
                x.path,
                names(x).join(", "),
                y.role,
                y.path,
                names(y).join(", ")
            ));
        }
        for (f, g) in x.files.iter().zip(&y.files) {
            if (f.bytes, &f.sha256) != (g.bytes, &g.sha256) {
                let show = |d: &crate::inputs::FileDigest| {
                    format!(
                        "{} bytes, sha256 {}",
                        d.bytes.map_or("?".to_string(), |b| b.to_string()),
                        d.sha256.as_deref().unwrap_or("none")
                    )
                };
                return Some(format!(
                    "{} file {}: {} in the first, {} in the second",
                    x.role,
                    f.name,
                    show(f),
                    show(g)
                ));
            }
        }
    }
    None
}
