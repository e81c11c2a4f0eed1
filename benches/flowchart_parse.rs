//! Reading speed of the flowchart readers: throughput on files of growing
//! size (reading must stay linear) and on one very long line; the same
//! flowcharts written in Mermaid, read by the Mermaid reader beside the
//! CLEF-IP reader (`file` and `mermaid`, same boxes and edges).

use clefeval::flowchart::{ParseOptions, mermaid, parse, write};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

/// A flowchart file with `boxes` boxes, each with a reference label linked
/// by a wiggly edge and a YES/NO branch, as in patent flowcharts.
fn synthetic(boxes: usize) -> String {
    let mut text = format!("MT Title \"Synthetic\"\nMT NO {}\n", 2 * boxes);
    for i in 0..boxes {
        let kind = if i % 3 == 0 { "diamond" } else { "rectangle" };
        text.push_str(&format!(
            "NO {i} {kind} \"Step {i}: check \"value\" ≥ {i}\" ({i},{})\n",
            2 * i
        ));
        text.push_str(&format!("NO {} no-box \"S{i}\"\n", boxes + i));
    }
    for i in 1..boxes {
        text.push_str(&format!("DE {} {i} plain \"YES\"\n", i - 1));
        text.push_str(&format!("UE {i} {} wiggly\n", boxes + i));
    }
    text
}

/// The flowchart of [`synthetic`] written in Mermaid: the same nodes,
/// texts and edges.
fn synthetic_mermaid(boxes: usize) -> String {
    let mut text = String::from("flowchart TD\n");
    for i in 0..boxes {
        let (open, close) = if i % 3 == 0 { ("{", "}") } else { ("[", "]") };
        text.push_str(&format!(
            "    n{i}{open}\"Step {i}: check #quot;value#quot; ≥ {i}\"{close}\n"
        ));
        text.push_str(&format!(
            "    n{}@{{ shape: text, label: \"S{i}\" }}\n",
            boxes + i
        ));
    }
    for i in 1..boxes {
        text.push_str(&format!("    n{} -->|YES| n{i}\n", i - 1));
        text.push_str(&format!("    n{i} -.- n{}\n", boxes + i));
    }
    text
}

fn throughput(c: &mut Criterion) {
    let options = ParseOptions::default();
    let mut group = c.benchmark_group("flowchart_parse");
    for boxes in [1_000, 10_000, 100_000] {
        let text = synthetic(boxes);
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.bench_with_input(BenchmarkId::new("file", text.len()), &text, |b, text| {
            b.iter(|| parse(black_box(text.as_bytes()), "bench.txt", &options))
        });
        let text = synthetic_mermaid(boxes);
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.bench_with_input(BenchmarkId::new("mermaid", text.len()), &text, |b, text| {
            b.iter(|| mermaid::read(black_box(text.as_bytes()), "bench.mmd", &options))
        });
    }
    let line = format!("NO 1 rectangle \"{}\" junk", "\"x ".repeat(1 << 20));
    group.throughput(Throughput::Bytes(line.len() as u64));
    group.bench_with_input(
        BenchmarkId::new("one_line", line.len()),
        &line,
        |b, line| b.iter(|| parse(black_box(line.as_bytes()), "bench.txt", &options)),
    );
    group.finish();
}

fn writing(c: &mut Criterion) {
    let parsed = parse(
        synthetic(10_000).as_bytes(),
        "bench.txt",
        &ParseOptions::default(),
    );
    c.bench_function("flowchart_write/10000_boxes", |b| {
        b.iter(|| write(black_box(&parsed.flowchart)))
    });
}

criterion_group!(benches, throughput, writing);
criterion_main!(benches);
