use super::*;
use crate::flowchart::formats::testing;

fn parsed(text: &str) -> Parsed {
    read(text.as_bytes(), "a.dot", &ParseOptions::default())
}

fn clef(text: &str) -> String {
    testing::clef(read, "a.dot", text)
}

fn messages(text: &str) -> Vec<String> {
    testing::messages(read, "a.dot", text)
}

#[test]
fn every_shape_of_the_table_gives_its_type() {
    let got = clef(
        "digraph {\n\
         a [shape=box] b [shape=rect] c [shape=rectangle] d [shape=square]\n\
         e [shape=ellipse] f [shape=oval] g\n\
         h [shape=circle] i [shape=doublecircle] j [shape=diamond]\n\
         k [shape=parallelogram] l [shape=box, peripheries=2] m [shape=cylinder]\n\
         n [shape=plaintext] o [shape=plain] p [shape=none] q [shape=point]\n\
         r [shape=hexagon] s [shape=BOX]\n}",
    );
    let want = "NO 1 rectangle \"a\"\nNO 2 rectangle \"b\"\nNO 3 rectangle \"c\"\n\
                NO 4 rectangle \"d\"\nNO 5 oval \"e\"\nNO 6 oval \"f\"\nNO 7 oval \"g\"\n\
                NO 8 circle \"h\"\nNO 9 circle \"i\"\nNO 10 diamond \"j\"\n\
                NO 11 parallelogram \"k\"\nNO 12 double-rectangle \"l\"\nNO 13 cylinder \"m\"\n\
                NO 14 no-box \"n\"\nNO 15 no-box \"o\"\nNO 16 no-box \"p\"\nNO 17 point\n\
                NO 18 unknown \"r\"\nNO 19 rectangle \"s\"\n";
    assert_eq!(got, want);
    assert_eq!(
        messages("digraph {\n a\n r [shape=hexagon]\n}"),
        vec!["a.dot:3: warning: node `r`: unknown shape `hexagon`; read as `unknown`"]
    );
}

#[test]
fn every_edge_form_gives_its_edges() {
    let got = clef(
        "digraph G {\n\
         a -> b\n\
         a -> c [style=dotted]\n\
         a -> d [style=\"dashed,bold\"]\n\
         b -> c [dir=none]\n\
         c -> d [dir=back, label=\"back\"]\n\
         d -> a [dir=both label=yes]\n\
         a -> b [style=invis]\n\
         }",
    );
    let want = "NO 1 oval \"a\"\nNO 2 oval \"b\"\nNO 3 oval \"c\"\nNO 4 oval \"d\"\n\
                DE 1 2 plain\nDE 1 3 dotted\nDE 1 4 plain \"yes\"\nDE 1 4 dotted\n\
                DE 4 1 plain \"yes\"\nDE 4 3 plain \"back\"\nUE 2 3 plain\n";
    assert_eq!(got, want);
    // An undirected graph: every edge undirected, `dir` aside.
    assert_eq!(
        clef("graph { a -- b -- c [style=dotted]; c -- a [dir=forward] }"),
        "NO 1 oval \"a\"\nNO 2 oval \"b\"\nNO 3 oval \"c\"\n\
         UE 1 2 dotted\nUE 1 3 plain\nUE 2 3 dotted\n"
    );
}

#[test]
fn defaults_groups_subgraphs_and_ports() {
    let got = clef(
        "strict digraph {\n\
         node [shape=box]; edge [style=dotted]\n\
         start [shape=oval]\n\
         start -> {x y} -> end:n\n\
         subgraph cluster_1 { node [shape=diamond]; q; x; q -> r:e:sw }\n\
         start -> x [label=again]\n\
         end [label=\"The end\"]\n\
         }",
    );
    // Defaults hold for nodes created after them, in their scope; a node
    // named again in a subgraph keeps its shape; a strict graph merges a
    // repeated edge, the later attributes winning.
    let want = "NO 1 oval \"start\"\nNO 2 rectangle \"x\"\nNO 3 rectangle \"y\"\n\
                NO 4 rectangle \"The end\"\nNO 5 diamond \"q\"\nNO 6 diamond \"r\"\n\
                DE 1 2 dotted \"again\"\nDE 1 3 dotted\nDE 2 4 dotted\nDE 3 4 dotted\n\
                DE 5 6 dotted\n";
    assert_eq!(got, want);
    // Not strict: the repeated edge is a second edge.
    assert_eq!(
        clef("digraph { a -> b; a -> b }"),
        "NO 1 oval \"a\"\nNO 2 oval \"b\"\nDE 1 2 plain\nDE 1 2 plain\n"
    );
}

#[test]
fn labels_escapes_html_and_entities() {
    let got = clef(
        "digraph {\n\
         a [label=\"Check\\nstock\\l\"]\n\
         b [label=<<b>Bold</b><br/>line &amp; more>]\n\
         c [label=\"say \\\"hi\\\" &lt;3\"]\n\
         d [label=\"node \\N\"]\n\
         e [label=\"long \" + \"name\"]\n\
         f [label=\"\"]\n\
         g [label=\"a<b>c\"]\n\
         \"two\nlines &amp;\"\n\
         a -> b [label=\"\\T to \\H\"]\n\
         }",
    );
    let want = "NO 1 oval \"Check stock\"\nNO 2 oval \"Bold line & more\"\n\
                NO 3 oval \"say \"hi\" <3\"\nNO 4 oval \"node d\"\nNO 5 oval \"long name\"\n\
                NO 6 oval\nNO 7 oval \"a<b>c\"\nNO 8 oval \"two lines &\"\n\
                DE 1 2 plain \"a to b\"\n";
    assert_eq!(got, want);
}

