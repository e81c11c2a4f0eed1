//! Charts for the HTML reports, drawn with `plotters` into SVG strings:
//! multi-series line charts (ratios over tolerances), grouped bar charts
//! (counts per category and run) and distributions (values in [0, 1] binned).
//!
//! Each chart comes back with the data it plots as JSON ([`Chart::data`]),
//! which the page embeds beside the SVG. Colours come from one fixed
//! [`PALETTE`]: give a run the same colour index (its position among the
//! runs) in every chart and table. Output is deterministic: same input,
//! same bytes. `plotters` escapes every text it writes into the SVG.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use serde::Serialize;
use std::error::Error;

/// A drawn chart: the SVG markup and the figures it plots.
#[derive(Clone, Debug, PartialEq)]
pub struct Chart {
    pub svg: String,
    pub data: serde_json::Value,
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
/// backend writes `font-size` as the size divided by 1.24, so 15 is drawn
/// at 12.1 px, legible at arm's length.
const TEXT: u32 = 15;
/// The size given to `plotters` for a title (17.7 px drawn).
const TITLE: u32 = 22;

/// The room below the plotting area for the x axis's numbers and its title,
/// in px.
const X_LABEL_AREA: u32 = 50;
/// The room left of the plotting area for the y axis's numbers and title.
const Y_LABEL_AREA: u32 = 58;

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

/// Draws the series' legend box at `position`.
fn legend<'a, 'b: 'a, CT: CoordTranslate>(
    chart: &mut ChartContext<'a, SVGBackend<'b>, CT>,
    position: SeriesLabelPosition,
) -> Result<(), Box<dyn Error>> {
    chart
        .configure_series_labels()
        .position(position)
        .background_style(WHITE.mix(0.85))
        .border_style(RGBColor(0xaa, 0xaa, 0xaa))
        .label_font((FONT, TEXT))
        .draw()?;
    Ok(())
}

fn to_value<T: Serialize>(spec: &T) -> Result<serde_json::Value, PlotError> {
    serde_json::to_value(spec).map_err(|e| PlotError(e.to_string()))
}

/// Draws a line chart, its legend in the upper right above the ratio 1
/// (see [`ratio_axis`]), so that it covers no line.
pub fn line_chart(spec: &LineChart) -> Result<Chart, PlotError> {
    let mut svg = String::new();
    draw_lines(spec, &mut svg)?;
    Ok(Chart {
        svg,
        data: to_value(spec)?,
    })
}

fn draw_lines(spec: &LineChart, svg: &mut String) -> Result<(), Box<dyn Error>> {
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
    // Room right of a marker at the end, so that it does not hide in the frame.
    let hi = match &spec.marker {
        Some(m) if m.x >= hi => hi + (hi - lo) * 0.03,
        _ => hi,
    };
    // The marker's label gets a row of its own in the band above 1, below
    // the legend, so that the legend does not hide it.
    let rows = spec.series.len() + usize::from(spec.marker.is_some());
    let (top, plot) = ratio_axis(rows);
    let size = (SIZE.0, TITLE_PX + MARGINS_PX + plot + X_LABEL_AREA);
    let root = SVGBackend::with_string(svg, size).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart =
        builder_with(&root, &spec.title, X_LABEL_AREA).build_cartesian_2d(lo..hi, 0f64..top)?;
    chart
        .configure_mesh()
        .x_desc(&spec.x_label)
        .y_desc(&spec.y_label)
        .x_label_formatter(&|x| number(*x))
        .y_label_formatter(&ratio_label)
        .label_style((FONT, TEXT))
        .axis_desc_style((FONT, TEXT))
        .light_line_style(WHITE)
        .draw()?;
    if let Some(m) = &spec.marker {
        let grey = RGBColor(0x55, 0x55, 0x55);
        chart.draw_series(DashedLineSeries::new(
            [(m.x, 0.0), (m.x, top)],
            6,
            4,
            grey.stroke_width(1),
        ))?;
        // The label stands left of the line, in the band above the ratio 1
        // that no series reaches, on the row below the legend.
        let style = TextStyle::from((FONT, TEXT).into_font())
            .color(&grey)
            .pos(Pos::new(HPos::Right, VPos::Bottom));
        let (x, y) = chart.backend_coord(&(m.x, 1.0));
        root.draw(&Text::new(m.label.clone(), (x - 4, y - 4), style))?;
    }
    for s in &spec.series {
        let c = colour(s.colour);
        chart
            .draw_series(LineSeries::new(s.points.iter().copied(), c.stroke_width(2)))?
            .label(&s.name)
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 18, y)], c.stroke_width(2)));
    }
    if !spec.series.is_empty() {
        legend(&mut chart, SeriesLabelPosition::UpperRight)?;
    }
    root.present()?;
    Ok(())
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

