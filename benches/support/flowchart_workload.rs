//! The realistic flowchart workload generator shared by the benches
//! (included with `#[path]`): gold flowcharts of about n nodes — 80 % boxes
//! (mostly rectangles, some diamonds, ovals, parallelograms; a main flow with
//! branches and loops back), 20 % `no-box` reference labels on wiggly
//! undirected edges — and recognizer-like submissions of them (missed and
//! spurious edges, reversed arrows, undirected read for directed, wrong node
//! types, a merged box, OCR-noisy labels, nodes in another order).
//! Deterministic: the same seed gives the same pairs.

use clefeval::flowchart::{Edge, EdgeType, Flowchart, Node, NodeType};
use clefeval::rng::SplitMix64;

/// The library's generator, with the draws the workloads need.
pub struct Rng(SplitMix64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(SplitMix64(seed))
    }
    pub fn below(&mut self, n: usize) -> usize {
        self.0.below(n)
    }
    pub fn chance(&mut self, p: f64) -> bool {
        ((self.0.next_u64() >> 11) as f64 / (1u64 << 53) as f64) < p
    }
}

const WORDS: [&str; 12] = [
    "read", "input", "value", "compute", "store", "check", "counter", "signal", "display",
    "update", "buffer", "end",
];

fn label(rng: &mut Rng) -> String {
    let k = 1 + rng.below(3);
    (0..k)
        .map(|_| WORDS[rng.below(WORDS.len())])
        .collect::<Vec<_>>()
        .join(" ")
}

fn node(id: i64, node_type: NodeType, text: String) -> Node {
    Node {
        id,
        node_type,
        text: Some(text),
        location: None,
        line: 0,
    }
}

fn edge(from: i64, to: i64, directed: bool, edge_type: EdgeType) -> Edge {
    Edge {
        from,
        to,
        directed,
        edge_type,
        text: None,
        line: 0,
    }
}

/// A gold flowchart of about `n` nodes (boxes and their reference labels).
pub fn gold(n: usize, rng: &mut Rng) -> Flowchart {
    let boxes = (n * 4 / 5).max(2);
    let mut fc = Flowchart::default();
    for i in 0..boxes {
        let t = if i == 0 || i == boxes - 1 {
            NodeType::Oval
        } else {
            match rng.below(20) {
                0..=2 => NodeType::Diamond,
                3 => NodeType::Parallelogram,
                _ => NodeType::Rectangle,
            }
        };
        fc.nodes.push(node(i as i64 + 1, t, label(rng)));
    }
    for i in 1..boxes {
        fc.edges
            .push(edge(i as i64, i as i64 + 1, true, EdgeType::Plain));
        if fc.nodes[i - 1].node_type == NodeType::Diamond {
            // A branch forward or a loop back.
            let to = rng.below(boxes) + 1;
            fc.edges
                .push(edge(i as i64, to as i64, true, EdgeType::Plain));
        }
    }
    let mut next = boxes as i64 + 1;
    while fc.nodes.len() < n {
        let target = rng.below(boxes) as i64 + 1;
        fc.nodes
            .push(node(next, NodeType::NoBox, format!("S{}", next * 2)));
        fc.edges.push(edge(target, next, false, EdgeType::Wiggly));
        next += 1;
    }
    fc
}

/// Node `gone` merged into node `keep`: its edges move to `keep`, and the
/// edges between the two disappear.
fn merge(fc: &mut Flowchart, keep: i64, gone: i64) {
    fc.nodes.retain(|v| v.id != gone);
    for e in &mut fc.edges {
        if e.from == gone {
            e.from = keep;
        }
        if e.to == gone {
            e.to = keep;
        }
    }
    fc.edges.retain(|e| e.from != e.to);
}

/// A recognizer-like reading of `gold`.
pub fn submission(gold: &Flowchart, rng: &mut Rng) -> Flowchart {
    let mut fc = gold.clone();
    let n = fc.nodes.len();
    // A merged box: the second node of a plain edge between rectangles is
    // absorbed by the first.
    if n > 10
        && let Some(e) = fc.edges.iter().find(|e| {
            let t = |id: i64| fc.nodes.iter().find(|v| v.id == id).map(|v| v.node_type);
            e.directed
                && e.from != e.to
                && t(e.from) == Some(NodeType::Rectangle)
                && t(e.to) == Some(NodeType::Rectangle)
                && rng.chance(0.05)
        })
    {
        let (keep, gone) = (e.from, e.to);
        merge(&mut fc, keep, gone);
    }
    let ids: Vec<i64> = fc.nodes.iter().map(|v| v.id).collect();
    fc.edges.retain(|_| !rng.chance(0.05));
    for e in &mut fc.edges {
        if rng.chance(0.03) {
            std::mem::swap(&mut e.from, &mut e.to);
        }
        if e.directed && rng.chance(0.02) {
            e.directed = false;
        }
    }
    for _ in 0..(ids.len() / 30 + rng.below(2)) {
        let (a, b) = (ids[rng.below(ids.len())], ids[rng.below(ids.len())]);
        fc.edges.push(edge(a, b, true, EdgeType::Plain));
    }
    for v in &mut fc.nodes {
        if rng.chance(0.05) {
            v.node_type = [NodeType::Rectangle, NodeType::Diamond, NodeType::Oval][rng.below(3)];
        }
        if let Some(text) = &mut v.text
            && rng.chance(0.3)
        {
            let mut chars: Vec<char> = text.chars().collect();
            let i = rng.below(chars.len());
            chars[i] = ['0', 'l', '1', 'O', ' '][rng.below(5)];
            *text = chars.into_iter().collect();
        }
    }
    // Another node order, as a recognizer would write it.
    for i in (1..fc.nodes.len()).rev() {
        let j = rng.below(i + 1);
        fc.nodes.swap(i, j);
    }
    fc
}

