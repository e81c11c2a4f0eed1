//! A simple layered layout for drawing a flowchart (the `--html` report):
//! cycles broken by reversing the back edges of a depth-first search,
//! longest-path layering from the sources, then the order within each layer
//! by the barycentre of the neighbours in the layer above (down sweeps) and
//! below (up sweeps). No dummy nodes: an edge spanning several layers is
//! drawn straight. Deterministic: ties keep the previous order, which starts
//! as the nodes' file order.

/// Where each node goes: its layer (0 at the top) and its slot in the layer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Layer of each node, by node index.
    pub layer: Vec<usize>,
    /// Position of each node within its layer (0 on the left), by node index.
    pub slot: Vec<usize>,
    /// Nodes in each layer, left to right.
    pub layers: Vec<Vec<usize>>,
}

/// Down and up sweep pairs of the barycentre ordering.
const SWEEPS: usize = 4;

/// Lays out `n` nodes joined by `edges` (from, to); edges naming a node
/// outside `0..n` are ignored, self-loops do not affect the layout.
pub fn layered(n: usize, edges: &[(usize, usize)]) -> Layout {
    let (edges, forward) = laid_out(n, edges);
    let layer = longest_path_layers(n, &forward);
    let count = layer.iter().max().map_or(0, |m| m + 1);
    let mut layers: Vec<Vec<usize>> = vec![Vec::new(); count];
    for (v, &l) in layer.iter().enumerate() {
        if let Some(list) = layers.get_mut(l) {
            list.push(v);
        }
    }
    // Undirected neighbour lists (parallel edges weigh more).
    let mut neighbours: Vec<Vec<usize>> = vec![Vec::new(); n];
    for &(a, b) in &edges {
        for (u, v) in [(a, b), (b, a)] {
            if let Some(list) = neighbours.get_mut(u) {
                list.push(v);
            }
        }
    }
    let mut slot = vec![0usize; n];
    renumber(&layers, &mut slot);
    for _ in 0..SWEEPS {
        for l in 1..count {
            reorder(&mut layers, l, l - 1, &layer, &neighbours, &mut slot);
        }
        for l in (0..count.saturating_sub(1)).rev() {
            reorder(&mut layers, l, l + 1, &layer, &neighbours, &mut slot);
        }
    }
    Layout {
        layer,
        slot,
        layers,
    }
}

/// The layout of `n` nodes joined by `edges` that follows another
/// drawing's: a node with a `guide` (layer, slot) takes that layer and is
/// ordered by that slot within it; a node without one goes one layer
/// below its deepest predecessor (over the edges made acyclic as in
/// [`layered`]), or on top when it has none, after the guided nodes of its
/// layer in index order. No sweeps: the guided order is kept as given.
pub fn guided(n: usize, edges: &[(usize, usize)], guide: &[Option<(usize, usize)>]) -> Layout {
    let (_, forward) = laid_out(n, edges);
    let guide_of = |v: usize| guide.get(v).copied().flatten();
    let layer = layers_below(n, &forward, &|v| guide_of(v).map(|(l, _)| l));
    let count = layer.iter().max().map_or(0, |m| m + 1);
    let mut layers: Vec<Vec<usize>> = vec![Vec::new(); count];
    for (v, &l) in layer.iter().enumerate() {
        if let Some(list) = layers.get_mut(l) {
            list.push(v);
        }
    }
    for list in &mut layers {
        list.sort_by_key(|&v| match guide_of(v) {
            Some((_, slot)) => (0, slot, v),
            None => (1, 0, v),
        });
    }
    let mut slot = vec![0usize; n];
    renumber(&layers, &mut slot);
    Layout {
        layer,
        slot,
        layers,
    }
}

/// Edges as (from, to) node indices.
type Edges = Vec<(usize, usize)>;

/// The edges that count for a layout of `n` nodes (both ends among them,
/// no self-loop), and the same with the back edges reversed
/// ([`acyclic`]).
fn laid_out(n: usize, edges: &[(usize, usize)]) -> (Edges, Edges) {
    let edges: Vec<(usize, usize)> = edges
        .iter()
        .copied()
        .filter(|&(a, b)| a < n && b < n && a != b)
        .collect();
    let forward = acyclic(n, &edges);
    (edges, forward)
}

