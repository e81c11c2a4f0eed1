//! Reading speed of the flowchart readers: throughput on files of growing
//! size (reading must stay linear) and on one very long line; the same
//! flowcharts written in Mermaid, DOT, GraphML (yEd) and draw.io, read by
//! their readers beside the CLEF-IP reader (`file`, `mermaid`, `dot`,
//! `graphml`, `drawio`: the same boxes, texts and edges).

use clefeval::flowchart::{ParseOptions, dot, drawio, graphml, mermaid, parse, write};
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

/// The flowchart of [`synthetic`] in DOT.
fn synthetic_dot(boxes: usize) -> String {
    let mut text = String::from("digraph Synthetic {\n    node [shape=box];\n");
    for i in 0..boxes {
        let shape = if i % 3 == 0 { ", shape=diamond" } else { "" };
        text.push_str(&format!(
            "    n{i} [label=\"Step {i}: check \\\"value\\\" ≥ {i}\"{shape}];\n"
        ));
        text.push_str(&format!(
            "    n{} [label=\"S{i}\", shape=plaintext];\n",
            boxes + i
        ));
    }
    for i in 1..boxes {
        text.push_str(&format!("    n{} -> n{i} [label=YES];\n", i - 1));
        text.push_str(&format!(
            "    n{i} -> n{} [dir=none, clef_type=wiggly];\n",
            boxes + i
        ));
    }
    text.push_str("}\n");
    text
}

/// The flowchart of [`synthetic`] in GraphML as yEd writes it.
fn synthetic_graphml(boxes: usize) -> String {
    let mut text = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\" \
         xmlns:y=\"http://www.yworks.com/xml/graphml\">\n<key for=\"node\" id=\"d6\" yfiles.type=\"nodegraphics\"/>\n\
         <key for=\"edge\" id=\"d10\" yfiles.type=\"edgegraphics\"/>\n\
         <key for=\"edge\" id=\"ct\" attr.name=\"clef_type\" attr.type=\"string\"/>\n\
         <graph id=\"G\" edgedefault=\"directed\">\n",
    );
    let node = |id: usize, shape: &str, label: &str| {
        format!(
            "<node id=\"n{id}\"><data key=\"d6\"><y:ShapeNode><y:Geometry height=\"30.0\" width=\"120.0\" x=\"0.0\" y=\"0.0\"/>\
             <y:Shape type=\"{shape}\"/><y:NodeLabel>{label}</y:NodeLabel></y:ShapeNode></data></node>\n"
        )
    };
    for i in 0..boxes {
        let shape = if i % 3 == 0 { "diamond" } else { "rectangle" };
        text.push_str(&node(
            i,
            shape,
            &format!("Step {i}: check &quot;value&quot; ≥ {i}"),
        ));
        text.push_str(&format!(
            "<node id=\"n{}\"><data key=\"d6\"><y:GenericNode configuration=\"com.yworks.flowchart.annotation\">\
             <y:NodeLabel>S{i}</y:NodeLabel></y:GenericNode></data></node>\n",
            boxes + i
        ));
    }
    for i in 1..boxes {
        text.push_str(&format!(
            "<edge source=\"n{}\" target=\"n{i}\"><data key=\"d10\"><y:PolyLineEdge>\
             <y:LineStyle type=\"line\"/><y:EdgeLabel>YES</y:EdgeLabel></y:PolyLineEdge></data></edge>\n",
            i - 1
        ));
        text.push_str(&format!(
            "<edge source=\"n{i}\" target=\"n{}\" directed=\"false\"><data key=\"ct\">wiggly</data></edge>\n",
            boxes + i
        ));
    }
    text.push_str("</graph>\n</graphml>\n");
    text
}

/// The flowchart of [`synthetic`] as an uncompressed draw.io file.
fn synthetic_drawio(boxes: usize) -> String {
    let mut text = String::from(
        "<mxfile host=\"app.diagrams.net\">\n<diagram id=\"p\" name=\"Page-1\"><mxGraphModel><root>\n\
         <mxCell id=\"0\"/>\n<mxCell id=\"1\" parent=\"0\"/>\n",
    );
    for i in 0..boxes {
        let style = if i % 3 == 0 {
            "rhombus;whiteSpace=wrap;html=1;"
        } else {
            "rounded=0;whiteSpace=wrap;html=1;"
        };
        text.push_str(&format!(
            "<mxCell id=\"v{i}\" value=\"Step {i}: check &amp;quot;value&amp;quot; ≥ {i}\" style=\"{style}\" vertex=\"1\" parent=\"1\">\
             <mxGeometry x=\"0\" y=\"{}\" width=\"120\" height=\"60\" as=\"geometry\"/></mxCell>\n",
            80 * i
        ));
        text.push_str(&format!(
            "<mxCell id=\"v{}\" value=\"S{i}\" style=\"text;html=1;\" vertex=\"1\" parent=\"1\">\
             <mxGeometry x=\"200\" y=\"{}\" width=\"60\" height=\"30\" as=\"geometry\"/></mxCell>\n",
            boxes + i,
            80 * i
        ));
    }
    for i in 1..boxes {
        text.push_str(&format!(
            "<mxCell id=\"e{i}\" value=\"YES\" style=\"edgeStyle=orthogonalEdgeStyle;html=1;\" edge=\"1\" parent=\"1\" \
             source=\"v{}\" target=\"v{i}\"><mxGeometry relative=\"1\" as=\"geometry\"/></mxCell>\n",
            i - 1
        ));
        text.push_str(&format!(
            "<object clef_type=\"wiggly\" id=\"w{i}\"><mxCell style=\"endArrow=none;html=1;\" edge=\"1\" parent=\"1\" \
             source=\"v{i}\" target=\"v{}\"><mxGeometry relative=\"1\" as=\"geometry\"/></mxCell></object>\n",
            boxes + i
        ));
    }
    text.push_str("</root></mxGraphModel></diagram>\n</mxfile>\n");
    text
}

