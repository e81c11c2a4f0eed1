//! Charts for the HTML reports, drawn with `plotters` into SVG strings:
//! multi-series line charts (ratios over tolerances), grouped bar charts
//! (counts per category and run) and distributions (values in [0, 1] binned).
//!
//! Each chart comes back with the data it plots as JSON ([`Chart::data`]),
//! which the page embeds beside the SVG, and its legend as keys
//! ([`Chart::legend`]), which the page writes beside the chart (each
//! key's sample by [`key_svg`]), never over its data. Colours come from one fixed
//! [`PALETTE`]: give a run the same colour index (its position among the
//! runs) in every chart and table. Within one chart each series also has
//! its own dash pattern and marker shape ([`DASHES`], [`Shape`]), so that
//! lines that coincide stay told apart. Output is deterministic: same
//! input, same bytes. `plotters` escapes every text it writes into the
//! SVG; the lines and markers written here carry no text.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use serde::Serialize;
use std::error::Error;

/// A drawn chart: the SVG markup, the figures it plots and its legend.
#[derive(Clone, Debug, PartialEq)]
pub struct Chart {
    pub svg: String,
    pub data: serde_json::Value,
    pub legend: Vec<Key>,
}

/// One entry of a chart's legend: a name and how what it names is drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Key {
    pub name: String,
    pub colour: usize,
    pub mark: Mark,
}

/// How a legend entry's data is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// A line of dash pattern and marker shape `style` ([`DASHES`], [`Shape`]).
    Line(usize),
    /// Points of marker shape `style`, not joined.
    Dots(usize),
    /// A filled bar.
    Bar,
    /// The grey dashed vertical line of a [`Marker`].
    Limit,
}

/// The dash patterns of a chart's lines by series (SVG `stroke-dasharray`,
/// solid first); they repeat after five.
pub const DASHES: [&str; 5] = ["", "9 4", "2 3", "14 4 3 4", "5 5"];

/// The marker shapes of a chart's series, by series; they repeat after five.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    Circle,
    Square,
    Triangle,
    Diamond,
    Cross,
}

impl Shape {
    const ALL: [Shape; 5] = [
        Shape::Circle,
        Shape::Square,
        Shape::Triangle,
        Shape::Diamond,
        Shape::Cross,
    ];

    /// The shape of series `style`.
    pub fn of(style: usize) -> Shape {
        Shape::ALL
            .get(style % Shape::ALL.len())
            .copied()
            .unwrap_or(Shape::Circle)
    }

    /// The marker as SVG, centred on (`x`, `y`), in `fill`.
    fn svg(self, x: f64, y: f64, fill: &str) -> String {
        match self {
            Shape::Circle => format!("<circle cx=\"{x}\" cy=\"{y}\" r=\"3.5\" fill=\"{fill}\"/>"),
            Shape::Square => format!(
                "<rect x=\"{}\" y=\"{}\" width=\"7\" height=\"7\" fill=\"{fill}\"/>",
                x - 3.5,
                y - 3.5
            ),
            Shape::Triangle => format!(
                "<polygon points=\"{x},{} {},{} {},{}\" fill=\"{fill}\"/>",
                y - 4.5,
                x + 4.5,
                y + 3.5,
                x - 4.5,
                y + 3.5
            ),
            Shape::Diamond => format!(
                "<polygon points=\"{x},{} {},{y} {x},{} {},{y}\" fill=\"{fill}\"/>",
                y - 5.0,
                x + 5.0,
                y + 5.0,
                x - 5.0
            ),
            Shape::Cross => format!(
                "<path d=\"M{} {}L{} {}M{} {}L{} {}\" stroke=\"{fill}\" stroke-width=\"2\"/>",
                x - 4.0,
                y - 4.0,
                x + 4.0,
                y + 4.0,
                x - 4.0,
                y + 4.0,
                x + 4.0,
                y - 4.0
            ),
        }
    }
}

/// The sample of a legend key as a small SVG (34 × 14 px), drawn as in
/// the chart: a line with its dashes and marker, a marker, a bar or the
/// limit line. It holds no text (the page writes the key's name beside).
pub fn key_svg(key: &Key) -> String {
    let fill = svg_colour(key.colour);
    let sample = match key.mark {
        Mark::Line(style) => format!(
            "{}{}",
            polyline(&[(2.0, 7.0), (32.0, 7.0)], &fill, style, "key"),
            Shape::of(style).svg(17.0, 7.0, &fill)
        ),
        Mark::Dots(style) => Shape::of(style).svg(17.0, 7.0, &fill),
        Mark::Bar => format!("<rect x=\"11\" y=\"2\" width=\"12\" height=\"10\" fill=\"{fill}\"/>"),
        Mark::Limit => limit_line(17.0, 0.0, 14.0),
    };
    format!("<svg width=\"34\" height=\"14\" aria-hidden=\"true\">{sample}</svg>")
}

/// The palette colour of index `i` as the SVG writes it (`#1F77B4`).
fn svg_colour(i: usize) -> String {
    let (r, g, b) = rgb(i);
    format!("#{r:02X}{g:02X}{b:02X}")
}

/// A series' line through `points` (px), in `colour`, dashed as series
/// `style`; `class` names it for the page's checks (`series`, `key`).
fn polyline(points: &[(f64, f64)], colour: &str, style: usize, class: &str) -> String {
    let points: Vec<String> = points.iter().map(|(x, y)| format!("{x},{y}")).collect();
    let dashes = DASHES
        .get(style % DASHES.len())
        .copied()
        .unwrap_or_default();
    let dashes = if dashes.is_empty() {
        String::new()
    } else {
        format!(" stroke-dasharray=\"{dashes}\"")
    };
    format!(
        "<polyline class=\"{class}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\"{dashes} points=\"{}\"/>",
        points.join(" ")
    )
}

