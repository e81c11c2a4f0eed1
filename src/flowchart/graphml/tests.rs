use super::*;
use crate::flowchart::formats::testing;
use crate::flowchart::write::write;

fn parsed(text: &str) -> Parsed {
    read(text.as_bytes(), "a.graphml", &ParseOptions::default())
}

fn clef(text: &str) -> String {
    testing::clef(read, "a.graphml", text)
}

fn messages(text: &str) -> Vec<String> {
    testing::messages(read, "a.graphml", text)
}

const HEAD: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\" xmlns:y=\"http://www.yworks.com/xml/graphml\">\n\
<key for=\"node\" id=\"d6\" yfiles.type=\"nodegraphics\"/>\n\
<key for=\"edge\" id=\"d10\" yfiles.type=\"edgegraphics\"/>\n\
<key for=\"all\" id=\"ct\" attr.name=\"clef_type\" attr.type=\"string\"/>\n\
<key for=\"node\" id=\"lb\" attr.name=\"label\" attr.type=\"string\"/>\n\
<key for=\"edge\" id=\"el\" attr.name=\"label\" attr.type=\"string\"/>\n";

/// A yEd ShapeNode of shape `shape` and label `label`.
fn shape_node(id: &str, shape: &str, label: &str) -> String {
    format!(
        "<node id=\"{id}\"><data key=\"d6\"><y:ShapeNode><y:Shape type=\"{shape}\"/>\
         <y:NodeLabel>{label}</y:NodeLabel></y:ShapeNode></data></node>\n"
    )
}

fn generic_node(id: &str, configuration: &str, label: &str) -> String {
    format!(
        "<node id=\"{id}\"><data key=\"d6\"><y:GenericNode configuration=\"{configuration}\">\
         <y:NodeLabel>{label}</y:NodeLabel></y:GenericNode></data></node>\n"
    )
}

fn document(body: &str) -> String {
    format!("{HEAD}<graph id=\"G\" edgedefault=\"directed\">\n{body}</graph>\n</graphml>\n")
}

#[test]
fn every_shape_of_the_table_gives_its_type() {
    let f = "com.yworks.flowchart.";
    let body = [
        shape_node("a", "rectangle", "A"),
        shape_node("b", "roundrectangle", "B"),
        generic_node("c", &format!("{f}process"), "C"),
        shape_node("d", "ellipse", "D"),
        generic_node("e", &format!("{f}terminator"), "E"),
        generic_node("f", &format!("{f}start1"), "F"),
        generic_node("g", &format!("{f}start2"), "G"),
        shape_node("h", "diamond", "H"),
        generic_node("i", &format!("{f}decision"), "I"),
        shape_node("j", "parallelogram", "J"),
        generic_node("k", &format!("{f}data"), "K"),
        generic_node("l", &format!("{f}predefinedProcess"), "L"),
        generic_node("m", &format!("{f}dataBase"), "M"),
        generic_node("n", &format!("{f}annotation"), "N"),
        shape_node("o", "hexagon", "O"),
        generic_node("p", &format!("{f}delay"), "P"),
        // Plain GraphML: no graphics, a label key or none (the id).
        "<node id=\"q\"><data key=\"lb\">Q label</data></node>\n<node id=\"r\"/>\n".into(),
        "<node id=\"s\"><data key=\"ct\">circle</data></node>\n".into(),
    ]
    .concat();
    let want = "NO 1 rectangle \"A\"\nNO 2 rectangle \"B\"\nNO 3 rectangle \"C\"\n\
                NO 4 oval \"D\"\nNO 5 oval \"E\"\nNO 6 oval \"F\"\nNO 7 oval \"G\"\n\
                NO 8 diamond \"H\"\nNO 9 diamond \"I\"\nNO 10 parallelogram \"J\"\n\
                NO 11 parallelogram \"K\"\nNO 12 double-rectangle \"L\"\nNO 13 cylinder \"M\"\n\
                NO 14 no-box \"N\"\nNO 15 unknown \"O\"\nNO 16 unknown \"P\"\n\
                NO 17 rectangle \"Q label\"\nNO 18 rectangle \"r\"\nNO 19 circle \"s\"\n";
    assert_eq!(clef(&document(&body)), want);
    let warnings = messages(&document(&shape_node("o", "hexagon", "O")));
    assert_eq!(
        warnings,
        vec!["a.graphml:9: warning: node `o`: unknown shape `hexagon`; read as `unknown`"]
    );
}

