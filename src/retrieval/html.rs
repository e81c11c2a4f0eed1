//! `--html`: a text-retrieval evaluation (`clefeval prior-art`,
//! `clefeval passage`) as one self-contained page: the runs ranked by
//! MAP@N, the mean of every measure per run, the headline means per topic
//! group, AP@N per topic, recall at every cut-off k, the topics and lines
//! set aside, the comparisons of the runs (when asked for) and the
//! rejected runs. Every figure shown is read from the [`Evaluation`] or a
//! [`Comparison`]; nothing is computed here but the order of the runs and
//! of the topics.

use super::evaluate::{Measure, measure_list};
use super::report::{Evaluation, RunScores, Summary, Task};
use super::significance::{Comparison, PairComparison};
use crate::diagnostics::Diagnostic;
use crate::report::html::{Cell, HtmlPage, HtmlTable, Section, escape, rejected_section};
use crate::report::merge::Part;
use crate::report::plot::{
    self, Chart, LineChart, PlotError, RatioBarChart, RatioBars, Series, TopicChart, TopicSeries,
    colour_css,
};
use crate::report::rerender::{Rendered, Rerender};
use crate::report::{OutputFormat, ratio};
use std::collections::HashMap;

/// The whole evaluation as one HTML page.
pub fn page(evaluation: &Evaluation) -> String {
    page_with(evaluation, &[])
}

/// The whole evaluation as one HTML page, with the comparisons of its runs
/// (none: no such section) before the rejected runs.
pub fn page_with(evaluation: &Evaluation, comparisons: &[Comparison]) -> String {
    let view = View::new(evaluation);
    HtmlPage::new(format!("clefeval {}", view.task))
        .sections(sections(evaluation))
        .sections(comparisons_section(evaluation, comparisons))
        .sections(rejected_section(view.prefix, &evaluation.rejected_runs()))
        .render()
}

/// The evaluation's sections, for this page or a combined one. Ids start
/// with the task's prefix, `pa-` (prior art) or `psg-` (passage), so both
/// tasks fit on one page: `<p>-ranking`, `<p>-means` (chart
/// `<p>-means-bars`), `<p>-groups` (charts `<p>-group-map`,
/// `<p>-group-pres`, passage `<p>-group-mapd`; only with groups),
/// `<p>-topics` (chart `<p>-topic-map`), `<p>-recall` (chart
/// `<p>-recall-k`), `<p>-lists`.
pub fn sections(evaluation: &Evaluation) -> Vec<Section> {
    let view = View::new(evaluation);
    let mut sections = vec![ranking(&view), means(&view)];
    sections.extend(groups(&view));
    sections.push(per_topic(&view));
    sections.push(recall(&view));
    sections.push(lists(&view));
    sections
}

/// A scored run: its name, its palette index (its position among all the
/// runs, rejected ones included, as in the evaluation) and its scores.
struct Scored<'a> {
    name: &'a str,
    colour: usize,
    scores: &'a RunScores,
    /// Warnings the readers reported (a scored run has no error).
    diagnostics: &'a [Diagnostic],
}

/// What every section reads: the evaluation and its scored runs.
struct View<'a> {
    evaluation: &'a Evaluation,
    task: &'static str,
    prefix: &'static str,
    runs: Vec<Scored<'a>>,
}

impl<'a> View<'a> {
    fn new(evaluation: &'a Evaluation) -> Self {
        let (task, prefix) = match evaluation.settings.task {
            Task::PriorArt => ("prior-art", "pa"),
            Task::Passage => ("passage", "psg"),
        };
        let runs = evaluation
            .runs
            .iter()
            .enumerate()
            .filter_map(|(colour, r)| {
                Some(Scored {
                    name: &r.run,
                    colour,
                    scores: r.scores.as_ref()?,
                    diagnostics: &r.diagnostics,
                })
            })
            .collect();
        View {
            evaluation,
            task,
            prefix,
            runs,
        }
    }

    /// The section or chart id `<prefix>-<name>`.
    fn id(&self, name: &str) -> String {
        format!("{}-{name}", self.prefix)
    }

    /// The position of `measure` among the evaluation's measures, found by
    /// its printed name.
    fn index(&self, measure: Measure) -> Option<usize> {
        let name = measure.name(&self.evaluation.settings);
        self.evaluation.measures.iter().position(|m| *m == name)
    }

