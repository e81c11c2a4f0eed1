//! Result files checked on reading: `clefeval merge`, `report` and
//! `compare` (and Python's `merge`) read files that other machines,
//! scripts and people wrote, so a file that contradicts itself is refused
//! before any of them uses it, naming the file, the JSON path and what
//! contradicts what. Each task's [`Check`] (registered in `crate::tasks`)
//! reads the file as its report value and holds every value to its range
//! and every figure it can make again to the bit (the writer is
//! deterministic, so a genuine file is always made again exactly); the
//! helpers here word the errors. This module knows no task.

use super::merge::Part;
use serde::Serialize;
use serde_json::Value;
use std::collections::HashMap;
use std::fmt::Display;

/// A task's check of one result file (or part): the error names the file
/// and the JSON path.
pub type Check = fn(&Part) -> Result<(), String>;

/// Refuses a file that a clefeval of another version wrote: what a
/// version writes is what this build checks, so a file of a version it
/// does not know is named as such instead of being read as its own.
pub fn version(part: &Part) -> Result<(), String> {
    match part.doc.get("version") {
        Some(Value::String(v)) if v == super::VERSION => Ok(()),
        Some(Value::String(v)) => Err(format!(
            "{}: $.version: written by clefeval {v}; this clefeval ({}) reads the result files of its own version only",
            part.file,
            super::VERSION
        )),
        Some(other) => Err(format!(
            "{}: $.version: {other} is no version of clefeval",
            part.file
        )),
        None => Err(format!(
            "{}: no \"version\" field: not a result file",
            part.file
        )),
    }
}

/// The wording of a check's errors in one file: `file: path: what`.
#[derive(Clone, Copy, Debug)]
pub struct Checker<'a> {
    file: &'a str,
}

impl<'a> Checker<'a> {
    pub fn new(file: &'a str) -> Self {
        Checker { file }
    }

    /// The error of the value at `path`.
    pub fn fail(&self, path: &str, what: impl Display) -> String {
        format!("{}: {path}: {what}", self.file)
    }

    /// Fails at `path` unless `holds`.
    pub fn require(&self, holds: bool, path: &str, what: impl Display) -> Result<(), String> {
        if holds {
            Ok(())
        } else {
            Err(self.fail(path, what))
        }
    }

    /// A ratio (distance, precision, recall, F1, …): a number in [0, 1].
    pub fn ratio(&self, path: &str, x: f64) -> Result<(), String> {
        self.within(path, x, (0.0, 1.0))
    }

    /// A number within `[low, high]` (NaN is in no range).
    pub fn within(&self, path: &str, x: f64, (low, high): (f64, f64)) -> Result<(), String> {
        self.require(
            (low..=high).contains(&x),
            path,
            format!("{x} is out of its range [{low}, {high}]"),
        )
    }

    /// A count that cannot exceed `most`, what `whose` names.
    pub fn at_most(&self, path: &str, n: usize, most: usize, whose: &str) -> Result<(), String> {
        self.require(
            n <= most,
            path,
            format!("{n} is more than {whose} ({most})"),
        )
    }

    /// `stored` at `path` is what the file's own values make again
    /// (`made`, from what `from` names): compared as the JSON the writer
    /// writes, to the bit; the error names the first value that differs.
    pub fn made_again<T: Serialize>(
        &self,
        path: &str,
        stored: &T,
        made: &T,
        from: &str,
    ) -> Result<(), String> {
        let (stored, made) = (as_json(stored), as_json(made));
        match first_difference(&stored, &made, path.to_owned()) {
            None => Ok(()),
            Some((at, a, b)) => Err(self.fail(
                &at,
                format!("the file says {}, {from} make {}", show(a), show(b)),
            )),
        }
    }

    /// Every name of the list at `path` given once: each item's name is at
    /// `key` within it (`.topic`, `[0]`).
    pub fn once<'n>(
        &self,
        path: &str,
        key: &str,
        names: impl IntoIterator<Item = &'n str>,
    ) -> Result<(), String> {
        let mut seen: HashMap<&str, usize> = HashMap::new();
        for (i, name) in names.into_iter().enumerate() {
            if let Some(first) = seen.insert(name, i) {
                return Err(self.fail(
                    &format!("{path}[{i}]{key}"),
                    format!("{name:?} is given twice (first at {path}[{first}])"),
                ));
            }
        }
        Ok(())
    }
}

fn as_json<T: Serialize>(value: &T) -> Value {
    serde_json::to_value(value).unwrap_or(Value::Null)
}

/// The path and the two values of the first place where `a` and `b`
/// differ (`path` the place of `a` itself).
fn first_difference<'v>(
    a: &'v Value,
    b: &'v Value,
    path: String,
) -> Option<(String, &'v Value, &'v Value)> {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for (key, v) in x {
                match y.get(key) {
                    Some(w) => {
                        if let Some(found) = first_difference(v, w, format!("{path}.{key}")) {
                            return Some(found);
                        }
                    }
                    None => return Some((format!("{path}.{key}"), v, &Value::Null)),
                }
            }
            (y.iter())
                .find(|(key, _)| !x.contains_key(*key))
                .map(|(key, w)| (format!("{path}.{key}"), &Value::Null, w))
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => x
            .iter()
            .zip(y)
            .enumerate()
            .find_map(|(i, (v, w))| first_difference(v, w, format!("{path}[{i}]"))),
        _ => (a != b).then_some((path, a, b)),
    }
}

