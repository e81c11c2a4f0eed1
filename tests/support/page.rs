//! Reading an HTML page of the reports back, for the test files that
//! check one: the pages are XML-well-formed, so a strict XML parser reads
//! them; helpers find an element by id, a table's rows and a chart's data,
//! and check that a page references nothing outside itself.

#![allow(dead_code)]

use roxmltree::{Document, Node, ParsingOptions};
use serde_json::Value;
use std::collections::HashSet;

/// The page parsed as XML (the doctype allowed); fails when it is not
/// well-formed.
pub fn parse(html: &str) -> Document<'_> {
    let options = ParsingOptions {
        allow_dtd: true,
        ..ParsingOptions::default()
    };
    Document::parse_with_options(html, options).expect("the page is well-formed")
}

/// The element with this id.
pub fn by_id<'a, 'i>(doc: &'a Document<'i>, id: &str) -> Node<'a, 'i> {
    doc.descendants()
        .find(|n| n.attribute("id") == Some(id))
        .unwrap_or_else(|| panic!("no element #{id}"))
}

/// The text of a node and its descendants.
pub fn text(node: Node) -> String {
    node.descendants()
        .filter(|n| n.is_text())
        .filter_map(|n| n.text())
        .collect()
}

/// The data rows (first row of each `<tbody>`) of a table, as cell texts.
pub fn rows(table: Node) -> Vec<Vec<String>> {
    row_cells(table, text)
}

/// The data rows of a table, each cell read with `read`.
pub fn row_cells<T>(table: Node, read: impl Fn(Node) -> T) -> Vec<Vec<T>> {
    table
        .children()
        .filter(|n| n.has_tag_name("tbody"))
        .filter_map(|b| b.children().find(|n| n.has_tag_name("tr")))
        .map(|tr| {
            tr.children()
                .filter(|n| n.has_tag_name("td"))
                .map(&read)
                .collect()
        })
        .collect()
}

/// The `<table>` children of `node` (not nested ones).
pub fn tables<'a, 'i>(node: Node<'a, 'i>) -> Vec<Node<'a, 'i>> {
    node.children()
        .filter(|n| n.has_tag_name("table"))
        .collect()
}

/// The figures of a chart: its `chart-data` JSON.
pub fn chart_data(doc: &Document, id: &str) -> Value {
    let data = by_id(doc, id)
        .children()
        .find(|n| n.attribute("class") == Some("chart-data"))
        .and_then(|n| n.text())
        .unwrap();
    serde_json::from_str(data).unwrap()
}

/// The page points nowhere outside itself: no link, frame, image or
/// address, no stylesheet import, and the only script without a type is
/// the page's one inline script (`scripts` of them: 0 or 1).
pub fn assert_self_contained(doc: &Document, scripts: usize) {
    for node in doc.descendants() {
        for a in node.attributes() {
            let v = a.value();
            if matches!(a.name(), "src" | "href" | "action" | "poster" | "srcset") {
                assert!(
                    v.starts_with('#') || v.starts_with("data:"),
                    "{}={v}",
                    a.name()
                );
            }
            assert!(
                !v.contains("http:") && !v.contains("https:"),
                "{}={v}",
                a.name()
            );
        }
        let tag = node.tag_name().name();
        assert!(
            !["link", "iframe", "object", "embed", "img", "base"].contains(&tag),
            "{tag}"
        );
        if let Some(t) = node.text() {
            assert!(!t.contains("url(") && !t.contains("@import"), "{t}");
            assert!(!t.contains("http:") && !t.contains("https:"), "{t}");
        }
    }
    // The only scripts: the data blocks and the inline script.
    let all: Vec<Node> = doc
        .descendants()
        .filter(|n| n.has_tag_name("script"))
        .collect();
    assert_eq!(
        all.iter().filter(|s| s.attribute("type").is_none()).count(),
        scripts
    );
    assert!(all.iter().all(|s| s.attribute("src").is_none()));
}

/// Every id of the page, each found once.
pub fn unique_ids<'a>(doc: &'a Document) -> HashSet<&'a str> {
    let ids: Vec<&str> = doc
        .descendants()
        .filter_map(|n| n.attribute("id"))
        .collect();
    let unique: HashSet<&str> = ids.iter().copied().collect();
    assert_eq!(ids.len(), unique.len(), "duplicate ids");
    unique
}