    /// The printed name of the measure at `index`.
    fn name(&self, index: usize) -> &str {
        self.evaluation
            .measures
            .get(index)
            .map_or("", String::as_str)
    }

    /// The headline measures with their positions and chart ids: MAP@N,
    /// PRES@100 and, for passage runs, MAP(D).
    fn headline(&self) -> Vec<(usize, &'static str)> {
        [
            (Measure::Map, "group-map"),
            (Measure::Pres(100), "group-pres"),
            (Measure::MapD, "group-mapd"),
        ]
        .into_iter()
        .filter_map(|(m, id)| Some((self.index(m)?, id)))
        .collect()
    }

    /// The scored runs by mean MAP@N, highest first; a run with no scored
    /// topic last; equal means by run name: the order of the table's
    /// ranking ([`Evaluation::ranked`]).
    fn ranked(&self) -> Vec<&Scored<'a>> {
        let map = self.index(Measure::Map);
        let key = |r: &Scored| map.and_then(|i| mean(&r.scores.all, i));
        let mut ranked: Vec<&Scored> = self.runs.iter().collect();
        ranked.sort_by(|a, b| {
            let (ka, kb) = (key(a), key(b));
            kb.is_some()
                .cmp(&ka.is_some())
                .then(kb.unwrap_or(0.0).total_cmp(&ka.unwrap_or(0.0)))
                .then(a.name.cmp(b.name))
        });
        ranked
    }
}

/// The mean of the measure at `index`; `None` when no topic is scored.
fn mean(summary: &Summary, index: usize) -> Option<f64> {
    summary.means.get(index).copied().flatten()
}

/// A mean as printed: 4 decimals, `–` when there is none (sorted below 0).
fn mean_cell(value: Option<f64>) -> Cell {
    match value {
        Some(v) => Cell::number(ratio(v), v),
        None => Cell::number("–", -1.0),
    }
}

fn count_cell(n: usize) -> Cell {
    Cell::number(n.to_string(), n as f64)
}

fn run_cell(run: &Scored) -> Cell {
    Cell::swatch(run.name, &colour_css(run.colour))
}

/// `section` with `chart` under `id`, or the reason it could not be drawn.
fn with_chart(section: Section, id: &str, chart: Result<Chart, PlotError>) -> Section {
    match chart {
        Ok(chart) => section.chart(id, &chart),
        Err(e) => section.paragraph(&e.to_string()),
    }
}