/// The nodes of an acyclic graph in an order where every edge goes
/// forward (Kahn's, the lowest index first among the ready ones).
fn topological(n: usize, edges: &[(usize, usize)]) -> Vec<usize> {
    let mut succ: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut indegree = vec![0usize; n];
    for &(a, b) in edges {
        if let (Some(list), Some(d)) = (succ.get_mut(a), indegree.get_mut(b)) {
            list.push(b);
            *d += 1;
        }
    }
    let mut ready: std::collections::BTreeSet<usize> =
        (0..n).filter(|&v| indegree.get(v) == Some(&0)).collect();
    let mut order = Vec::with_capacity(n);
    while let Some(u) = ready.pop_first() {
        order.push(u);
        for &v in succ.get(u).map_or(&[][..], Vec::as_slice) {
            if let Some(d) = indegree.get_mut(v) {
                *d -= 1;
                if *d == 0 {
                    ready.insert(v);
                }
            }
        }
    }
    order
}

/// The edges with every back edge of a depth-first search (nodes started in
/// index order, neighbours in edge order) reversed, so none forms a cycle.
fn acyclic(n: usize, edges: &[(usize, usize)]) -> Vec<(usize, usize)> {
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (e, &(a, _)) in edges.iter().enumerate() {
        if let Some(list) = out.get_mut(a) {
            list.push(e);
        }
    }
    // 0 = unseen, 1 = on the stack, 2 = done; `next`: the out-edge of each
    // node to explore next.
    let mut state = vec![0u8; n];
    let mut next = vec![0usize; n];
    let mut reversed = vec![false; edges.len()];
    for start in 0..n {
        if state.get(start) != Some(&0) {
            continue;
        }
        let mut stack = vec![start];
        if let Some(s) = state.get_mut(start) {
            *s = 1;
        }
        while let Some(&u) = stack.last() {
            let cursor = next.get(u).copied().unwrap_or(0);
            let edge = out.get(u).and_then(|list| list.get(cursor)).copied();
            let Some(e) = edge else {
                if let Some(s) = state.get_mut(u) {
                    *s = 2;
                }
                stack.pop();
                continue;
            };
            if let Some(c) = next.get_mut(u) {
                *c += 1;
            }
            let Some(&(_, v)) = edges.get(e) else {
                continue;
            };
            match state.get(v) {
                Some(0) => {
                    if let Some(s) = state.get_mut(v) {
                        *s = 1;
                    }
                    stack.push(v);
                }
                Some(1) => {
                    if let Some(r) = reversed.get_mut(e) {
                        *r = true;
                    }
                }
                _ => {}
            }
        }
    }
    edges
        .iter()
        .zip(reversed)
        .map(|(&(a, b), r)| if r { (b, a) } else { (a, b) })
        .collect()
}

/// Layer of each node in an acyclic graph: 0 for sources, else one more
/// than its deepest predecessor.
fn longest_path_layers(n: usize, edges: &[(usize, usize)]) -> Vec<usize> {
    layers_below(n, edges, &|_| None)
}

/// Layer of each node in an acyclic graph: `fixed(v)` when it gives one,
/// else 0 for a node without predecessors and one more than its deepest
/// predecessor for the others (in topological order).
fn layers_below(
    n: usize,
    edges: &[(usize, usize)],
    fixed: &dyn Fn(usize) -> Option<usize>,
) -> Vec<usize> {
    let mut preds: Vec<Vec<usize>> = vec![Vec::new(); n];
    for &(a, b) in edges {
        if let Some(list) = preds.get_mut(b) {
            list.push(a);
        }
    }
    let mut layer = vec![0usize; n];
    for v in topological(n, edges) {
        let below = (preds.get(v).map_or(&[][..], Vec::as_slice).iter())
            .filter_map(|&p| layer.get(p).map(|l| l + 1))
            .max()
            .unwrap_or(0);
        if let Some(l) = layer.get_mut(v) {
            *l = fixed(v).unwrap_or(below);
        }
    }
    layer
}

fn renumber(layers: &[Vec<usize>], slot: &mut [usize]) {
    for list in layers {
        for (i, &v) in list.iter().enumerate() {
            if let Some(s) = slot.get_mut(v) {
                *s = i;
            }
        }
    }
}

