//! `--html`: the flowchart report as one self-contained page: the ranking
//! of the runs, the distance distribution per level and per run, and per
//! run a table of its topics (sortable by distance) whose rows open to the
//! gold and submitted graphs side by side (layered layout, the matched nodes
//! and preserved edges of the reported complete-level mapping highlighted)
//! and the matched label pairs with their normalized edit distance.

use super::layout::Layout;
use super::mcs::labels::{ned, normalize};
use super::mcs::{CutBy, Denominator, Level, Settings};
use super::report::{Report, f1_headers, mean_f1, ranked, ranking_level, status_name, topic_f1};
use super::score::{RunScore, TopicScore};
use super::svg::{graph_svg, layout_like, layout_of};
use super::{Edge, EdgeType, Flowchart, NodeId, formats, read_file};
use crate::diagnostics::RejectedRun;
use crate::inputs::stem;
use crate::report::html::{Cell, HtmlPage, HtmlTable, Section, escape, rejected_section};
use crate::report::merge::Part;
use crate::report::plot::{self, Distribution, colour_css};
use crate::report::ratio;
use crate::report::rerender::{Rendered, Rerender, left_out};
use crate::report::validation::plural;
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write;
use std::path::PathBuf;

/// Bins of the distance distributions: [0, 0.1), …, [0.9, 1].
const BINS: usize = 10;

/// What the page is built from.
#[derive(Clone, Copy, Debug)]
pub struct Input<'a> {
    /// The scored runs, in `--run` order (a run's colour is its index).
    pub runs: &'a [RunScore],
    /// The runs not scored at all, with their reasons.
    pub rejected: &'a [RejectedRun],
    /// The levels scored.
    pub levels: &'a [Level],
    pub settings: &'a Settings,
    /// The gold flowcharts by topic.
    pub gold: &'a BTreeMap<String, Flowchart>,
    /// Per run (same order as `runs`): its accepted flowcharts by topic.
    pub submitted: &'a [BTreeMap<String, Flowchart>],
}

/// The whole report as one HTML page.
pub fn html(input: &Input) -> String {
    HtmlPage::new("clefeval flowchart")
        .sections(sections(input))
        .sections(rejected_section("fc", input.rejected))
        .render()
}

/// The report's sections, for this page or a combined one (the demo). Ids
/// start with `fc-`: `fc-ranking`, `fc-distributions` (charts
/// `fc-dist-<level>`), `fc-run-<index>`.
pub fn sections(input: &Input) -> Vec<Section> {
    let mut sections = vec![ranking(input), distributions(input)];
    sections.extend(
        input
            .runs
            .iter()
            .enumerate()
            .map(|(i, run)| run_section(input, i, run)),
    );
    sections
}

fn run_cell(input: &Input, run: &RunScore) -> Cell {
    let index = input
        .runs
        .iter()
        .position(|r| std::ptr::eq(r, run))
        .unwrap_or(0);
    Cell::swatch(run.run.clone(), &colour_css(index))
}

fn distance_cell(d: f64) -> Cell {
    Cell::number(ratio(d), d)
}

fn count_cell(n: usize) -> Cell {
    Cell::number(n.to_string(), n as f64)
}

fn ranking(input: &Input) -> Section {
    let by = ranking_level(input.levels);
    let mut headers = vec!["rank".to_string(), "run".to_string()];
    headers.extend(input.levels.iter().map(|l| format!("mean {} d", l.name())));
    headers.extend(f1_headers(input.levels).map(|h| format!("mean {h}")));
    headers.extend(["topics", "missing", "rejected"].map(String::from));
    let mut table = HtmlTable::new(headers).sortable();
    for (rank, run) in ranked(input.runs, input.levels).into_iter().enumerate() {
        let mut row = vec![count_cell(rank + 1), run_cell(input, run)];
        row.extend(input.levels.iter().map(|&l| {
            run.summary
                .mean_distance
                .get(l)
                .map_or(Cell::text(""), distance_cell)
        }));
        row.extend(mean_f1(run, input.levels).map(distance_cell));
        row.extend([
            count_cell(run.summary.topics),
            count_cell(run.summary.missing),
            count_cell(run.summary.rejected),
        ]);
        table.row(row);
    }
    Section::new("fc-ranking", "Ranking")
        .paragraph(&format!(
            "Runs ordered by their mean {} distance (0 = identical to the gold); \
             missing and rejected topics count as distance 1 (and F1 0).",
            by.name()
        ))
        .table(table)
}

