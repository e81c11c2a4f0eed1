//! The regression gate behind `clefeval compare`: two result files of the
//! same task (the JSON of docs/json.md), compared item by item.
//!
//! Works on the JSON itself; `crate::tasks::compare` has checked both
//! files first (their version and their task's check,
//! [`crate::report::check`]), so the type checks here are a second line
//! that only this module's own tests reach. Which figures are
//! compared is the task's rule ([`CompareRule`]), found by the file's
//! `task` field among the rules the caller passes (`crate::tasks`); this
//! module knows no task. Runs pair by name; two files of one run each pair
//! whatever their names.
//!
//! The gate is strict, so that a CI run cannot pass by accident:
//! - every run and item of the baseline (topic, level, tolerance row,
//!   document, structure) must be in the current file; one that is not is
//!   a regression, one only the current file has is a note;
//! - a run the baseline scored and the current file rejected (listed under
//!   `rejected_runs`) is a regression that gives the current file's reason,
//!   told apart from a run the current file lacks; a run rejected in both
//!   files is no change, and one rejected in the baseline and scored now is
//!   an improvement;
//! - a numeric change larger than the tolerance is an improvement or a
//!   regression;
//! - a field of the wrong JSON type, a required field that is absent, an
//!   unknown task, two tasks, or two different `settings` make the
//!   comparison fail with a message naming the file and the JSON path
//!   (`current.json: $.runs[1].topics[3].levels.basic.distance: …`). A
//!   setting one file lacks counts as its default.
//!
//! What says how a file was written and not what was scored is not
//! compared: `version` (the check holds it to this build's), the
//! `diagnostics` and `diagnostic_list` of runs and items.

use serde::Serialize;
use serde_json::{Map, Value};
use std::collections::{BTreeMap, HashMap, HashSet};

/// Which way a change went.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    Regression,
    Improvement,
    /// Changed within the tolerance, or changed without an order (a new item).
    Note,
}

/// One compared figure that changed.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Change {
    pub run: String,
    /// Topic, document or structure; `summary` for run-wide figures, `all`
    /// for a whole run.
    pub item: String,
    /// The figure: `basic`, `f1@t=10`, `outcome`, ...; for something on
    /// one side only, what it is: `item`, `run`, a level, `t=10`.
    pub metric: String,
    pub baseline: String,
    pub current: String,
    /// current − baseline for numbers.
    pub delta: Option<f64>,
    pub verdict: Verdict,
}

/// The whole comparison.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Comparison {
    pub task: String,
    /// The clefeval that compared ([`super::VERSION`]).
    pub version: &'static str,
    pub tolerance: f64,
    pub compared: usize,
    pub regressions: usize,
    pub improvements: usize,
    pub changes: Vec<Change>,
}

/// Why two files cannot be compared: names the file and the JSON path.
pub type Invalid = String;

/// A task's comparison rule: compares one run of the baseline with the same
/// run of the current file (`run` is the name shown), through the
/// [`Comparer`]'s methods; errors on a malformed field.
pub type CompareRun = fn(&mut Comparer, &str, &At, &At) -> Result<(), Invalid>;

/// What `compare` (and the checks of `merge`) know of one task.
pub struct CompareRule {
    /// The `task` field of the task's result files.
    pub name: &'static str,
    pub compare_run: CompareRun,
    /// The `settings` object the task writes when every option has its
    /// default: a setting a file lacks is read from it.
    pub default_settings: fn() -> Value,
    /// Settings that say where files were, not how they were scored (paths
    /// differ from machine to machine): not compared.
    pub locations: &'static [&'static str],
}

/// A value of a result file and where it is: the file as named on the
/// command line and the whole document, for messages.
///
/// Holds no path: walking 100 000 structures builds none. A message finds
/// the value's JSON path (`$.runs[0].topics[2]`) by looking for it in the
/// document, which costs a walk of the document once, on the error.
#[derive(Clone, Copy, Debug)]
pub struct At<'a> {
    pub value: &'a Value,
    file: &'a str,
    root: &'a Value,
}

impl<'a> At<'a> {
    /// The whole document of `file`.
    pub fn root(file: &'a str, value: &'a Value) -> Self {
        At {
            value,
            file,
            root: value,
        }
    }

