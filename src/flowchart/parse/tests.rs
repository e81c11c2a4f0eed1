//! The reader on hand-written files: every record kind, every diagnostic,
//! the quoting rules, the 2013 extensions, encodings, hostile input.

use super::*;
use crate::diagnostics::MAX_PER_FILE;

fn read_with(text: &[u8], strict: bool) -> Parsed {
    parse(text, "t.txt", &ParseOptions { strict })
}

fn read(text: &str) -> Parsed {
    read_with(text.as_bytes(), false)
}

/// The diagnostics as printed (and a check that the counts agree with them).
fn printed(parsed: &Parsed) -> Vec<String> {
    let errors = parsed.diagnostics.iter().filter(|d| d.is_error()).count();
    assert_eq!(
        (parsed.errors, parsed.warnings),
        (errors, parsed.diagnostics.len() - errors)
    );
    parsed.diagnostics.iter().map(ToString::to_string).collect()
}

fn node(id: NodeId, node_type: NodeType, text: Option<&str>, line: usize) -> Node {
    Node {
        id,
        node_type,
        text: text.map(str::to_string),
        location: None,
        line,
    }
}

fn edge(
    from: NodeId,
    to: NodeId,
    directed: bool,
    edge_type: EdgeType,
    text: Option<&str>,
    line: usize,
) -> Edge {
    Edge {
        from,
        to,
        directed,
        edge_type,
        text: text.map(str::to_string),
        line,
    }
}

const FULL: &str = "\
CO a complete file: every record kind
MT Title \"Order handling\"
MT NO 4
MT DE 2
MT UE 1

NO 1 oval \"Start\" (10,20)
NO 2 diamond \"Paid?\"
NO 3 rectangle
NO 4 no-box \"S101\"
DE 1 2 plain
DE 2 3 dotted \"YES\"
UE 3 4 wiggly
MN 7 \"group\" 1 2
";

#[test]
fn reads_every_record_kind() {
    let parsed = read(FULL);
    assert_eq!(printed(&parsed), Vec::<String>::new());
    let f = &parsed.flowchart;
    assert_eq!(f.title.as_deref(), Some("Order handling"));
    assert_eq!(
        f.declared,
        Declared {
            nodes: Some(4),
            directed_edges: Some(2),
            undirected_edges: Some(1)
        }
    );
    let mut start = node(1, NodeType::Oval, Some("Start"), 7);
    start.location = Some((10.0, 20.0));
    assert_eq!(
        f.nodes,
        vec![
            start,
            node(2, NodeType::Diamond, Some("Paid?"), 8),
            node(3, NodeType::Rectangle, None, 9),
            node(4, NodeType::NoBox, Some("S101"), 10),
        ]
    );
    assert_eq!(
        f.edges,
        vec![
            edge(1, 2, true, EdgeType::Plain, None, 11),
            edge(2, 3, true, EdgeType::Dotted, Some("YES"), 12),
            edge(3, 4, false, EdgeType::Wiggly, None, 13),
        ]
    );
    assert_eq!(
        f.meta_nodes,
        vec![MetaNode {
            fields: "7 \"group\" 1 2".into(),
            line: 14
        }]
    );
    assert!(!parsed.is_rejected());
}

#[test]
fn keywords_are_case_insensitive_and_tabs_separate() {
    let parsed = read(
        "mt title \"t\"\nMt No 2\nno\t1\tOVAL\nNo 2  Double-Rectangle\n  de 1 2 PLAIN\nuE 2 1 Wiggly\nco x\nmN 1\n",
    );
    assert_eq!(printed(&parsed), Vec::<String>::new());
    let f = &parsed.flowchart;
    assert_eq!(f.title.as_deref(), Some("t"));
    assert_eq!(f.declared.nodes, Some(2));
    assert_eq!(
        f.nodes,
        vec![
            node(1, NodeType::Oval, None, 3),
            node(2, NodeType::DoubleRectangle, None, 4)
        ]
    );
    assert_eq!(
        f.edges,
        vec![
            edge(1, 2, true, EdgeType::Plain, None, 5),
            edge(2, 1, false, EdgeType::Wiggly, None, 6)
        ]
    );
    assert_eq!(f.meta_nodes.len(), 1);
}