/// A topic's distance at `level` (missing and rejected topics have 1).
fn distance(topic: &TopicScore, level: Level) -> f64 {
    topic.levels.get(level).map_or(1.0, |l| l.distance)
}

fn distributions(input: &Input) -> Section {
    let mut section = Section::new("fc-distributions", "Distance distributions").paragraph(
        "Topics per distance bin of width 0.1, one bar per run; missing and rejected topics are in the last bin (distance 1).",
    );
    for &level in input.levels {
        let members: Vec<Distribution> = input
            .runs
            .iter()
            .enumerate()
            .map(|(i, run)| Distribution {
                name: run.run.clone(),
                colour: i,
                values: run.topics.iter().map(|t| distance(t, level)).collect(),
            })
            .collect();
        let title = format!("{} distance", level.name());
        section = match plot::distribution_chart(
            &title,
            "distance",
            "topics",
            &members,
            BINS,
            "+ missing\n+ rejected",
        ) {
            Ok(chart) => section.chart(&format!("fc-dist-{}", level.name()), &chart),
            Err(e) => section.paragraph(&e.to_string()),
        };
    }
    let members: Vec<Distribution> = (input.runs.iter().enumerate())
        .map(|(i, run)| Distribution {
            name: run.run.clone(),
            colour: i,
            values: run.topics.iter().map(|t| t.triplets.scores.f1).collect(),
        })
        .collect();
    match plot::distribution_chart("triplet F1", "triplet F1", "topics", &members, BINS, "") {
        Ok(chart) => section
            .paragraph(
                "Triplet F1 (label-exact edges, as diagram benchmarks publish it; higher is \
                 better), bins of width 0.1; missing and rejected topics are in the first bin (F1 0).",
            )
            .chart("fc-dist-triplet-f1", &chart),
        Err(e) => section.paragraph(&e.to_string()),
    }
}

fn run_section(input: &Input, index: usize, run: &RunScore) -> Section {
    let mut headers: Vec<String> = ["topic", "status", "|Ft|", "|Fs|"]
        .map(String::from)
        .to_vec();
    for l in input.levels {
        headers.push(format!("{} mcs", l.name()));
        headers.push(format!("{} d", l.name()));
    }
    let f1 = f1_headers(input.levels);
    headers.extend(f1.clone());
    let mut titles: Vec<(String, String)> = vec![
        (
            "|Ft|".into(),
            "size of the gold flowchart: nodes + edges".into(),
        ),
        (
            "|Fs|".into(),
            "size of the submitted flowchart: nodes + edges".into(),
        ),
    ];
    for l in input.levels {
        titles.push((
            format!("{} mcs", l.name()),
            format!(
                "size of the maximum common subgraph at the {} level",
                l.name()
            ),
        ));
        titles.push((
            format!("{} d", l.name()),
            format!(
                "graph distance at the {} level (0 = identical, 1 = nothing in common)",
                l.name()
            ),
        ));
    }
    let level = ranking_level(input.levels).name();
    titles.extend([
        (
            f1[0].clone(),
            format!("F1 of the nodes mapped at the {level} level: precision = mapped / submitted nodes, recall = mapped / gold nodes"),
        ),
        (
            f1[1].clone(),
            format!("F1 of the edges preserved at the {level} level: precision = preserved / submitted edges, recall = preserved / gold edges"),
        ),
        (
            f1[2].clone(),
            "F1 of the (source text, edge text, target text) triplets, texts lower-cased without blanks and punctuation".into(),
        ),
    ]);
    let titles: Vec<(&str, &str)> = titles
        .iter()
        .map(|(h, t)| (h.as_str(), t.as_str()))
        .collect();
    let mut table = HtmlTable::new(headers).sortable().titles(&titles);
    let submitted = input.submitted.get(index);
    for topic in &run.topics {
        let mut row = vec![
            Cell::text(topic.topic.clone()),
            Cell::text(status_name(topic.status)),
            count_cell(topic.gold_size),
            topic.run_size.map_or(Cell::text("-"), count_cell),
        ];
        for &level in input.levels {
            match topic.levels.get(level) {
                Some(l) => {
                    let mark = if l.exact { "" } else { "*" };
                    row.push(Cell::number(format!("{}{mark}", l.mcs), l.mcs as f64));
                    row.push(Cell::number(
                        format!("{}{mark}", ratio(l.distance)),
                        l.distance,
                    ));
                }
                None => row.extend([Cell::text(""), Cell::text("")]),
            }
        }
        row.extend(topic_f1(topic, input.levels).map(distance_cell));
        let gold = input.gold.get(&topic.topic);
        let theirs = submitted.and_then(|s| s.get(&topic.topic));
        table.row_with_details(
            row,
            "graphs and label pairs",
            topic_detail(input, topic, gold, theirs),
        );
    }
    let s = &run.summary;
    let mut summary = format!(
        "{} topics, {} missing, {} rejected (each at distance 1).",
        s.topics, s.missing, s.rejected
    );
    if s.interrupted > 0 {
        let _ = write!(
            summary,
            " {} not scored: the evaluation was interrupted.",
            plural(s.interrupted, "topic")
        );
    }
    if s.inexact > 0 {
        let _ = write!(
            summary,
            " * {} cut by the work budget or the time limit: best size found shown.",
            plural(s.inexact, "topic")
        );
    }
    Section::new(&format!("fc-run-{index}"), &format!("Run {}", run.run))
        .paragraph(&summary)
        .paragraph("Click a column header to sort; open a topic's row for its graphs.")
        .paragraph(&symbols(input.settings))
        .table(table)
}