    /// The file the value is in, as named on the command line.
    pub fn file(&self) -> &'a str {
        self.file
    }

    /// The whole document this value is in (for fields a run's figures
    /// are named by, such as a task's top-level column names).
    pub fn document(&self) -> Self {
        self.at(self.root)
    }

    fn at(&self, value: &'a Value) -> Self {
        At { value, ..*self }
    }

    /// The JSON path of this value in its document.
    fn path(&self) -> String {
        let mut path = "$".to_owned();
        path_to(self.root, self.value, &mut path);
        path
    }

    /// An error at this value: `file: path: message`.
    pub fn invalid(&self, message: impl std::fmt::Display) -> Invalid {
        format!("{}: {}: {message}", self.file, self.path())
    }

    fn expected(&self, what: &str) -> Invalid {
        self.invalid(format!("expected {what}, found {}", describe(self.value)))
    }

    fn object(&self) -> Result<&'a Map<String, Value>, Invalid> {
        self.value
            .as_object()
            .ok_or_else(|| self.expected("an object"))
    }

    /// The field `key` when present (this must be an object).
    pub fn get(&self, key: &str) -> Result<Option<At<'a>>, Invalid> {
        Ok(self.object()?.get(key).map(|value| self.at(value)))
    }

    /// The field `key`, which must be present.
    pub fn field(&self, key: &str) -> Result<At<'a>, Invalid> {
        self.get(key)?.ok_or_else(|| {
            format!(
                "{}: {}.{key}: missing (a required field)",
                self.file,
                self.path()
            )
        })
    }

    /// This value as a finite number.
    pub fn number(&self) -> Result<f64, Invalid> {
        self.value
            .as_f64()
            .filter(|x| x.is_finite())
            .ok_or_else(|| self.expected("a number"))
    }

    /// This value as a string.
    pub fn string(&self) -> Result<&'a str, Invalid> {
        self.value.as_str().ok_or_else(|| self.expected("a string"))
    }

    /// The number `key`, `None` when absent.
    pub fn opt_number(&self, key: &str) -> Result<Option<f64>, Invalid> {
        self.get(key)?.map(|v| v.number()).transpose()
    }

    /// The elements of the array `key`, which must be present.
    pub fn array(&self, key: &str) -> Result<Vec<At<'a>>, Invalid> {
        let at = self.field(key)?;
        let items = at.value.as_array().ok_or_else(|| at.expected("an array"))?;
        Ok(items.iter().map(|value| self.at(value)).collect())
    }

    /// The array `key` as (name, element) pairs, each element named by its
    /// string field `name_key`.
    pub fn named(&self, key: &str, name_key: &str) -> Result<Vec<(String, At<'a>)>, Invalid> {
        self.array(key)?
            .into_iter()
            .map(|item| Ok((item.field(name_key)?.string()?.to_owned(), item)))
            .collect()
    }
}

/// Appends to `path` the steps from `from` down to `target` (the value at
/// that address); false when `target` is not inside `from`. serde_json
/// nests at most 128 levels, so the recursion is bounded.
fn path_to(from: &Value, target: &Value, path: &mut String) -> bool {
    if std::ptr::eq(from, target) {
        return true;
    }
    let len = path.len();
    let found = match from {
        Value::Object(map) => map.iter().any(|(key, v)| {
            path.truncate(len);
            path.push('.');
            path.push_str(key);
            path_to(v, target, path)
        }),
        Value::Array(items) => items.iter().enumerate().any(|(i, v)| {
            path.truncate(len);
            path.push_str(&format!("[{i}]"));
            path_to(v, target, path)
        }),
        _ => false,
    };
    if !found {
        path.truncate(len);
    }
    found
}

/// A JSON value in a message: scalars as written, containers by kind.
fn describe(v: &Value) -> String {
    match v {
        Value::Array(_) => "an array".to_owned(),
        Value::Object(_) => "an object".to_owned(),
        Value::String(s) if s.chars().count() > 40 => {
            let short: String = s.chars().take(40).collect();
            format!("{}…", Value::String(short))
        }
        other => other.to_string(),
    }
}

