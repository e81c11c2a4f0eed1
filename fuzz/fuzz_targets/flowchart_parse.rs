//! The flowchart reader on arbitrary bytes: it must not panic, a file it
//! accepts must convert to a graph, and what it read must survive a write
//! and a second read unchanged (canonical form).
#![no_main]

use clefeval::flowchart::{ParseOptions, canonical, parse, to_graph, write};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for strict in [false, true] {
        let options = ParseOptions { strict };
        let parsed = parse(data, "fuzz.txt", &options);
        let flowchart = &parsed.flowchart;
        // What was kept is always a valid graph, rejected file or not.
        assert!(
            to_graph(flowchart).is_ok(),
            "kept records do not form a graph"
        );
        let text = write(flowchart);
        let again = parse(text.as_bytes(), "written.txt", &options);
        assert!(
            !again.is_rejected(),
            "written file rejected: {:?}\n{text}",
            again.diagnostics
        );
        assert_eq!(
            canonical(&again.flowchart),
            canonical(flowchart),
            "\n{text}"
        );
    }
});