/// The settings in words.
fn settings_line(view: &View) -> String {
    let s = &view.evaluation.settings;
    let order = match s.order {
        super::Order::File => "file (the rank column)",
        super::Order::Score => "score (trec_eval's)",
    };
    let ranks = if s.ranks.is_empty() {
        "none".to_string()
    } else {
        s.ranks
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut line = format!(
        "Order {order}; cut-off N = {}; nDCG base {}; minimum relevance {}; extra ranks: {ranks}",
        s.cutoff, s.ndcg_base, s.min_relevance
    );
    if s.task == Task::Passage {
        line.push_str(if s.keep_headings {
            "; headings kept"
        } else {
            "; headings removed"
        });
    }
    line + "."
}

/// The scored runs ranked by mean MAP@N, with the means of the measures
/// the organizers ranked by (every mean is in the next section).
fn ranking(view: &View) -> Section {
    let shown: Vec<usize> = [
        Measure::Map,
        Measure::Pres(20),
        Measure::Pres(100),
        Measure::Pres(view.evaluation.settings.cutoff),
        Measure::Ndcg,
        Measure::MapD,
        Measure::PrecisionD,
    ]
    .into_iter()
    .filter_map(|m| view.index(m))
    .fold(Vec::new(), |mut shown, i| {
        if !shown.contains(&i) {
            shown.push(i);
        }
        shown
    });
    let headers = ["rank", "run", "topics"]
        .map(String::from)
        .into_iter()
        .chain(shown.iter().map(|&i| view.name(i).to_string()));
    let names: Vec<&str> = shown.iter().map(|&i| view.name(i)).collect();
    let meanings: Vec<(&str, &str)> = (names.iter())
        .filter_map(|&name| Some((name, meaning(name)?)))
        .collect();
    let mut table = HtmlTable::new(headers).sortable().titles(&meanings);
    for (rank, run) in view.ranked().into_iter().enumerate() {
        let all = &run.scores.all;
        let mut row = vec![count_cell(rank + 1), run_cell(run), count_cell(all.num_q)];
        row.extend(shown.iter().map(|&i| mean_cell(mean(all, i))));
        table.row(row);
    }
    let map = view.index(Measure::Map).map_or("MAP@N", |i| view.name(i));
    Section::new(&view.id("ranking"), "Ranking")
        .paragraph(&settings_line(view))
        .paragraph(&format!(
            "Runs ranked by their mean {map} over the scored topics, highest first (equal \
             means in the order the runs were given). Means over the scored topics, missing \
             ones counted 0; – when no topic is scored."
        ))
        .paragraph(&glossary(&names))
        .table(table)
}

/// What a measure of the printed name `name` is, in a few words (the
/// definitions are in docs/metrics.md of clefeval); `None` for a name of
/// no known family.
fn meaning(name: &str) -> Option<&'static str> {
    let family = name.split(['@', '/']).next().unwrap_or(name);
    Some(match family {
        "P" => "precision at k: relevant documents among the first k, over k",
        "R" => "recall at k: relevant documents among the first k, over all relevant ones",
        "Precision" => "relevant documents retrieved over documents retrieved",
        "Recall" => "relevant documents retrieved over relevant documents",
        "MAP" => {
            "mean average precision: the mean over topics of the precision at each relevant document's rank, summed and divided by the relevant documents"
        }
        "PRES" => {
            "patent retrieval evaluation score: 1 when every relevant document is at the top, 0 when none is within the cut-off"
        }
        "nDCG" => {
            "normalized discounted cumulative gain: the graded gains discounted by rank, over the best possible"
        }
        "MAP(D)" => {
            "passage runs: per relevant document, the average precision of its passages in the run, averaged over the relevant documents, then over topics"
        }
        "Precision(D)" => {
            "passage runs: per relevant document, the precision of its passages in the run, averaged over the relevant documents, then over topics"
        }
        _ => return None,
    })
}

/// One paragraph defining the measures named in `names` (each family
/// once).
fn glossary(names: &[&str]) -> String {
    let mut seen: Vec<&str> = Vec::new();
    let mut parts: Vec<String> = Vec::new();
    for name in names {
        let family = name.split(['@', '/']).next().unwrap_or(name);
        if seen.contains(&family) {
            continue;
        }
        seen.push(family);
        if let Some(m) = meaning(name) {
            parts.push(format!("{family}: {m}"));
        }
    }
    format!(
        "{}. The definitions are in docs/metrics.md of clefeval.",
        parts.join("; ")
    )
}

/// The mean of every measure: grouped bars (one bar per run) and a table.
fn means(view: &View) -> Section {
    let spec = RatioBarChart {
        title: "Mean of every measure".to_string(),
        y_label: "mean".to_string(),
        categories: view.evaluation.measures.clone(),
        bars: view
            .runs
            .iter()
            .map(|r| RatioBars {
                name: r.name.to_string(),
                colour: r.colour,
                values: r.scores.all.means.clone(),
            })
            .collect(),
    };
    let mut table = HtmlTable::new(
        std::iter::once("measure".to_string()).chain(view.runs.iter().map(|r| r.name.to_string())),
    );
    type Count = fn(&Summary) -> usize;
    let counts: [(&str, Count); 4] = [
        ("topics scored (num_q)", |s| s.num_q),
        ("retrieved (num_ret)", |s| s.num_ret),
        ("relevant (num_rel)", |s| s.num_rel),
        ("relevant retrieved (num_rel_ret)", |s| s.num_rel_ret),
    ];
    for (name, count) in counts {
        let mut row = vec![Cell::text(name)];
        row.extend(view.runs.iter().map(|r| count_cell(count(&r.scores.all))));
        table.row(row);
    }
    for (i, name) in view.evaluation.measures.iter().enumerate() {
        let mut row = vec![Cell::text(name.clone())];
        row.extend(view.runs.iter().map(|r| mean_cell(mean(&r.scores.all, i))));
        table.row(row);
    }
    let names: Vec<&str> = view
        .evaluation
        .measures
        .iter()
        .map(String::as_str)
        .collect();
    let section = Section::new(&view.id("means"), "Means of every measure")
        .paragraph(
            "The mean of every measure over the scored topics, and the counts summed over them.",
        )
        .paragraph(&glossary(&names));
    with_chart(
        section,
        &view.id("means-bars"),
        plot::ratio_bar_chart(&spec),
    )
    .table(table)
}

