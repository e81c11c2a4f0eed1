//! Browser check of the demo page (`clefeval demo`): headless Chromium loads
//! `demo-report.html` from disk, its script runs to the end without a
//! console message, a click on a header sorts the flowchart topics by
//! distance (each topic's `<details>` row moving with it), and a screenshot
//! is taken (kept in Cargo's target tmp folder for people to look at). The
//! passage page of goldens/passage/demo is loaded the same way.
//!
//! Every task's page (flowchart, segmentation, recognition, prior art,
//! passage, and the demo's) is then measured in a 1400 and an 800 px wide
//! window, as shown and with every row and `<details>` opened: the
//! rendered size of every chart's text (at least 13 px), every chart text
//! inside its chart and every node label inside its node, each chart's
//! legend clear of the chart's drawing, the lines of one chart in distinct
//! dash patterns, and the right edge of every table's outermost scroll
//! container (inside the content width, the page never wider than the
//! window); each page, opened, is screenshotted whole as
//! `target/tmp/browser-pages/<task>-<width>.png` for people to look at.
//!
//! Needs the Debian package `chromium` (or `CHROMIUM=/path/to/chrome`);
//! `.ci/run` installs it. Without it the test fails, saying so.

#[path = "support/page.rs"]
mod page;
#[path = "support/task_pages.rs"]
mod task_pages;

use clefeval::retrieval::{Settings, Task, evaluate, html};
use page::{parse, unique_ids};
use serde_json::Value;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};
use task_pages::TASK_PAGES;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Longest a Chromium run may take before the test gives up on it.
const BROWSER_LIMIT: Duration = Duration::from_secs(180);

fn chromium() -> PathBuf {
    if let Some(path) = std::env::var_os("CHROMIUM") {
        return PathBuf::from(path);
    }
    let found = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join("chromium"))
            .find(|p| p.is_file())
    });
    found.unwrap_or_else(|| {
        panic!(
            "the browser check needs Chromium: install the Debian package `chromium` \
             (apt-get install chromium; .ci/run does this) or set CHROMIUM=/path/to/chrome"
        )
    })
}

/// A fresh folder for this test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs headless Chromium on `page` with `extra` flags; fails the test on a
/// hang. Returns its output (collected through files: a pipe left unread
/// while waiting would fill up and stall the browser).
fn browse(dir: &Path, page: &Path, extra: &[String]) -> Output {
    let (out_path, err_path) = (dir.join("chromium.out"), dir.join("chromium.err"));
    let mut child = Command::new(chromium())
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--enable-logging=stderr",
            "--v=0",
        ])
        .arg(format!("--user-data-dir={}", dir.join("profile").display()))
        .args(extra)
        .arg(format!("file://{}", page.display()))
        .stdout(File::create(&out_path).unwrap())
        .stderr(File::create(&err_path).unwrap())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", chromium().display()));
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > BROWSER_LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            panic!("Chromium did not finish within {BROWSER_LIMIT:?}");
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let out = Output {
        status,
        stdout: std::fs::read(&out_path).unwrap(),
        stderr: std::fs::read(&err_path).unwrap(),
    };
    assert!(
        out.status.success(),
        "Chromium failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// The page's console messages (Chromium logs them as `:CONSOLE` lines).
fn console(out: &Output) -> Vec<String> {
    String::from_utf8_lossy(&out.stderr)
        .lines()
        .filter(|l| l.contains(":CONSOLE"))
        .map(String::from)
        .collect()
}

/// Loads `page` as is: its script runs to its end and nothing is logged on
/// the console. Returns the DOM after the script.
fn load(dir: &Path, page: &Path) -> String {
    let loaded = browse(dir, page, &["--dump-dom".to_string()]);
    let dom = String::from_utf8_lossy(&loaded.stdout).into_owned();
    assert!(
        dom.contains("data-script=\"ran\""),
        "the page's script did not run to its end"
    );
    assert_eq!(console(&loaded), Vec::<String>::new());
    dom
}

/// Takes a screenshot of `page` of `size` (width, height) px as `name` in
/// `dir` (kept for people to look at); nothing on the console.
fn screenshot(dir: &Path, page: &Path, name: &str, (width, height): (u32, u32)) {
    let shot = dir.join(name);
    let taken = browse(
        dir,
        page,
        &[
            format!("--screenshot={}", shot.display()),
            format!("--window-size={width},{height}"),
        ],
    );
    assert_eq!(console(&taken), Vec::<String>::new());
    assert_eq!(image::image_dimensions(&shot).unwrap(), (width, height));
    eprintln!("screenshot: {}", shot.display());
}

/// A script run after the page's own: clicks the "complete d" header of
/// the first flowchart run's table and records the topics in their new
/// order, each with whether its `<details>` row still follows it.
const SORT_PROBE: &str = "<script>(function () {
  var table = document.querySelector('#fc-run-0 table.sortable');
  var heads = Array.prototype.slice.call(table.tHead.rows[0].cells);
  var col = heads.findIndex(function (th) { return th.textContent === 'complete d'; });
  heads[col].click();
  var order = Array.prototype.map.call(table.tBodies, function (b) {
    var follows = b.rows.length === 2 && b.rows[1].className === 'more'
      && b.rows[1].querySelector('details') !== null;
    return b.rows[0].cells[0].textContent + (follows ? '' : ' (detail lost)');
  });
  document.documentElement.setAttribute('data-sorted', order.join(','));
})();</script>";

