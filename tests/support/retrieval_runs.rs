//! Evaluations built directly from topic rows and means, for the tests
//! and benches of the between-runs statistics.

use clefeval::retrieval::report::{RunScores, Summary, TopicRow};
use clefeval::retrieval::{Evaluation, RunResult, Settings, Task};

/// A summary holding only means (the counts play no part here).
pub fn summary(num_q: usize, means: Vec<Option<f64>>) -> Summary {
    Summary {
        num_q,
        num_ret: 0,
        num_rel: 0,
        num_rel_ret: 0,
        means,
    }
}

/// A scored run: its topic rows, overall means, per group means; topics
/// with status missing listed as missing.
pub fn scored_run(
    run: &str,
    topics: Vec<TopicRow>,
    all: Summary,
    groups: Vec<(String, Summary)>,
) -> RunResult {
    let missing = topics
        .iter()
        .filter(|t| t.status == clefeval::retrieval::report::TopicStatus::Missing)
        .map(|t| t.topic.clone())
        .collect();
    RunResult {
        run: run.to_string(),
        file: format!("runs/{run}"),
        diagnostics: Vec::new(),
        scores: Some(RunScores {
            topics,
            all,
            groups,
            left_out: Vec::new(),
            missing,
            unknown: Vec::new(),
            duplicates: Vec::new(),
            headings_removed: None,
        }),
    }
}

/// A passage evaluation (headline `MAP@100`) of `runs` under `measures`.
pub fn evaluation(measures: Vec<String>, runs: Vec<RunResult>) -> Evaluation {
    Evaluation {
        settings: Settings::new(Task::Passage),
        measures,
        runs,
        inputs: Vec::new(),
        shard: None,
        skipped: Vec::new(),
    }
}