#[test]
fn clef_type_wins_over_the_shape() {
    let got = clef(
        "digraph {\n\
         a [shape=box, clef_type=unknown]\n\
         b [clef_type=\"point\"]\n\
         c [clef_type=bogus, shape=diamond]\n\
         a -> b [clef_type=wiggly]\n\
         b -> c [clef_type=unknown, style=dotted]\n\
         }",
    );
    assert_eq!(
        got,
        "NO 1 unknown \"a\"\nNO 2 point\nNO 3 diamond \"c\"\n\
         DE 1 2 wiggly\nDE 2 3 unknown\n"
    );
    assert_eq!(
        messages("digraph {\n c [clef_type=bogus, shape=diamond]\n}"),
        vec!["a.dot:2: warning: node `c`: clef_type `bogus` is no CLEF-IP node type; ignored"]
    );
}

#[test]
fn comments_and_a_markdown_answer() {
    let text = "Here is the diagram:\n\n```dot\n// a comment\n#line 1\ndigraph {\n  /* block\n  comment */\n  a -> b\n  b -> \n}\n```\nHope it helps.\n";
    let p = read(text.as_bytes(), "answer.md", &ParseOptions::default());
    assert_eq!(
        (p.diagnostics.iter())
            .map(ToString::to_string)
            .collect::<Vec<_>>(),
        vec![
            "answer.md:3: warning: text outside the ```dot block is ignored",
            "answer.md:11: error: expected a node after the edge, found `}`",
        ]
    );
    let fixed = text.replace("  b -> \n", "");
    let p = read(fixed.as_bytes(), "answer.md", &ParseOptions::default());
    assert_eq!(p.errors, 0);
    assert_eq!(p.flowchart.edges.len(), 1);
}

#[test]
fn syntax_errors_name_their_line() {
    let cases = [
        (
            "digraph {\n a -> b\n",
            "a.dot:3: error: the graph's `{` is never closed by `}`",
        ),
        (
            "digraph {\n a -- b\n}",
            "a.dot:2: error: `--` in a digraph: its edges are written `->`",
        ),
        (
            "graph {\n a -> b\n}",
            "a.dot:2: error: `->` in a graph: its edges are written `--`",
        ),
        (
            "digraph {\n a [label=\"x]\n}",
            "a.dot:2: error: a quoted string is never closed",
        ),
        (
            "digraph {\n a [shape=box\n}",
            "a.dot:3: error: expected an attribute name, found `}`",
        ),
        (
            "flowchart TD\nA-->B",
            "a.dot:1: error: a DOT graph starts with `digraph` or `graph`, found `flowchart`",
        ),
        (
            "digraph {\n /* open\n}",
            "a.dot:2: error: a `/*` comment is never closed",
        ),
        (
            "digraph {\n a -> @\n}",
            "a.dot:2: error: unexpected character `@`",
        ),
        ("", "a.dot:1: error: no DOT graph: the text is empty"),
    ];
    for (text, want) in cases {
        assert_eq!(messages(text), vec![want.to_string()], "{text}");
    }
    let p = parsed("digraph { a -> b }\ndigraph { c }");
    assert_eq!(p.errors, 0);
    assert_eq!(
        (p.diagnostics.iter())
            .map(ToString::to_string)
            .collect::<Vec<_>>(),
        vec!["a.dot:2: warning: only the first graph of a DOT file is read; the rest is ignored"]
    );
}

#[test]
fn nesting_and_groups_are_bounded() {
    let deep = format!("digraph {{ {} a {} }}", "{".repeat(500), "}".repeat(500));
    let p = parsed(&deep);
    assert_eq!(p.errors, 1);
    assert!(lines_contain(&p, "subgraphs nested more than 100 deep"));
    // 1100 × 1000 ends: more edges than the cap, one error, no more.
    let left: Vec<String> = (0..1100).map(|i| format!("a{i}")).collect();
    let right: Vec<String> = (0..1000).map(|i| format!("b{i}")).collect();
    let wide = format!(
        "digraph {{ {{{}}} -> {{{}}} }}",
        left.join(" "),
        right.join(" ")
    );
    let p = parsed(&wide);
    assert_eq!(p.errors, 1);
    assert_eq!(p.flowchart.edges.len(), crate::flowchart::built::MAX_ITEMS);
}

fn lines_contain(p: &Parsed, part: &str) -> bool {
    p.diagnostics.iter().any(|d| d.to_string().contains(part))
}

#[test]
fn sniffing_tells_dot_from_mermaid() {
    for yes in [
        "digraph { a }",
        "strict graph { a }",
        "graph { a -- b }",
        "graph G { a -- b }",
        "  // comment\nDiGraph x {}",
        "Answer:\n```graphviz\ngraph { a }\n```",
    ] {
        assert!(looks_like(yes.as_bytes()), "{yes}");
    }
    for no in [
        "graph TD\n A --> B",
        "flowchart LR",
        "NO 1 oval",
        "```mermaid\ngraph TD\n```\n```dot\ndigraph {}\n```",
        "",
    ] {
        assert!(!looks_like(no.as_bytes()), "{no}");
    }
}
