//! One self-contained HTML page (`--html FILE`): inline CSS, inline SVG
//! charts, and a few lines of inline JavaScript only when a table is
//! sortable or has expandable rows. Nothing is fetched: the page opens
//! offline.
//!
//! Build a page from sections, each a heading followed by blocks and,
//! where a page gathers several tasks (the demo), by the sections it holds:
//!
//! ```
//! use clefeval::report::html::{Cell, HtmlPage, HtmlTable, Section};
//! let mut table = HtmlTable::new(["run", "F1"]).sortable();
//! table.row([Cell::text("osra"), Cell::number("0.5000", 0.5)]);
//! let page = HtmlPage::new("clefeval segmentation")
//!     .section(Section::new("ranking", "Ranking").table(table))
//!     .render();
//! assert!(page.contains("data-sort=\"0.5\""));
//! ```
//!
//! Every text argument is escaped with [`escape`]; only the methods named
//! `html` take markup, which the caller must have built from escaped text.
//! The page is XML-well-formed (void elements closed, no `<` or `&` in the
//! script) and deterministic: no timestamps, no generated ids.

use super::plot::Chart;
use crate::diagnostics::RejectedRun;
use serde::Serialize;
use std::fmt::Write;

/// Escapes text for HTML element content and quoted attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A chart's legend as HTML: one item per key, its sample
/// ([`super::plot::key_svg`]) before its name.
fn legend(keys: &[super::plot::Key]) -> String {
    if keys.is_empty() {
        return String::new();
    }
    let items: String = (keys.iter())
        .map(|k| format!("<li>{}{}</li>", super::plot::key_svg(k), escape(&k.name)))
        .collect();
    format!("<ul class=\"legend\">{items}</ul>")
}

/// The closing section of a task's page that lists the runs not scored
/// at all, with their reasons (id `<prefix>-rejected`); `None` when every
/// run was scored, so such a page is unchanged.
pub fn rejected_section(prefix: &str, rejected: &[RejectedRun]) -> Option<Section> {
    (!rejected.is_empty()).then(|| {
        let lines = rejected.iter().map(ToString::to_string);
        Section::new(&format!("{prefix}-rejected"), "Rejected runs").list("diagnostics", lines)
    })
}

/// JSON for a `<script type="application/json">` block: `<`, `>` and `&`
/// become `\u` escapes (only possible inside JSON strings), so the block can
/// neither end the script nor break XML well-formedness.
fn script_json<T: Serialize>(value: &T) -> String {
    super::to_json(value)
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
}

const STYLE: &str = "\
body{font-family:system-ui,sans-serif;margin:1.5em auto;max-width:72em;padding:0 1em;color:#222}\
h1{font-size:1.6em}h2{border-bottom:1px solid #ccc;padding-bottom:.2em;margin-top:1.6em}\
nav a{margin-right:1em;white-space:nowrap;display:inline-block}\
nav ul{list-style:none;margin:0;padding:0}nav li li{display:inline}\
nav>ul{display:grid;grid-template-columns:max-content auto;gap:.3em .5em}nav>ul>li{display:contents}\
nav>ul>li>a{font-weight:600}\
table.data{border-collapse:collapse;margin:.6em 0;display:block;max-width:100%;overflow-x:auto}\
table.data th,table.data td{border:1px solid #ccc;padding:2px 8px;text-align:left}\
table.data td.num{text-align:right;font-variant-numeric:tabular-nums}\
table.data th{background:#f2f2f2}\
table.sortable>thead>tr>th{cursor:pointer}\
table.sortable>thead>tr>th::after{content:'\\a0\\2195';color:#999}\
table.sortable>thead>tr>th[aria-sort=ascending]::after{content:'\\a0\\2191'}\
table.sortable>thead>tr>th[aria-sort=descending]::after{content:'\\a0\\2193'}\
tr.main{cursor:pointer}tr.main td:first-child::before{content:'\\25B8 ';color:#666}\
tr.main[aria-expanded=true] td:first-child::before{content:'\\25BE '}\
tr.detail>td{background:#fafafa}\
table.data>tbody>tr:first-child>td{white-space:nowrap}\
tr.more>td{border-top:none;font-size:.9em}details>summary{cursor:pointer;color:#555}\
div.graphs{display:flex;flex-wrap:wrap;gap:1em;align-items:flex-start}\
figure.graph{flex:1 1 0;min-width:0;margin:.4em 0;border:1px solid #eee;background:#fff}figure.graph svg{max-width:100%;height:auto}\
figure.chart{margin:.6em 0;display:inline-block;vertical-align:top;max-width:100%;overflow-x:auto}\
figure.chart>svg{display:block}\
ul.legend{list-style:none;margin:0 0 0 64px;padding:0;display:flex;flex-wrap:wrap;gap:.2em 1.2em;font-size:.9em;max-width:480px}\
ul.legend li{white-space:nowrap}ul.legend svg{vertical-align:middle;margin-right:.3em}\
span.swatch{display:inline-block;width:.8em;height:.8em;margin-right:.4em;vertical-align:baseline}\
ul.diagnostics{font-family:monospace;font-size:.9em}";

