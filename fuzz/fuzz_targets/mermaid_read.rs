//! The Mermaid reader on arbitrary bytes: it must not panic; what it read,
//! rejected or not, forms a graph (every edge joins two of its nodes, the
//! ids 1, 2, … in order); written as CLEF-IP text it reads back the same.
#![no_main]

use clefeval::flowchart::{ParseOptions, canonical, mermaid, parse, to_graph, write};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let parsed = mermaid::read(data, "fuzz.mmd", &ParseOptions::default());
    let flowchart = &parsed.flowchart;
    assert!(to_graph(flowchart).is_ok(), "read nodes and edges do not form a graph");
    for (i, node) in flowchart.nodes.iter().enumerate() {
        assert_eq!(node.id, i as i64 + 1, "node ids are not 1, 2, …");
    }
    for d in &parsed.diagnostics {
        assert_eq!(d.file, "fuzz.mmd");
    }
    let text = write(flowchart);
    let again = parse(text.as_bytes(), "written.txt", &ParseOptions::default());
    assert!(!again.is_rejected(), "written file rejected: {:?}\n{text}", again.diagnostics);
    assert_eq!(canonical(&again.flowchart), canonical(flowchart), "\n{text}");
});
