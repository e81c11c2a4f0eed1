use super::*;
use crate::flowchart::formats::testing;
use crate::flowchart::write::write;
use std::io::Write;

fn parsed(text: &str) -> Parsed {
    read(text.as_bytes(), "a.drawio", &ParseOptions::default())
}

fn clef(text: &str) -> String {
    testing::clef(read, "a.drawio", text)
}

fn messages(text: &str) -> Vec<String> {
    testing::messages(read, "a.drawio", text)
}

/// An `<mxGraphModel>` of `cells` (after the two layer cells).
fn model_of(cells: &str) -> String {
    format!(
        "<mxGraphModel><root>\n<mxCell id=\"0\"/>\n<mxCell id=\"1\" parent=\"0\"/>\n{cells}</root></mxGraphModel>"
    )
}

fn page(cells: &str) -> String {
    format!(
        "<mxfile host=\"app.diagrams.net\">\n<diagram id=\"p1\" name=\"Page-1\">{}</diagram>\n</mxfile>\n",
        model_of(cells)
    )
}

fn vertex(id: &str, style: &str, value: &str, w: u32, h: u32) -> String {
    format!(
        "<mxCell id=\"{id}\" value=\"{value}\" style=\"{style}\" vertex=\"1\" parent=\"1\">\
         <mxGeometry x=\"0\" y=\"0\" width=\"{w}\" height=\"{h}\" as=\"geometry\"/></mxCell>\n"
    )
}

fn edge(id: &str, s: &str, t: &str, style: &str, value: &str) -> String {
    format!(
        "<mxCell id=\"{id}\" value=\"{value}\" style=\"{style}\" edge=\"1\" parent=\"1\" source=\"{s}\" target=\"{t}\">\
         <mxGeometry relative=\"1\" as=\"geometry\"/></mxCell>\n"
    )
}

#[test]
fn every_style_of_the_table_gives_its_type() {
    let cells = [
        vertex("a", "rounded=0;whiteSpace=wrap;html=1;", "A", 120, 60),
        vertex("b", "rounded=1;", "B", 120, 60),
        vertex("c", "ellipse;whiteSpace=wrap;", "C", 120, 60),
        vertex("d", "ellipse;aspect=fixed;", "D", 80, 80),
        vertex("e", "rhombus;", "E", 80, 80),
        vertex("f", "shape=parallelogram;perimeter=parallelogramPerimeter;", "F", 120, 60),
        vertex("g", "shape=process;", "G", 120, 60),
        vertex("h", "shape=cylinder3;", "H", 60, 80),
        vertex("i", "shape=cylinder;", "I", 60, 80),
        vertex("j", "text;html=1;", "J", 60, 30),
        vertex("k", "triangle;", "K", 60, 60),
        vertex("l", "shape=mxgraph.flowchart.terminator;", "L", 120, 60),
        vertex("m", "", "", 10, 10),
        "<object label=\"N\" clef_type=\"point\" id=\"n\"><mxCell style=\"ellipse;\" vertex=\"1\" parent=\"1\"/></object>\n".into(),
        "<UserObject label=\"O&lt;br&gt;two\" id=\"o\"><mxCell style=\"html=1;\" vertex=\"1\" parent=\"1\"/></UserObject>\n".into(),
    ]
    .concat();
    let want = "NO 1 rectangle \"A\"\nNO 2 rectangle \"B\"\nNO 3 oval \"C\"\nNO 4 circle \"D\"\n\
                NO 5 diamond \"E\"\nNO 6 parallelogram \"F\"\nNO 7 double-rectangle \"G\"\n\
                NO 8 cylinder \"H\"\nNO 9 cylinder \"I\"\nNO 10 no-box \"J\"\nNO 11 unknown \"K\"\n\
                NO 12 oval \"L\"\nNO 13 rectangle\nNO 14 point \"N\"\nNO 15 rectangle \"O two\"\n";
    assert_eq!(clef(&page(&cells)), want);
    assert_eq!(
        messages(&page(&vertex("k", "triangle;", "K", 60, 60))),
        vec!["a.drawio:5: warning: cell `k`: unknown shape `triangle`; read as `unknown`"]
    );
}

#[test]
fn every_edge_form_gives_its_edges() {
    let cells = [
        vertex("a", "", "A", 120, 60),
        vertex("b", "", "B", 120, 60),
        vertex("c", "", "C", 120, 60),
        edge("e1", "a", "b", "edgeStyle=orthogonalEdgeStyle;", ""),
        edge("e2", "b", "c", "endArrow=none;", ""),
        edge("e3", "c", "a", "dashed=1;endArrow=none;html=1;", "x&amp;lt;y"),
        edge("e4", "a", "c", "endArrow=none;startArrow=classic;", "back"),
        edge("e5", "b", "a", "startArrow=block;", "both"),
        edge("e6", "c", "b", "", ""),
        vertex("l6", "edgeLabel;html=1;", "label", 0, 0).replace("parent=\"1\"", "parent=\"e6\""),
        "<object clef_type=\"wiggly\" id=\"e7\"><mxCell edge=\"1\" parent=\"1\" source=\"a\" target=\"a\"/></object>\n".into(),
        "<mxCell id=\"e8\" edge=\"1\" parent=\"1\" source=\"a\"/>\n".into(),
    ]
    .concat();
    let p = parsed(&page(&cells));
    assert_eq!(p.errors, 0);
    let want = "NO 1 rectangle \"A\"\nNO 2 rectangle \"B\"\nNO 3 rectangle \"C\"\n\
                DE 1 1 wiggly\nDE 1 2 plain\nDE 1 2 plain \"both\"\nDE 2 1 plain \"both\"\n\
                DE 3 1 plain \"back\"\nDE 3 2 plain \"label\"\nUE 1 3 dotted \"x<y\"\nUE 2 3 plain\n";
    assert_eq!(write(&p.flowchart), want);
    assert_eq!(
        (p.diagnostics.iter())
            .map(ToString::to_string)
            .collect::<Vec<_>>(),
        vec![
            "a.drawio:16: warning: an edge not attached at both ends (no `source` or `target`) is dropped"
        ]
    );
}