/// A reading of `gold` by a recognizer that struggled: several merged
/// boxes and split boxes, many missing and spurious edges, reversed arrows,
/// undirected edges read for directed ones, wrong node types and garbled
/// labels, nodes in another order.
pub fn heavy_submission(gold: &Flowchart, rng: &mut Rng) -> Flowchart {
    damaged_submission(gold, rng, 1.0)
}

/// [`heavy_submission`] with its damage scaled by `share` (0 to 1): the
/// counts of merged and split boxes and of spurious edges are rounded
/// `share` times theirs, the chances of a lost, reversed or undirected
/// edge and of a wrong node type `share` times theirs; labels are garbled
/// as there. At 1 it is [`heavy_submission`], draw for draw.
pub fn damaged_submission(gold: &Flowchart, rng: &mut Rng, share: f64) -> Flowchart {
    let scaled = |count: usize| (count as f64 * share).round() as usize;
    let mut fc = gold.clone();
    let mut next = fc.nodes.iter().map(|v| v.id).max().unwrap_or(0) + 1;
    // Merged boxes: the far end of a directed edge is absorbed by its start.
    for _ in 0..scaled(fc.nodes.len() / 25 + 1) {
        let candidates: Vec<(i64, i64)> = fc
            .edges
            .iter()
            .filter(|e| e.directed && e.from != e.to)
            .map(|e| (e.from, e.to))
            .collect();
        if candidates.is_empty() || fc.nodes.len() < 4 {
            break;
        }
        let (keep, gone) = candidates[rng.below(candidates.len())];
        merge(&mut fc, keep, gone);
    }
    // Split boxes: a box becomes two, its outgoing edges leave the second.
    for _ in 0..scaled(fc.nodes.len() / 25 + 1) {
        let v = fc.nodes[rng.below(fc.nodes.len())].clone();
        let twin = next;
        next += 1;
        for e in &mut fc.edges {
            if e.directed && e.from == v.id && rng.chance(0.7) {
                e.from = twin;
            }
        }
        fc.nodes.push(node(twin, v.node_type, label(rng)));
        fc.edges.push(edge(v.id, twin, true, EdgeType::Plain));
    }
    let ids: Vec<i64> = fc.nodes.iter().map(|v| v.id).collect();
    fc.edges.retain(|_| !rng.chance(0.18 * share));
    for e in &mut fc.edges {
        if rng.chance(0.12 * share) {
            std::mem::swap(&mut e.from, &mut e.to);
        }
        if e.directed && rng.chance(0.06 * share) {
            e.directed = false;
        }
    }
    for _ in 0..scaled(ids.len() / 8 + 1) {
        let (a, b) = (ids[rng.below(ids.len())], ids[rng.below(ids.len())]);
        let directed = !rng.chance(0.2);
        fc.edges.push(edge(a, b, directed, EdgeType::Plain));
    }
    for v in &mut fc.nodes {
        if rng.chance(0.15 * share) {
            v.node_type = [
                NodeType::Rectangle,
                NodeType::Diamond,
                NodeType::Oval,
                NodeType::Parallelogram,
                NodeType::NoBox,
            ][rng.below(5)];
        }
        if let Some(text) = &mut v.text {
            let mut chars: Vec<char> = text.chars().collect();
            for _ in 0..rng.below(4) {
                let i = rng.below(chars.len());
                chars[i] = ['0', 'l', '1', 'O', ' ', 'r'][rng.below(6)];
            }
            *text = chars.into_iter().collect();
        }
    }
    for i in (1..fc.nodes.len()).rev() {
        let j = rng.below(i + 1);
        fc.nodes.swap(i, j);
    }
    fc
}