#[test]
fn blank_lines_are_ignored_and_line_numbers_count_them() {
    let parsed = read("\n   \n\t\nNO 5 circle\n\n");
    assert_eq!(printed(&parsed), Vec::<String>::new());
    assert_eq!(
        parsed.flowchart.nodes,
        vec![node(5, NodeType::Circle, None, 4)]
    );
}

#[test]
fn text_runs_from_first_to_last_quote() {
    let parsed = read(
        "NO 1 rectangle \"Read \"input\" file\"\nNO 2 diamond \"\"\"x > 1\"?\"\nNO 3 oval \"\"\nDE 1 2 plain \"say \"YES\"\"\n",
    );
    assert_eq!(printed(&parsed), Vec::<String>::new());
    let texts: Vec<Option<&str>> = parsed
        .flowchart
        .nodes
        .iter()
        .map(|n| n.text.as_deref())
        .collect();
    assert_eq!(
        texts,
        vec![Some("Read \"input\" file"), Some("\"\"x > 1\"?"), Some("")]
    );
    assert_eq!(
        parsed.flowchart.edges[0].text.as_deref(),
        Some("say \"YES\"")
    );
}

#[test]
fn text_keeps_inner_blanks_and_may_touch_the_type() {
    let parsed = read("NO 1 rectangle\"  two  blanks \"\n");
    assert_eq!(printed(&parsed), Vec::<String>::new());
    assert_eq!(
        parsed.flowchart.nodes[0].text.as_deref(),
        Some("  two  blanks ")
    );
    assert_eq!(parsed.flowchart.nodes[0].node_type, NodeType::Rectangle);
}

#[test]
fn unterminated_quote_runs_to_the_end_of_the_line() {
    let parsed =
        read("NO 1 rectangle \"Check stock (10,20)  \t\nNO 2 oval \"ok\"\nDE 1 2 plain \"YES\n");
    assert_eq!(
        printed(&parsed),
        vec![
            "t.txt:1: warning: unterminated quote: the text runs to the end of the line",
            "t.txt:3: warning: unterminated quote: the text runs to the end of the line",
        ]
    );
    let f = &parsed.flowchart;
    assert_eq!(f.nodes[0].text.as_deref(), Some("Check stock (10,20)"));
    assert_eq!(f.nodes[0].location, None);
    assert_eq!(f.edges[0].text.as_deref(), Some("YES"));
    assert!(!parsed.is_rejected());
}

#[test]
fn locations_of_2013() {
    let parsed = read(
        "NO 1 oval \"Start\" (120,45)\nNO 2 point (3.5, -4)\nNO 3 rectangle \"a \"b\" c\" ( 1 , 2 )\nNO 4 circle \"x\"\n",
    );
    assert_eq!(printed(&parsed), Vec::<String>::new());
    let locations: Vec<Option<(f64, f64)>> =
        parsed.flowchart.nodes.iter().map(|n| n.location).collect();
    assert_eq!(
        locations,
        vec![
            Some((120.0, 45.0)),
            Some((3.5, -4.0)),
            Some((1.0, 2.0)),
            None
        ]
    );
    assert_eq!(parsed.flowchart.nodes[2].text.as_deref(), Some("a \"b\" c"));
}

#[test]
fn malformed_locations_are_warnings_and_keep_the_node() {
    let parsed =
        read("NO 1 oval \"S\" (1;2)\nNO 2 point (inf,3)\nNO 3 oval (1,2) \"T\"\nNO 4 point 5,6\n");
    assert_eq!(
        printed(&parsed),
        vec![
            "t.txt:1: warning: `(1;2)` is not a location `(x,y)` of finite numbers; ignored",
            "t.txt:2: warning: `(inf,3)` is not a location `(x,y)` of finite numbers; ignored",
            "t.txt:3: warning: unexpected `(1,2)` before the text; ignored",
            "t.txt:4: warning: unexpected `5,6` after the node type; ignored",
        ]
    );
    assert_eq!(parsed.flowchart.nodes.len(), 4);
    assert!(parsed.flowchart.nodes.iter().all(|n| n.location.is_none()));
}