/// What the symbols of a run's table mean, in one line (the definitions
/// are in docs/metrics.md of clefeval).
fn symbols(settings: &Settings) -> String {
    let distance = match settings.denominator {
        Denominator::Max => "d = 1 − mcs / max(|Ft|, |Fs|)",
        Denominator::Union => "d = 1 − mcs / (|Ft| + |Fs| − mcs)",
    };
    format!(
        "|Ft|, |Fs|: the sizes (nodes + edges) of the gold and the submitted flowchart; mcs: \
         the size of their maximum common subgraph at the level (nodes of compatible types \
         mapped one to one, plus the edges both keep); {distance}, 0 for identical graphs; at \
         the complete level each mapped node counts 1 − ned of its labels. The definitions \
         are in docs/metrics.md of clefeval."
    )
}

/// The detail of one topic: both graphs, then the label pairs.
fn topic_detail(
    input: &Input,
    topic: &TopicScore,
    gold: Option<&Flowchart>,
    run: Option<&Flowchart>,
) -> String {
    let complete = topic
        .levels
        .complete
        .as_ref()
        .and_then(|l| l.complete.as_ref());
    let mapping: &[(NodeId, NodeId)] = complete.map_or(&[], |c| c.mapping.as_slice());
    let mut out = String::new();
    if !topic.diagnostics.is_empty() {
        out.push_str("<ul class=\"diagnostics\">");
        for d in &topic.diagnostics {
            let _ = write!(out, "<li>{}</li>", escape(&d.to_string()));
        }
        out.push_str("</ul>");
    }
    let empty = Flowchart::default();
    let (kept_gold, kept_run) = preserved_edges(
        gold.unwrap_or(&empty),
        run.unwrap_or(&empty),
        mapping,
        input.settings,
    );
    let forward: HashMap<NodeId, NodeId> = mapping.iter().copied().collect();
    let backward: HashMap<NodeId, NodeId> = mapping.iter().map(|&(g, r)| (r, g)).collect();
    out.push_str("<div class=\"graphs\">");
    let gold_layout = gold.map(layout_of);
    if let (Some(fc), Some(layout)) = (gold, &gold_layout) {
        graph_figure(
            &mut out,
            ("gold", &topic.topic),
            fc,
            layout,
            (&forward, &kept_gold),
        );
    } else {
        out.push_str("<p>no gold flowchart</p>");
    }
    match run {
        Some(fc) => {
            // The run drawn like the gold where they match.
            let layout = match (gold, &gold_layout) {
                (Some(g), Some(gl)) => layout_like(fc, g, gl, &backward),
                _ => layout_of(fc),
            };
            graph_figure(
                &mut out,
                ("run", &topic.topic),
                fc,
                &layout,
                (&backward, &kept_run),
            );
        }
        None => {
            let _ = write!(
                out,
                "<p>no submitted graph ({})</p>",
                status_name(topic.status)
            );
        }
    }
    out.push_str("</div>");
    match (complete, gold, run) {
        (Some(c), Some(g), Some(r)) => {
            // Which limit, if any, cut the complete level: the note names
            // only the one that did.
            let which = match topic.levels.complete.as_ref().and_then(|l| l.cut_by) {
                None => "the complete-level mapping of least label cost".to_string(),
                Some(by) => {
                    let how = match by {
                        CutBy::Budget => "cut by the work budget",
                        CutBy::Time => "cut by the time limit",
                        CutBy::Interrupted => "interrupted",
                    };
                    format!("the complete level was {how}: the least label cost found")
                }
            };
            let _ = write!(
                out,
                "<p>{} matched nodes and {} preserved edges highlighted ({which}). Best label \
                 cost {}: the sum of the label pairs' ned (normalized edit distance: the \
                 edits that turn one label into the other over the longer label's length; \
                 0 for equal labels, 1 for labels with nothing in common).</p>",
                mapping.len(),
                kept_gold.iter().filter(|&&k| k).count(),
                ratio(c.label_cost_best)
            );
            out.push_str(&label_pairs(g, r, mapping, input.settings.exact_labels).render());
        }
        (None, Some(_), Some(_)) => out.push_str(
            "<p>Matched nodes and label pairs are shown for the complete level, which was not scored.</p>",
        ),
        _ => {}
    }
    out
}