/// Draws a grouped bar chart of counts, its legend in the upper right.
pub fn bar_chart(spec: &BarChart) -> Result<Chart, PlotError> {
    let mut svg = String::new();
    draw_bars(spec, &mut svg)?;
    Ok(Chart {
        svg,
        data: to_value(spec)?,
    })
}

fn draw_bars(spec: &BarChart, svg: &mut String) -> Result<(), Box<dyn Error>> {
    let n = spec.categories.len().max(1);
    let top = spec
        .bars
        .iter()
        .flat_map(|b| b.counts.iter().copied())
        .max()
        .unwrap_or(0);
    // Headroom for the legend above the highest bar: a quarter of the
    // axis, and an eighth more for each legend row past the first.
    let rows = spec.bars.len().max(1) as u64;
    let top = top + top * (rows + 1) / 8 + 1;
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
        chart
            .draw_series(
                b.counts.iter().take(n).enumerate().map(|(i, &v)| {
                    Rectangle::new([(left(i), 0), (left(i) + width, v)], c.filled())
                }),
            )?
            .label(&b.name)
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], c.filled()));
    }
    let at: Vec<(i32, i32)> = (0..spec.categories.len())
        .map(|i| chart.backend_coord(&(i as f64 + 0.5, 0)))
        .collect();
    labels.draw(&root, &at)?;
    if !spec.bars.is_empty() {
        legend(&mut chart, SeriesLabelPosition::UpperRight)?;
    }
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
/// The height of the title (its font and padding) and of the margins
/// above and below the plotting area, in px.
const TITLE_PX: u32 = 30;
const MARGINS_PX: u32 = 2 * 12;

/// The y axis of a ratio chart with `members` in its legend: the axis
/// reaches past 1 by the legend's height, so that the legend (upper right)
/// hides no bar or point; the numbers stop at 1. Returns the top of the
/// axis and the plotting area's height in px.
fn ratio_axis(members: usize) -> (f64, u32) {
    // A legend row is about 18 px, plus its frame; at least a quarter of 1.
    let legend = (18 * members as u32 + 24).max(UNIT_PX / 4);
    (
        1.0 + f64::from(legend) / f64::from(UNIT_PX),
        UNIT_PX + legend,
    )
}

/// A y axis number of a ratio chart: one decimal, nothing above 1.
fn ratio_label(y: &f64) -> String {
    if *y > 1.0 + 1e-9 {
        String::new()
    } else {
        format!("{y:.1}")
    }
}

/// Width of one character of a label (12 px drawn), roughly, in px.
const CHAR_PX: u32 = 8;
/// The height of a line of a label, in px.
const LINE_PX: u32 = 16;
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

/// Draws a grouped bar chart of ratios, its legend in the upper right and
/// its category labels written upwards when they do not fit across.
pub fn ratio_bar_chart(spec: &RatioBarChart) -> Result<Chart, PlotError> {
    let mut svg = String::new();
    draw_ratio_bars(spec, &mut svg)?;
    Ok(Chart {
        svg,
        data: to_value(spec)?,
    })
}