#[test]
fn meta_nodes_are_kept_as_written() {
    let parsed = read("NO 1 oval\nMN  10 rectangle \"Loop \"body\"\" 1 2 \t\nMN\nMN 4\r \r\n");
    assert_eq!(
        printed(&parsed),
        vec!["t.txt:3: warning: MN record without members; ignored"]
    );
    assert_eq!(
        parsed.flowchart.meta_nodes,
        vec![
            MetaNode {
                fields: "10 rectangle \"Loop \"body\"\" 1 2".into(),
                line: 2
            },
            MetaNode {
                fields: "4".into(),
                line: 4
            }
        ]
    );
}

#[test]
fn comments_are_ignored_whatever_they_hold() {
    let parsed = read("CO \"unterminated\nCO\nco NO 1 oval\nNO 2 oval\n");
    assert_eq!(printed(&parsed), Vec::<String>::new());
    assert_eq!(parsed.flowchart.nodes.len(), 1);
}

#[test]
fn parallel_edges_and_self_loops_are_kept() {
    let parsed = read(
        "NO 1 diamond\nNO 2 rectangle\nDE 1 2 plain\nDE 1 2 plain\nDE 1 1 plain\nUE 2 2 wiggly\nUE 1 2 plain\nUE 2 1 plain\n",
    );
    assert_eq!(printed(&parsed), Vec::<String>::new());
    let f = &parsed.flowchart;
    assert_eq!(f.edges.len(), 6);
    assert_eq!(f.directed_edge_count(), 3);
    assert_eq!(f.undirected_edge_count(), 3);
}

#[test]
fn edge_to_undefined_node_is_an_error_at_its_line() {
    // Edges may come before the nodes they name; only undefined ids count.
    let parsed =
        read("DE 1 2 plain\nNO 1 oval\nDE 1 7 plain\nUE 8 9 wiggly\nDE 6 6 plain\nNO 2 oval\n");
    assert_eq!(
        printed(&parsed),
        vec![
            "t.txt:3: error: edge names node id 7, which no NO record defines; the edge is ignored",
            "t.txt:4: error: edge names node ids 8 and 9, which no NO record defines; the edge is ignored",
            "t.txt:5: error: edge names node id 6, which no NO record defines; the edge is ignored",
        ]
    );
    assert!(parsed.is_rejected());
    assert_eq!(
        parsed.flowchart.edges,
        vec![edge(1, 2, true, EdgeType::Plain, None, 1)]
    );
}

#[test]
fn duplicate_node_id_is_an_error_and_the_first_wins() {
    let parsed = read("NO 3 oval \"first\"\nNO 4 oval\nNO 3 diamond \"second\"\nNO 003 point\n");
    assert_eq!(
        printed(&parsed),
        vec![
            "t.txt:3: error: duplicate node id 3 (first defined on line 1); this node is ignored",
            "t.txt:4: error: duplicate node id 3 (first defined on line 1); this node is ignored",
        ]
    );
    assert_eq!(parsed.flowchart.nodes.len(), 2);
    assert_eq!(parsed.flowchart.nodes[0].text.as_deref(), Some("first"));
}

#[test]
fn non_integer_and_out_of_range_ids_are_errors() {
    let parsed = read(
        "NO a oval\nNO 1.5 oval\nNO 18446744073709551616 oval\nNO -9223372036854775809 oval\nNO 9223372036854775807 oval\nNO -3 oval\nDE x 1 plain\nDE 1 99999999999999999999 plain\nUE q r plain\n",
    );
    assert_eq!(
        printed(&parsed),
        vec![
            "t.txt:1: error: node id `a` is not an integer; the node is ignored",
            "t.txt:2: error: node id `1.5` is not an integer; the node is ignored",
            "t.txt:3: error: node id `18446744073709551616` is beyond the 64-bit integer range; the node is ignored",
            "t.txt:4: error: node id `-9223372036854775809` is beyond the 64-bit integer range; the node is ignored",
            "t.txt:7: error: edge endpoint `x` is not an integer; the edge is ignored",
            "t.txt:8: error: edge endpoint `99999999999999999999` is beyond the 64-bit integer range; the edge is ignored",
            "t.txt:9: error: edge endpoint `q` is not an integer; the edge is ignored",
            "t.txt:9: error: edge endpoint `r` is not an integer; the edge is ignored",
        ]
    );
    let ids: Vec<NodeId> = parsed.flowchart.nodes.iter().map(|n| n.id).collect();
    assert_eq!(ids, vec![i64::MAX, -3]);
    assert!(parsed.flowchart.edges.is_empty());
}