/// The matched label pairs: ids, labels as written and their ned after
/// normalization.
fn label_pairs(
    gold: &Flowchart,
    run: &Flowchart,
    mapping: &[(NodeId, NodeId)],
    exact: bool,
) -> HtmlTable {
    let labels = |fc: &Flowchart| -> HashMap<NodeId, String> {
        fc.nodes
            .iter()
            .map(|n| (n.id, n.text.clone().unwrap_or_default()))
            .collect()
    };
    let (gold, run) = (labels(gold), labels(run));
    let label = |labels: &HashMap<NodeId, String>, id| labels.get(&id).cloned().unwrap_or_default();
    let mut table = HtmlTable::new(["gold node", "gold label", "run node", "run label", "ned"]);
    for &(g, r) in mapping {
        let (a, b) = (label(&gold, g), label(&run, r));
        let d = ned(&normalize(&a, exact), &normalize(&b, exact));
        table.row([
            id_cell(g),
            Cell::text(a),
            id_cell(r),
            Cell::text(b),
            distance_cell(d),
        ]);
    }
    table
}

fn id_cell(id: NodeId) -> Cell {
    Cell::number(id.to_string(), id as f64)
}

/// The slot an edge is counted in by the search (docs/flowchart-distance.md):
/// its kind (directed or not, its type when types count) and its ends,
/// ordered only when it is directed. The same rule as the search's compact
/// graph (`mcs/graph.rs`, `Kinds`), which does not expose it per edge.
fn slot(
    e: &Edge,
    from: NodeId,
    to: NodeId,
    settings: &Settings,
) -> (bool, EdgeType, NodeId, NodeId) {
    let directed = e.directed && !settings.ignore_direction;
    let kind = if settings.edge_types {
        e.edge_type
    } else {
        EdgeType::Plain
    };
    if directed || from <= to {
        (directed, kind, from, to)
    } else {
        (directed, kind, to, from)
    }
}

/// Which edges of each side the mapping preserves: a gold edge whose ends
/// map to the ends of a not yet used submitted edge of the same slot. Edges
/// are paired in file order; per slot this keeps min(gold, submitted)
/// edges, the count the distance uses, so |mapping| + preserved = |mcs|.
pub fn preserved_edges(
    gold: &Flowchart,
    run: &Flowchart,
    mapping: &[(NodeId, NodeId)],
    settings: &Settings,
) -> (Vec<bool>, Vec<bool>) {
    let to_run: HashMap<NodeId, NodeId> = mapping.iter().copied().collect();
    let mut free: HashMap<(bool, EdgeType, NodeId, NodeId), Vec<usize>> = HashMap::new();
    for (j, e) in run.edges.iter().enumerate().rev() {
        free.entry(slot(e, e.from, e.to, settings))
            .or_default()
            .push(j);
    }
    let mut kept_run = vec![false; run.edges.len()];
    let kept_gold = gold
        .edges
        .iter()
        .map(|e| {
            let (Some(&x), Some(&y)) = (to_run.get(&e.from), to_run.get(&e.to)) else {
                return false;
            };
            let Some(j) = free.get_mut(&slot(e, x, y, settings)).and_then(Vec::pop) else {
                return false;
            };
            if let Some(k) = kept_run.get_mut(j) {
                *k = true;
            }
            true
        })
        .collect();
    (kept_gold, kept_run)
}