/// The grey dashed vertical line of a [`Marker`] at `x` from `y0` to `y1` (px).
fn limit_line(x: f64, y0: f64, y1: f64) -> String {
    format!(
        "<line class=\"limit\" x1=\"{x}\" y1=\"{y0}\" x2=\"{x}\" y2=\"{y1}\" stroke=\"#555555\" stroke-width=\"1.5\" stroke-dasharray=\"6 4\"/>"
    )
}

/// `svg` with `elements` written last, over everything `plotters` drew.
fn with_elements(mut svg: String, elements: &[String]) -> String {
    if let Some(end) = svg.rfind("</svg>") {
        svg.insert_str(end, &elements.concat());
    }
    svg
}

/// The indices of the points of series `i` of `n` (with `points` points)
/// that get a marker: about ten spread along the line, each series at
/// other indices than the others, so that coinciding lines show their
/// markers in turn.
fn marked(points: usize, i: usize, n: usize) -> impl Iterator<Item = usize> {
    let n = n.max(1);
    let stride = points.div_ceil(10).max(n);
    let offset = (i % n) * stride / n;
    (0..points).filter(move |k| k % stride == offset)
}

/// A chart that could not be drawn (a plotters error, in words).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlotError(pub String);

impl std::fmt::Display for PlotError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "chart could not be drawn: {}", self.0)
    }
}

impl From<Box<dyn Error>> for PlotError {
    fn from(e: Box<dyn Error>) -> Self {
        PlotError(e.to_string())
    }
}

/// The fixed colours (Tableau 10), by run position; they repeat after ten.
pub const PALETTE: [(u8, u8, u8); 10] = [
    (0x1f, 0x77, 0xb4),
    (0xff, 0x7f, 0x0e),
    (0x2c, 0xa0, 0x2c),
    (0xd6, 0x27, 0x28),
    (0x94, 0x67, 0xbd),
    (0x8c, 0x56, 0x4b),
    (0xe3, 0x77, 0xc2),
    (0x7f, 0x7f, 0x7f),
    (0xbc, 0xbd, 0x22),
    (0x17, 0xbe, 0xcf),
];

/// The palette entry of index `i` (wrapping after the last).
fn rgb(i: usize) -> (u8, u8, u8) {
    PALETTE.get(i % PALETTE.len()).copied().unwrap_or((0, 0, 0))
}

/// The palette colour of index `i`.
pub fn colour(i: usize) -> RGBColor {
    let (r, g, b) = rgb(i);
    RGBColor(r, g, b)
}

/// The palette colour of index `i` as CSS (`#1f77b4`), for tables.
pub fn colour_css(i: usize) -> String {
    let (r, g, b) = rgb(i);
    format!("#{r:02x}{g:02x}{b:02x}")
}

/// One line: a name for the legend, a palette index, (x, y) points.
#[derive(Clone, Debug, Serialize)]
pub struct Series {
    pub name: String,
    pub colour: usize,
    pub points: Vec<(f64, f64)>,
}

/// A labelled vertical line, e.g. the organizers' 55 px limit.
#[derive(Clone, Debug, Serialize)]
pub struct Marker {
    pub x: f64,
    pub label: String,
}

/// A line chart of ratios: y runs over [0, 1], x over the points' range.
#[derive(Clone, Debug, Serialize)]
pub struct LineChart {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub series: Vec<Series>,
    pub marker: Option<Marker>,
}

/// One group member of a bar chart: a name, a palette index, one count per
/// category.
#[derive(Clone, Debug, Serialize)]
pub struct Bars {
    pub name: String,
    pub colour: usize,
    pub counts: Vec<u64>,
}

/// A grouped bar chart: for each category, one bar per member of `bars`;
/// `x_label` names what the categories are.
#[derive(Clone, Debug, Serialize)]
pub struct BarChart {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub categories: Vec<String>,
    pub bars: Vec<Bars>,
}

const SIZE: (u32, u32) = (560, 340);
const FONT: &str = "sans-serif";
/// The size given to `plotters` for every text but the title. Its SVG
/// backend writes `font-size` as the size divided by 1.24, so 17 is drawn
/// at 13.7 px, near the page's own text.
const TEXT: u32 = 17;
/// The size given to `plotters` for a title (17.7 px drawn).
const TITLE: u32 = 22;

/// The room below the plotting area for the x axis's numbers and its title,
/// in px.
const X_LABEL_AREA: u32 = 56;
/// The room left of the plotting area for the y axis's numbers and title.
const Y_LABEL_AREA: u32 = 64;

/// A chart's frame with `x_area` px below the plotting area for the x
/// axis's labels (more for labels written upwards).
fn builder_with<'a, 'b>(
    root: &'a DrawingArea<SVGBackend<'b>, Shift>,
    title: &str,
    x_area: u32,
) -> ChartBuilder<'a, 'b, SVGBackend<'b>> {
    let mut builder = ChartBuilder::on(root);
    builder
        .caption(title, (FONT, TITLE))
        .margin(12)
        .x_label_area_size(x_area)
        .y_label_area_size(Y_LABEL_AREA);
    builder
}

fn to_value<T: Serialize>(spec: &T) -> Result<serde_json::Value, PlotError> {
    serde_json::to_value(spec).map_err(|e| PlotError(e.to_string()))
}

/// Draws a line chart of ratios: each series a line of its colour, dash
/// pattern and marker shape, the marker a grey dashed vertical line; the
/// legend names both.
pub fn line_chart(spec: &LineChart) -> Result<Chart, PlotError> {
    let mut svg = String::new();
    let elements = draw_lines(spec, &mut svg)?;
    let mut legend: Vec<Key> = (spec.series.iter().enumerate())
        .map(|(i, s)| Key {
            name: s.name.clone(),
            colour: s.colour,
            mark: Mark::Line(i),
        })
        .collect();
    legend.extend(spec.marker.iter().map(|m| Key {
        name: m.label.clone(),
        colour: 0,
        mark: Mark::Limit,
    }));
    Ok(Chart {
        svg: with_elements(svg, &elements),
        data: to_value(spec)?,
        legend,
    })
}

