//! An independent brute-force reference for the flowchart distance of
//! `docs/flowchart-distance.md`, sharing no code with
//! the solver: it tries every injective partial mapping of compatible nodes
//! and counts preserved edges straight from the definition (per ordered pair
//! of mapped nodes and edge kind, the smaller of the two counts; a directed
//! edge u→v only by m(u)→m(v), an undirected edge only by an undirected one).

use clefeval::flowchart::Flowchart;
use std::collections::HashMap;

/// Options of the reference (the switches of `docs/flowchart-distance.md`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Opts {
    /// Node types must be equal (intermediate and complete levels).
    pub typed: bool,
    pub induced: bool,
    pub ignore_direction: bool,
    pub edge_types: bool,
    pub exact_labels: bool,
}

/// What the reference finds.
#[derive(Clone, Debug)]
pub struct Reference {
    pub size: usize,
    /// Number of mappings of maximum size.
    pub count: u64,
    /// Least label cost among them.
    pub best_cost: f64,
    /// Label cost and mapped node count of every maximum mapping.
    pub costs: Vec<(f64, usize)>,
}

/// Edge key: (u, v, directed, type); undirected keys have u <= v.
type Key = (usize, usize, bool, u8);

fn edge_bins(fc: &Flowchart, o: Opts) -> HashMap<Key, usize> {
    let index: HashMap<i64, usize> = fc
        .nodes
        .iter()
        .enumerate()
        .map(|(i, n)| (n.id, i))
        .collect();
    let mut bins = HashMap::new();
    for e in &fc.edges {
        let (u, v) = (index[&e.from], index[&e.to]);
        let directed = e.directed && !o.ignore_direction;
        let t = if o.edge_types {
            e.edge_type as u8 + 1
        } else {
            0
        };
        let key = if directed {
            (u, v, true, t)
        } else {
            (u.min(v), u.max(v), false, t)
        };
        *bins.entry(key).or_insert(0) += 1;
    }
    bins
}

fn norm(s: &str, exact: bool) -> Vec<char> {
    if exact {
        return s.chars().collect();
    }
    let words: Vec<&str> = s.split_whitespace().collect();
    words.join(" ").to_lowercase().chars().collect()
}

/// Plain dynamic-programming Levenshtein distance over chars, divided by
/// the longer length.
pub fn ned(a: &[char], b: &[char]) -> f64 {
    if a.is_empty() && b.is_empty() {
        return 0.0;
    }
    let mut d: Vec<Vec<usize>> = vec![vec![0; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let sub = d[i - 1][j - 1] + usize::from(a[i - 1] != b[j - 1]);
            d[i][j] = sub.min(d[i - 1][j] + 1).min(d[i][j - 1] + 1);
        }
    }
    d[a.len()][b.len()] as f64 / a.len().max(b.len()) as f64
}

struct Ctx<'a> {
    t: &'a Flowchart,
    s: &'a Flowchart,
    o: Opts,
    bt: HashMap<Key, usize>,
    bs: HashMap<Key, usize>,
    labels_t: Vec<Vec<char>>,
    labels_s: Vec<Vec<char>>,
    m: Vec<Option<usize>>,
    used: Vec<bool>,
    all: Vec<(usize, f64, usize)>,
}

fn image(key: Key, m: &[Option<usize>]) -> Option<Key> {
    let (u, v, d, t) = key;
    let (x, y) = (m[u]?, m[v]?);
    Some(if d {
        (x, y, d, t)
    } else {
        (x.min(y), x.max(y), d, t)
    })
}