/// The headline means per topic group, one chart per measure; `None` when
/// the evaluation has no groups.
fn groups(view: &View) -> Option<Section> {
    let first = view.runs.first()?;
    if first.scores.groups.is_empty() {
        return None;
    }
    let names: Vec<String> = first.scores.groups.iter().map(|g| g.0.clone()).collect();
    let sizes: Vec<String> = first
        .scores
        .groups
        .iter()
        .map(|(g, s)| format!("{g} {}", s.num_q))
        .collect();
    let mut section = Section::new(&view.id("groups"), "Means by topic group").paragraph(&format!(
        "Scored topics per group: {}. A group with no scored topic has no mean and no bar.",
        sizes.join(", ")
    ));
    for (i, id) in view.headline() {
        let spec = RatioBarChart {
            title: format!("{} by group", view.name(i)),
            y_label: view.name(i).to_string(),
            categories: names.clone(),
            bars: view
                .runs
                .iter()
                .map(|r| {
                    let by_name: HashMap<&str, &Summary> = r
                        .scores
                        .groups
                        .iter()
                        .map(|(g, s)| (g.as_str(), s))
                        .collect();
                    RatioBars {
                        name: r.name.to_string(),
                        colour: r.colour,
                        values: names
                            .iter()
                            .map(|g| by_name.get(g.as_str()).and_then(|s| mean(s, i)))
                            .collect(),
                    }
                })
                .collect(),
        };
        section = with_chart(section, &view.id(id), plot::ratio_bar_chart(&spec));
    }
    Some(section)
}

/// AP@N per topic for every run, topics sorted by the top-ranked run's AP.
///
/// Sorted rather than in qrels order: in qrels order every run's line
/// jumps up and down from topic to topic and the lines cross everywhere;
/// sorted by one run, that run is a single falling line and each other
/// run's dot above or below it shows at once on which topics it does
/// better or worse, and the line's shape shows how many topics the best
/// run solves well.
fn per_topic(view: &View) -> Section {
    let section = Section::new(&view.id("topics"), "Per topic");
    let (Some(map), Some(reference)) = (view.index(Measure::Map), view.ranked().first().copied())
    else {
        return section.paragraph("No run was scored.");
    };
    let ap = format!("AP@{}", view.evaluation.settings.cutoff);
    let value = |r: &Scored, topic: &str| -> f64 {
        r.scores
            .topics
            .iter()
            .find(|t| t.topic == topic)
            .and_then(|t| t.values.get(map).copied())
            .unwrap_or(f64::NAN)
    };
    let mut topics: Vec<(&str, f64)> = reference
        .scores
        .topics
        .iter()
        .map(|t| (t.topic.as_str(), t.values.get(map).copied().unwrap_or(0.0)))
        .collect();
    // Stable: equal scores keep the qrels order.
    topics.sort_by(|a, b| b.1.total_cmp(&a.1));
    let values: Vec<Vec<f64>> = view
        .runs
        .iter()
        .map(|r| topics.iter().map(|(t, _)| value(r, t)).collect())
        .collect();
    let spec = TopicChart {
        title: format!("{ap} per topic"),
        x_label: format!("topics by {}'s {ap}, highest first", reference.name),
        y_label: ap.clone(),
        topics: topics.iter().map(|(t, _)| t.to_string()).collect(),
        series: view
            .runs
            .iter()
            .zip(&values)
            .map(|(r, v)| TopicSeries {
                name: r.name.to_string(),
                colour: r.colour,
                joined: std::ptr::eq(r, reference),
                values: v.clone(),
            })
            .collect(),
    };
    let mut table = HtmlTable::new(
        ["position", "topic"]
            .map(String::from)
            .into_iter()
            .chain(view.runs.iter().map(|r| r.name.to_string())),
    );
    for (i, (topic, _)) in topics.iter().enumerate() {
        let mut row = vec![count_cell(i + 1), Cell::text(*topic)];
        row.extend(values.iter().map(|v| {
            let x = v.get(i).copied().unwrap_or(f64::NAN);
            mean_cell(x.is_finite().then_some(x))
        }));
        table.row(row);
    }
    let section = section.paragraph(&format!(
        "Each scored topic's {ap} (the per-topic figure whose mean is {}), topics sorted by \
         the top-ranked run, {}, highest first (equal scores in qrels order); its points are \
         joined by a line, the other runs' are dots, so a dot above the line is a topic where \
         that run does better. Missing topics count 0.{}",
        view.name(map),
        reference.name,
        if topics.len() > plot::NAMED_TOPICS {
            " Topics are numbered by their position; the table below names them."
        } else {
            ""
        }
    ));
    with_chart(section, &view.id("topic-map"), plot::topic_chart(&spec)).html(format!(
        "<details><summary>{} per topic, in the chart's order</summary>{}</details>\n",
        escape(&ap),
        table.render()
    ))
}

