//! The prior-art and passage parts of `clefeval demo`, by the same functions as the
//! command.

use super::between::Between;
use super::settings::PERMUTATIONS;
use super::significance::compare_runs;
use super::{Measure, Settings, Task, html, runs::score_shard};
use crate::inputs::Run;
use crate::task::DemoPart;
use std::path::Path;

/// The passage runs of `<data>/passage/demo` (a plain, a gzip and a zip
/// run) against its qrels and language groups, default settings, and
/// with two scored runs or more their comparison by MAP@N (`--compare
/// MAP@100`, default permutations and seed).
pub fn demo(data: &Path) -> Result<DemoPart, String> {
    let dir = data.join("passage").join("demo");
    let settings = Settings::new(Task::Passage);
    let evaluation = scored(&dir, &settings)?;
    let scored = evaluation.runs.iter().filter(|r| r.scores.is_some());
    let comparison = if scored.count() >= 2 {
        let measure = Measure::Map.name(&settings);
        let c = compare_runs(&evaluation, &measure, PERMUTATIONS, 0)
            .map_err(|e| format!("{}: {e}", dir.display()))?;
        Some(c)
    } else {
        None
    };
    let between = Between {
        comparisons: comparison.clone().into_iter().collect(),
        correlations: Vec::new(),
    };
    let text = format!(
        "== clefeval passage: bundled runs ==\n{}{}",
        evaluation.table(),
        between.tables()
    );
    let sections = (html::sections(&evaluation).into_iter())
        .chain(html::comparisons_section(
            &evaluation,
            comparison.as_slice(),
        ))
        .collect();
    Ok(DemoPart {
        title: "claims to passage",
        about: "The passage qrels of goldens/passage/demo against its three runs (a plain, a gzip and a zip file), with its language groups; the runs compared by MAP@100.",
        text,
        sections,
    })
}

/// The prior-art runs of `<data>/passage/doc` (four document runs) against
/// its qrels and language groups, default settings: the 2009 task's
/// measures per run, their ranking and their page.
pub fn prior_art(data: &Path) -> Result<DemoPart, String> {
    let dir = data.join("passage").join("doc");
    let evaluation = scored(&dir, &Settings::new(Task::PriorArt))?;
    Ok(DemoPart {
        title: "prior art",
        about: "The document qrels of goldens/passage/doc against its four prior-art runs, with its language groups: MAP, PRES, nDCG and the rest per run.",
        text: format!(
            "== clefeval prior-art: bundled runs ==\n{}",
            evaluation.table()
        ),
        sections: html::sections(&evaluation),
    })
}

/// The runs of `dir/runs` scored against `dir/qrels.txt` with the groups
/// of `dir/groups.txt`.
fn scored(dir: &Path, settings: &Settings) -> Result<super::Evaluation, String> {
    let runs = [Run::at(dir.join("runs"))];
    let groups = dir.join("groups.txt");
    score_shard(settings, &dir.join("qrels.txt"), Some(&groups), &runs, None)
        .map_err(|e| e.to_string())
}