impl Ctx<'_> {
    fn compatible(&self, a: usize, x: usize) -> bool {
        !self.o.typed || self.t.nodes[a].node_type == self.s.nodes[x].node_type
    }

    fn score(&self) -> Option<(usize, f64, usize)> {
        let mapped = self.m.iter().flatten().count();
        let mut preserved = 0;
        let mut among_t = 0;
        for (&key, &c) in &self.bt {
            if let Some(img) = image(key, &self.m) {
                among_t += c;
                preserved += c.min(*self.bs.get(&img).unwrap_or(&0));
            }
        }
        if self.o.induced {
            let mut inv = vec![None; self.s.nodes.len()];
            for (a, x) in self.m.iter().enumerate() {
                if let Some(x) = x {
                    inv[*x] = Some(a);
                }
            }
            let among_s: usize = self
                .bs
                .iter()
                .filter(|(k, _)| image(**k, &inv).is_some())
                .map(|(_, c)| c)
                .sum();
            if preserved != among_t || preserved != among_s {
                return None;
            }
        }
        let cost = self
            .m
            .iter()
            .enumerate()
            .filter_map(|(a, x)| x.map(|x| ned(&self.labels_t[a], &self.labels_s[x])))
            .sum();
        Some((mapped + preserved, cost, mapped))
    }

    fn go(&mut self, a: usize) {
        if a == self.t.nodes.len() {
            if let Some(r) = self.score() {
                self.all.push(r);
            }
            return;
        }
        self.m[a] = None;
        self.go(a + 1);
        for x in 0..self.s.nodes.len() {
            if !self.used[x] && self.compatible(a, x) {
                self.used[x] = true;
                self.m[a] = Some(x);
                self.go(a + 1);
                self.m[a] = None;
                self.used[x] = false;
            }
        }
    }
}

/// The maximum common subgraphs of `t` (gold) and `s` (submission) by
/// exhaustive enumeration.
pub fn reference(t: &Flowchart, s: &Flowchart, o: Opts) -> Reference {
    let label =
        |n: &clefeval::flowchart::Node| norm(n.text.as_deref().unwrap_or(""), o.exact_labels);
    let mut ctx = Ctx {
        t,
        s,
        o,
        bt: edge_bins(t, o),
        bs: edge_bins(s, o),
        labels_t: t.nodes.iter().map(label).collect(),
        labels_s: s.nodes.iter().map(label).collect(),
        m: vec![None; t.nodes.len()],
        used: vec![false; s.nodes.len()],
        all: Vec::new(),
    };
    ctx.go(0);
    let size = ctx.all.iter().map(|r| r.0).max().unwrap_or(0);
    let costs: Vec<(f64, usize)> = ctx
        .all
        .iter()
        .filter(|r| r.0 == size)
        .map(|r| (r.1, r.2))
        .collect();
    let best_cost = costs.iter().map(|c| c.0).fold(f64::INFINITY, f64::min);
    Reference {
        size,
        count: costs.len() as u64,
        best_cost,
        costs,
    }
}

/// Size of a given mapping by the definition (for checking reported mappings).
pub fn mapping_size(t: &Flowchart, s: &Flowchart, o: Opts, pairs: &[(i64, i64)]) -> usize {
    let it: HashMap<i64, usize> = t.nodes.iter().enumerate().map(|(i, n)| (n.id, i)).collect();
    let is: HashMap<i64, usize> = s.nodes.iter().enumerate().map(|(i, n)| (n.id, i)).collect();
    let mut m = vec![None; t.nodes.len()];
    for (a, x) in pairs {
        m[it[a]] = Some(is[x]);
    }
    let bt = edge_bins(t, o);
    let bs = edge_bins(s, o);
    let preserved: usize = bt
        .iter()
        .filter_map(|(&k, &c)| image(k, &m).map(|img| c.min(*bs.get(&img).unwrap_or(&0))))
        .sum();
    pairs.len() + preserved
}

/// Label cost of a given mapping.
pub fn mapping_cost(t: &Flowchart, s: &Flowchart, exact: bool, pairs: &[(i64, i64)]) -> f64 {
    let text = |fc: &Flowchart, id: i64| {
        let n = fc
            .nodes
            .iter()
            .find(|n| n.id == id)
            .map(|n| n.text.clone().unwrap_or_default());
        norm(&n.unwrap_or_default(), exact)
    };
    pairs
        .iter()
        .map(|&(a, x)| ned(&text(t, a), &text(s, x)))
        .sum()
}
