use super::*;
use crate::flowchart::built::MAX_ITEMS;
use crate::flowchart::model::{EdgeType, NodeId, NodeType};

fn parsed(text: &str) -> Parsed {
    read(text.as_bytes(), "a.mmd", &ParseOptions::default())
}

/// The nodes as (type, text) and the edges as (from text, to text,
/// directed, type, text), in file order.
type Shown = (
    Vec<(NodeType, String)>,
    Vec<(String, String, bool, EdgeType, Option<String>)>,
);

fn shown(text: &str) -> Shown {
    let p = parsed(text);
    assert_eq!(p.errors, 0, "{:?}", p.diagnostics);
    let name = |id: NodeId| {
        (p.flowchart.nodes.iter())
            .find(|n| n.id == id)
            .and_then(|n| n.text.clone())
            .unwrap_or_default()
    };
    let nodes = (p.flowchart.nodes.iter())
        .map(|n| (n.node_type, n.text.clone().unwrap_or_default()))
        .collect();
    let edges = (p.flowchart.edges.iter())
        .map(|e| {
            (
                name(e.from),
                name(e.to),
                e.directed,
                e.edge_type,
                e.text.clone(),
            )
        })
        .collect();
    (nodes, edges)
}

fn lines(p: &Parsed) -> Vec<String> {
    p.diagnostics.iter().map(ToString::to_string).collect()
}

#[test]
fn every_shape_of_the_table_gives_its_type_and_text() {
    let (nodes, _) = shown(
        "flowchart TD\n\
         a[Rect]\nb(Round)\nc([Stadium])\nd((Circle))\ne(((Double)))\nf{Decide?}\n\
         g[/In/]\nh[\\Out\\]\ni[[Sub]]\nj[(DB)]\nk\n\
         l@{ shape: text, label: \"Note\" }\nm@{ shape: sm-circ }\nn@{ shape: lean-l, label: \"L\" }\n",
    );
    use NodeType::*;
    let want = [
        (Rectangle, "Rect"),
        (Oval, "Round"),
        (Oval, "Stadium"),
        (Circle, "Circle"),
        (Circle, "Double"),
        (Diamond, "Decide?"),
        (Parallelogram, "In"),
        (Parallelogram, "Out"),
        (DoubleRectangle, "Sub"),
        (Cylinder, "DB"),
        (Rectangle, "k"),
        (NoBox, "Note"),
        (Point, ""),
        (Parallelogram, "L"),
    ];
    let got: Vec<(NodeType, &str)> = nodes.iter().map(|(t, s)| (*t, s.as_str())).collect();
    assert_eq!(got, want);
}

#[test]
fn unknown_shapes_are_read_as_unknown_with_a_warning() {
    let p = parsed("flowchart LR\na{{Hex}} --> b[/Trap\\]\nc>Flag] --> d@{ shape: hourglass }\n");
    assert_eq!(p.errors, 0);
    let types: Vec<NodeType> = p.flowchart.nodes.iter().map(|n| n.node_type).collect();
    assert_eq!(types, [NodeType::Unknown; 4]);
    assert_eq!(
        lines(&p),
        [
            "a.mmd:2: warning: node `a`: unknown shape `{{…}}`; read as `unknown`",
            "a.mmd:2: warning: node `b`: unknown shape trapezoid; read as `unknown`",
            "a.mmd:3: warning: node `c`: unknown shape `>…]`; read as `unknown`",
            "a.mmd:3: warning: node `d`: unknown shape `hourglass`; read as `unknown`",
        ]
    );
}

#[test]
fn every_link_gives_its_edges() {
    use EdgeType::{Dotted, Plain};
    let (_, edges) = shown(
        "graph TD\n\
         a --> b\na ---> b\na ==> b\na --o b\na --x b\n\
         a -.-> b\na --- b\na === b\na -.- b\n\
         a <--> b\na o--o b\na x--x b\na ~~~ b\n",
    );
    let got: Vec<(bool, EdgeType, &str)> = (edges.iter())
        .map(|(f, _, d, t, _)| (*d, *t, f.as_str()))
        .collect();
    let want = [
        (true, Plain, "a"),
        (true, Plain, "a"),
        (true, Plain, "a"),
        (true, Plain, "a"),
        (true, Plain, "a"),
        (true, Dotted, "a"),
        (false, Plain, "a"),
        (false, Plain, "a"),
        (false, Dotted, "a"),
        (true, Plain, "a"),
        (true, Plain, "b"),
        (true, Plain, "a"),
        (true, Plain, "b"),
        (true, Plain, "a"),
        (true, Plain, "b"),
    ];
    assert_eq!(got, want);
}

#[test]
fn edge_texts_in_both_spellings_and_texts_made_plain() {
    let (nodes, edges) = shown(
        "flowchart TD\n\
         A[\"Check<br/>stock\"] -->|Yes| B(\"a #quot;b#quot; &amp; c\")\n\
         A -- No --> C\n\
         A -. maybe .-> D\n\
         A == sure ==> E\n\
         A -->|\"multi<br>line\"| F\n",
    );
    assert_eq!(nodes[0].1, "Check stock");
    assert_eq!(nodes[1].1, "a \"b\" & c");
    let texts: Vec<Option<&str>> = edges.iter().map(|e| e.4.as_deref()).collect();
    assert_eq!(
        texts,
        [
            Some("Yes"),
            Some("No"),
            Some("maybe"),
            Some("sure"),
            Some("multi line")
        ]
    );
    assert_eq!(edges[2].3, EdgeType::Dotted);
}

