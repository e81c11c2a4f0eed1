//! The `--html` page of `clefeval prior-art` and `clefeval passage`: the
//! ranking of the runs and each run's means, from the same
//! [`Evaluation`] as the table.

use super::report::Evaluation;
use crate::report::html::{HtmlPage, Section};
use crate::report::ratio;

/// The whole page of an evaluation.
pub fn page(evaluation: &Evaluation) -> String {
    let task = evaluation.settings.task.name();
    let mut section = Section::new("retrieval-ranking", "Runs");
    for (run, scores) in evaluation.ranked() {
        let means: Vec<String> = evaluation
            .measures
            .iter()
            .zip(&scores.all.means)
            .map(|(name, mean)| format!("{name} {}", mean.map_or("-".into(), ratio)))
            .collect();
        section = section.paragraph(&format!("{}: {}", run.run, means.join(", ")));
    }
    HtmlPage::new(format!("clefeval {task}"))
        .section(section)
        .render()
}