#[test]
fn missing_ids_are_errors() {
    let parsed = read("NO\nNO \"Start\"\nDE\nUE 1\nDE \"YES\"\nNO 1 oval\n");
    assert_eq!(
        printed(&parsed),
        vec![
            "t.txt:1: error: NO record without a node id; the node is ignored",
            "t.txt:2: error: NO record without a node id; the node is ignored",
            "t.txt:3: error: DE record without node ids; the edge is ignored",
            "t.txt:4: error: UE record with only one node id; the edge is ignored",
            "t.txt:5: error: DE record without node ids; the edge is ignored",
        ]
    );
}

#[test]
fn unknown_record_kind_is_a_warning_or_in_strict_mode_an_error() {
    let text = b"XX 1 2\n\"NO\" 1 oval\nNO 1 oval\nNODE 2 oval\n";
    let lenient = read_with(text, false);
    assert_eq!(
        printed(&lenient),
        vec![
            "t.txt:1: warning: unknown record kind `XX` (expected MT, NO, DE, UE, CO or MN); line ignored",
            "t.txt:2: warning: line does not start with a record kind; line ignored",
            "t.txt:4: warning: unknown record kind `NODE` (expected MT, NO, DE, UE, CO or MN); line ignored",
        ]
    );
    assert!(!lenient.is_rejected());
    let strict = read_with(text, true);
    assert_eq!(
        printed(&strict),
        vec![
            "t.txt:1: error: unknown record kind `XX` (expected MT, NO, DE, UE, CO or MN)",
            "t.txt:2: error: line does not start with a record kind",
            "t.txt:4: error: unknown record kind `NODE` (expected MT, NO, DE, UE, CO or MN)",
        ]
    );
    assert!(strict.is_rejected());
    assert_eq!(strict.flowchart, lenient.flowchart);
}

#[test]
fn unknown_and_missing_types_read_as_unknown() {
    let parsed =
        read("NO 1 hexagon \"H\"\nNO 2\nNO 3 \"no type\"\nDE 1 2 dashed\nUE 1 3\nDE 2 3 \"NO\"\n");
    assert_eq!(
        printed(&parsed),
        vec![
            "t.txt:1: warning: unknown node type `hexagon`; read as `unknown`",
            "t.txt:2: warning: node 2 has no node type; read as `unknown`",
            "t.txt:3: warning: node 3 has no node type; read as `unknown`",
            "t.txt:4: warning: unknown edge type `dashed`; read as `unknown`",
            "t.txt:5: warning: UE 1 3 has no edge type; read as `unknown`",
            "t.txt:6: warning: DE 2 3 has no edge type; read as `unknown`",
        ]
    );
    let f = &parsed.flowchart;
    assert!(f.nodes.iter().all(|n| n.node_type == NodeType::Unknown));
    assert_eq!(f.nodes[2].text.as_deref(), Some("no type"));
    assert!(f.edges.iter().all(|e| e.edge_type == EdgeType::Unknown));
    assert_eq!(f.edges[2].text.as_deref(), Some("NO"));
    assert!(!parsed.is_rejected());
}

#[test]
fn unknown_is_a_legal_type_keyword() {
    let parsed = read("NO 1 unknown\nDE 1 1 UNKNOWN\n");
    assert_eq!(printed(&parsed), Vec::<String>::new());
}