#[test]
fn demo_report_loads_in_chromium_sorts_and_screenshots() {
    let dir = scratch("browser-demo");
    let page = dir.join("demo-report.html");
    // Run from the scratch folder: the default page lands there.
    let out = Command::new(env!("CARGO_BIN_EXE_clefeval"))
        .arg("demo")
        .current_dir(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("report (charts, graphs, review): demo-report.html"),
        "{stdout}"
    );
    let html = std::fs::read_to_string(&page).unwrap();

    // All three tasks' sections, every id once.
    let doc = parse(&html);
    let unique = unique_ids(&doc);
    for id in [
        "task-flowchart",
        "fc-ranking",
        "fc-dist-complete",
        "fc-run-0",
        "task-segmentation",
        "seg-curve-f1",
        "task-recognition",
        "rec-outcome-bars",
        "rec-review",
    ] {
        assert!(unique.contains(id), "no #{id}");
    }

    // Loaded as is: the script runs to its end, nothing on the console.
    load(&dir, &page);

    // A header click sorts by distance, stable, details moving along.
    let probe = dir.join("sort-probe.html");
    std::fs::write(
        &probe,
        html.replace("</body></html>", &format!("{SORT_PROBE}</body></html>")),
    )
    .unwrap();
    let sorted = browse(&dir, &probe, &["--dump-dom".to_string()]);
    assert_eq!(console(&sorted), Vec::<String>::new());
    let golden: Value = serde_json::from_str(
        &std::fs::read_to_string(Path::new(ROOT).join("goldens/flowchart/expected/two-runs.json"))
            .unwrap(),
    )
    .unwrap();
    // The demo's runs are in name order: recognizer-a first.
    let run = golden["runs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["run"] == "recognizer-a")
        .unwrap();
    let mut topics: Vec<(f64, &str)> = run["topics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            let d = t["levels"]["complete"]["distance"].as_f64().unwrap();
            (d, t["topic"].as_str().unwrap())
        })
        .collect();
    topics.sort_by(|a, b| a.0.total_cmp(&b.0));
    let want: Vec<&str> = topics.iter().map(|t| t.1).collect();
    let dom = String::from_utf8_lossy(&sorted.stdout);
    assert!(
        dom.contains(&format!("data-sorted=\"{}\"", want.join(","))),
        "want {want:?}: {}",
        dom.lines().next().unwrap_or_default()
    );

    // The screenshot: a 1280 × 4000 PNG.
    screenshot(&dir, &page, "demo-report.png", (1280, 4000));
}

#[test]
fn retrieval_page_loads_in_chromium_and_screenshots() {
    let dir = scratch("browser-retrieval");
    let demo = Path::new(ROOT).join("goldens/passage/demo");
    let runs = ["acme-bm25-PSG", "lab2-lm-PSG.gz", "lab3-rerank-PSG.zip"]
        .map(|r| demo.join("runs").join(r));
    let evaluation = evaluate(
        &Settings::new(Task::Passage),
        &demo.join("qrels.txt"),
        Some(&demo.join("groups.txt")),
        &clefeval::inputs::Run::each(&runs),
    )
    .unwrap();
    let page = dir.join("passage-report.html");
    std::fs::write(&page, html::page(&evaluation)).unwrap();

    // Loaded as is: the script runs to its end, nothing on the console.
    let dom = load(&dir, &page);
    assert!(dom.contains("psg-topic-map") && dom.contains("lab3-rerank-PSG"));

    screenshot(&dir, &page, "passage-report.png", (1280, 3000));
}