/// Sorting by a header click (numbers by `data-sort`, else text; each
/// `<tbody>` is one row with its detail, so details move with their row)
/// and expanding rows. Its last statement marks `<html data-script="ran">`,
/// so a browser check can see that it ran to the end without an error.
/// Written without `<` and `&` to stay XML-safe.
const SCRIPT: &str = "\
(function () {\
function key(body, col) {\
var cell = body.rows[0].cells[col];\
var s = cell.getAttribute('data-sort');\
return s === null ? cell.textContent : parseFloat(s);\
}\
document.querySelectorAll('table.sortable').forEach(function (table) {\
var heads = Array.prototype.slice.call(table.tHead.rows[0].cells);\
heads.forEach(function (th, col) {\
th.addEventListener('click', function () {\
var up = th.getAttribute('aria-sort') !== 'ascending';\
heads.forEach(function (h) { h.removeAttribute('aria-sort'); });\
th.setAttribute('aria-sort', up ? 'ascending' : 'descending');\
var bodies = Array.prototype.slice.call(table.tBodies);\
bodies.sort(function (a, b) {\
var x = key(a, col), y = key(b, col);\
var c = typeof x === 'number' ? x - y : String(x).localeCompare(String(y));\
return up ? c : -c;\
});\
bodies.forEach(function (b) { table.appendChild(b); });\
});\
});\
});\
document.querySelectorAll('tr.main').forEach(function (tr) {\
function toggle() {\
var detail = tr.nextElementSibling;\
detail.hidden = !detail.hidden;\
tr.setAttribute('aria-expanded', String(!detail.hidden));\
}\
tr.addEventListener('click', toggle);\
tr.addEventListener('keydown', function (e) {\
if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); toggle(); }\
});\
});\
document.documentElement.setAttribute('data-script', 'ran');\
})();";

/// A whole page: a title and its sections, in order.
#[derive(Clone, Debug, Default)]
pub struct HtmlPage {
    title: String,
    sections: Vec<Section>,
}

impl HtmlPage {
    /// An empty page with this title (also its `<h1>`).
    pub fn new(title: impl Into<String>) -> Self {
        HtmlPage {
            title: title.into(),
            sections: Vec::new(),
        }
    }

    /// Appends a section (builder style).
    pub fn section(mut self, section: Section) -> Self {
        self.push(section);
        self
    }

    /// Appends a section.
    pub fn push(&mut self, section: Section) {
        self.sections.push(section);
    }

    /// Appends sections, in order (builder style): a task's sections on its
    /// own page or on the demo's.
    pub fn sections(mut self, sections: impl IntoIterator<Item = Section>) -> Self {
        self.sections.extend(sections);
        self
    }