/// Mean R@k over every cut-off k the evaluation has, one line per run.
fn recall(view: &View) -> Section {
    let mut ks: Vec<(usize, usize)> = measure_list(&view.evaluation.settings)
        .into_iter()
        .filter_map(|m| match m {
            Measure::RecallAt(k) => Some((k, view.index(m)?)),
            _ => None,
        })
        .collect();
    ks.sort_unstable();
    let spec = LineChart {
        title: "Recall at cut-off k".to_string(),
        x_label: "k (documents)".to_string(),
        y_label: "mean R@k".to_string(),
        series: view
            .runs
            .iter()
            .map(|r| Series {
                name: r.name.to_string(),
                colour: r.colour,
                points: ks
                    .iter()
                    .filter_map(|&(k, i)| Some((k as f64, mean(&r.scores.all, i)?)))
                    .collect(),
            })
            .collect(),
        marker: None,
    };
    let listed: Vec<String> = ks.iter().map(|(k, _)| k.to_string()).collect();
    let section = Section::new(&view.id("recall"), "Recall at cut-off").paragraph(&format!(
        "Mean R@k at k = {} (5, 10, 20, 100 and the extra ranks), on a linear axis.",
        listed.join(", ")
    ));
    with_chart(section, &view.id("recall-k"), plot::line_chart(&spec))
}

/// Per run: the topics left out, missing and unknown, the lines dropped
/// as duplicates or removed as headings, and the diagnostics.
fn lists(view: &View) -> Section {
    let passage = view.evaluation.settings.task == Task::Passage;
    let mut headers = vec!["run", "left out", "missing", "unknown", "duplicates"];
    if passage {
        headers.push("headings removed");
    }
    headers.push("diagnostics");
    let mut table = HtmlTable::new(headers);
    for r in &view.runs {
        let s = r.scores;
        let diagnostics = r.diagnostics;
        let mut row = vec![
            run_cell(r),
            count_cell(s.left_out.len()),
            count_cell(s.missing.len()),
            count_cell(s.unknown.len()),
            count_cell(s.duplicates.len()),
        ];
        if passage {
            row.push(count_cell(s.headings_removed.as_ref().map_or(0, Vec::len)));
        }
        row.push(count_cell(diagnostics.len()));
        let mut markup = String::new();
        for (label, topics) in [
            ("Left out", &s.left_out),
            ("Missing", &s.missing),
            ("Unknown", &s.unknown),
        ] {
            if !topics.is_empty() {
                markup.push_str(&format!("<p>{label}: {}</p>", escape(&topics.join(", "))));
            }
        }
        if !diagnostics.is_empty() {
            let items: String = diagnostics
                .iter()
                .map(|d| format!("<li>{}</li>", escape(&d.to_string())))
                .collect();
            markup.push_str(&format!("<ul class=\"diagnostics\">{items}</ul>"));
        }
        if markup.is_empty() {
            table.row(row);
        } else {
            table.row_with_details(row, "topics and diagnostics", markup);
        }
    }
    Section::new(&view.id("lists"), "Topics and lines set aside")
        .paragraph(
            "Left out: qrels topics with no relevant document (no row, in no mean). Missing: \
             scored topics the run has no line for (0 on every measure, in the means). \
             Unknown: run topics not in the qrels (not scored). Duplicates: lines dropped \
             because their document (or passage) came earlier in the topic's order. Headings \
             removed: heading lines of passage runs, unless kept.",
        )
        .table(table)
}