/// The window widths of the page measurements: a desktop and a narrow
/// window.
const WIDTHS: [u32; 2] = [1400, 800];

/// A script run after the page's own: measures the page as shown, then
/// with every `<details>` and hidden detail row opened, and writes both
/// measurements as JSON into `<pre id="probe">`. Per chart (`figure.chart`)
/// the rendered size of each of its SVG texts (the computed font size
/// times the scale from SVG units to screen pixels); per table shown, the
/// right edge of its outermost scroll container (itself, as tables scroll,
/// or the table holding it); the content's right edge (the body's less its
/// padding), the window's inner width and the page's width and height.
const MEASURE_PROBE: &str = "<script>(function () {
  var root = document.documentElement, body = document.body;
  var content = body.getBoundingClientRect().right
    - parseFloat(getComputedStyle(body).paddingRight);
  function container(el) {
    var found = el;
    for (var e = el; e !== null && e !== body; e = e.parentElement) {
      var o = getComputedStyle(e).overflowX;
      if (o === 'auto' || o === 'scroll' || o === 'hidden') { found = e; }
    }
    return found;
  }
  function inside(inner, outer) {
    return inner.x >= outer.x - 0.5 && inner.y >= outer.y - 0.5
      && inner.x + inner.width <= outer.x + outer.width + 0.5
      && inner.y + inner.height <= outer.y + outer.height + 0.5;
  }
  function measure() {
    var charts = Array.prototype.map.call(document.querySelectorAll('figure.chart'), function (f) {
      var svg = f.querySelector('svg');
      var box = svg.getBoundingClientRect();
      var texts = Array.prototype.slice.call(svg.querySelectorAll('text'));
      var sizes = texts.map(function (t) {
        var m = t.getScreenCTM();
        return parseFloat(getComputedStyle(t).fontSize) * Math.sqrt(m.a * m.a + m.b * m.b);
      });
      var outside = texts.filter(function (t) { return !inside(t.getBoundingClientRect(), box); })
        .map(function (t) { return t.textContent; });
      var legend = f.querySelector('ul.legend');
      var drawn = svg.getBoundingClientRect(), keys = legend.getBoundingClientRect();
      var clear = keys.top >= drawn.bottom - 0.5 || keys.bottom <= drawn.top + 0.5;
      var dashes = Array.prototype.map.call(svg.querySelectorAll('polyline.series'), function (l) {
        return getComputedStyle(l).strokeDasharray;
      });
      return {id: f.id, sizes: sizes, outside: outside, legend: legend.children.length,
        clear: clear, dashes: dashes};
    });
    var labels = [];
    document.querySelectorAll('figure.graph g.node').forEach(function (g) {
      var shape = g.querySelector('rect, ellipse, polygon, circle');
      var text = g.querySelector('text');
      if (shape === null || text === null || text.getBBox().width === 0) { return; }
      var s = shape.getBBox(), t = text.getBBox();
      labels.push({id: g.getAttribute('data-id'), fits: t.width <= s.width + 0.5
        && t.height <= s.height + 0.5, text: text.textContent});
    });
    var tables = [];
    document.querySelectorAll('table').forEach(function (t) {
      if (t.getBoundingClientRect().width > 0) {
        tables.push(container(t).getBoundingClientRect().right);
      }
    });
    return {charts: charts, labels: labels, tables: tables, content: content, window: root.clientWidth,
      width: root.scrollWidth, height: root.scrollHeight};
  }
  var shown = measure();
  document.querySelectorAll('details').forEach(function (d) { d.open = true; });
  document.querySelectorAll('tr.detail').forEach(function (r) { r.hidden = false; });
  var pre = document.createElement('pre');
  pre.id = 'probe';
  pre.textContent = JSON.stringify([shown, measure()]);
  body.appendChild(pre);
})();</script>";

/// Writes the `--html` page of `clefeval <args>` (run in the package root)
/// to `page`.
fn task_page(args: &[&str], page: &Path) {
    let page = page.to_string_lossy();
    let more = ["--quiet", "--html", page.as_ref()];
    task_pages::run_in_root(&args.iter().chain(&more).collect::<Vec<_>>());
}