fn draw_lines(spec: &LineChart, svg: &mut String) -> Result<Vec<String>, Box<dyn Error>> {
    let xs = spec
        .series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.0))
        .chain(spec.marker.iter().map(|m| m.x))
        .filter(|x| x.is_finite());
    let (lo, hi) = xs.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| {
        (lo.min(x), hi.max(x))
    });
    let (lo, hi) = if lo < hi {
        (lo, hi)
    } else if lo.is_finite() {
        (lo - 1.0, lo + 1.0)
    } else {
        (0.0, 1.0)
    };
    // Room right of the last point and of a marker there, so that neither
    // runs along the frame.
    let hi = hi + (hi - lo) * 0.03;
    let size = (SIZE.0, TITLE_PX + MARGINS_PX + RATIO_PX + X_LABEL_AREA);
    let root = SVGBackend::with_string(svg, size).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart =
        builder_with(&root, &spec.title, X_LABEL_AREA).build_cartesian_2d(lo..hi, ratio_axis())?;
    chart
        .configure_mesh()
        .x_desc(&spec.x_label)
        .y_desc(&spec.y_label)
        .x_label_formatter(&|x| number(*x))
        .y_labels(RATIO_LABELS)
        .y_label_formatter(&|y| format!("{y:.1}"))
        .label_style((FONT, TEXT))
        .axis_desc_style((FONT, TEXT))
        .light_line_style(WHITE)
        .draw()?;
    let at = |x: f64, y: f64| {
        let (x, y) = chart.backend_coord(&(x, y));
        (f64::from(x), f64::from(y))
    };
    let mut elements = Vec::new();
    if let Some(m) = &spec.marker {
        let ((x, y0), (_, y1)) = (at(m.x, RATIO_TOP), at(m.x, 0.0));
        elements.push(limit_line(x, y0, y1));
    }
    let n = spec.series.len();
    for (i, s) in spec.series.iter().enumerate() {
        let fill = svg_colour(s.colour);
        let points: Vec<(f64, f64)> = (s.points.iter())
            .filter(|(x, y)| x.is_finite() && y.is_finite())
            .map(|&(x, y)| at(x, y.clamp(0.0, RATIO_TOP)))
            .collect();
        elements.push(polyline(&points, &fill, i, "series"));
        for k in marked(points.len(), i, n) {
            if let Some(&(x, y)) = points.get(k) {
                elements.push(Shape::of(i).svg(x, y, &fill));
            }
        }
    }
    root.present()?;
    Ok(elements)
}

/// An axis number: whole numbers without decimals (tolerances), others
/// with up to 3 decimals.
fn number(x: f64) -> String {
    if x.fract() == 0.0 {
        format!("{x:.0}")
    } else {
        let s = format!("{x:.3}");
        s.trim_end_matches('0').to_string()
    }
}

/// Draws a grouped bar chart of counts.
pub fn bar_chart(spec: &BarChart) -> Result<Chart, PlotError> {
    let mut svg = String::new();
    draw_bars(spec, &mut svg)?;
    Ok(Chart {
        svg,
        data: to_value(spec)?,
        legend: bar_keys(spec.bars.iter().map(|b| (&b.name, b.colour))),
    })
}

/// The legend of a bar chart's members.
fn bar_keys<'a>(members: impl Iterator<Item = (&'a String, usize)>) -> Vec<Key> {
    members
        .map(|(name, colour)| Key {
            name: name.clone(),
            colour,
            mark: Mark::Bar,
        })
        .collect()
}

fn draw_bars(spec: &BarChart, svg: &mut String) -> Result<(), Box<dyn Error>> {
    let n = spec.categories.len().max(1);
    let top = spec
        .bars
        .iter()
        .flat_map(|b| b.counts.iter().copied())
        .max()
        .unwrap_or(0);
    // A little room above the highest bar.
    let top = top + top / 10 + 1;
    // Each category as wide as its longest label line: every label across.
    let longest = spec
        .categories
        .iter()
        .flat_map(|c| c.lines())
        .map(|l| l.chars().count() as u32)
        .max()
        .unwrap_or(0);
    let slot = longest * CHAR_PX + 8;
    let labels = Labels::whole(spec.categories.clone(), slot, UNIT_PX);
    let root = SVGBackend::with_string(svg, labels.size).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = builder_with(&root, &spec.title, labels.x_area)
        .build_cartesian_2d(0f64..n as f64, 0u64..top)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(0)
        .x_desc(&spec.x_label)
        .y_desc(&spec.y_label)
        .label_style((FONT, TEXT))
        .axis_desc_style((FONT, TEXT))
        .light_line_style(WHITE)
        .draw()?;
    let width = 0.8 / spec.bars.len().max(1) as f64;
    for (j, b) in spec.bars.iter().enumerate() {
        let c = colour(b.colour);
        let left = |i: usize| i as f64 + 0.1 + j as f64 * width;
        chart.draw_series(
            b.counts
                .iter()
                .take(n)
                .enumerate()
                .map(|(i, &v)| Rectangle::new([(left(i), 0), (left(i) + width, v)], c.filled())),
        )?;
    }
    let at: Vec<(i32, i32)> = (0..spec.categories.len())
        .map(|i| chart.backend_coord(&(i as f64 + 0.5, 0)))
        .collect();
    labels.draw(&root, &at)?;
    root.present()?;
    Ok(())
}

/// Values in [0, 1] counted in `bins` equal bins (at least one); 1.0 falls
/// in the last bin, values outside [0, 1] in the nearest end bin, NaN in none.
pub fn bin_counts(values: &[f64], bins: usize) -> Vec<u64> {
    let bins = bins.max(1);
    let mut counts = vec![0; bins];
    for v in values.iter().filter(|v| !v.is_nan()) {
        // Truncation is the binning; the clamp keeps 1.0 and outliers in range.
        let i = ((v * bins as f64).floor().max(0.0) as usize).min(bins - 1);
        if let Some(c) = counts.get_mut(i) {
            *c += 1;
        }
    }
    counts
}

