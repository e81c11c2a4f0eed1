//! Drawing speed of the flowchart HTML report: the layered layout and the
//! SVG of a graph, on the largest golden flowchart (FC-0004, 52 nodes) and
//! on synthetic flowcharts of growing size (a chain of boxes with YES
//! branches back up and one label per box), which must stay near linear.

use clefeval::flowchart::layout::layered;
use clefeval::flowchart::svg::{graph_svg, layout_of};
use clefeval::flowchart::{ParseOptions, read_file};
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use std::collections::HashMap;
use std::hint::black_box;
use std::path::Path;

/// Edges of `boxes` boxes in a chain, every third one looping back two
/// boxes up, each box with its label node.
fn synthetic(boxes: usize) -> (usize, Vec<(usize, usize)>) {
    let mut edges = Vec::new();
    for i in 1..boxes {
        edges.push((i - 1, i));
        if i % 3 == 0 && i >= 2 {
            edges.push((i, i - 2));
        }
    }
    edges.extend((0..boxes).map(|i| (i, boxes + i)));
    (2 * boxes, edges)
}

fn drawing(c: &mut Criterion) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("goldens/flowchart/gold/FC-0004.txt");
    let fc = read_file(&path, &ParseOptions::default()).flowchart;
    let partners = HashMap::new();
    let kept = vec![true; fc.edges.len()];
    let mut group = c.benchmark_group("report_html");
    group.bench_function("graph_svg/FC-0004", |b| {
        b.iter(|| {
            let fc = black_box(&fc);
            graph_svg(fc, &layout_of(fc), &partners, &kept)
        })
    });
    for boxes in [100, 1_000, 10_000] {
        let (n, edges) = synthetic(boxes);
        group.bench_with_input(BenchmarkId::new("layered", n), &edges, |b, edges| {
            b.iter(|| layered(n, black_box(edges)))
        });
    }
    group.finish();
}

criterion_group!(benches, drawing);
criterion_main!(benches);