/// 150 gold flowcharts of `min..=max` nodes and `runs` runs of
/// submissions of each, drawn from one generator seeded with `seed`: the
/// `flowchart` bench's workload (4 runs, seed 7); fewer runs give the
/// first ones of it. (Not used by `flowchart_workload.rs`.)
#[allow(dead_code)]
pub fn topics(
    min: usize,
    max: usize,
    runs: usize,
    seed: u64,
) -> (Vec<Flowchart>, Vec<Vec<Flowchart>>) {
    let mut rng = Rng::new(seed);
    let golds: Vec<Flowchart> = (0..150)
        .map(|_| gold(min + rng.below(max - min + 1), &mut rng))
        .collect();
    let runs = (0..runs)
        .map(|_| golds.iter().map(|g| submission(g, &mut rng)).collect())
        .collect();
    (golds, runs)
}

/// `count` pairs (gold, submission), gold sizes drawn in `min..=max`.
pub fn pairs(count: usize, min: usize, max: usize, seed: u64) -> Vec<(Flowchart, Flowchart)> {
    generated(count, min, max, seed, submission)
}

/// `count` heavily damaged pairs ([`heavy_submission`]), gold sizes drawn
/// in `min..=max` nodes.
pub fn heavy_pairs(count: usize, min: usize, max: usize, seed: u64) -> Vec<(Flowchart, Flowchart)> {
    generated(count, min, max, seed, heavy_submission)
}

/// `count` pairs damaged as [`heavy_submission`] scaled by `share`
/// ([`damaged_submission`]), gold sizes drawn in `min..=max` nodes.
pub fn damaged_pairs(
    count: usize,
    min: usize,
    max: usize,
    seed: u64,
    share: f64,
) -> Vec<(Flowchart, Flowchart)> {
    generated(count, min, max, seed, |g, rng| {
        damaged_submission(g, rng, share)
    })
}

/// A renumbered copy of `gold`: the same graph and labels, nodes in
/// another order.
pub fn copy_submission(gold: &Flowchart, rng: &mut Rng) -> Flowchart {
    let mut fc = gold.clone();
    shuffle_nodes(&mut fc, rng);
    fc
}

/// `gold` with its structure kept and its labels read back by OCR: one
/// label in two gets up to three characters misread.
pub fn ocr_submission(gold: &Flowchart, rng: &mut Rng) -> Flowchart {
    let mut fc = gold.clone();
    for v in &mut fc.nodes {
        if let Some(text) = &mut v.text
            && rng.chance(0.5)
        {
            let mut chars: Vec<char> = text.chars().collect();
            for _ in 0..1 + rng.below(3) {
                let i = rng.below(chars.len());
                chars[i] = ['0', 'l', '1', 'O', ' ', 'r', 'c'][rng.below(7)];
            }
            *text = chars.into_iter().collect();
        }
    }
    shuffle_nodes(&mut fc, rng);
    fc
}

fn shuffle_nodes(fc: &mut Flowchart, rng: &mut Rng) {
    for i in (1..fc.nodes.len()).rev() {
        let j = rng.below(i + 1);
        fc.nodes.swap(i, j);
    }
}

/// `count` golds with four readings each: a renumbered copy, OCR'd labels,
/// mild damage ([`submission`]) and heavy damage ([`heavy_submission`]).
/// Gold sizes are skewed towards small charts as real ones are: n = min +
/// ⌊(max − min + 1)·u²⌋ nodes for u uniform in [0, 1), so the median size
/// lies a quarter of the way from `min` to `max`. Each reading draws from
/// its own generator, so one kind of damage does not change another's.
pub fn four_readings(
    count: usize,
    min: usize,
    max: usize,
    seed: u64,
) -> Vec<(Flowchart, [Flowchart; 4])> {
    let mut rng = Rng::new(seed);
    let damages: [fn(&Flowchart, &mut Rng) -> Flowchart; 4] = [
        copy_submission,
        ocr_submission,
        submission,
        heavy_submission,
    ];
    (0..count)
        .map(|k| {
            let u = rng.below(1 << 20) as f64 / (1u64 << 20) as f64;
            let n = min + ((max - min + 1) as f64 * u * u) as usize;
            let g = gold(n, &mut rng);
            let runs = std::array::from_fn(|i| {
                let mut own =
                    Rng::new(seed ^ ((k as u64) << 8 | i as u64).wrapping_mul(0x9e37_79b9));
                damages[i](&g, &mut own)
            });
            (g, runs)
        })
        .collect()
}

/// `count` pairs of a gold of `min..=max` nodes and its reading by `damage`.
fn generated(
    count: usize,
    min: usize,
    max: usize,
    seed: u64,
    damage: impl Fn(&Flowchart, &mut Rng) -> Flowchart,
) -> Vec<(Flowchart, Flowchart)> {
    let mut rng = Rng::new(seed);
    (0..count)
        .map(|_| {
            let n = min + rng.below(max - min + 1);
            let g = gold(n, &mut rng);
            let s = damage(&g, &mut rng);
            (g, s)
        })
        .collect()
}