/// One member of a distribution chart: a name, a palette index, its values.
#[derive(Clone, Debug)]
pub struct Distribution {
    pub name: String,
    pub colour: usize,
    pub values: Vec<f64>,
}

/// The labels of `bins` equal bins over [0, 1] as ranges (`0.0–0.1`; two
/// decimals unless one tells every bound apart); `last` (when not empty)
/// is added below the last bin's label (`\n` starts a further line), e.g.
/// what else that bin holds.
pub fn bin_labels(bins: usize, last: &str) -> Vec<String> {
    let bins = bins.max(1);
    let decimals = if 10 % bins == 0 { 1 } else { 2 };
    (0..bins)
        .map(|i| {
            let (lo, hi) = (i as f64 / bins as f64, (i + 1) as f64 / bins as f64);
            let range = format!("{lo:.decimals$}\u{2013}{hi:.decimals$}");
            if i + 1 == bins && !last.is_empty() {
                format!("{range}\n{last}")
            } else {
                range
            }
        })
        .collect()
}

/// A distribution of values in [0, 1] (e.g. distances per run): grouped
/// bars of [`bin_counts`] over `bins` bins labelled as ranges by
/// [`bin_labels`] (`last` added to the last one), the x axis titled
/// `x_label`.
pub fn distribution_chart(
    title: &str,
    x_label: &str,
    y_label: &str,
    members: &[Distribution],
    bins: usize,
    last: &str,
) -> Result<Chart, PlotError> {
    let bins = bins.max(1);
    let spec = BarChart {
        title: title.to_string(),
        x_label: x_label.to_string(),
        y_label: y_label.to_string(),
        categories: bin_labels(bins, last),
        bars: members
            .iter()
            .map(|m| Bars {
                name: m.name.clone(),
                colour: m.colour,
                counts: bin_counts(&m.values, bins),
            })
            .collect(),
    };
    bar_chart(&spec)
}

/// The height of the ratios 0 to 1 in a ratio chart, in px.
const UNIT_PX: u32 = 200;
/// The top of a ratio axis: a little above 1, so that a line at 1 is not
/// drawn on the frame.
const RATIO_TOP: f64 = 1.04;
/// The height of a ratio chart's plotting area, 0 to [`RATIO_TOP`], in px.
const RATIO_PX: u32 = 208;
/// The height of the title (its font and padding) and of the margins
/// above and below the plotting area, in px.
const TITLE_PX: u32 = 30;
const MARGINS_PX: u32 = 2 * 12;

/// The y axis of a ratio chart: 0 to [`RATIO_TOP`]; with [`RATIO_LABELS`]
/// numbers they stand at 0, 0.2, …, 1 and none above.
fn ratio_axis() -> std::ops::Range<f64> {
    0f64..RATIO_TOP
}

/// The count of numbers on a ratio axis.
const RATIO_LABELS: usize = 6;

/// Width of one character of a label (13.7 px drawn), roughly, in px.
const CHAR_PX: u32 = 9;
/// The height of a line of a label, in px.
const LINE_PX: u32 = 18;
/// Labels under a chart are cut to this many characters (the last one `…`).
const LABEL_CHARS: usize = 16;
/// Left and right of a plotting area: the margins and the y axis's labels.
const FRAME_PX: u32 = 2 * 12 + Y_LABEL_AREA;

/// How the category labels go under a chart: each label (cut to
/// [`LABEL_CHARS`]), whether they are written across or upwards (when the
/// longest does not fit its category's width), the chart's size (wider
/// than [`SIZE`] when the categories need it) and the room for the labels.
struct Labels {
    labels: Vec<String>,
    across: bool,
    size: (u32, u32),
    x_area: u32,
}

impl Labels {
    /// The layout of `names` as categories each at least `slot` px wide,
    /// above them a plotting area `plot` px high.
    fn new(names: &[String], slot: u32, plot: u32) -> Self {
        Labels::whole(names.iter().map(|n| cut(n)).collect(), slot, plot)
    }

    /// The layout of `labels` as they are (not cut; a label may have
    /// several lines, split at `\n`, written under each other).
    fn whole(labels: Vec<String>, slot: u32, plot: u32) -> Self {
        let n = labels.len().max(1) as u32;
        let width = SIZE.0.max(FRAME_PX + n * slot);
        let per = (width - FRAME_PX) / n;
        let longest = labels
            .iter()
            .flat_map(|l| l.lines())
            .map(|l| l.chars().count() as u32)
            .max()
            .unwrap_or(0);
        let lines = labels.iter().map(|l| l.lines().count()).max().unwrap_or(1);
        let across = longest * CHAR_PX + 4 <= per;
        let x_area = if across {
            X_LABEL_AREA + LINE_PX * (lines.max(1) as u32 - 1)
        } else {
            // The labels, then the axis's title below them.
            X_LABEL_AREA.max(longest * CHAR_PX + 12 + 24)
        };
        Labels {
            labels,
            across,
            size: (width, TITLE_PX + MARGINS_PX + plot + x_area),
            x_area,
        }
    }

    /// Writes the labels below the points `at` (backend px on the x axis).
    fn draw(
        &self,
        root: &DrawingArea<SVGBackend<'_>, Shift>,
        at: &[(i32, i32)],
    ) -> Result<(), Box<dyn Error>> {
        let font = TextStyle::from((FONT, TEXT).into_font());
        let style = if self.across {
            font.pos(Pos::new(HPos::Center, VPos::Top))
        } else {
            // Upwards, ending just below the axis.
            font.transform(FontTransform::Rotate270)
                .pos(Pos::new(HPos::Right, VPos::Center))
        };
        for (label, &(x, y)) in self.labels.iter().zip(at) {
            if self.across {
                for (k, line) in label.lines().enumerate() {
                    let y = y + 6 + LINE_PX as i32 * k as i32;
                    root.draw(&Text::new(line.to_string(), (x, y), style.clone()))?;
                }
            } else {
                let label = label.lines().collect::<Vec<_>>().join(" ");
                root.draw(&Text::new(label, (x, y + 6), style.clone()))?;
            }
        }
        Ok(())
    }
}