/// Orders layer `l` by the mean slot of each node's neighbours in layer
/// `other`; a node without such neighbours keeps its own slot as its key.
fn reorder(
    layers: &mut [Vec<usize>],
    l: usize,
    other: usize,
    layer: &[usize],
    neighbours: &[Vec<usize>],
    slot: &mut [usize],
) {
    let Some(list) = layers.get(l) else {
        return;
    };
    let mut keyed: Vec<(f64, usize, usize)> = list
        .iter()
        .map(|&v| {
            let own = slot.get(v).copied().unwrap_or(0);
            let near: Vec<usize> = neighbours
                .get(v)
                .map_or(&[][..], Vec::as_slice)
                .iter()
                .filter(|&&u| layer.get(u) == Some(&other))
                .filter_map(|&u| slot.get(u).copied())
                .collect();
            let key = if near.is_empty() {
                own as f64
            } else {
                near.iter().sum::<usize>() as f64 / near.len() as f64
            };
            (key, own, v)
        })
        .collect();
    keyed.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let ordered: Vec<usize> = keyed.into_iter().map(|(_, _, v)| v).collect();
    for (i, &v) in ordered.iter().enumerate() {
        if let Some(s) = slot.get_mut(v) {
            *s = i;
        }
    }
    if let Some(list) = layers.get_mut(l) {
        *list = ordered;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chain_with_a_loop_back_is_one_node_per_layer() {
        // 0 → 1 → 2 → 3 and 3 → 1: the back edge is reversed.
        let l = layered(4, &[(0, 1), (1, 2), (2, 3), (3, 1)]);
        assert_eq!(l.layer, vec![0, 1, 2, 3]);
        assert_eq!(l.layers, vec![vec![0], vec![1], vec![2], vec![3]]);
    }

    #[test]
    fn layers_are_longest_paths_from_the_sources() {
        // 0 → 1 → 3, 0 → 3, 2 isolated, 4 → 3 and a self-loop on 4.
        let l = layered(5, &[(0, 1), (1, 3), (0, 3), (4, 3), (4, 4), (9, 0)]);
        assert_eq!(l.layer, vec![0, 1, 0, 2, 0]);
        assert_eq!(l.layers.len(), 3);
        for (v, (&layer, &slot)) in l.layer.iter().zip(&l.slot).enumerate() {
            assert_eq!(l.layers[layer][slot], v);
        }
    }

    #[test]
    fn barycentres_uncross_two_parallel_chains() {
        // 0 → 3 and 1 → 2: in file order the two edges would cross; 3 goes
        // under 0 (slot 0) and 2 under 1 (slot 1).
        let l = layered(4, &[(0, 3), (1, 2)]);
        assert_eq!(l.layer, vec![0, 0, 1, 1]);
        assert_eq!(l.layers, vec![vec![0, 1], vec![3, 2]]);
        assert_eq!(l.slot, vec![0, 1, 1, 0]);
    }

    proptest::proptest! {
        /// Any graph: every node in exactly one layer at its slot, the ends of
        /// every edge (self-loops aside) in different layers, longest paths:
        /// a node below layer 0 has a neighbour exactly one layer up.
        #[test]
        fn every_edge_crosses_layers_and_layers_are_tight(
            n in 1usize..24,
            raw in proptest::collection::vec((0usize..24, 0usize..24), 0..60),
        ) {
            let edges: Vec<(usize, usize)> = raw.into_iter().map(|(a, b)| (a % n, b % n)).collect();
            let l = layered(n, &edges);
            let mut seen: Vec<usize> = l.layers.iter().flatten().copied().collect();
            seen.sort_unstable();
            proptest::prop_assert_eq!(seen, (0..n).collect::<Vec<_>>());
            for v in 0..n {
                proptest::prop_assert_eq!(l.layers[l.layer[v]][l.slot[v]], v);
            }
            for &(a, b) in &edges {
                proptest::prop_assert!(a == b || l.layer[a] != l.layer[b]);
            }
            for v in (0..n).filter(|&v| l.layer[v] > 0) {
                let up = edges.iter().any(|&(a, b)| {
                    (a == v && l.layer[b] + 1 == l.layer[v]) || (b == v && l.layer[a] + 1 == l.layer[v])
                });
                proptest::prop_assert!(up, "node {} in layer {} has no neighbour above", v, l.layer[v]);
            }
        }
    }

    #[test]
    fn a_guided_layout_keeps_the_guides_and_hangs_the_rest_below_their_predecessors() {
        // 0 -> 1 -> 2, 1 -> 3; 0 and 2 guided (layer 0 slot 0, layer 1
        // slot 5), 1 and 3 free.
        let layout = guided(
            4,
            &[(0, 1), (1, 2), (1, 3)],
            &[Some((0, 0)), None, Some((1, 5)), None],
        );
        assert_eq!(layout.layer, [0, 1, 1, 2]);
        // In layer 1 the guided node 2 comes before the free node 1.
        assert_eq!(layout.layers, [vec![0], vec![2, 1], vec![3]]);
        assert_eq!(layout.slot, [0, 1, 0, 0]);
        // Without guides it is the longest-path layering.
        let free = guided(3, &[(0, 1), (1, 2), (2, 0)], &[]);
        assert_eq!(free.layer, [0, 1, 2]);
    }

    #[test]
    fn empty_and_cyclic_graphs_lay_out() {
        assert_eq!(layered(0, &[]).layers, Vec::<Vec<usize>>::new());
        // A pure cycle: the DFS from node 0 reverses 2 → 0.
        let l = layered(3, &[(0, 1), (1, 2), (2, 0)]);
        assert_eq!(l.layer, vec![0, 1, 2]);
    }
}