fn draw_ratio_bars(spec: &RatioBarChart, svg: &mut String) -> Result<(), Box<dyn Error>> {
    let n = spec.categories.len().max(1);
    let members = spec.bars.len().max(1);
    let (top, plot) = ratio_axis(spec.bars.len());
    let labels = Labels::new(&spec.categories, members as u32 * BAR_PX + GAP_PX, plot);
    let root = SVGBackend::with_string(svg, labels.size).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = builder_with(&root, &spec.title, labels.x_area)
        .build_cartesian_2d(0f64..n as f64, 0f64..top)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(0)
        .y_desc(&spec.y_label)
        .y_label_formatter(&ratio_label)
        .label_style((FONT, TEXT))
        .axis_desc_style((FONT, TEXT))
        .light_line_style(WHITE)
        .draw()?;
    let width = 0.8 / members as f64;
    for (j, b) in spec.bars.iter().enumerate() {
        let c = colour(b.colour);
        let left = |i: usize| i as f64 + 0.1 + j as f64 * width;
        let bars = b.values.iter().take(n).enumerate().filter_map(|(i, v)| {
            let v = v.filter(|v| v.is_finite())?.clamp(0.0, top);
            Some(Rectangle::new(
                [(left(i), 0.0), (left(i) + width, v)],
                c.filled(),
            ))
        });
        chart
            .draw_series(bars)?
            .label(&b.name)
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], c.filled()));
    }
    let at: Vec<(i32, i32)> = (0..spec.categories.len())
        .map(|i| chart.backend_coord(&(i as f64 + 0.5, 0.0)))
        .collect();
    labels.draw(&root, &at)?;
    if !spec.bars.is_empty() {
        legend(&mut chart, SeriesLabelPosition::UpperRight)?;
    }
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

/// Draws a topic chart: a dot per topic and series (a line through the
/// dots of a joined series), its legend in the upper right.
pub fn topic_chart(spec: &TopicChart) -> Result<Chart, PlotError> {
    let mut svg = String::new();
    draw_topics(spec, &mut svg)?;
    Ok(Chart {
        svg,
        data: to_value(spec)?,
    })
}