/// `name` cut to [`LABEL_CHARS`] characters, the last one `…`.
fn cut(name: &str) -> String {
    if name.chars().count() <= LABEL_CHARS {
        name.to_string()
    } else {
        let head: String = name.chars().take(LABEL_CHARS - 1).collect();
        format!("{head}…")
    }
}

/// One member of a [`RatioBarChart`]: a name, a palette index, one value
/// per category (`None`: no value, no bar).
#[derive(Clone, Debug, Serialize)]
pub struct RatioBars {
    pub name: String,
    pub colour: usize,
    pub values: Vec<Option<f64>>,
}

/// A grouped bar chart of ratios in [0, 1] (e.g. the means of measures):
/// for each category, one bar per member of `bars`.
#[derive(Clone, Debug, Serialize)]
pub struct RatioBarChart {
    pub title: String,
    pub y_label: String,
    pub categories: Vec<String>,
    pub bars: Vec<RatioBars>,
}

/// Least width of one bar of a [`RatioBarChart`], and the gap between two
/// categories, in px: many categories widen the chart rather than thin
/// the bars.
const BAR_PX: u32 = 8;
const GAP_PX: u32 = 12;

/// Draws a grouped bar chart of ratios, its category labels written
/// upwards when they do not fit across.
pub fn ratio_bar_chart(spec: &RatioBarChart) -> Result<Chart, PlotError> {
    let mut svg = String::new();
    draw_ratio_bars(spec, &mut svg)?;
    Ok(Chart {
        svg,
        data: to_value(spec)?,
        legend: bar_keys(spec.bars.iter().map(|b| (&b.name, b.colour))),
    })
}

fn draw_ratio_bars(spec: &RatioBarChart, svg: &mut String) -> Result<(), Box<dyn Error>> {
    let n = spec.categories.len().max(1);
    let members = spec.bars.len().max(1);
    let labels = Labels::new(&spec.categories, members as u32 * BAR_PX + GAP_PX, RATIO_PX);
    let root = SVGBackend::with_string(svg, labels.size).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = builder_with(&root, &spec.title, labels.x_area)
        .build_cartesian_2d(0f64..n as f64, ratio_axis())?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(0)
        .y_desc(&spec.y_label)
        .y_labels(RATIO_LABELS)
        .y_label_formatter(&|y| format!("{y:.1}"))
        .label_style((FONT, TEXT))
        .axis_desc_style((FONT, TEXT))
        .light_line_style(WHITE)
        .draw()?;
    let width = 0.8 / members as f64;
    for (j, b) in spec.bars.iter().enumerate() {
        let c = colour(b.colour);
        let left = |i: usize| i as f64 + 0.1 + j as f64 * width;
        let bars = b.values.iter().take(n).enumerate().filter_map(|(i, v)| {
            let v = v.filter(|v| v.is_finite())?.clamp(0.0, RATIO_TOP);
            Some(Rectangle::new(
                [(left(i), 0.0), (left(i) + width, v)],
                c.filled(),
            ))
        });
        chart.draw_series(bars)?;
    }
    let at: Vec<(i32, i32)> = (0..spec.categories.len())
        .map(|i| chart.backend_coord(&(i as f64 + 0.5, 0.0)))
        .collect();
    labels.draw(&root, &at)?;
    root.present()?;
    Ok(())
}

/// One member of a [`TopicChart`]: a name, a palette index, whether its
/// points are joined by a line, one value per topic (in the chart's
/// `topics` order).
#[derive(Clone, Debug, Serialize)]
pub struct TopicSeries {
    pub name: String,
    pub colour: usize,
    pub joined: bool,
    pub values: Vec<f64>,
}

/// Scores of topics, a point per topic and series: topic `i` of `topics`
/// at x = i + 1, y over [0, 1].
#[derive(Clone, Debug, Serialize)]
pub struct TopicChart {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub topics: Vec<String>,
    pub series: Vec<TopicSeries>,
}

/// Up to this many topics are named under a [`TopicChart`]; more are
/// numbered by their position.
pub const NAMED_TOPICS: usize = 40;
/// Least width of one named topic, in px.
const TOPIC_PX: u32 = 12;

/// Draws a topic chart: a marker per topic and series, of the series'
/// shape (a line of its dash pattern through the markers of a joined
/// series).
pub fn topic_chart(spec: &TopicChart) -> Result<Chart, PlotError> {
    let mut svg = String::new();
    let elements = draw_topics(spec, &mut svg)?;
    let legend = (spec.series.iter().enumerate())
        .map(|(i, s)| Key {
            name: s.name.clone(),
            colour: s.colour,
            mark: if s.joined {
                Mark::Line(topic_style(s, i))
            } else {
                Mark::Dots(topic_style(s, i))
            },
        })
        .collect();
    Ok(Chart {
        svg: with_elements(svg, &elements),
        data: to_value(spec)?,
        legend,
    })
}

/// The style of series `i` of a topic chart: a joined series (the
/// reference) solid with circles, the others by their place after it.
fn topic_style(series: &TopicSeries, i: usize) -> usize {
    if series.joined { 0 } else { i + 1 }
}

