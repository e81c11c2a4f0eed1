//! The compact graph the search runs on: nodes renumbered `0..n`, one
//! compatibility class per node (the level), and the edge multiset folded
//! into per-pair count vectors over edge "slots".
//!
//! Slots of an ordered node pair `(a, b)`, `a != b`: for every directed edge
//! kind `k`, the number of edges `a → b` (out) and `b → a` (in); for every
//! undirected kind, the number of undirected edges between `a` and `b`.
//! Kinds are one directed and one undirected kind, or one per edge type with
//! `--edge-types`; `--ignore-direction` leaves only undirected kinds.
//! Self-loops are kept apart, per node and kind.
//!
//! Two mapped pairs `(a, x)` and `(b, y)` preserve
//! `Σ_s min(P1[a,b,s], P2[x,y,s])` edges: every edge is counted once, on its
//! unordered node pair (`docs/flowchart-distance.md`).

use super::labels;
use super::settings::{Level, Settings};
use crate::flowchart::{EdgeType, Flowchart, NodeId};
use std::collections::HashMap;

/// Edge multiplicities are stored in 16 bits, saturating (a pair joined by
/// more than 65535 parallel edges is not a flowchart).
pub(crate) type Count = u16;

/// The edge kinds in use and how an edge maps to a slot.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Kinds {
    /// Directed kinds (0 with `--ignore-direction`).
    pub directed: usize,
    /// Undirected kinds.
    pub undirected: usize,
    edge_types: bool,
}

impl Kinds {
    pub fn new(settings: &Settings, level: Level) -> Self {
        let edge_types = settings.edge_types && level != Level::Basic;
        let per_type = if edge_types { EdgeType::ALL.len() } else { 1 };
        Kinds {
            directed: if settings.ignore_direction {
                0
            } else {
                per_type
            },
            undirected: per_type,
            edge_types,
        }
    }

    /// Slots per ordered pair: out and in per directed kind, one per undirected kind.
    pub fn slots(&self) -> usize {
        2 * self.directed + self.undirected
    }

    /// Self-loop kinds: one per directed and per undirected kind.
    pub fn loop_kinds(&self) -> usize {
        self.directed + self.undirected
    }

    fn type_index(&self, t: EdgeType) -> usize {
        if self.edge_types { t as usize } else { 0 }
    }

    /// For an edge read as directed: its kind index among directed kinds;
    /// `None` when it is read as undirected.
    fn directed_kind(&self, directed: bool, t: EdgeType) -> Option<usize> {
        (directed && self.directed > 0).then(|| self.type_index(t))
    }
}

/// One flowchart as the search sees it.
#[derive(Clone, Debug)]
pub(crate) struct Graph {
    pub n: usize,
    pub kinds: Kinds,
    /// Compatibility class of each node (0 for all at the basic level).
    pub class: Vec<u16>,
    /// Node types (as numbers), by internal index: a search hint at the
    /// basic level.
    pub types: Vec<u16>,
    /// The node ids of the file, by internal index.
    pub ids: Vec<NodeId>,
    /// Normalized labels, by internal index (scored at the complete level,
    /// a search hint at the others).
    pub labels: Vec<String>,
    /// Slot counts towards each neighbour, aligned with `adj`:
    /// `counts[a][i * slots + s]` for `adj[a][i]` (sparse: memory linear in
    /// the edges, not n²).
    counts: Vec<Vec<Count>>,
    /// `loops[a * loop_kinds + k]`.
    loops: Vec<Count>,
    /// Distinct neighbours of each node (self excluded), ascending.
    pub adj: Vec<Vec<u32>>,
    /// Number of edges (the multiset size).
    pub edges: usize,
}

impl Graph {
    /// Builds the compact graph of `fc` at `level`. Edges naming an unknown
    /// node id are skipped (the reader rejects such files before scoring).
    pub fn new(fc: &Flowchart, settings: &Settings, level: Level) -> Self {
        let kinds = Kinds::new(settings, level);
        let n = fc.nodes.len();
        let index: HashMap<NodeId, usize> = fc
            .nodes
            .iter()
            .enumerate()
            .map(|(i, v)| (v.id, i))
            .collect();
        let class = fc
            .nodes
            .iter()
            .map(|v| match level {
                Level::Basic => 0,
                Level::Intermediate | Level::Complete => v.node_type as u16,
            })
            .collect();
        let labels = fc
            .nodes
            .iter()
            .map(|v| labels::normalize(v.text.as_deref().unwrap_or(""), settings.exact_labels))
            .collect();
        let mut g = Graph {
            n,
            kinds,
            class,
            types: fc.nodes.iter().map(|v| v.node_type as u16).collect(),
            ids: fc.nodes.iter().map(|v| v.id).collect(),
            labels,
            counts: vec![Vec::new(); n],
            loops: vec![0; n * kinds.loop_kinds()],
            adj: vec![Vec::new(); n],
            edges: 0,
        };
        let ends = g.edge_ends(fc, &index);
        g.fold_ends(ends);
        g
    }