#[test]
fn trailing_junk_is_a_warning_and_the_record_is_kept() {
    let parsed = read(
        "NO 1 oval \"Start\" extra\nNO 2 oval junk \"T\"\nDE 1 2 plain YES\nDE 1 2 plain \"YES\" !\nDE 1 2 plain x \"NO\"\nMT NO 2 3\nMT DE 3 \"three\"\n",
    );
    assert_eq!(
        printed(&parsed),
        vec![
            "t.txt:1: warning: unexpected `extra` after the text; ignored",
            "t.txt:2: warning: unexpected `junk` before the text; ignored",
            "t.txt:3: warning: unexpected `YES` after the edge type; ignored",
            "t.txt:4: warning: unexpected `!` after the text; ignored",
            "t.txt:5: warning: unexpected `x` before the text; ignored",
            "t.txt:6: warning: unexpected `3` after the count; ignored",
            "t.txt:7: warning: unexpected text `three` after the count; ignored",
        ]
    );
    assert_eq!(parsed.flowchart.nodes.len(), 2);
    assert_eq!(parsed.flowchart.edges.len(), 3);
    assert_eq!(parsed.flowchart.edges[0].text, None);
    assert_eq!(parsed.flowchart.declared.nodes, Some(2));
}

#[test]
fn declared_counts_that_differ_are_warnings_and_the_records_win() {
    let parsed =
        read("MT NO 3\nMT DE 0\nMT UE 2\nNO 1 oval\nNO 2 oval\nDE 1 2 plain\nUE 1 2 wiggly\n");
    assert_eq!(
        printed(&parsed),
        vec![
            "t.txt:1: warning: MT NO 3 differs from the number of nodes read (2); the records win",
            "t.txt:2: warning: MT DE 0 differs from the number of directed edges read (1); the records win",
            "t.txt:3: warning: MT UE 2 differs from the number of undirected edges read (1); the records win",
        ]
    );
    assert_eq!(parsed.flowchart.nodes.len(), 2);
    assert_eq!(parsed.flowchart.declared.undirected_edges, Some(2));
    assert!(!parsed.is_rejected());
}

#[test]
fn malformed_mt_records_are_warnings() {
    let parsed = read(
        "MT\nMT Pages 3\nMT NO\nMT NO -1\nMT UE many\nMT Title\nMT Title Payroll run\nMT Title \"Other\"\nMT DE 1\nMT DE 2\nNO 1 oval\nDE 1 1 plain\n",
    );
    assert_eq!(
        printed(&parsed),
        vec![
            "t.txt:1: warning: MT record without a field name (Title, NO, DE or UE); ignored",
            "t.txt:2: warning: unknown MT field `Pages` (expected Title, NO, DE or UE); ignored",
            "t.txt:3: warning: MT NO without a count; ignored",
            "t.txt:4: warning: MT NO count `-1` is not a non-negative integer; ignored",
            "t.txt:5: warning: MT UE count `many` is not a non-negative integer; ignored",
            "t.txt:6: warning: MT Title without a title; ignored",
            "t.txt:7: warning: MT Title without quotes; the rest of the line is taken as the title",
            "t.txt:8: warning: second MT Title (the first is on line 7); ignored",
            "t.txt:10: warning: second MT DE (the first is on line 9); ignored",
        ]
    );
    let f = &parsed.flowchart;
    assert_eq!(f.title.as_deref(), Some("Payroll run"));
    assert_eq!(
        f.declared,
        Declared {
            nodes: None,
            directed_edges: Some(1),
            undirected_edges: None
        }
    );
}

#[test]
fn empty_input_is_an_empty_flowchart_with_a_warning() {
    for text in ["", "\n\n", "CO only a comment\n", "\u{feff}"] {
        let parsed = read(text);
        assert_eq!(
            printed(&parsed),
            vec!["t.txt: warning: no nodes: the flowchart is empty"]
        );
        assert_eq!(parsed.flowchart, Flowchart::default());
    }
}

#[test]
fn bom_and_crlf_are_accepted() {
    let parsed = read_with(b"\xEF\xBB\xBFMT Title \"T\"\r\nNO 1 oval \"Start\"\r\n\r\nNO 2 oval\r\nDE 1 2 plain \"YES\"\r\n", false);
    assert_eq!(printed(&parsed), Vec::<String>::new());
    let f = &parsed.flowchart;
    assert_eq!(f.title.as_deref(), Some("T"));
    assert_eq!(f.nodes[0].text.as_deref(), Some("Start"));
    assert_eq!(f.nodes[1].line, 4);
    assert_eq!(f.edges[0].text.as_deref(), Some("YES"));
}