/// Loads `page` with [`MEASURE_PROBE`] in a window `width` px wide and
/// returns its two measurements (as shown, then opened) and the probed
/// page (every detail opened at its end); nothing may be logged on the
/// console.
fn measure(dir: &Path, page: &Path, width: u32) -> (Vec<Value>, PathBuf) {
    let html = std::fs::read_to_string(page).unwrap();
    let probe = dir.join("measure-probe.html");
    let probed = html.replace("</body></html>", &format!("{MEASURE_PROBE}</body></html>"));
    std::fs::write(&probe, probed).unwrap();
    let window = format!("--window-size={width},1000");
    let loaded = browse(dir, &probe, &["--dump-dom".to_string(), window]);
    assert_eq!(console(&loaded), Vec::<String>::new());
    let dom = String::from_utf8_lossy(&loaded.stdout);
    let json = dom
        .split_once("<pre id=\"probe\">")
        .and_then(|(_, rest)| rest.split_once("</pre>"))
        .map(|(json, _)| {
            json.replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&amp;", "&")
        })
        .unwrap_or_else(|| panic!("{}: the probe did not run", page.display()));
    (serde_json::from_str(&json).unwrap(), probe)
}

#[test]
fn every_task_page_reads_at_a_desktop_and_a_narrow_width_and_is_screenshotted() {
    let dir = scratch("browser-pages");
    for (task, args) in TASK_PAGES {
        let page = dir.join(format!("{task}.html"));
        task_page(args, &page);
        let html = std::fs::read_to_string(&page).unwrap();
        let charts = html.matches("<figure class=\"chart\"").count();
        let tables = html.matches("<table").count();
        assert!(charts > 0 && tables > 0, "{task}");
        for width in WIDTHS {
            let (measured, probe) = measure(&dir, &page, width);
            for (state, m) in ["as shown", "opened"].iter().zip(&measured) {
                let at = format!("{task}, {width} px, {state}");
                check_page(&at, m, width, charts);
            }
            // Opened, every table is shown, and every node label was
            // measured inside its node.
            let opened = &measured[1];
            assert_eq!(opened["tables"].as_array().unwrap().len(), tables, "{task}");
            let labels = opened["labels"].as_array().unwrap();
            assert_eq!(
                !labels.is_empty(),
                html.contains("class=\"node"),
                "{task}: node labels measured"
            );
            for label in labels {
                assert_eq!(label["fits"], true, "{task}, {width} px: {label}");
            }
            let height = opened["height"].as_u64().unwrap();
            let shot = format!("{task}-{width}.png");
            screenshot(&dir, &probe, &shot, (width, height as u32));
        }
    }
}

/// The checks of one measurement `m` of a page `width` px wide with
/// `charts` charts; `at` names it in the failures.
fn check_page(at: &str, m: &Value, width: u32, charts: usize) {
    let window = m["window"].as_f64().unwrap();
    assert!(window >= f64::from(width) - 20.0, "{at}: {m}");
    // No page-wide horizontal scrolling.
    assert!(m["width"].as_f64().unwrap() <= window, "{at}: {m}");
    let drawn = m["charts"].as_array().unwrap();
    assert_eq!(drawn.len(), charts, "{at}");
    for chart in drawn {
        // Every text at 13 px or more, and inside its chart.
        let sizes = chart["sizes"].as_array().unwrap();
        assert!(!sizes.is_empty(), "{at}: {chart}");
        for size in sizes {
            assert!(size.as_f64().unwrap() >= 13.0, "{at}: {chart}");
        }
        assert_eq!(chart["outside"], serde_json::json!([]), "{at}: {chart}");
        // A legend, clear of the drawing.
        assert!(chart["legend"].as_u64().unwrap() > 0, "{at}: {chart}");
        assert_eq!(chart["clear"], true, "{at}: {chart}");
        // Lines in distinct dash patterns (five patterns for up to five).
        let dashes: Vec<&str> = (chart["dashes"].as_array().unwrap().iter())
            .map(|d| d.as_str().unwrap())
            .collect();
        let mut distinct = dashes.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(distinct.len(), dashes.len().min(5), "{at}: {chart}");
    }
    // Every table shown ends inside the content.
    let content = m["content"].as_f64().unwrap();
    let rights = m["tables"].as_array().unwrap();
    assert!(!rights.is_empty(), "{at}");
    for right in rights {
        assert!(right.as_f64().unwrap() <= content + 0.5, "{at}: {m}");
    }
}