type Reader = fn(&[u8], &str, &ParseOptions) -> clefeval::flowchart::Parsed;

fn throughput(c: &mut Criterion) {
    every_format_reads_the_same_flowchart();
    let options = ParseOptions::default();
    let mut group = c.benchmark_group("flowchart_parse");
    for boxes in [1_000, 10_000, 100_000] {
        let text = synthetic(boxes);
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.bench_with_input(BenchmarkId::new("file", text.len()), &text, |b, text| {
            b.iter(|| parse(black_box(text.as_bytes()), "bench.txt", &options))
        });
        let formats: [(&str, String, Reader); 4] = [
            ("mermaid", synthetic_mermaid(boxes), mermaid::read),
            ("dot", synthetic_dot(boxes), dot::read),
            ("graphml", synthetic_graphml(boxes), graphml::read),
            ("drawio", synthetic_drawio(boxes), drawio::read),
        ];
        for (name, text, read) in formats {
            group.throughput(Throughput::Bytes(text.len() as u64));
            group.bench_with_input(BenchmarkId::new(name, text.len()), &text, |b, text| {
                b.iter(|| read(black_box(text.as_bytes()), "bench", &options))
            });
        }
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

/// A flowchart by texts, ids aside: its nodes as (type, text) and its
/// edges as (from text, to text, directed, type, text), sorted.
type Shape = (
    Vec<(String, String)>,
    Vec<(String, String, bool, String, String)>,
);

fn shape(f: &clefeval::flowchart::Flowchart) -> Shape {
    let text = |t: &Option<String>| t.clone().unwrap_or_default();
    let by_id = |id: i64| {
        f.nodes
            .iter()
            .find(|n| n.id == id)
            .map(|n| text(&n.text))
            .unwrap_or_default()
    };
    let mut nodes: Vec<_> = (f.nodes.iter())
        .map(|n| (n.node_type.keyword().to_string(), text(&n.text)))
        .collect();
    let mut edges: Vec<_> = (f.edges.iter())
        .map(|e| {
            (
                by_id(e.from),
                by_id(e.to),
                e.directed,
                e.edge_type.keyword().to_string(),
                text(&e.text),
            )
        })
        .collect();
    nodes.sort();
    edges.sort();
    (nodes, edges)
}

/// The synthetic files of every format read as the same flowchart, without
/// a diagnostic: what the speeds compare is one job. Checked before timing.
fn every_format_reads_the_same_flowchart() {
    let options = ParseOptions::default();
    let want = shape(&parse(synthetic(30).as_bytes(), "b.txt", &options).flowchart);
    let formats: [(&str, String, Reader); 4] = [
        ("mermaid", synthetic_mermaid(30), mermaid::read),
        ("dot", synthetic_dot(30), dot::read),
        ("graphml", synthetic_graphml(30), graphml::read),
        ("drawio", synthetic_drawio(30), drawio::read),
    ];
    for (name, text, read) in formats {
        let read = read(text.as_bytes(), "b", &options);
        assert!(
            read.diagnostics.is_empty(),
            "{name}: {:?}",
            read.diagnostics
        );
        let mut want = want.clone();
        if name == "mermaid" {
            // Mermaid has no wiggly line: the leader lines are dotted there.
            for edge in &mut want.1 {
                if edge.3 == "wiggly" {
                    edge.3 = "dotted".into();
                }
            }
            want.1.sort();
        }
        let got = shape(&read.flowchart);
        let first_node = got.0.iter().zip(&want.0).find(|(a, b)| a != b);
        let first_edge = got.1.iter().zip(&want.1).find(|(a, b)| a != b);
        assert!(
            got == want,
            "{name} reads another flowchart: {first_node:?} {first_edge:?}"
        );
    }
}

criterion_group!(benches, throughput, writing);
criterion_main!(benches);
