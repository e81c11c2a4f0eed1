//! What every flowchart reader's target checks of what it read from
//! arbitrary bytes, rejected or not: it forms a graph (every edge joins two
//! of its nodes), its node ids are 1, 2, … in order, every diagnostic names
//! the file, and written as CLEF-IP text it reads back the same.

use clefeval::flowchart::{ParseOptions, Parsed, canonical, parse, to_graph, write};

pub fn check(parsed: &Parsed, file: &str) {
    let flowchart = &parsed.flowchart;
    assert!(to_graph(flowchart).is_ok(), "read nodes and edges do not form a graph");
    for (i, node) in flowchart.nodes.iter().enumerate() {
        assert_eq!(node.id, i as i64 + 1, "node ids are not 1, 2, …");
    }
    for d in &parsed.diagnostics {
        assert_eq!(d.file, file);
    }
    let text = write(flowchart);
    let again = parse(text.as_bytes(), "written.txt", &ParseOptions::default());
    assert!(!again.is_rejected(), "written file rejected: {:?}\n{text}", again.diagnostics);
    assert_eq!(canonical(&again.flowchart), canonical(flowchart), "\n{text}");
}