    /// The page: a title, a contents line linking the sections, the
    /// sections, and the script when a table needs it. A page whose
    /// sections hold sections of their own (the demo's tasks) gets a
    /// contents list instead: a line per top section, its own sections
    /// beside it.
    pub fn render(&self) -> String {
        let title = escape(&self.title);
        let mut out = format!(
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"/>\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\
             <title>{title}</title><style>{STYLE}</style></head>\n<body><h1>{title}</h1>\n"
        );
        if self.sections.iter().any(|s| !s.children.is_empty()) {
            out.push_str("<nav><ul>");
            for s in &self.sections {
                // Two grid cells a line: the section, then its own sections.
                let _ = write!(out, "<li>{}<ul>", s.link());
                for c in &s.children {
                    let _ = write!(out, "<li>{}</li>", c.link());
                }
                out.push_str("</ul></li>");
            }
            out.push_str("</ul></nav>\n");
        } else if self.sections.len() > 1 {
            out.push_str("<nav>");
            for s in &self.sections {
                out.push_str(&s.link());
            }
            out.push_str("</nav>\n");
        }
        for s in &self.sections {
            s.render(0, &mut out);
        }
        if self.sections.iter().any(Section::needs_script) {
            let _ = writeln!(out, "<script>{SCRIPT}</script>");
        }
        out.push_str("</body></html>\n");
        out
    }
}