/// `<p>-comparisons`: per comparison (one measure) a table of its pairs —
/// the runs, their means, the mean difference, each test's p and
/// Holm-adjusted p, and which tests find the pair significantly different.
/// `None` without comparisons.
pub fn comparisons_section(evaluation: &Evaluation, comparisons: &[Comparison]) -> Option<Section> {
    let first = comparisons.first()?;
    let view = View::new(evaluation);
    let mut section =
        Section::new(&view.id("comparisons"), "Comparisons of the runs").paragraph(&format!(
            "Every pair of scored runs, A before B in the order given: the mean over the \
             topics of A's score minus B's, the two-sided paired randomization test and \
             paired t-test (rand. p and t-test p), and each test's p-values adjusted over \
             the pairs by Holm's method (rand. p (Holm), t-test p (Holm)). A pair is significantly different when an \
             adjusted p is below {}.",
            first.level
        ));
    for c in comparisons {
        let mut text = format!(
            "{} runs over {} topics (missing ones at 0); randomization test with {} \
             permutations, seed {}.",
            c.runs.len(),
            c.topics,
            c.permutations,
            c.seed
        );
        if !c.skipped.is_empty() {
            text.push_str(&format!(
                " Rejected runs left out: {}.",
                c.skipped.join(", ")
            ));
        }
        let headers = [
            "run A",
            "run B",
            "mean A",
            "mean B",
            "A − B",
            "rand. p",
            "rand. p (Holm)",
            "t-test p",
            "t-test p (Holm)",
            "significant",
        ];
        let mut table = HtmlTable::new(headers).sortable();
        for pair in &c.pairs {
            let run = |name: &str| match view.runs.iter().find(|r| r.name == name) {
                Some(r) => run_cell(r),
                None => Cell::text(name),
            };
            let p = |v: Option<f64>| match v {
                Some(v) => Cell::number(format!("{v:.4}"), v),
                None => Cell::number("–", 2.0),
            };
            table.row([
                run(&pair.a),
                run(&pair.b),
                mean_cell(Some(pair.mean_a)),
                mean_cell(Some(pair.mean_b)),
                Cell::number(
                    format!("{:+.4}", pair.mean_difference),
                    pair.mean_difference,
                ),
                p(Some(pair.randomization_p)),
                p(Some(pair.randomization_p_holm)),
                p(pair.t_p),
                p(pair.t_p_holm),
                Cell::text(significant(pair, c.level)),
            ]);
        }
        section = section.heading(&c.measure).paragraph(&text).table(table);
    }
    Some(section)
}

/// Which tests find the pair significantly different after Holm's
/// correction: `randomization and t-test`, one of them, or `no`.
fn significant(pair: &PairComparison, level: f64) -> &'static str {
    let randomization = pair.randomization_p_holm < level;
    let t = pair.t_p_holm.is_some_and(|p| p < level);
    match (randomization, t) {
        (true, true) => "* randomization and t-test",
        (true, false) => "* randomization",
        (false, true) => "* t-test",
        (false, false) => "no",
    }
}

/// `clefeval report` of a saved text-retrieval result: its table or CSV,
/// and its page. The file's own text is read, so the groups keep the order
/// written (a read document would have them by name); the comparisons and
/// correlations of the runs are not read back, and a note says so.
pub fn rerender(part: &Part, text: &str, asked: &Rerender) -> Result<Rendered, String> {
    let evaluation: Evaluation = serde_json::from_str(text)
        .map_err(|e| format!("{}:{}: not a JSON result file: {e}", part.file, e.line()))?;
    let between = ["comparisons", "correlations"]
        .iter()
        .any(|k| part.doc.get(k).is_some());
    let notes = between
        .then(|| "clefeval: the comparisons and correlations of the runs are left out: score the runs again with --compare and --correlate to see them".to_string())
        .into_iter()
        .collect();
    Ok(Rendered {
        text: match asked.format {
            OutputFormat::Csv => evaluation.csv(),
            _ => evaluation.table(),
        },
        page: asked.page.then(|| page(&evaluation)),
        notes,
    })
}