/// One side's `<figure>`: a caption and the drawn graph.
fn graph_figure(
    out: &mut String,
    (side, topic): (&str, &str),
    fc: &Flowchart,
    layout: &Layout,
    (partners, kept): (&HashMap<NodeId, NodeId>, &[bool]),
) {
    let _ = write!(
        out,
        "<figure class=\"graph {side}\"><figcaption>{side} {} ({} nodes, {} edges)</figcaption>",
        escape(topic),
        fc.nodes.len(),
        fc.edges.len()
    );
    out.push_str(&graph_svg(fc, layout, partners, kept));
    out.push_str("</figure>");
}

/// `clefeval report` of a saved flowchart result: its table or CSV, and
/// its page, the graphs drawn from the input files when `asked` gives
/// them again (runs by name, as scored).
pub fn rerender(part: &Part, _text: &str, asked: &Rerender) -> Result<Rendered, String> {
    let report: Report = part.read()?;
    let mut rendered = Rendered {
        text: report.render(asked.format),
        ..Rendered::default()
    };
    if !asked.page {
        return Ok(rendered);
    }
    let options = report.settings.parse();
    let read = |paths: &[PathBuf]| -> BTreeMap<String, Flowchart> {
        let (files, _, _) = formats::listed(paths);
        (files.iter())
            .map(|f| (stem(f), read_file(f, &options)))
            .filter(|(_, parsed)| !parsed.is_rejected())
            .map(|(topic, parsed)| (topic, parsed.flowchart))
            .collect()
    };
    if asked.gold.is_empty() || asked.runs.is_empty() {
        rendered.notes.push(left_out("graphs", "--gold and --run"));
    }
    let gold = read(asked.gold);
    let paths: BTreeMap<&str, &PathBuf> = (asked.runs.iter())
        .map(|r| (r.name.as_str(), &r.path))
        .collect();
    let submitted: Vec<BTreeMap<String, Flowchart>> = (report.runs.iter())
        .map(|r| {
            (paths.get(r.run.as_str()))
                .map(|p| read(std::slice::from_ref(*p)))
                .unwrap_or_default()
        })
        .collect();
    let input = Input {
        runs: &report.runs,
        rejected: &report.rejected_runs,
        levels: &report.settings.levels,
        settings: &report.settings.settings,
        gold: &gold,
        submitted: &submitted,
    };
    rendered.page = Some(html(&input));
    Ok(rendered)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flowchart::parse;

    fn read(text: &str) -> Flowchart {
        parse(
            text.as_bytes(),
            "t.txt",
            &crate::flowchart::ParseOptions::default(),
        )
        .flowchart
    }

    #[test]
    fn preserved_edges_pair_parallel_edges_once_and_respect_direction() {
        let gold = read(
            "NO 1 rectangle \"a\"\nNO 2 rectangle \"b\"\nDE 1 2 plain\nDE 1 2 plain\nDE 2 1 plain\nUE 1 2 wiggly\n",
        );
        let run = read(
            "NO 7 rectangle \"A\"\nNO 8 rectangle \"b\"\nDE 7 8 plain\nUE 8 7 plain\nDE 8 7 dotted\n",
        );
        let settings = Settings::default();
        let (g, r) = preserved_edges(&gold, &run, &[(1, 7), (2, 8)], &settings);
        // 1→2 once (the run has one 7→8), 2→1 as 8→7, the undirected one
        // whatever its written order.
        assert_eq!(g, vec![true, false, true, true]);
        assert_eq!(r, vec![true, true, true]);
        // With edge types, the dotted 8→7 no longer preserves the plain 2→1;
        // ignoring direction, all four gold edges share one slot of three.
        let typed = Settings {
            edge_types: true,
            ..Settings::default()
        };
        assert_eq!(
            preserved_edges(&gold, &run, &[(1, 7), (2, 8)], &typed).0,
            vec![true, false, false, false]
        );
        let undirected = Settings {
            ignore_direction: true,
            ..Settings::default()
        };
        let (g, r) = preserved_edges(&gold, &run, &[(1, 7), (2, 8)], &undirected);
        assert_eq!((g.iter().filter(|&&k| k).count(), r), (3, vec![true; 3]));
        // Unmapped ends preserve nothing.
        assert_eq!(
            preserved_edges(&gold, &run, &[(1, 7)], &settings).0,
            vec![false; 4]
        );
    }
}