/// A value in a message: scalars as written, containers by size.
fn show(v: &Value) -> String {
    match v {
        Value::Null => "nothing".to_owned(),
        Value::Array(items) => format!("a list of {}", items.len()),
        Value::Object(_) => "an object".to_owned(),
        other => other.to_string(),
    }
}

/// A task's result of `request` (the generic entry), for the checks'
/// tests: what the command writes, from the goldens.
#[cfg(test)]
pub fn evaluated(task: &str, request: Value) -> Value {
    let text = crate::tasks::evaluate(task, &request.to_string()).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// For the checks' tests: `check` accepts `genuine` and refuses each copy
/// of it with one value replaced (at its JSON pointer), the error naming
/// the file (`t.json`) and holding the words expected.
#[cfg(test)]
pub fn refuses_each(check: Check, genuine: &Value, cases: &[(&str, Value, &str)]) {
    let read = |doc: &Value| {
        check(&Part {
            file: "t.json",
            doc,
        })
    };
    read(genuine).unwrap();
    for (pointer, value, expected) in cases {
        let mut doc = genuine.clone();
        let slot = doc.pointer_mut(pointer);
        *slot.unwrap_or_else(|| panic!("no {pointer} in the result")) = value.clone();
        let err = read(&doc).unwrap_err();
        assert!(err.starts_with("t.json: $"), "{pointer}: {err}");
        assert!(err.contains(expected), "{pointer}: {err}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_first_difference_is_named_by_its_path_and_both_values() {
        let c = Checker::new("a.json");
        let stored = json!({"mean": {"basic": 0.5, "complete": 0.25}, "topics": 3});
        let made = json!({"mean": {"basic": 0.5, "complete": 0.125}, "topics": 3});
        let err = c
            .made_again("$.runs[1].summary", &stored, &made, "its topics")
            .unwrap_err();
        assert_eq!(
            err,
            "a.json: $.runs[1].summary.mean.complete: the file says 0.25, its topics make 0.125"
        );
        assert!(c.made_again("$", &stored, &stored.clone(), "x").is_ok());
        let shorter = json!({"mean": {"basic": 0.5}, "topics": 3});
        let err = c.made_again("$", &stored, &shorter, "x").unwrap_err();
        assert!(err.contains("$.mean.complete: the file says 0.25, x make nothing"));
        let err = c
            .made_again("$", &json!([1, 2]), &json!([1, 2, 3]), "x")
            .unwrap_err();
        assert!(err.contains("$: the file says a list of 2, x make a list of 3"));
        // One bit off in the last place is a difference.
        let x = 0.1 + 0.2;
        let err = c.made_again("$.m", &x, &0.3, "x").unwrap_err();
        assert!(err.contains("0.30000000000000004"), "{err}");
    }

    #[test]
    fn ranges_counts_and_names_given_twice() {
        let c = Checker::new("f");
        assert!(c.ratio("$.d", 0.0).is_ok() && c.ratio("$.d", 1.0).is_ok());
        assert_eq!(
            c.ratio("$.d", -5.0).unwrap_err(),
            "f: $.d: -5 is out of its range [0, 1]"
        );
        assert!(c.ratio("$.d", f64::NAN).is_err());
        assert!(c.ratio("$.d", 1.0000000000000002).is_err());
        assert_eq!(
            c.at_most("$.mcs", 12, 11, "the gold's size").unwrap_err(),
            "f: $.mcs: 12 is more than the gold's size (11)"
        );
        assert!(c.at_most("$.mcs", 11, 11, "x").is_ok());
        assert_eq!(
            c.once("$.runs[0].topics", ".topic", ["a", "b", "a"])
                .unwrap_err(),
            "f: $.runs[0].topics[2].topic: \"a\" is given twice (first at $.runs[0].topics[0])"
        );
        assert!(c.once("$.t", ".topic", ["a", "b"]).is_ok());
    }

    #[test]
    fn a_file_of_another_version_is_refused_by_name() {
        let doc = json!({"task": "flowchart", "version": "0.0.9"});
        let part = Part {
            file: "old.json",
            doc: &doc,
        };
        let err = version(&part).unwrap_err();
        assert!(
            err.starts_with("old.json: $.version: written by clefeval 0.0.9; this clefeval ("),
            "{err}"
        );
        let doc = json!({"version": super::super::VERSION});
        assert!(
            version(&Part {
                file: "x",
                doc: &doc
            })
            .is_ok()
        );
        let doc = json!({"version": 2});
        assert!(
            version(&Part {
                file: "x",
                doc: &doc
            })
            .unwrap_err()
            .contains("2 is no version")
        );
    }
}