    /// Counts the edges of `fc` and its self-loops per kind, and returns
    /// every other edge's two ends as (neighbour, slot) per node (`index`:
    /// the node of each id; edges naming an unknown id are skipped).
    fn edge_ends(&mut self, fc: &Flowchart, index: &HashMap<NodeId, usize>) -> Vec<Vec<(u32, u8)>> {
        let kinds = self.kinds;
        let mut ends: Vec<Vec<(u32, u8)>> = vec![Vec::new(); self.n];
        for e in &fc.edges {
            let (Some(&a), Some(&b)) = (index.get(&e.from), index.get(&e.to)) else {
                continue;
            };
            self.edges += 1;
            let directed_kind = kinds.directed_kind(e.directed, e.edge_type);
            if a == b {
                let k = match directed_kind {
                    Some(k) => k,
                    None => kinds.directed + kinds.type_index(e.edge_type),
                };
                if let Some(c) = self.loops.get_mut(a * kinds.loop_kinds() + k) {
                    *c = c.saturating_add(1);
                }
                continue;
            }
            let (slot_ab, slot_ba) = match directed_kind {
                Some(k) => (k, k + kinds.directed),
                None => {
                    let s = 2 * kinds.directed + kinds.type_index(e.edge_type);
                    (s, s)
                }
            };
            for (u, v, s) in [(a, b, slot_ab), (b, a, slot_ba)] {
                if let Some(list) = ends.get_mut(u) {
                    list.push((v as u32, s as u8));
                }
            }
        }
        ends
    }

    /// Folds each node's edge ends into its distinct neighbours (`adj`)
    /// and their slot counts.
    fn fold_ends(&mut self, mut ends: Vec<Vec<(u32, u8)>>) {
        let slots = self.kinds.slots();
        for ((list, adj), counts) in ends.iter_mut().zip(&mut self.adj).zip(&mut self.counts) {
            list.sort_unstable();
            for &(v, s) in list.iter() {
                if adj.last() != Some(&v) {
                    adj.push(v);
                    counts.extend(std::iter::repeat_n(0, slots));
                }
                let at = (adj.len() - 1) * slots + s as usize;
                if let Some(c) = counts.get_mut(at) {
                    *c = c.saturating_add(1);
                }
            }
        }
    }

    /// The slot counts of the ordered pair `(a, b)`.
    #[inline]
    pub fn pair(&self, a: usize, b: usize) -> &[Count] {
        let s = self.kinds.slots();
        let found = self
            .adj
            .get(a)
            .zip(self.counts.get(a))
            .and_then(|(adj, counts)| {
                let i = adj.binary_search(&(b as u32)).ok()?;
                counts.get(i * s..(i + 1) * s)
            });
        found.unwrap_or(ZEROS.get(..s).unwrap_or(&[]))
    }

    /// The neighbours of `a` (ascending) with the slot counts of `(a, b)`.
    #[inline]
    pub fn neighbours(&self, a: usize) -> impl Iterator<Item = (usize, &[Count])> {
        let s = self.kinds.slots().max(1);
        let adj = self.adj.get(a).map_or(&[][..], Vec::as_slice);
        let counts = self.counts.get(a).map_or(&[][..], Vec::as_slice);
        adj.iter()
            .zip(counts.chunks_exact(s))
            .map(|(&b, c)| (b as usize, c))
    }

    /// The self-loop counts of `a`, per loop kind.
    #[inline]
    pub fn loops(&self, a: usize) -> &[Count] {
        let k = self.kinds.loop_kinds();
        self.loops.get(a * k..a * k + k).unwrap_or(&[])
    }

    /// Number of compatibility classes in use (max class + 1).
    pub fn class_count(&self) -> usize {
        self.class
            .iter()
            .map(|&c| c as usize + 1)
            .max()
            .unwrap_or(0)
    }
}

/// Edge counts split by the end they are seen from: per slot, out slots
/// count directed edges at their tails, in slots at their heads, and
/// undirected slots at both ends. Bounds on edges among free nodes count
/// each directed edge at one end and each undirected edge as two halves.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct EndCounts<T> {
    pub tails: T,
    pub heads: T,
    pub both: T,
}

impl<T: std::ops::AddAssign> EndCounts<T> {
    /// Adds `n` edge ends of `slot` (taken modulo the slots per pair).
    #[inline]
    pub fn add(&mut self, kinds: Kinds, slot: usize, n: T) {
        match slot % kinds.slots().max(1) {
            s if s < kinds.directed => self.tails += n,
            s if s < 2 * kinds.directed => self.heads += n,
            _ => self.both += n,
        }
    }
}

/// Counts of a pair of nodes with no edge between them (slots are at most
/// 2 × 4 directed + 4 undirected = 12).
static ZEROS: [Count; 16] = [0; 16];

/// Edges preserved between two ordered pairs' count vectors.
#[inline]
pub(crate) fn preserved(p: &[Count], q: &[Count]) -> u32 {
    p.iter().zip(q).map(|(&a, &b)| a.min(b) as u32).sum()
}