/// `markup` with every heading one level lower per `by` (`<h3>` becomes
/// `<h4>` for `by` = 1), never below `<h6>`. All text in a section's markup
/// is escaped, so each `<h` or `</h` followed by a digit is a heading tag.
fn demote(markup: &str, by: u8) -> String {
    let mut out = String::with_capacity(markup.len());
    let mut rest = markup;
    while let Some(at) = rest.find('<') {
        let (before, tag) = rest.split_at(at);
        out.push_str(before);
        let name = if tag.starts_with("</") { 2 } else { 1 };
        let digit = tag.as_bytes().get(name + 1).copied();
        match digit {
            Some(d @ b'1'..=b'6') if tag.as_bytes().get(name) == Some(&b'h') => {
                let level = (d - b'0').saturating_add(by).min(6);
                let _ = write!(out, "{}{level}", &tag[..=name]);
                rest = &tag[name + 2..];
            }
            _ => {
                out.push('<');
                rest = &tag[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// A section of a page: a heading, blocks below it, then the sections it
/// holds, if any. A top section's heading is an `<h2>`, its sub-headings
/// `<h3>`; every level of nesting moves its headings one level down. Its id
/// (for links and tests) is given by the caller, so output stays
/// deterministic.
#[derive(Clone, Debug, Default)]
pub struct Section {
    id: String,
    heading: String,
    body: String,
    scripted: bool,
    children: Vec<Section>,
}

impl Section {
    /// A section with this element id and heading text.
    pub fn new(id: &str, heading: &str) -> Self {
        Section {
            id: escape(id),
            heading: escape(heading),
            ..Section::default()
        }
    }

    /// Appends sections held by this one (builder style): on the demo's
    /// page, a task's sections under the task's heading.
    pub fn subsections(mut self, sections: impl IntoIterator<Item = Section>) -> Self {
        self.children.extend(sections);
        self
    }

    /// The contents entry linking this section.
    fn link(&self) -> String {
        format!("<a href=\"#{}\">{}</a>", self.id, self.heading)
    }

    /// Whether this section or one it holds needs the page's script.
    fn needs_script(&self) -> bool {
        self.scripted || self.children.iter().any(Section::needs_script)
    }

    /// Writes the section `depth` levels below the page's top sections.
    fn render(&self, depth: u8, out: &mut String) {
        let level = 2 + depth.min(4);
        let body = if depth == 0 {
            std::borrow::Cow::Borrowed(self.body.as_str())
        } else {
            std::borrow::Cow::Owned(demote(&self.body, depth))
        };
        let _ = write!(
            out,
            "<section id=\"{}\"><h{level}>{}</h{level}>\n{body}",
            self.id, self.heading
        );
        for c in &self.children {
            c.render(depth + 1, out);
        }
        out.push_str("</section>\n");
    }

    /// A sub-heading (`<h3>` in a top section).
    pub fn heading(self, text: &str) -> Self {
        let block = format!("<h3>{}</h3>\n", escape(text));
        self.html(block)
    }

    /// A paragraph of text.
    pub fn paragraph(self, text: &str) -> Self {
        let block = format!("<p>{}</p>\n", escape(text));
        self.html(block)
    }

    /// A bulleted list of text items (e.g. diagnostics); nothing when empty.
    pub fn list<S: AsRef<str>>(self, class: &str, items: impl IntoIterator<Item = S>) -> Self {
        let items: String = items
            .into_iter()
            .map(|i| format!("<li>{}</li>", escape(i.as_ref())))
            .collect();
        if items.is_empty() {
            return self;
        }
        let block = format!("<ul class=\"{}\">{items}</ul>\n", escape(class));
        self.html(block)
    }

    /// A table.
    pub fn table(mut self, table: HtmlTable) -> Self {
        self.scripted |= table.needs_script();
        self.html(table.render())
    }

    /// A chart with its legend below it and its plotted data beside it, as
    /// `<figure class="chart" id=ID><svg>…</svg><ul class="legend">…</ul>
    /// <script type="application/json" class="chart-data">…</script></figure>`.
    pub fn chart(self, id: &str, chart: &Chart) -> Self {
        let block = format!(
            "<figure class=\"chart\" id=\"{}\">{}{}<script type=\"application/json\" \
             class=\"chart-data\">{}</script></figure>\n",
            escape(id),
            chart.svg,
            legend(&chart.legend),
            script_json(&chart.data)
        );
        self.html(block)
    }

    /// A JSON data block (`<script type="application/json" id=ID>`), for
    /// scripts and tests that read the figures behind the page.
    pub fn data<T: Serialize>(self, id: &str, value: &T) -> Self {
        let block = format!(
            "<script type=\"application/json\" id=\"{}\">{}</script>\n",
            escape(id),
            script_json(value)
        );
        self.html(block)
    }

    /// Markup the caller built itself (e.g. a drawn graph); all text in it
    /// must already be escaped with [`escape`].
    pub fn html(mut self, markup: impl AsRef<str>) -> Self {
        self.body.push_str(markup.as_ref());
        self
    }
}

/// One table cell: its text and, for numbers, the value a sort uses.
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    text: String,
    sort: Option<f64>,
    swatch: Option<String>,
}

impl Cell {
    /// A text cell (sorts as text).
    pub fn text(text: impl Into<String>) -> Self {
        Cell {
            text: text.into(),
            sort: None,
            swatch: None,
        }
    }

    /// A number shown as `display` and sorted by `value`; right-aligned.
    pub fn number(display: impl Into<String>, value: f64) -> Self {
        Cell {
            text: display.into(),
            sort: Some(value),
            swatch: None,
        }
    }

    /// A text cell led by a small square of `colour` (a CSS colour such as
    /// `#1f77b4`), to tie a run's row to its lines in the charts.
    pub fn swatch(text: impl Into<String>, colour: &str) -> Self {
        Cell {
            swatch: Some(colour.to_string()),
            ..Cell::text(text)
        }
    }

    fn render(&self) -> String {
        let swatch = self.swatch.as_ref().map_or(String::new(), |c| {
            format!(
                "<span class=\"swatch\" style=\"background:{}\"></span>",
                escape(c)
            )
        });
        match self.sort {
            Some(v) => format!(
                "<td class=\"num\" data-sort=\"{v}\">{swatch}{}</td>",
                escape(&self.text)
            ),
            None => format!("<td>{swatch}{}</td>", escape(&self.text)),
        }
    }
}

impl From<&str> for Cell {
    fn from(text: &str) -> Self {
        Cell::text(text)
    }
}

impl From<String> for Cell {
    fn from(text: String) -> Self {
        Cell::text(text)
    }
}

/// What a row shows below itself.
#[derive(Clone, Debug)]
enum Detail {
    /// Hidden markup shown when the row is clicked (needs the script).
    Hidden(String),
    /// A `<details>` element (summary text, markup): opens without script.
    Details(String, String),
}

#[derive(Clone, Debug)]
struct Row {
    cells: Vec<Cell>,
    detail: Option<Detail>,
}

/// An HTML table: a header row and data rows, optionally sortable by
/// clicking a header, each row optionally expandable to show detail markup.
/// Each row is its own `<tbody>` so that a sort moves a row's detail with it.
#[derive(Clone, Debug, Default)]
pub struct HtmlTable {
    headers: Vec<String>,
    /// A tooltip per header (`title`), by header text.
    titles: Vec<(String, String)>,
    rows: Vec<Row>,
    sortable: bool,
}

impl HtmlTable {
    /// A table with these column headers.
    pub fn new<S: Into<String>>(headers: impl IntoIterator<Item = S>) -> Self {
        HtmlTable {
            headers: headers.into_iter().map(Into::into).collect(),
            ..HtmlTable::default()
        }
    }

    /// Gives the headers whose text is the first of a pair the second as
    /// their tooltip: what the column's symbol means.
    pub fn titles(mut self, titles: &[(&str, &str)]) -> Self {
        (self.titles).extend(titles.iter().map(|(h, t)| (h.to_string(), t.to_string())));
        self
    }

    /// Lets the reader sort the rows by clicking a header.
    pub fn sortable(mut self) -> Self {
        self.sortable = true;
        self
    }

    /// Adds a row; missing cells are blank, extra cells are dropped.
    pub fn row<C: Into<Cell>>(&mut self, cells: impl IntoIterator<Item = C>) {
        self.push(cells, None);
    }

    /// Adds a row that expands, when clicked, to show `detail` (markup the
    /// caller built from escaped text) across the whole table width.
    pub fn row_with_detail<C: Into<Cell>>(
        &mut self,
        cells: impl IntoIterator<Item = C>,
        detail: impl Into<String>,
    ) {
        self.push(cells, Some(Detail::Hidden(detail.into())));
    }

    /// Adds a row followed by a full-width `<details>` element: `summary`
    /// (text) always shown, `markup` (built from escaped text) when opened.
    /// Works without the script; a sort moves it with its row.
    pub fn row_with_details<C: Into<Cell>>(
        &mut self,
        cells: impl IntoIterator<Item = C>,
        summary: &str,
        markup: impl Into<String>,
    ) {
        let detail = Detail::Details(escape(summary), markup.into());
        self.push(cells, Some(detail));
    }

    fn push<C: Into<Cell>>(&mut self, cells: impl IntoIterator<Item = C>, detail: Option<Detail>) {
        let mut cells: Vec<Cell> = cells.into_iter().map(Into::into).collect();
        cells.resize(self.headers.len(), Cell::text(""));
        self.rows.push(Row { cells, detail });
    }

    fn needs_script(&self) -> bool {
        self.sortable
            || self
                .rows
                .iter()
                .any(|r| matches!(r.detail, Some(Detail::Hidden(_))))
    }

    /// The `<table>` markup.
    pub fn render(&self) -> String {
        let class = if self.sortable {
            "data sortable"
        } else {
            "data"
        };
        let mut out = format!("<table class=\"{class}\"><thead><tr>");
        for h in &self.headers {
            match self.titles.iter().find(|(header, _)| header == h) {
                Some((_, title)) => {
                    let _ = write!(out, "<th title=\"{}\">{}</th>", escape(title), escape(h));
                }
                None => {
                    let _ = write!(out, "<th>{}</th>", escape(h));
                }
            }
        }
        out.push_str("</tr></thead>\n");
        let span = self.headers.len().max(1);
        for row in &self.rows {
            let cells: String = row.cells.iter().map(Cell::render).collect();
            match &row.detail {
                None => {
                    let _ = writeln!(out, "<tbody><tr>{cells}</tr></tbody>");
                }
                Some(Detail::Hidden(detail)) => {
                    let _ = writeln!(
                        out,
                        "<tbody><tr class=\"main\" tabindex=\"0\" aria-expanded=\"false\">{cells}</tr>\
                         <tr class=\"detail\" hidden=\"hidden\"><td colspan=\"{span}\">{detail}</td></tr></tbody>"
                    );
                }
                Some(Detail::Details(summary, markup)) => {
                    let _ = writeln!(
                        out,
                        "<tbody><tr>{cells}</tr><tr class=\"more\"><td colspan=\"{span}\">\
                         <details><summary>{summary}</summary>{markup}</details></td></tr></tbody>"
                    );
                }
            }
        }
        out.push_str("</table>\n");
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_covers_the_five_special_characters() {
        assert_eq!(
            escape(r#"a<b>&"c"'d'"#),
            "a&lt;b&gt;&amp;&quot;c&quot;&#39;d&#39;"
        );
        assert_eq!(escape("plain ü"), "plain ü");
        // Escaping is not idempotent by design: text is escaped exactly once.
        assert_eq!(escape("&amp;"), "&amp;amp;");
    }

    #[test]
    fn table_pads_rows_escapes_cells_and_keeps_details_with_their_row() {
        let mut t = HtmlTable::new(["run", "F1"]).sortable();
        t.row([Cell::text("<a>")]);
        t.row_with_detail(
            [Cell::swatch("b", "#123456"), Cell::number("0.2500*", 0.25)],
            "<em>x</em>",
        );
        t.row(["c", "d", "dropped"]);
        assert_eq!(
            t.render(),
            "<table class=\"data sortable\"><thead><tr><th>run</th><th>F1</th></tr></thead>\n\
             <tbody><tr><td>&lt;a&gt;</td><td></td></tr></tbody>\n\
             <tbody><tr class=\"main\" tabindex=\"0\" aria-expanded=\"false\">\
             <td><span class=\"swatch\" style=\"background:#123456\"></span>b</td>\
             <td class=\"num\" data-sort=\"0.25\">0.2500*</td></tr>\
             <tr class=\"detail\" hidden=\"hidden\"><td colspan=\"2\"><em>x</em></td></tr></tbody>\n\
             <tbody><tr><td>c</td><td>d</td></tr></tbody>\n\
             </table>\n"
        );
        assert!(t.needs_script());
        let mut plain = HtmlTable::new(["a"]);
        plain.row(["1"]);
        assert!(!plain.needs_script());
    }

    #[test]
    fn details_rows_open_without_the_script_and_stay_with_their_row() {
        let mut t = HtmlTable::new(["topic", "d"]);
        t.row_with_details(
            [Cell::text("FC<1>"), Cell::number("0.5000", 0.5)],
            "graphs & labels",
            "<svg/>",
        );
        assert_eq!(
            t.render(),
            "<table class=\"data\"><thead><tr><th>topic</th><th>d</th></tr></thead>\n\
             <tbody><tr><td>FC&lt;1&gt;</td><td class=\"num\" data-sort=\"0.5\">0.5000</td></tr>\
             <tr class=\"more\"><td colspan=\"2\"><details><summary>graphs &amp; labels</summary>\
             <svg/></details></td></tr></tbody>\n</table>\n"
        );
        assert!(!t.needs_script());
        // Sections added in order; the script's last act marks the page.
        let page = HtmlPage::new("p")
            .sections([Section::new("a", "A"), Section::new("b", "B")])
            .section(Section::new("c", "C").table(t.sortable()))
            .render();
        let (a, b, c) = (
            page.find("id=\"a\""),
            page.find("id=\"b\""),
            page.find("id=\"c\""),
        );
        assert!(a < b && b < c && a.is_some());
        assert!(page.contains("setAttribute('data-script', 'ran');})();</script>"));
    }

    #[test]
    fn headings_move_down_one_level_per_nesting_and_text_is_left_alone() {
        assert_eq!(
            demote(
                "<h3 class=\"x\">a &lt;h2&gt;</h3><hr/><html><h6>z</h6></h1><h>",
                1
            ),
            "<h4 class=\"x\">a &lt;h2&gt;</h4><hr/><html><h6>z</h6></h2><h>"
        );
        assert_eq!(demote("<h2>a</h2>", 3), "<h5>a</h5>");
        assert_eq!(demote("<", 1), "<");
        let task = Section::new("t", "Task").paragraph("intro").subsections([
            Section::new("r", "Ranking").heading("Runs"),
            Section::new("s", "Sub").table(HtmlTable::new(["h"]).sortable()),
        ]);
        let page = HtmlPage::new("p")
            .sections([task, Section::new("u", "Other")])
            .render();
        assert!(page.contains(
            "<nav><ul><li><a href=\"#t\">Task</a><ul><li><a href=\"#r\">Ranking</a></li>\
             <li><a href=\"#s\">Sub</a></li></ul></li><li><a href=\"#u\">Other</a><ul></ul></li></ul></nav>\n"
        ));
        assert!(page.contains(
            "<section id=\"t\"><h2>Task</h2>\n<p>intro</p>\n\
             <section id=\"r\"><h3>Ranking</h3>\n<h4>Runs</h4>\n</section>\n\
             <section id=\"s\"><h3>Sub</h3>\n<table class=\"data sortable\">"
        ));
        assert!(
            page.contains("</table>\n</section>\n</section>\n<section id=\"u\"><h2>Other</h2>")
        );
        // A nested section's table still brings the script.
        assert_eq!(page.matches("<script>").count(), 1);
    }

    #[test]
    fn script_only_when_a_table_needs_it_and_page_is_well_formed() {
        let mut plain = HtmlTable::new(["a"]);
        plain.row(["1"]);
        let quiet = HtmlPage::new("t")
            .section(Section::new("s", "S").table(plain))
            .render();
        assert!(!quiet.contains("<script"));
        assert!(!quiet.contains("<nav>"));
        let page = HtmlPage::new("A & B")
            .section(
                Section::new("one", "One <1>")
                    .paragraph("x < y")
                    .list("diagnostics", ["f:1: bad <tag>"])
                    .list("diagnostics", Vec::<String>::new())
                    .data("figures", &serde_json::json!({"name": "</script><b>&"})),
            )
            .section(Section::new("two", "Two").table(HtmlTable::new(["h"]).sortable()))
            .render();
        assert!(page.contains("<title>A &amp; B</title>"));
        assert!(
            page.contains("<nav><a href=\"#one\">One &lt;1&gt;</a><a href=\"#two\">Two</a></nav>")
        );
        assert_eq!(page.matches("<ul").count(), 1);
        assert_eq!(page.matches("<script>").count(), 1);
        assert!(page.contains("\"name\": \"\\u003c/script\\u003e\\u003cb\\u003e\\u0026\""));
        // XML-well-formed: parses with a strict XML parser after the doctype.
        let body = page.trim_start_matches("<!DOCTYPE html>\n");
        let doc = roxmltree::Document::parse(body).expect("well-formed");
        let data = doc
            .descendants()
            .find(|n| n.attribute("id") == Some("figures"))
            .and_then(|n| n.text())
            .unwrap_or_default();
        let value: serde_json::Value = serde_json::from_str(data).unwrap_or_default();
        assert_eq!(value["name"], "</script><b>&");
    }
}