#[test]
fn utf8_text_is_kept() {
    let parsed = read("NO 1 rectangle \"Température ≥ 30 °C → 冷却\"\n");
    assert_eq!(printed(&parsed), Vec::<String>::new());
    assert_eq!(
        parsed.flowchart.nodes[0].text.as_deref(),
        Some("Température ≥ 30 °C → 冷却")
    );
}

#[test]
fn latin1_is_the_fallback_with_a_warning_at_the_first_bad_line() {
    let parsed = read_with(
        b"NO 1 oval \"Start\"\nNO 2 rectangle \"Temp\xE9rature \xB0C\"\r\nNO 3 oval \"Fin\xA0\"\n",
        false,
    );
    assert_eq!(
        printed(&parsed),
        vec![
            "t.txt:2: warning: not valid UTF-8 (first invalid byte on this line); the file is read as Latin-1"
        ]
    );
    let texts: Vec<Option<&str>> = parsed
        .flowchart
        .nodes
        .iter()
        .map(|n| n.text.as_deref())
        .collect();
    assert_eq!(
        texts,
        vec![Some("Start"), Some("Température °C"), Some("Fin\u{a0}")]
    );
}

#[test]
fn utf16_with_a_bom_is_decoded_with_a_warning() {
    let text = "NO 1 oval \"Début\"\r\n";
    let mut le = vec![0xFF, 0xFE];
    let mut be = vec![0xFE, 0xFF];
    for unit in text.encode_utf16() {
        le.extend(unit.to_le_bytes());
        be.extend(unit.to_be_bytes());
    }
    for (bytes, endian) in [(le, "little"), (be, "big")] {
        let parsed = read_with(&bytes, false);
        assert_eq!(
            printed(&parsed),
            vec![format!(
                "t.txt: warning: file is UTF-16 ({endian} endian); read as such, but save flowcharts as UTF-8"
            )]
        );
        assert_eq!(parsed.flowchart.nodes[0].text.as_deref(), Some("Début"));
    }
}

#[test]
fn binary_input_does_not_panic() {
    let mut bytes: Vec<u8> = (0..=255u8).cycle().take(70_000).collect();
    // A pseudo-random tail (xorshift), so no structure is assumed.
    let mut x: u32 = 0x9E37_79B9;
    for _ in 0..70_000 {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        bytes.push(x.to_le_bytes()[0]);
    }
    let parsed = read_with(&bytes, false);
    assert_eq!(
        printed(&parsed),
        vec!["t.txt: error: binary data (a NUL byte), not a flowchart file; not read"]
    );
    assert!(parsed.is_rejected());
    assert!(parsed.flowchart.nodes.is_empty());
    // Without NUL bytes the same noise is read as Latin-1 text, its
    // diagnostics capped.
    for b in &mut bytes {
        if *b == 0 {
            *b = 1;
        }
    }
    let parsed = read_with(&bytes, false);
    assert!(!parsed.diagnostics.is_empty());
    assert!(parsed.diagnostics.len() <= MAX_PER_FILE + 1);
    assert!(
        parsed
            .diagnostics
            .iter()
            .any(|d| d.message.contains("read as Latin-1"))
    );
}

#[test]
fn long_lines_do_not_panic_and_messages_stay_short() {
    let mega = 1 << 20;
    let cases = [
        "a".repeat(mega),
        " ".repeat(mega),
        "\"".repeat(mega),
        format!("NO 1 oval \"{}\"", "x".repeat(mega)),
        format!("NO 1 oval {}", "junk ".repeat(mega / 5)),
        format!("NO {} oval", "9".repeat(mega)),
        format!("DE 1 1 plain \"{}", "\"".repeat(mega)),
    ];
    for line in &cases {
        let parsed = read(line);
        for d in &parsed.diagnostics {
            assert!(d.message.len() < 200, "long message on a long line");
        }
    }
    let parsed = read(&cases[3]);
    assert_eq!(
        parsed.flowchart.nodes[0].text.as_ref().map(String::len),
        Some(mega)
    );
    let parsed = read(&cases[5]);
    assert_eq!(
        printed(&parsed),
        vec![
            "t.txt: warning: no nodes: the flowchart is empty".to_string(),
            format!(
                "t.txt:1: error: node id `{}…` is beyond the 64-bit integer range; the node is ignored",
                "9".repeat(MAX_ECHO)
            )
        ]
    );
}