/// Compares two result documents by the rule among `rules` for their
/// `task` field. Errors when they are not result files of one known task
/// scored with the same settings, or when a field is malformed.
pub fn compare(
    baseline: &At,
    current: &At,
    tolerance: f64,
    rules: &[&CompareRule],
) -> Result<Comparison, Invalid> {
    let rule = task_of(baseline, rules)?;
    let current_rule = task_of(current, rules)?;
    if rule.name != current_rule.name {
        return Err(format!(
            "{} is a {} result and {} a {} result",
            baseline.file, rule.name, current.file, current_rule.name
        ));
    }
    same_settings(rule, baseline, current)?;
    for doc in [baseline, current] {
        if let Some(version) = doc.get("version")? {
            version.string()?;
        }
    }
    let mut cmp = Comparer {
        tolerance,
        compared: 0,
        changes: Vec::new(),
    };
    let base_runs = baseline.named("runs", "run")?;
    let cur_runs = current.named("runs", "run")?;
    let base_rejected = rejected_runs(baseline)?;
    let cur_rejected = rejected_runs(current)?;
    let one_each = match (base_runs.as_slice(), cur_runs.as_slice()) {
        ([(b_name, b)], [(c_name, c)])
            if !cur_rejected.contains_key(b_name) && !base_rejected.contains_key(c_name) =>
        {
            Some((b_name, b, c_name, c))
        }
        _ => None,
    };
    if let Some((b_name, b, c_name, c)) = one_each {
        let name = if b_name == c_name {
            b_name.clone()
        } else {
            format!("{b_name} -> {c_name}")
        };
        (rule.compare_run)(&mut cmp, &name, b, c)?;
    } else {
        walk(
            &mut cmp,
            &base_runs,
            &cur_runs,
            |s, name, b, c| (rule.compare_run)(s, name, b, c),
            |s, name, in_baseline| {
                let rejected = if in_baseline {
                    cur_rejected.get(name)
                } else {
                    base_rejected.get(name)
                };
                match rejected {
                    Some(reason) => s.rejected(name, reason, in_baseline),
                    None => s.presence(name, "all", "run", in_baseline),
                }
            },
        )?;
    }
    let scored = |runs: &[(String, At)], name: &str| runs.iter().any(|(n, _)| n == name);
    for (name, reason) in &base_rejected {
        if !scored(&cur_runs, name) {
            cmp.rejected_on_both_sides(name, Some(reason), cur_rejected.get(name));
        }
    }
    for (name, reason) in &cur_rejected {
        if !scored(&base_runs, name) && !base_rejected.contains_key(name) {
            cmp.rejected_on_both_sides(name, None, Some(reason));
        }
    }
    let count = |v| cmp.changes.iter().filter(|c| c.verdict == v).count();
    Ok(Comparison {
        regressions: count(Verdict::Regression),
        improvements: count(Verdict::Improvement),
        task: rule.name.to_owned(),
        version: super::VERSION,
        tolerance,
        compared: cmp.compared,
        changes: cmp.changes,
    })
}

/// The runs a document lists under `rejected_runs` (absent: none), by
/// name, each with its reason: the first of its `diagnostics`.
fn rejected_runs(doc: &At) -> Result<BTreeMap<String, String>, Invalid> {
    let mut runs = BTreeMap::new();
    if doc.get("rejected_runs")?.is_none() {
        return Ok(runs);
    }
    for (name, run) in doc.named("rejected_runs", "run")? {
        let reason = match run.array("diagnostics")?.first() {
            Some(first) => first.string()?.to_owned(),
            None => "no reason given".to_owned(),
        };
        runs.entry(name).or_insert(reason);
    }
    Ok(runs)
}

/// The rule of the document's task.
pub fn task_of<'t>(doc: &At, rules: &[&'t CompareRule]) -> Result<&'t CompareRule, Invalid> {
    let names: Vec<&str> = rules.iter().map(|t| t.name).collect();
    let names = match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => names.concat(),
    };
    let reads = format!("compare reads the --format json output of {names}");
    let Some(task) = doc.get("task")? else {
        return Err(doc.invalid(format!(
            "not a clefeval result file (no \"task\" field); {reads}"
        )));
    };
    let name = task.string()?;
    let has_runs = doc.get("runs")?.is_some();
    if let Some(&rule) = rules.iter().find(|t| t.name == name) {
        if !has_runs && doc.get("changes")?.is_some() {
            return Err(doc.invalid(format!(
                "the output of clefeval compare, not a scoring result; {reads}"
            )));
        }
        return Ok(rule);
    }
    Err(if !has_runs {
        task.invalid(format!(
            "{} is not a scoring task and the file has no runs: it is not a scoring result; {reads}",
            describe(task.value)
        ))
    } else {
        task.invalid(format!("unknown task {}; {reads}", describe(task.value)))
    })
}