#[test]
fn every_edge_form_gives_its_edges() {
    let nodes = [
        shape_node("a", "rectangle", "A"),
        shape_node("b", "rectangle", "B"),
        shape_node("c", "rectangle", "C"),
    ]
    .concat();
    let edge = |id: &str, s: &str, t: &str, extra: &str, inner: &str| {
        format!("<edge id=\"{id}\" source=\"{s}\" target=\"{t}\"{extra}>{inner}</edge>\n")
    };
    let line = |kind: &str| {
        format!(
            "<data key=\"d10\"><y:PolyLineEdge><y:LineStyle type=\"{kind}\"/></y:PolyLineEdge></data>"
        )
    };
    let body = [
        nodes,
        edge("e1", "a", "b", "", ""),
        edge("e2", "b", "c", " directed=\"false\"", &line("dotted")),
        edge("e3", "c", "a", "", &line("dashed")),
        edge("e4", "a", "c", "", &line("line")),
        edge(
            "e5",
            "b",
            "a",
            "",
            "<data key=\"d10\"><y:PolyLineEdge><y:EdgeLabel>yes</y:EdgeLabel></y:PolyLineEdge></data>",
        ),
        edge("e6", "c", "b", "", "<data key=\"el\">no</data>"),
        edge("e7", "a", "a", "", "<data key=\"ct\">wiggly</data>"),
    ]
    .concat();
    let want = "NO 1 rectangle \"A\"\nNO 2 rectangle \"B\"\nNO 3 rectangle \"C\"\n\
                DE 1 1 wiggly\nDE 1 2 plain\nDE 1 3 plain\nDE 2 1 plain \"yes\"\n\
                DE 3 1 dotted\nDE 3 2 plain \"no\"\nUE 2 3 dotted\n";
    assert_eq!(clef(&document(&body)), want);
    // An undirected graph by default; `directed` on the edge wins.
    let undirected = format!(
        "{HEAD}<graph edgedefault=\"undirected\"><node id=\"a\"/><node id=\"b\"/>\
         <edge source=\"a\" target=\"b\"/><edge source=\"b\" target=\"a\" directed=\"true\"/></graph></graphml>"
    );
    assert_eq!(
        clef(&undirected),
        "NO 1 rectangle \"a\"\nNO 2 rectangle \"b\"\nDE 2 1 plain\nUE 1 2 plain\n"
    );
}

#[test]
fn labels_html_and_line_breaks() {
    let body = [
        shape_node("a", "rectangle", "Check\nstock"),
        shape_node(
            "b",
            "rectangle",
            "&lt;html&gt;&lt;b&gt;Bold&lt;/b&gt;&lt;br&gt;text",
        ),
        shape_node("c", "rectangle", "a &lt; b"),
    ]
    .concat();
    assert_eq!(
        clef(&document(&body)),
        "NO 1 rectangle \"Check stock\"\nNO 2 rectangle \"Bold text\"\nNO 3 rectangle \"a < b\"\n"
    );
}

#[test]
fn groups_nested_graphs_and_malformed_files() {
    let body = "<node id=\"g\" yfiles.foldertype=\"group\"><graph id=\"g:\" edgedefault=\"directed\">\n\
                <node id=\"g::a\"/>\n<node id=\"g::b\"/>\n<edge source=\"g::a\" target=\"g::b\"/>\n\
                </graph></node>\n<node id=\"c\"/>\n<edge source=\"c\" target=\"g\"/>\n";
    let p = parsed(&document(body));
    assert_eq!(p.errors, 0);
    assert_eq!(
        write(&p.flowchart),
        "NO 1 rectangle \"g::a\"\nNO 2 rectangle \"g::b\"\nNO 3 rectangle \"c\"\nDE 1 2 plain\n"
    );
    assert_eq!(
        (p.diagnostics.iter())
            .map(ToString::to_string)
            .collect::<Vec<_>>(),
        vec!["a.graphml:15: warning: an edge to the group `g` is dropped (a group is no node)"]
    );
    let cases = [
        (
            document("<node id=\"a\">\n</graph>"),
            "a.graphml:10: error: not well-formed XML, so not a GraphML document: expected 'node' tag, not 'graph' at 10:1",
        ),
        (
            document("<node id=\"a\"/>\n<edge source=\"a\" target=\"z\"/>\n"),
            "a.graphml:10: error: an edge names the node `z`, which is not given",
        ),
        (
            document("<node id=\"a\"/>\n<node id=\"a\"/>\n"),
            "a.graphml:10: error: node `a` is given twice (first on line 9)",
        ),
        (
            document("<edge source=\"a\"/>\n"),
            "a.graphml:9: error: an edge without its `source` or `target`",
        ),
        (
            "<?xml version=\"1.0\"?>\n<graphml>\n</graphml>".to_string(),
            "a.graphml:2: error: no `<graph>` in the GraphML document",
        ),
        (
            "<?xml version=\"1.0\"?>\n<mxfile/>".to_string(),
            "a.graphml:2: error: the document's root is `<mxfile>`, not `<graphml>`: not a GraphML file",
        ),
        (
            "<!DOCTYPE x [<!ENTITY a \"aaaa\">]>\n<graphml/>".to_string(),
            "a.graphml:1: error: not well-formed XML, so not a GraphML document: XML with DTD detected",
        ),
    ];
    for (text, want) in cases {
        assert_eq!(messages(&text), vec![want.to_string()], "{text}");
    }
}

#[test]
fn sniffing() {
    assert!(looks_like(document("").as_bytes()));
    assert!(!looks_like(b"<mxfile/>"));
    assert!(!looks_like(b"digraph {}"));
}