#[test]
fn diagnostics_beyond_the_limit_are_counted() {
    let mut text = String::from("NO 1 oval\n");
    for _ in 0..MAX_PER_FILE + 10 {
        text.push_str("ZZ\n");
    }
    text.push_str("DE 1 2 plain\n");
    let parsed = read(&text);
    assert_eq!(parsed.diagnostics.len(), MAX_PER_FILE + 1);
    assert_eq!(
        parsed.diagnostics[MAX_PER_FILE].to_string(),
        "t.txt: error: 11 more diagnostics not listed (errors: 1, warnings: 10)"
    );
    assert!(parsed.is_rejected());
    assert_eq!((parsed.errors, parsed.warnings), (1, MAX_PER_FILE + 10));
}

#[test]
fn unreadable_file_is_an_error_diagnostic() {
    let parsed = crate::flowchart::read_file(
        std::path::Path::new("/nonexistent/clefeval/FC-1.txt"),
        &ParseOptions::default(),
    );
    assert_eq!(parsed.diagnostics.len(), 1);
    assert!(parsed.is_rejected());
    assert!(printed(&parsed)[0] == "/nonexistent/clefeval/FC-1.txt: error: no such file or folder");
}

#[test]
fn every_type_keyword_of_the_spec_is_known() {
    // Spelled out from `docs/formats.md`, independently of the model's lists.
    let node_types = "oval rectangle double-rectangle parallelogram diamond circle point no-box cylinder unknown";
    let edge_types = "plain dotted wiggly unknown";
    let mut text = String::new();
    for (i, t) in node_types.split(' ').enumerate() {
        text.push_str(&format!("NO {i} {t}\n"));
    }
    for t in edge_types.split(' ') {
        text.push_str(&format!("DE 0 1 {t}\nUE 1 0 {t}\n"));
    }
    let parsed = read(&text);
    assert_eq!(printed(&parsed), Vec::<String>::new());
    let keywords: Vec<&str> = parsed
        .flowchart
        .nodes
        .iter()
        .map(|n| n.node_type.keyword())
        .collect();
    assert_eq!(keywords.join(" "), node_types);
    let keywords: Vec<&str> = parsed
        .flowchart
        .edges
        .iter()
        .step_by(2)
        .map(|e| e.edge_type.keyword())
        .collect();
    assert_eq!(keywords.join(" "), edge_types);
}

mod properties {
    use super::*;
    use crate::flowchart::{canonical, to_graph, write};
    use proptest::prelude::*;

    /// Lines built from the format's own vocabulary plus noise, so that
    /// most lines are nearly valid records (the interesting cases).
    fn line() -> impl Strategy<Value = String> {
        let token = prop_oneof![
            prop::sample::select(vec![
                "MT",
                "NO",
                "DE",
                "UE",
                "CO",
                "MN",
                "Title",
                "mt",
                "no",
                "de",
                "oval",
                "diamond",
                "no-box",
                "cylinder",
                "plain",
                "wiggly",
                "WIGGLY",
                "unknown",
                "hexagon",
                "\"",
                "\"YES\"",
                "(1,2)",
                "(1;2)",
                "(",
                ")",
                "0",
                "1",
                "2",
                "-1",
                "1.5",
                "99999999999999999999",
                "\r",
                "\u{feff}",
                "é",
            ])
            .prop_map(str::to_string),
            "[0-3]",
            "[^\n]{0,3}",
        ];
        let sep = prop::sample::select(vec![" ", "\t", "  ", ""]);
        let noise = prop::collection::vec((token, sep), 0..7)
            .prop_map(|parts| parts.into_iter().map(|(t, s)| t + s).collect());
        let id = "-?[0-4]";
        let text = prop::option::of("[^\n]{0,6}")
            .prop_map(|t| t.map(|t| format!(" \"{t}\"")).unwrap_or_default());
        let node = (
            id,
            prop::sample::select(NodeType::ALL.to_vec()),
            text.clone(),
        )
            .prop_map(|(id, t, text)| format!("NO {id} {}{text}", t.keyword()));
        let edge = (
            prop::sample::select(vec!["DE", "UE"]),
            id,
            id,
            prop::sample::select(EdgeType::ALL.to_vec()),
            text,
        )
            .prop_map(|(kind, a, b, t, text)| format!("{kind} {a} {b} {}{text}", t.keyword()));
        let count = (prop::sample::select(vec!["NO", "DE", "UE"]), 0..6u8)
            .prop_map(|(k, n)| format!("MT {k} {n}"));
        prop_oneof![2 => node, 2 => edge, 1 => count, 2 => noise]
    }