/// Errors unless both files were scored with the same settings, a setting
/// absent from a file counting as the task's default.
pub(super) fn same_settings<'a>(
    rule: &CompareRule,
    baseline: &At<'a>,
    current: &At<'a>,
) -> Result<(), Invalid> {
    let defaults = (rule.default_settings)();
    let settings = |doc: &At<'a>| -> Result<Option<&'a Map<String, Value>>, Invalid> {
        doc.get("settings")?.map(|s| s.object()).transpose()
    };
    let (base, cur) = (settings(baseline)?, settings(current)?);
    let keys_of = |side: Option<&'a Map<String, Value>>| side.into_iter().flat_map(Map::keys);
    let mut keys: Vec<&String> = keys_of(base).chain(keys_of(cur)).collect();
    keys.sort();
    keys.dedup();
    // A setting as the file has it, or its default.
    let setting = |side: Option<&'a Map<String, Value>>, key: &str| {
        side.and_then(|m| m.get(key)).or(defaults.get(key))
    };
    let value = |side: Option<&Map<String, Value>>, key: &str| match (
        side.and_then(|m| m.get(key)),
        defaults.get(key),
    ) {
        (Some(v), _) => v.to_string(),
        (None, Some(d)) => format!("{d} (absent, the default)"),
        (None, None) => "absent".to_owned(),
    };
    let differences: Vec<String> = keys
        .into_iter()
        .filter(|key| !rule.locations.contains(&key.as_str()))
        .filter(|key| !same_value(setting(base, key), setting(cur, key)))
        .map(|key| {
            format!(
                "\n  $.settings.{key}: {} in {}, {} in {}",
                value(base, key),
                baseline.file,
                value(cur, key),
                current.file
            )
        })
        .collect();
    if differences.is_empty() {
        return Ok(());
    }
    Err(format!(
        "{} and {} were scored with different settings, their figures are not comparable:{}",
        baseline.file,
        current.file,
        differences.concat()
    ))
}

/// JSON equality with numbers compared by value (`3` equals `3.0`).
fn same_value(a: Option<&Value>, b: Option<&Value>) -> bool {
    match (a, b) {
        (Some(Value::Number(x)), Some(Value::Number(y))) => x.as_f64() == y.as_f64(),
        (Some(Value::Array(x)), Some(Value::Array(y))) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same_value(Some(x), Some(y)))
        }
        (Some(Value::Object(x)), Some(Value::Object(y))) => {
            x.len() == y.len() && x.iter().all(|(k, v)| same_value(Some(v), y.get(k)))
        }
        (a, b) => a == b,
    }
}

/// Walks named items of both sides: `each` on the items in both (the
/// current file's first of a name), `one_side` on the items in one
/// (`true`: the baseline's).
fn walk<'a, 'v>(
    cmp: &mut Comparer,
    base: &'a [(String, At<'v>)],
    cur: &'a [(String, At<'v>)],
    mut each: impl FnMut(&mut Comparer, &str, &'a At<'v>, &'a At<'v>) -> Result<(), Invalid>,
    mut one_side: impl FnMut(&mut Comparer, &str, bool),
) -> Result<(), Invalid> {
    // Maps, not linear searches: a result file may hold 100 000 structures.
    let mut cur_by_name: HashMap<&str, &'a At<'v>> = HashMap::with_capacity(cur.len());
    for (name, value) in cur {
        cur_by_name.entry(name.as_str()).or_insert(value);
    }
    let base_names: HashSet<&str> = base.iter().map(|(n, _)| n.as_str()).collect();
    for (name, b) in base {
        match cur_by_name.get(name.as_str()) {
            Some(c) => each(cmp, name, b, c)?,
            None => one_side(cmp, name, true),
        }
    }
    for (name, _) in cur {
        if !base_names.contains(name.as_str()) {
            one_side(cmp, name, false);
        }
    }
    Ok(())
}

fn fmt_num(x: f64) -> String {
    format!("{x:.4}")
}

/// The figures compared so far and the changes found; a task's
/// [`CompareRun`] feeds it.
pub struct Comparer {
    tolerance: f64,
    compared: usize,
    changes: Vec<Change>,
}

/// Whether a larger number is better for a figure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Better {
    Higher,
    Lower,
}

impl Comparer {
    /// Compares one number: a change beyond the tolerance the `better` way
    /// is an improvement, the other way a regression.
    pub fn number(
        &mut self,
        run: &str,
        item: &str,
        metric: &str,
        base: f64,
        cur: f64,
        better: Better,
    ) {
        self.compared += 1;
        let delta = cur - base;
        if delta == 0.0 || (delta.is_nan() && base.is_nan() && cur.is_nan()) {
            return;
        }
        let gain = match better {
            Better::Higher => delta,
            Better::Lower => -delta,
        };
        let verdict = if gain.is_nan() || gain < -self.tolerance {
            Verdict::Regression
        } else if gain > self.tolerance {
            Verdict::Improvement
        } else {
            Verdict::Note
        };
        self.changes.push(Change {
            run: run.to_owned(),
            item: item.to_owned(),
            metric: metric.to_owned(),
            baseline: fmt_num(base),
            current: fmt_num(cur),
            delta: Some(delta),
            verdict,
        });
    }