fn draw_topics(spec: &TopicChart, svg: &mut String) -> Result<Vec<String>, Box<dyn Error>> {
    let n = spec.topics.len().max(1);
    let named = spec.topics.len() <= NAMED_TOPICS;
    let labels = if named {
        Labels::new(&spec.topics, TOPIC_PX, RATIO_PX)
    } else {
        Labels::new(&[], TOPIC_PX, RATIO_PX)
    };
    let root = SVGBackend::with_string(svg, labels.size).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = builder_with(&root, &spec.title, labels.x_area)
        .build_cartesian_2d(0.5..n as f64 + 0.5, ratio_axis())?;
    let mut mesh = chart.configure_mesh();
    mesh.disable_x_mesh()
        .y_desc(&spec.y_label)
        .y_labels(RATIO_LABELS)
        .y_label_formatter(&|y| format!("{y:.1}"))
        .label_style((FONT, TEXT))
        .axis_desc_style((FONT, TEXT))
        .light_line_style(WHITE);
    if named {
        mesh.x_labels(0);
    } else {
        mesh.x_desc(&spec.x_label)
            .x_label_formatter(&|x| number(*x));
    }
    mesh.draw()?;
    let mut elements = Vec::new();
    for (i, s) in spec.series.iter().enumerate() {
        let fill = svg_colour(s.colour);
        let points: Vec<(f64, f64)> = (s.values.iter().enumerate())
            .filter(|(_, v)| v.is_finite())
            .map(|(k, &v)| {
                let (x, y) = chart.backend_coord(&((k + 1) as f64, v.clamp(0.0, RATIO_TOP)));
                (f64::from(x), f64::from(y))
            })
            .collect();
        let style = topic_style(s, i);
        if s.joined {
            elements.push(polyline(&points, &fill, style, "series"));
        }
        elements.extend(
            points
                .iter()
                .map(|&(x, y)| Shape::of(style).svg(x, y, &fill)),
        );
    }
    if named {
        let at: Vec<(i32, i32)> = (0..spec.topics.len())
            .map(|i| chart.backend_coord(&((i + 1) as f64, 0.0)))
            .collect();
        labels.draw(&root, &at)?;
    }
    root.present()?;
    Ok(elements)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines() -> LineChart {
        LineChart {
            title: "F1 <by> tolerance & run".into(),
            x_label: "tolerance (px)".into(),
            y_label: "F1".into(),
            series: vec![
                Series {
                    name: "run <a>".into(),
                    colour: 0,
                    points: vec![(0.0, 0.0), (10.0, 0.5), (20.0, 1.0)],
                },
                Series {
                    name: "b".into(),
                    colour: 11,
                    points: vec![(0.0, 0.25), (20.0, 0.75)],
                },
            ],
            marker: Some(Marker {
                x: 15.0,
                label: "limit 15 px".into(),
            }),
        }
    }

    /// The `points` of every polyline drawn in `colour`.
    fn polylines(svg: &str, colour: &str) -> Vec<Vec<(i64, i64)>> {
        let doc = roxmltree::Document::parse(svg).expect("well-formed SVG");
        doc.descendants()
            .filter(|n| n.has_tag_name("polyline") && n.attribute("stroke") == Some(colour))
            .map(|n| {
                n.attribute("points")
                    .unwrap_or_default()
                    .split_whitespace()
                    .filter_map(|p| p.split_once(','))
                    .map(|(x, y)| (x.parse().unwrap_or(-1), y.parse().unwrap_or(-1)))
                    .collect()
            })
            .collect()
    }

    #[test]
    fn line_chart_draws_each_series_at_its_values_and_escapes_text() {
        let chart = line_chart(&lines()).unwrap();
        assert_eq!(chart, line_chart(&lines()).unwrap(), "deterministic");
        assert!(chart.svg.contains("F1 &lt;by&gt; tolerance &amp; run"));
        assert!(!chart.svg.contains("<by>"));
        // The legend, beside the chart: each series, then the limit.
        let names: Vec<(&str, Mark)> = (chart.legend.iter())
            .map(|k| (k.name.as_str(), k.mark))
            .collect();
        assert_eq!(
            names,
            [
                ("run <a>", Mark::Line(0)),
                ("b", Mark::Line(1)),
                ("limit 15 px", Mark::Limit)
            ]
        );
        assert!(key_svg(&chart.legend[1]).contains(&format!("stroke-dasharray=\"{}\"", DASHES[1])));
        // Series 0 in palette colour 0, solid; series 1 dashed.
        let first: Vec<_> = polylines(&chart.svg, "#1F77B4")
            .into_iter()
            .filter(|p| p.len() == 3)
            .collect();
        assert_eq!(first.len(), 1);
        let [(x0, y0), (x1, y1), (x2, y2)] = first[0][..] else {
            panic!("three points")
        };
        // Equal x steps; y = 0, 0.5, 1 evenly spaced upwards.
        assert!((x1 - x0 - (x2 - x1)).abs() <= 1 && x1 > x0);
        assert!((y0 - y1 - (y1 - y2)).abs() <= 1 && y0 > y1);
        // Colour index 11 wraps to palette colour 1.
        assert_eq!(
            polylines(&chart.svg, "#FF7F0E")
                .iter()
                .filter(|p| p.len() == 2 && p[0].0 == x0)
                .count(),
            1
        );
        let doc = roxmltree::Document::parse(&chart.svg).unwrap();
        let dashes: Vec<Option<&str>> = (doc.descendants())
            .filter(|n| n.attribute("class") == Some("series"))
            .map(|n| n.attribute("stroke-dasharray"))
            .collect();
        assert_eq!(dashes, [None, Some(DASHES[1])]);
        assert_eq!(chart.data["series"][0]["points"][1][1], 0.5);
        assert_eq!(chart.data["marker"]["x"], 15.0);
    }

    #[test]
    fn the_limit_is_a_dashed_line_and_no_number_stands_above_one() {
        let chart = line_chart(&lines()).unwrap();
        let doc = roxmltree::Document::parse(&chart.svg).unwrap();
        let limit = (doc.descendants())
            .find(|n| n.attribute("class") == Some("limit"))
            .unwrap();
        assert_eq!(limit.attribute("stroke-dasharray"), Some("6 4"));
        assert_eq!(limit.attribute("x1"), limit.attribute("x2"));
        // The y axis is numbered 0.0 to 1.0 in steps of 0.2, nothing above.
        let texts: Vec<&str> = (doc.descendants())
            .filter(|n| n.has_tag_name("text"))
            .filter_map(|n| Some(n.text()?.trim()))
            .collect();
        for number in ["0.0", "0.2", "0.4", "0.6", "0.8", "1.0"] {
            assert!(texts.contains(&number), "{number}: {texts:?}");
        }
        assert!(
            !texts.iter().any(|t| t.starts_with("1.") && *t != "1.0"),
            "{texts:?}"
        );
        // Coinciding series have their markers at other points.
        let firsts: Vec<Vec<usize>> = (0..3).map(|i| marked(56, i, 3).collect()).collect();
        assert_eq!(firsts[0][..3], [0, 6, 12]);
        assert_eq!(firsts[1][..3], [2, 8, 14]);
        assert_eq!(firsts[2][..3], [4, 10, 16]);
    }

    #[test]
    fn empty_and_degenerate_charts_still_draw() {
        let mut spec = lines();
        spec.series.clear();
        spec.marker = None;
        assert!(line_chart(&spec).unwrap().svg.starts_with("<svg"));
        // One x value only, and a NaN: a valid chart, no panic.
        spec.series.push(Series {
            name: "one".into(),
            colour: 0,
            points: vec![(3.0, 0.5), (3.0, f64::NAN)],
        });
        assert_eq!(line_chart(&spec).unwrap().legend[0].name, "one");
        let bars = BarChart {
            title: String::new(),
            x_label: String::new(),
            y_label: String::new(),
            categories: Vec::new(),
            bars: Vec::new(),
        };
        assert!(bar_chart(&bars).unwrap().svg.ends_with("</svg>\n"));
    }

    #[test]
    fn axis_numbers_drop_needless_decimals() {
        assert_eq!(
            [0.0, 10.0, 0.5, 1.25, 0.1234].map(number),
            ["0", "10", "0.5", "1.25", "0.123"]
        );
    }

    #[test]
    fn bins_put_one_in_the_last_bin_and_clamp_outliers() {
        assert_eq!(
            bin_counts(&[0.0, 0.05, 0.1, 0.55, 0.999, 1.0, -0.5, 7.0, f64::NAN], 10),
            vec![3, 1, 0, 0, 0, 1, 0, 0, 0, 3]
        );
        assert_eq!(bin_counts(&[0.3], 0), vec![1]);
    }

    #[test]
    fn bar_chart_draws_one_rect_per_count_with_heights_in_proportion() {
        let chart = distribution_chart(
            "distances",
            "distance",
            "topics",
            &[
                Distribution {
                    name: "a".into(),
                    colour: 0,
                    values: vec![0.05, 0.15, 0.15],
                },
                Distribution {
                    name: "b".into(),
                    colour: 1,
                    values: vec![0.95],
                },
            ],
            4,
            "and missing",
        )
        .unwrap();
        assert_eq!(chart.data["categories"][3], "0.75\u{2013}1.00\nand missing");
        assert_eq!(
            chart.data["bars"][0]["counts"],
            serde_json::json!([3, 0, 0, 0])
        );
        let doc = roxmltree::Document::parse(&chart.svg).unwrap();
        let heights = |fill: &str| -> Vec<f64> {
            doc.descendants()
                .filter(|n| n.has_tag_name("rect") && n.attribute("fill") == Some(fill))
                .filter_map(|n| n.attribute("height")?.parse().ok())
                .collect()
        };
        // One rect per bin (the legend is the page's).
        let (a, b) = (heights("#1F77B4"), heights("#FF7F0E"));
        assert_eq!(a[1..], [0.0, 0.0, 0.0], "{a:?}");
        assert_eq!(b[..3], [0.0, 0.0, 0.0], "{b:?}");
        assert_eq!(b.len(), 4);
        assert_eq!(chart.legend[1].mark, Mark::Bar);
        // Heights in proportion to the counts 3 and 1 (pixels are whole).
        assert!(
            b[3] > 10.0 && (a[0] - 3.0 * b[3]).abs() <= 2.0,
            "{a:?} {b:?}"
        );
        let texts: Vec<&str> = doc
            .descendants()
            .filter(|n| n.has_tag_name("text"))
            .filter_map(|n| Some(n.text()?.trim()))
            .collect();
        assert!(
            [
                "0.00\u{2013}0.25",
                "0.25\u{2013}0.50",
                "0.50\u{2013}0.75",
                "0.75\u{2013}1.00",
                "and missing",
                "distance",
                "topics",
            ]
            .iter()
            .all(|t| texts.contains(t)),
            "{texts:?}"
        );
        assert_eq!(smallest_text(&chart.svg), 17.0 / 1.24);
    }

    /// The smallest `font-size` of the SVG's texts, in px.
    fn smallest_text(svg: &str) -> f64 {
        let doc = roxmltree::Document::parse(svg).unwrap();
        doc.descendants()
            .filter(|n| n.has_tag_name("text"))
            .filter_map(|n| n.attribute("font-size")?.parse::<f64>().ok())
            .fold(f64::INFINITY, f64::min)
    }

    #[test]
    fn every_chart_writes_its_text_at_13_px_or_more() {
        assert_eq!(
            smallest_text(&line_chart(&lines()).unwrap().svg),
            17.0 / 1.24
        );
        assert_eq!(
            smallest_text(
                &ratio_bar_chart(&ratio_bars(&["P@10", "a very long measure name"]))
                    .unwrap()
                    .svg
            ),
            17.0 / 1.24
        );
    }

    #[test]
    fn bins_are_labelled_as_ranges() {
        assert_eq!(
            bin_labels(10, "and missing")[8..],
            ["0.8\u{2013}0.9", "0.9\u{2013}1.0\nand missing"]
        );
        assert_eq!(bin_labels(5, "")[0], "0.0\u{2013}0.2");
        assert_eq!(bin_labels(3, "")[2], "0.67\u{2013}1.00");
    }

    /// (y, height) of every rect filled with `fill`, in drawing order.
    fn rects(svg: &str, fill: &str) -> Vec<(f64, f64)> {
        let doc = roxmltree::Document::parse(svg).unwrap();
        doc.descendants()
            .filter(|n| n.has_tag_name("rect") && n.attribute("fill") == Some(fill))
            .filter_map(|n| {
                Some((
                    n.attribute("y")?.parse().ok()?,
                    n.attribute("height")?.parse().ok()?,
                ))
            })
            .collect()
    }

    fn ratio_bars(categories: &[&str]) -> RatioBarChart {
        RatioBarChart {
            title: "means".into(),
            y_label: "mean".into(),
            categories: categories.iter().map(|c| c.to_string()).collect(),
            bars: vec![
                RatioBars {
                    name: "a".into(),
                    colour: 0,
                    values: vec![Some(1.0), Some(0.5), None],
                },
                RatioBars {
                    name: "b".into(),
                    colour: 1,
                    values: vec![Some(0.25), Some(0.0), Some(0.75)],
                },
            ],
        }
    }

    #[test]
    fn ratio_bars_are_in_proportion_and_none_draws_nothing() {
        let spec = ratio_bars(&["EN", "DE", "FR"]);
        let chart = ratio_bar_chart(&spec).unwrap();
        assert_eq!(chart, ratio_bar_chart(&spec).unwrap(), "deterministic");
        assert_eq!(
            chart.data["bars"][0]["values"],
            serde_json::json!([1.0, 0.5, null])
        );
        // Two bars of a (None draws none), three of b.
        let (a, b) = (rects(&chart.svg, "#1F77B4"), rects(&chart.svg, "#FF7F0E"));
        assert_eq!(a.len(), 2, "{a:?}");
        assert_eq!(b.len(), 3, "{b:?}");
        // 1 is 200 px; the others in proportion (pixels are whole).
        let unit = a[0].1;
        assert!((unit - f64::from(UNIT_PX)).abs() <= 1.0, "{a:?}");
        for (h, v) in [(a[1].1, 0.5), (b[0].1, 0.25), (b[1].1, 0.0), (b[2].1, 0.75)] {
            assert!((h - v * unit).abs() <= 1.0, "{h} {v}");
        }
        let doc = roxmltree::Document::parse(&chart.svg).unwrap();
        // Short labels are written across (only the axis's name upwards).
        let across: Vec<&str> = doc
            .descendants()
            .filter(|n| n.has_tag_name("text") && n.attribute("transform").is_none())
            .filter_map(|n| Some(n.text()?.trim()))
            .collect();
        assert!(["EN", "DE", "FR"].iter().all(|l| across.contains(l)));
        assert_eq!(chart.svg.matches("rotate(").count(), 1);
    }

    #[test]
    fn many_or_long_categories_widen_the_chart_and_turn_labels_upwards() {
        let names: Vec<String> = (0..18).map(|i| format!("Precision(D){i}")).collect();
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let mut spec = ratio_bars(&refs);
        spec.categories.push("a very long group name indeed".into());
        let chart = ratio_bar_chart(&spec).unwrap();
        let doc = roxmltree::Document::parse(&chart.svg).unwrap();
        let svg = doc.root_element();
        let width: u32 = svg.attribute("width").unwrap().parse().unwrap();
        // 19 categories of two 8 px bars and a 12 px gap, plus the frame.
        assert_eq!(width, FRAME_PX + 19 * 28);
        let rotated: Vec<String> = doc
            .descendants()
            .filter(|n| n.has_tag_name("text"))
            .filter(|n| {
                n.attribute("transform")
                    .is_some_and(|t| t.starts_with("rotate(270"))
            })
            .filter_map(|n| Some(n.text()?.trim().to_string()))
            .filter(|t| t != "mean")
            .collect();
        assert_eq!(rotated.len(), 19, "{rotated:?}");
        assert_eq!(rotated[0], "Precision(D)0");
        assert_eq!(rotated[18], "a very long gro…");
        assert_eq!(cut("sixteen chars ok"), "sixteen chars ok");
    }

    #[test]
    fn topic_chart_joins_one_series_and_dots_every_topic() {
        let spec = |n: usize| TopicChart {
            title: "AP".into(),
            x_label: "topics".into(),
            y_label: "AP".into(),
            topics: (0..n).map(|i| format!("T-{i}")).collect(),
            series: vec![
                TopicSeries {
                    name: "ref".into(),
                    colour: 0,
                    joined: true,
                    values: (0..n).map(|i| 1.0 - i as f64 / n as f64).collect(),
                },
                TopicSeries {
                    name: "other".into(),
                    colour: 1,
                    joined: false,
                    values: (0..n)
                        .map(|i| if i == 1 { f64::NAN } else { 0.5 })
                        .collect(),
                },
            ],
        };
        let chart = topic_chart(&spec(5)).unwrap();
        let doc = roxmltree::Document::parse(&chart.svg).unwrap();
        let circles = |fill: &str| {
            doc.descendants()
                .filter(|n| n.has_tag_name("circle") && n.attribute("fill") == Some(fill))
                .count()
        };
        // A marker per topic (the NaN none): circles for the joined series,
        // triangles for the second.
        assert_eq!((circles("#1F77B4"), circles("#FF7F0E")), (5, 0));
        let triangles = (doc.descendants())
            .filter(|n| n.has_tag_name("polygon") && n.attribute("fill") == Some("#FF7F0E"))
            .count();
        assert_eq!(triangles, 4);
        assert_eq!(
            polylines(&chart.svg, "#1F77B4")
                .iter()
                .filter(|p| p.len() == 5)
                .count(),
            1
        );
        assert!(polylines(&chart.svg, "#FF7F0E").is_empty());
        let marks: Vec<Mark> = chart.legend.iter().map(|k| k.mark).collect();
        assert_eq!(marks, [Mark::Line(0), Mark::Dots(2)]);
        assert!(chart.svg.contains("T-4"));
        assert_eq!(
            chart.data["series"][1]["values"][1],
            serde_json::Value::Null
        );
        // More topics than can be named: numbered by position.
        let many = topic_chart(&spec(NAMED_TOPICS + 1)).unwrap();
        assert!(!many.svg.contains("T-0") && many.svg.contains("topics"));
    }
}