#[test]
fn chains_and_groups_expand() {
    let (nodes, edges) = shown("flowchart LR\na & b --> c --> d & e\n");
    assert_eq!(nodes.len(), 5);
    let pairs: Vec<(&str, &str)> = edges.iter().map(|e| (e.0.as_str(), e.1.as_str())).collect();
    assert_eq!(pairs, [("a", "c"), ("b", "c"), ("c", "d"), ("c", "e")]);
}

#[test]
fn the_header_may_hold_statements_and_semicolons_split_them() {
    let (nodes, edges) = shown("graph TD; A[Start]-->B{Ok?}; B-->|yes|C;B-->|no|A\n");
    assert_eq!(nodes.len(), 3);
    assert_eq!(edges.len(), 3);
    assert_eq!(nodes[1], (NodeType::Diamond, "Ok?".to_string()));
}

#[test]
fn a_node_given_twice_takes_its_last_shape_and_text() {
    let (nodes, _) = shown("flowchart TD\nA --> B\nA[First] --> B\nA{Last}\nA --> C\n");
    assert_eq!(nodes[0], (NodeType::Diamond, "Last".to_string()));
    assert_eq!(nodes[1], (NodeType::Rectangle, "B".to_string()));
}

#[test]
fn subgraphs_classes_styles_and_comments_change_nothing_but_edges_to_a_subgraph_are_dropped() {
    let text = "flowchart TD\n\
                %% a comment\n\
                subgraph one [Stage one]\n  direction LR\n  a1:::hot --> a2\nend\n\
                classDef hot fill:#f96\nclass a2 hot\nstyle a1 fill:#bbf\n\
                linkStyle 0 stroke:#ff3\nclick a1 callback\n\
                a2 --> one\n";
    let p = parsed(text);
    assert_eq!(p.errors, 0, "{:?}", p.diagnostics);
    assert_eq!(p.flowchart.nodes.len(), 2);
    assert_eq!(p.flowchart.edges.len(), 1);
    assert_eq!(
        lines(&p),
        ["a.mmd:12: warning: an edge to the subgraph `one` is dropped (a subgraph is no node)"]
    );
}

#[test]
fn a_markdown_answer_gives_its_first_mermaid_block_with_file_line_numbers() {
    let text =
        "Here is the diagram:\n\n```mermaid\nflowchart TD\n  A --> B\n  B --> ???\n```\n\nDone.\n";
    let p = read(text.as_bytes(), "answer.md", &ParseOptions::default());
    assert_eq!(
        lines(&p),
        [
            "answer.md:3: warning: text outside the ```mermaid block is ignored",
            "answer.md:6: error: expected a node id at `???`",
        ]
    );
    assert!(p.is_rejected());
    // Without text around it, no warning.
    let clean = read(
        b"```mermaid\ngraph LR\nA-->B\n```\n",
        "b.md",
        &ParseOptions::default(),
    );
    assert!(clean.diagnostics.is_empty(), "{:?}", clean.diagnostics);
    assert_eq!(clean.flowchart.edges.len(), 1);
}

#[test]
fn what_cannot_be_read_is_an_error_with_its_line() {
    let p = parsed("flowchart TD\nA --> B\nA -> B\nC[open\n");
    assert_eq!(
        lines(&p),
        [
            "a.mmd:3: error: expected a link such as `-->` at `-> B`",
            "a.mmd:4: error: node `C`: `[` without its `]`",
        ]
    );
    let none = parsed("sequenceDiagram\nA->>B: hi\n");
    assert_eq!(
        lines(&none),
        [
            "a.mmd:1: error: no Mermaid flowchart: the diagram must start with `flowchart` or `graph` (and a direction such as TD)"
        ]
    );
}

#[test]
fn mermaid_is_told_from_dot_and_clef_text() {
    assert!(looks_like(b"flowchart TD\nA-->B\n"));
    assert!(looks_like(b"%% comment\ngraph LR;A-->B"));
    assert!(looks_like(b"---\ntitle: x\n---\nflowchart LR\n"));
    assert!(looks_like(b"Answer:\n```mermaid\ngraph TD\n```\n"));
    assert!(!looks_like(b"graph {\n a -- b\n}\n"));
    assert!(!looks_like(b"graph G {\n a -- b\n}\n"));
    assert!(!looks_like(b"digraph { a -> b }"));
    assert!(!looks_like(b"NO 1 oval \"x\"\n"));
    assert!(!looks_like(b"# notes\nno diagram here\n"));
}

#[test]
fn groups_that_multiply_past_the_cap_stop_at_it_with_one_error() {
    let group = |prefix: &str| {
        (0..1025)
            .map(|i| format!("{prefix}{i}"))
            .collect::<Vec<_>>()
            .join(" & ")
    };
    let text = format!("flowchart LR\n{} --> {}\n", group("a"), group("b"));
    let p = parsed(&text);
    assert_eq!(p.flowchart.edges.len(), MAX_ITEMS);
    assert_eq!(
        lines(&p),
        ["a.mmd:2: error: more than 1048576 nodes or edges; the rest is not read"]
    );
}