    /// Something (`metric` says what: `item`, `run`, a level) the baseline
    /// has and the current file lacks (a regression), or the other way
    /// round (a note).
    pub fn presence(&mut self, run: &str, item: &str, metric: &str, in_baseline: bool) {
        self.compared += 1;
        let (baseline, current, verdict) = if in_baseline {
            ("present", "absent", Verdict::Regression)
        } else {
            ("absent", "present", Verdict::Note)
        };
        self.changes.push(Change {
            run: run.to_owned(),
            item: item.to_owned(),
            metric: metric.to_owned(),
            baseline: baseline.to_owned(),
            current: current.to_owned(),
            delta: None,
            verdict,
        });
    }

    /// A run scored on one side and rejected on the other (`reason`, from
    /// the other file's `rejected_runs`): scored in the baseline
    /// (`in_baseline`) and rejected now is a regression, the other way an
    /// improvement.
    pub fn rejected(&mut self, run: &str, reason: &str, in_baseline: bool) {
        let (baseline, current, verdict) = if in_baseline {
            let current = format!("rejected in the current file: {reason}");
            ("scored".to_owned(), current, Verdict::Regression)
        } else {
            let baseline = format!("rejected in the baseline: {reason}");
            (baseline, "scored".to_owned(), Verdict::Improvement)
        };
        self.whole_run(run, baseline, current, verdict);
    }

    /// A run scored on neither side, rejected in the baseline (`base`, its
    /// reason) or the current file (`cur`): nothing lost when rejected in
    /// both; a note when absent from one.
    fn rejected_on_both_sides(&mut self, run: &str, base: Option<&String>, cur: Option<&String>) {
        let side = |reason: Option<&String>, file: &str| {
            reason.map_or("absent".to_owned(), |r| {
                format!("rejected in the {file}: {r}")
            })
        };
        if base.is_some() && cur.is_some() {
            self.compared += 1;
            return;
        }
        let (baseline, current) = (side(base, "baseline"), side(cur, "current file"));
        self.whole_run(run, baseline, current, Verdict::Note);
    }

    fn whole_run(&mut self, run: &str, baseline: String, current: String, verdict: Verdict) {
        self.compared += 1;
        self.changes.push(Change {
            run: run.to_owned(),
            item: "all".to_owned(),
            metric: "run".to_owned(),
            baseline,
            current,
            delta: None,
            verdict,
        });
    }

    /// Both values when both sides have one; otherwise records what one
    /// side lacks with [`Comparer::presence`].
    pub fn both<T>(
        &mut self,
        run: &str,
        item: &str,
        metric: &str,
        (base, cur): (Option<T>, Option<T>),
    ) -> Option<(T, T)> {
        match (base, cur) {
            (Some(b), Some(c)) => return Some((b, c)),
            (Some(_), None) => self.presence(run, item, metric, true),
            (None, Some(_)) => self.presence(run, item, metric, false),
            (None, None) => {}
        }
        None
    }