/// `xml` compressed as draw.io does: raw deflate of the URL-encoded text,
/// in base64.
fn compressed(xml: &str) -> String {
    use base64::Engine;
    let mut encoded = String::new();
    for b in xml.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.!~*'()".contains(&b) {
            encoded.push(b as char);
        } else {
            encoded.push_str(&format!("%{b:02X}"));
        }
    }
    let mut deflater =
        flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::default());
    deflater.write_all(encoded.as_bytes()).unwrap();
    base64::engine::general_purpose::STANDARD.encode(deflater.finish().unwrap())
}

#[test]
fn compressed_and_multi_page_files() {
    let cells = [
        vertex("a", "ellipse;", "Start é", 120, 60),
        vertex("b", "", "Next", 120, 60),
        edge("e", "a", "b", "", "go"),
    ]
    .concat();
    let file = format!(
        "<mxfile>\n<diagram name=\"One\">{}</diagram>\n<diagram name=\"Two\">{}</diagram>\n</mxfile>",
        compressed(&model_of(&cells)),
        compressed(&model_of(""))
    );
    let p = parsed(&file);
    assert_eq!(p.errors, 0);
    assert_eq!(
        write(&p.flowchart),
        "NO 1 oval \"Start é\"\nNO 2 rectangle \"Next\"\nDE 1 2 plain \"go\"\n"
    );
    assert_eq!(
        (p.diagnostics.iter())
            .map(ToString::to_string)
            .collect::<Vec<_>>(),
        vec!["a.drawio:2: warning: a file of 2 pages: only the first page (`One`) is read"]
    );
    // A bare model reads too.
    assert_eq!(clef(&model_of(&cells)), write(&p.flowchart));
}

#[test]
fn malformed_files_name_their_line() {
    let cases = [
        (
            page("<mxCell id=\"a\" vertex=\"1\">\n</root>"),
            "a.drawio:6: error: not well-formed XML, so not a draw.io document: expected 'mxCell' tag, not 'root' at 6:1",
        ),
        (
            "<mxfile>\n<diagram>not base64!</diagram></mxfile>".into(),
            "a.drawio:2: error: the page cannot be decompressed: not base64 (Invalid symbol 33, offset 9.)",
        ),
        (
            format!(
                "<mxfile>\n<diagram>{}</diagram></mxfile>",
                compressed("<mxGraphModel><root>")
            ),
            "a.drawio:2: error: the decompressed page is not well-formed XML",
        ),
        (
            "<mxfile>\n</mxfile>".into(),
            "a.drawio:1: error: no `<diagram>` page in the draw.io file",
        ),
        (
            page(&[vertex("a", "", "A", 1, 1), vertex("a", "", "B", 1, 1)].concat()),
            "a.drawio:6: error: cell `a` is given twice (first on line 5)",
        ),
        (
            page(&[vertex("a", "", "A", 1, 1), edge("e", "a", "zz", "", "")].concat()),
            "a.drawio:6: error: an edge names the cell `zz`, which is no vertex of the page",
        ),
        (
            "<mxGraphModel/>".into(),
            "a.drawio:1: error: the `<mxGraphModel>` has no `<root>`",
        ),
    ];
    for (text, want) in cases {
        assert_eq!(messages(&text), vec![want.to_string()], "{text}");
    }
}

#[test]
fn a_deflate_bomb_is_refused_without_being_inflated() {
    use base64::Engine;
    let mut deflater = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::best());
    let zeros = vec![b'a'; 1 << 20];
    for _ in 0..65 {
        deflater.write_all(&zeros).unwrap();
    }
    let packed = base64::engine::general_purpose::STANDARD.encode(deflater.finish().unwrap());
    let file = format!("<mxfile>\n<diagram>{packed}</diagram></mxfile>");
    assert_eq!(
        messages(&file),
        vec!["a.drawio:2: error: the page cannot be decompressed: it inflates past 64 MiB"]
    );
}

#[test]
fn sniffing() {
    assert!(looks_like(page("").as_bytes()));
    assert!(looks_like(b"<?xml version=\"1.0\"?><mxGraphModel>"));
    assert!(!looks_like(b"<graphml/>"));
}