fn draw_topics(spec: &TopicChart, svg: &mut String) -> Result<(), Box<dyn Error>> {
    let n = spec.topics.len().max(1);
    let named = spec.topics.len() <= NAMED_TOPICS;
    let (top, plot) = ratio_axis(spec.series.len());
    let labels = if named {
        Labels::new(&spec.topics, TOPIC_PX, plot)
    } else {
        Labels::new(&[], TOPIC_PX, plot)
    };
    let root = SVGBackend::with_string(svg, labels.size).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = builder_with(&root, &spec.title, labels.x_area)
        .build_cartesian_2d(0.5..n as f64 + 0.5, 0f64..top)?;
    let mut mesh = chart.configure_mesh();
    mesh.disable_x_mesh()
        .y_desc(&spec.y_label)
        .y_label_formatter(&ratio_label)
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
    for s in &spec.series {
        let c = colour(s.colour);
        let points: Vec<(f64, f64)> = s
            .values
            .iter()
            .enumerate()
            .filter(|(_, v)| v.is_finite())
            .map(|(i, &v)| ((i + 1) as f64, v.clamp(0.0, top)))
            .collect();
        let dots = points.iter().map(|&p| Circle::new(p, 3, c.filled()));
        if s.joined {
            chart.draw_series(LineSeries::new(points.iter().copied(), c.stroke_width(2)))?;
            chart
                .draw_series(dots)?
                .label(&s.name)
                .legend(move |(x, y)| PathElement::new([(x, y), (x + 18, y)], c.stroke_width(2)));
        } else {
            chart
                .draw_series(dots)?
                .label(&s.name)
                .legend(move |(x, y)| Circle::new((x + 9, y), 3, c.filled()));
        }
    }
    if named {
        let at: Vec<(i32, i32)> = (0..spec.topics.len())
            .map(|i| chart.backend_coord(&((i + 1) as f64, 0.0)))
            .collect();
        labels.draw(&root, &at)?;
    }
    if !spec.series.is_empty() {
        legend(&mut chart, SeriesLabelPosition::UpperRight)?;
    }
    root.present()?;
    Ok(())
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
        assert!(chart.svg.contains("run &lt;a&gt;") && chart.svg.contains("limit 15 px"));
        assert!(!chart.svg.contains("<by>") && !chart.svg.contains("<a>"));
        // Series 0 in palette colour 0; the legend's sample is a 2-point line.
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
        assert_eq!(chart.data["series"][0]["points"][1][1], 0.5);
        assert_eq!(chart.data["marker"]["x"], 15.0);
    }

    #[test]
    fn the_marker_label_has_a_row_below_the_legend() {
        // The marker at the right end, under the legend's corner.
        let mut spec = lines();
        spec.marker = Some(Marker {
            x: 20.0,
            label: "organizers' limit 20 px".into(),
        });
        let chart = line_chart(&spec).unwrap();
        let doc = roxmltree::Document::parse(&chart.svg).unwrap();
        let number = |n: roxmltree::Node, a: &str| n.attribute(a).unwrap().parse::<f64>().unwrap();
        let frame = doc
            .descendants()
            .find(|n| n.has_tag_name("rect") && n.attribute("stroke") == Some("#AAAAAA"))
            .unwrap();
        let label = doc
            .descendants()
            .find(|n| n.has_tag_name("text") && n.text().is_some_and(|t| t.contains("limit")))
            .unwrap();
        // The label's bottom sits at `y`; its top is above by its size and
        // half an x-height at the most.
        let top = number(label, "y") - 1.5 * number(label, "font-size");
        let bottom = number(frame, "y") + number(frame, "height");
        assert!(bottom <= top, "legend to {bottom}, label from {top}");
        // Both right of the plot's middle: without the row they would meet.
        assert!(number(label, "x") > number(frame, "x"));
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
        assert!(line_chart(&spec).unwrap().svg.contains("one"));
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
        // One rect per bin, then the legend's swatch (10 px high).
        let (a, b) = (heights("#1F77B4"), heights("#FF7F0E"));
        assert_eq!(a[1..], [0.0, 0.0, 0.0, 10.0], "{a:?}");
        assert_eq!(b[..3], [0.0, 0.0, 0.0], "{b:?}");
        assert_eq!(b.len(), 5);
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
                "a",
                "b"
            ]
            .iter()
            .all(|t| texts.contains(t)),
            "{texts:?}"
        );
        assert_eq!(smallest_text(&chart.svg), 12.096774193548388);
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
    fn every_chart_writes_its_text_at_12_px_or_more() {
        assert_eq!(
            smallest_text(&line_chart(&lines()).unwrap().svg),
            15.0 / 1.24
        );
        assert_eq!(
            smallest_text(
                &ratio_bar_chart(&ratio_bars(&["P@10", "a very long measure name"]))
                    .unwrap()
                    .svg
            ),
            15.0 / 1.24
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
    fn ratio_bars_are_in_proportion_below_the_legend_and_none_draws_nothing() {
        let spec = ratio_bars(&["EN", "DE", "FR"]);
        let chart = ratio_bar_chart(&spec).unwrap();
        assert_eq!(chart, ratio_bar_chart(&spec).unwrap(), "deterministic");
        assert_eq!(
            chart.data["bars"][0]["values"],
            serde_json::json!([1.0, 0.5, null])
        );
        // Two bars of a (None draws none), then its legend swatch (10 px).
        let (a, b) = (rects(&chart.svg, "#1F77B4"), rects(&chart.svg, "#FF7F0E"));
        assert_eq!(a.len(), 3, "{a:?}");
        assert_eq!(b.len(), 4, "{b:?}");
        assert_eq!((a[2].1, b[3].1), (10.0, 10.0));
        // 1 is 200 px; the others in proportion (pixels are whole).
        let unit = a[0].1;
        assert!((unit - f64::from(UNIT_PX)).abs() <= 1.0, "{a:?}");
        for (h, v) in [(a[1].1, 0.5), (b[0].1, 0.25), (b[1].1, 0.0), (b[2].1, 0.75)] {
            assert!((h - v * unit).abs() <= 1.0, "{h} {v}");
        }
        // The legend's frame ends above the top of the bar at 1.
        let doc = roxmltree::Document::parse(&chart.svg).unwrap();
        let frame = doc
            .descendants()
            .find(|n| n.has_tag_name("rect") && n.attribute("stroke") == Some("#AAAAAA"))
            .unwrap();
        let bottom: f64 = frame.attribute("y").unwrap().parse::<f64>().unwrap()
            + frame.attribute("height").unwrap().parse::<f64>().unwrap();
        assert!(bottom <= a[0].0, "legend to {bottom}, bar from {}", a[0].0);
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
        // A dot per topic (the NaN none), the dots series' legend a dot too.
        assert_eq!((circles("#1F77B4"), circles("#FF7F0E")), (5, 4 + 1));
        assert_eq!(
            polylines(&chart.svg, "#1F77B4")
                .iter()
                .filter(|p| p.len() == 5)
                .count(),
            1
        );
        assert!(
            polylines(&chart.svg, "#FF7F0E")
                .iter()
                .all(|p| p.len() == 2)
        );
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