    /// Walks the items of both sides by name: `each` on items in both,
    /// a presence change (metric `item`) on items in one.
    pub fn items<'a, 'v>(
        &mut self,
        run: &str,
        base: &'a [(String, At<'v>)],
        cur: &'a [(String, At<'v>)],
        each: impl FnMut(&mut Self, &str, &'a At<'v>, &'a At<'v>) -> Result<(), Invalid>,
    ) -> Result<(), Invalid> {
        walk(self, base, cur, each, |s, name, in_baseline| {
            s.presence(run, name, "item", in_baseline)
        })
    }

    /// Walks rows of both sides by key (`metric` of a missing row: the
    /// key through `label`): `each` on rows in both, a presence change of
    /// `item` on rows in one.
    pub fn rows<'a, 'v>(
        &mut self,
        (run, item): (&str, &str),
        base: &'a [(String, At<'v>)],
        cur: &'a [(String, At<'v>)],
        label: impl Fn(&str) -> String,
        each: impl FnMut(&mut Self, &str, &'a At<'v>, &'a At<'v>) -> Result<(), Invalid>,
    ) -> Result<(), Invalid> {
        walk(self, base, cur, each, |s, key, in_baseline| {
            s.presence(run, item, &label(key), in_baseline)
        })
    }

    /// The required numbers `keys` of two objects, compared as
    /// `{key}{suffix}`.
    pub fn numbers(
        &mut self,
        run: &str,
        item: &str,
        (base, cur): (&At, &At),
        keys: &[&str],
        suffix: &str,
        better: Better,
    ) -> Result<(), Invalid> {
        for key in keys {
            let (b, c) = (base.field(key)?.number()?, cur.field(key)?.number()?);
            self.number(run, item, &format!("{key}{suffix}"), b, c, better);
        }
        Ok(())
    }

    /// Compares a label whose values are ranked (`rank`, 0 best; a value
    /// without a rank changes as a note): a worse rank is a regression.
    pub fn ranked(
        &mut self,
        run: &str,
        item: &str,
        metric: &str,
        (base, cur): (&str, &str),
        rank: fn(&str) -> Option<usize>,
    ) {
        self.compared += 1;
        if base == cur {
            return;
        }
        let verdict = match (rank(base), rank(cur)) {
            (Some(br), Some(cr)) if cr > br => Verdict::Regression,
            (Some(br), Some(cr)) if cr < br => Verdict::Improvement,
            _ => Verdict::Note,
        };
        self.changes.push(Change {
            run: run.to_owned(),
            item: item.to_owned(),
            metric: metric.to_owned(),
            baseline: base.to_owned(),
            current: cur.to_owned(),
            delta: None,
            verdict,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A rule that compares each run's `figure` (lower is better).
    fn figure(cmp: &mut Comparer, run: &str, b: &At, c: &At) -> Result<(), Invalid> {
        cmp.numbers(run, "summary", (b, c), &["figure"], "", Better::Lower)
    }

    fn defaults() -> Value {
        json!({"mode": "fast", "limit": 3})
    }

    const TASKS: [&CompareRule; 2] = [
        &CompareRule {
            name: "flowchart",
            compare_run: figure,
            default_settings: defaults,
            locations: &["gold"],
        },
        &CompareRule {
            name: "segmentation",
            compare_run: figure,
            default_settings: defaults,
            locations: &[],
        },
    ];

    fn run(name: &str, figure: f64) -> Value {
        json!({"run": name, "figure": figure})
    }

    fn doc(settings: Value, runs: Vec<Value>) -> Value {
        json!({"task": "flowchart", "settings": settings, "runs": runs})
    }

    fn cmp(base: &Value, cur: &Value) -> Result<Comparison, Invalid> {
        compare(
            &At::root("b.json", base),
            &At::root("c.json", cur),
            0.0,
            &TASKS,
        )
    }

    #[test]
    fn tasks_must_be_known_scoring_tasks_and_the_same() {
        let f = doc(json!({}), vec![run("r", 1.0)]);
        let s = json!({"task": "segmentation", "runs": []});
        assert_eq!(
            cmp(&f, &s).unwrap_err(),
            "b.json is a flowchart result and c.json a segmentation result"
        );
        let err = cmp(&json!({}), &f).unwrap_err();
        assert!(
            err.starts_with("b.json: $: not a clefeval result file (no \"task\" field)"),
            "{err}"
        );
        let err = cmp(&f, &json!({"task": 7, "runs": []})).unwrap_err();
        assert_eq!(err, "c.json: $.task: expected a string, found 7");
        let err = cmp(&f, &json!({"task": "prior-art", "runs": []})).unwrap_err();
        assert!(err.starts_with("c.json: $.task: unknown task \"prior-art\"; compare reads the --format json output of flowchart or segmentation"), "{err}");
        let validate = json!({"task": "validate", "settings": {"strict": false}, "files": []});
        let err = cmp(&validate, &f).unwrap_err();
        assert!(err.starts_with("b.json: $.task: \"validate\" is not a scoring task and the file has no runs: it is not a scoring result"), "{err}");
        let compared = json!({"task": "flowchart", "compared": 3, "changes": []});
        let err = cmp(&f, &compared).unwrap_err();
        assert!(
            err.starts_with("c.json: $: the output of clefeval compare, not a scoring result; "),
            "{err}"
        );
        let err = cmp(&json!([1]), &f).unwrap_err();
        assert_eq!(err, "b.json: $: expected an object, found an array");
    }

    #[test]
    fn every_baseline_run_must_be_in_the_current_file() {
        let two = |a: &str, b: &str| doc(json!({}), vec![run(a, 1.0), run(b, 1.0)]);
        let c = cmp(&two("x", "y"), &two("y", "q")).unwrap();
        assert_eq!((c.regressions, c.improvements, c.compared), (1, 0, 3));
        let lost = &c.changes[0];
        assert_eq!(
            (lost.run.as_str(), lost.item.as_str(), lost.metric.as_str()),
            ("x", "all", "run")
        );
        assert_eq!(
            (lost.baseline.as_str(), lost.current.as_str()),
            ("present", "absent")
        );
        assert_eq!(
            (c.changes[1].run.as_str(), c.changes[1].verdict),
            ("q", Verdict::Note)
        );
        // No name in common: every baseline run is lost.
        let c = cmp(&two("x", "y"), &two("p", "q")).unwrap();
        assert_eq!((c.regressions, c.changes.len()), (2, 4));
        // Two runs against one: the one missing is a regression.
        let one = doc(json!({}), vec![run("x", 1.0)]);
        let c = cmp(&two("x", "y"), &one).unwrap();
        assert_eq!(c.regressions, 1);
        assert_eq!(c.changes[0].run, "y");
        // One run each pair whatever their names.
        let c = cmp(&one, &doc(json!({}), vec![run("z", 2.0)])).unwrap();
        assert_eq!(c.changes[0].run, "x -> z");
        assert_eq!(c.changes[0].verdict, Verdict::Regression);
        // No runs in the baseline: nothing to lose.
        assert_eq!(cmp(&doc(json!({}), vec![]), &one).unwrap().regressions, 0);
    }

    /// A document of scored runs `runs` and rejected runs `rejected` (name,
    /// reason).
    fn with_rejected(runs: &[&str], rejected: &[(&str, &str)]) -> Value {
        let mut d = doc(json!({}), runs.iter().map(|r| run(r, 1.0)).collect());
        let rejected: Vec<Value> = rejected
            .iter()
            .map(|(name, why)| json!({"run": name, "status": "rejected", "diagnostics": [why]}))
            .collect();
        d["rejected_runs"] = json!(rejected);
        d
    }

    /// (run, baseline, current, verdict) of every change.
    fn changes(c: &Comparison) -> Vec<(String, String, String, Verdict)> {
        c.changes
            .iter()
            .map(|ch| {
                let (run, b, cur) = (ch.run.clone(), ch.baseline.clone(), ch.current.clone());
                (run, b, cur, ch.verdict)
            })
            .collect()
    }

    #[test]
    fn a_run_rejected_now_is_told_from_a_run_lost() {
        let s = |x: &str| x.to_owned();
        let both = with_rejected(&["x", "y"], &[]);
        let rejected = with_rejected(&["x"], &[("y", "runs/y: holds no files")]);
        let c = cmp(&both, &rejected).unwrap();
        assert_eq!(
            changes(&c),
            [(
                s("y"),
                s("scored"),
                s("rejected in the current file: runs/y: holds no files"),
                Verdict::Regression
            )]
        );
        assert_eq!((c.regressions, c.compared), (1, 2));
        // Lost, not rejected: present / absent as before.
        let lost = cmp(&both, &with_rejected(&["x"], &[])).unwrap();
        assert_eq!(
            changes(&lost),
            [(s("y"), s("present"), s("absent"), Verdict::Regression)]
        );
        // The other way round: an improvement.
        let c = cmp(&rejected, &both).unwrap();
        assert_eq!(
            changes(&c),
            [(
                s("y"),
                s("rejected in the baseline: runs/y: holds no files"),
                s("scored"),
                Verdict::Improvement
            )]
        );
        assert_eq!((c.regressions, c.improvements), (0, 1));
        // Rejected in both, for any reason: no change.
        let again = with_rejected(&["x"], &[("y", "runs/y: nothing matches")]);
        let c = cmp(&rejected, &again).unwrap();
        assert_eq!((c.changes.len(), c.compared), (0, 2));
        // Rejected on one side, absent from the other: a note.
        let c = cmp(&rejected, &with_rejected(&["x"], &[])).unwrap();
        assert_eq!(
            changes(&c),
            [(
                s("y"),
                s("rejected in the baseline: runs/y: holds no files"),
                s("absent"),
                Verdict::Note
            )]
        );
        let c = cmp(&with_rejected(&["x"], &[]), &rejected).unwrap();
        assert_eq!(c.changes[0].verdict, Verdict::Note);
        // One scored run each, the baseline's rejected now: not paired.
        let one = with_rejected(&["z"], &[("y", "runs/y: holds no files")]);
        let c = cmp(&with_rejected(&["y"], &[]), &one).unwrap();
        assert_eq!(c.regressions, 1);
        assert_eq!(
            c.changes[0].current,
            "rejected in the current file: runs/y: holds no files"
        );
        // A malformed entry names its path.
        let mut bad = rejected.clone();
        bad["rejected_runs"][0]["diagnostics"] = json!([7]);
        assert_eq!(
            cmp(&both, &bad).unwrap_err(),
            "c.json: $.rejected_runs[0].diagnostics[0]: expected a string, found 7"
        );
    }

    #[test]
    fn versions_and_diagnostic_lists_are_not_compared() {
        let mut old = doc(json!({}), vec![run("x", 1.0)]);
        let mut new = old.clone();
        new["version"] = json!("9.9.9");
        new["runs"][0]["diagnostic_list"] = json!([{"file": "f", "line": null}]);
        let c = cmp(&old, &new).unwrap();
        assert_eq!((c.changes.len(), c.compared), (0, 1));
        old["version"] = json!("0.1.0");
        assert_eq!(cmp(&old, &new).unwrap().changes.len(), 0);
        new["version"] = json!(2);
        assert_eq!(
            cmp(&old, &new).unwrap_err(),
            "c.json: $.version: expected a string, found 2"
        );
    }

    #[test]
    fn malformed_fields_name_the_file_and_the_path() {
        let good = doc(json!({}), vec![run("x", 1.0), run("y", 1.0)]);
        let bad = |runs: Value| json!({"task": "flowchart", "runs": runs});
        let cases = [
            (
                bad(json!([{"run": "x", "figure": 1}, {"run": "y", "figure": "abc"}])),
                "c.json: $.runs[1].figure: expected a number, found \"abc\"",
            ),
            (
                bad(json!([{"run": "x", "figure": 1}, {"run": "y", "figure": "NaN"}])),
                "c.json: $.runs[1].figure: expected a number, found \"NaN\"",
            ),
            (
                bad(json!([{"run": "x", "figure": 1}, {"run": "y"}])),
                "c.json: $.runs[1].figure: missing (a required field)",
            ),
            (
                bad(json!([{"run": "x", "figure": 1}, {"figure": 1}])),
                "c.json: $.runs[1].run: missing (a required field)",
            ),
            (
                bad(json!([{"run": "x", "figure": null}, {"run": "y", "figure": 1}])),
                "c.json: $.runs[0].figure: expected a number, found null",
            ),
            (
                bad(json!({"x": 1})),
                "c.json: $.runs: expected an array, found an object",
            ),
            (
                json!({"task": "flowchart"}),
                "c.json: $.runs: missing (a required field)",
            ),
            (
                json!({"task": "flowchart", "settings": [], "runs": []}),
                "c.json: $.settings: expected an object, found an array",
            ),
        ];
        for (cur, message) in cases {
            assert_eq!(cmp(&good, &cur).unwrap_err(), message);
        }
    }

    #[test]
    fn settings_must_match_an_absent_one_counting_as_its_default() {
        let with = |settings: Value| doc(settings, vec![run("x", 1.0)]);
        let full = with(json!({"mode": "fast", "limit": 3, "gold": "/a"}));
        // Absent settings are the defaults; `3.0` is `3`; locations are not compared.
        assert!(cmp(&full, &with(json!({}))).is_ok());
        assert!(cmp(&with(json!({"limit": 3.0, "gold": "/b"})), &full).is_ok());
        assert!(
            cmp(
                &full,
                &json!({"task": "flowchart", "runs": [run("x", 1.0)]})
            )
            .is_ok()
        );
        let err = cmp(&with(json!({"limit": 4})), &with(json!({"mode": "slow"}))).unwrap_err();
        assert_eq!(
            err,
            "b.json and c.json were scored with different settings, their figures are not comparable:\
             \n  $.settings.limit: 4 in b.json, 3 (absent, the default) in c.json\
             \n  $.settings.mode: \"fast\" (absent, the default) in b.json, \"slow\" in c.json"
        );
        // A setting without a default, absent on one side, differs.
        let err = cmp(&with(json!({"new": true})), &with(json!({}))).unwrap_err();
        assert!(
            err.ends_with("$.settings.new: true in b.json, absent in c.json"),
            "{err}"
        );
    }

    #[test]
    fn long_strings_are_cut_in_messages() {
        let long = Value::String("x".repeat(100));
        assert_eq!(describe(&long), format!("\"{}\"…", "x".repeat(40)));
        assert_eq!(describe(&json!({"a": 1})), "an object");
        assert_eq!(describe(&json!(true)), "true");
    }
}