    proptest! {
        #[test]
        fn any_text_keeps_the_invariants(
            lines in prop::collection::vec(line(), 0..25),
            crlf in any::<bool>(),
            strict in any::<bool>(),
        ) {
            let text = lines.join(if crlf { "\r\n" } else { "\n" });
            let options = ParseOptions { strict };
            let parsed = parse(text.as_bytes(), "p.txt", &options);
            let errors = parsed.diagnostics.iter().filter(|d| d.is_error()).count();
            prop_assert_eq!(parsed.errors, errors);
            prop_assert_eq!(parsed.warnings, parsed.diagnostics.len() - errors);
            let line_count = text.split('\n').count();
            for d in &parsed.diagnostics {
                prop_assert_eq!(&d.file, "p.txt");
                prop_assert!(d.line.is_none_or(|l| (1..=line_count).contains(&l)), "{}", d);
            }
            prop_assert!(to_graph(&parsed.flowchart).is_ok());
            let written = write(&parsed.flowchart);
            let again = parse(written.as_bytes(), "w.txt", &options);
            prop_assert!(!again.is_rejected(), "{:?}\n{}", again.diagnostics, written);
            prop_assert_eq!(canonical(&again.flowchart), canonical(&parsed.flowchart));
        }
    }
}

#[test]
fn junk_around_the_title_is_a_warning_and_the_title_kept() {
    let parsed = read("MT Title draft \"Pump control\" v2\nNO 1 oval\n");
    assert_eq!(
        printed(&parsed),
        vec![
            "t.txt:1: warning: unexpected `draft` before the title; ignored",
            "t.txt:1: warning: unexpected `v2` after the text; ignored",
        ]
    );
    assert_eq!(parsed.flowchart.title.as_deref(), Some("Pump control"));
}

#[test]
fn a_100_mb_file_is_read_whole() {
    // 1.6 million nodes and edges with long texts, a line of control characters every
    // 10,000 lines: every record is kept, every garbage line reported.
    let block_lines = 10_000;
    let mut block = String::new();
    for i in 0..block_lines - 1 {
        block.push_str(&format!("NO {{}}{i:05} rectangle \"{}\"\n", "x".repeat(40)));
    }
    block.push_str("\u{1}\u{2}\u{3}\n");
    let blocks = 100_000_000 / block.len() + 1;
    let mut text = String::with_capacity(blocks * block.len() + 16 * blocks);
    for b in 0..blocks {
        text.push_str(&block.replace("{}", &format!("{}", b + 1)));
    }
    assert!(text.len() >= 100_000_000);
    let parsed = read(&text);
    assert_eq!(parsed.flowchart.nodes.len(), blocks * (block_lines - 1));
    assert_eq!((parsed.errors, parsed.warnings), (0, blocks));
    assert_eq!(
        parsed.diagnostics[0].to_string(),
        format!(
            "t.txt:{block_lines}: warning: unknown record kind `\u{1}\u{2}\u{3}` (expected MT, NO, DE, UE, CO or MN); line ignored"
        )
    );
}

#[test]
fn a_nul_anywhere_is_binary_data_but_utf16_text_is_not() {
    let mut bytes = b"NO 1 oval\n".to_vec();
    bytes.resize(9 << 10, b' ');
    bytes.extend_from_slice(b"\n\0\n");
    assert!(read_with(&bytes, false).is_rejected());
    let mut utf16 = vec![0xFF, 0xFE];
    for unit in "NO 1 oval\n".encode_utf16() {
        utf16.extend_from_slice(&unit.to_le_bytes());
    }
    let parsed = read_with(&utf16, false);
    assert!(!parsed.is_rejected());
    assert_eq!(parsed.flowchart.nodes.len(), 1);
}
