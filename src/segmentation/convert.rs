//! Box files written as COCO and back (`clefeval convert --to coco|csv`,
//! docs/segmentation.md, "Converting box files"), so that a lab reports
//! the pixel-tolerance sweep and COCO average precision from one file.
//!
//! To COCO, every page becomes an image: with the page images (a
//! ground truth: every page of every `<doc>.tif`, ids from 1 in
//! (document, page) order, named `<doc>_p<page>`, with its size), or with
//! a COCO ground truth (a detections list whose image ids are the
//! gold's). To the box CSV, every box is written on its page, from any
//! box file the task reads. Nothing is written when an input has an
//! error: the errors are given back.

use super::boxes::{BBox, BoxSet};
use super::evaluate::read_boxes;
use super::formats::Context;
use super::pages::read_pages;
use crate::coco::{self, ImageId, Page};
use crate::diagnostics::{Diagnostic, has_error};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Where the images of a COCO file come from.
#[derive(Clone, Debug)]
pub enum Images {
    /// The folder of page images: the boxes become a ground truth.
    Pages(PathBuf),
    /// A COCO ground truth: the boxes become a detections list on its
    /// images.
    Gold(PathBuf),
}

/// A converted file: its text and the warnings of its inputs.
#[derive(Clone, Debug)]
pub struct Converted {
    pub text: String,
    pub warnings: Vec<Diagnostic>,
}

/// The error of a conversion: every error found (nothing is written).
pub type Errors = Vec<Diagnostic>;

fn failed(message: String, file: &Path) -> Errors {
    vec![Diagnostic::error(file.display().to_string(), None, message)]
}

/// The boxes of `inputs`, or every error among their diagnostics.
fn boxes(inputs: &[PathBuf], context: &mut Context) -> Result<(BoxSet, Vec<Diagnostic>), Errors> {
    let (set, diagnostics) = read_boxes(inputs, context);
    if has_error(&diagnostics) {
        return Err(diagnostics
            .into_iter()
            .filter(Diagnostic::is_error)
            .collect());
    }
    Ok((set, diagnostics))
}

/// One JSON value a line, in a list: `[\n v,\n v\n]`.
fn json_lines(items: &[serde_json::Value]) -> String {
    let lines: Vec<String> = (items.iter())
        .map(|v| format!(" {}", serde_json::to_string(v).unwrap_or_default()))
        .collect();
    format!("[\n{}\n]", lines.join(",\n"))
}

/// Every box of `set` in (document, page, read) order with its page.
fn each_box(set: &BoxSet) -> impl Iterator<Item = (&str, u32, &super::boxes::Entry)> {
    (set.documents.iter()).flat_map(|(doc, d)| {
        (d.pages.iter())
            .flat_map(move |(&page, entries)| entries.iter().map(move |e| (doc.as_str(), page, e)))
    })
}

/// The error of a box on a page no image is.
fn no_image(set: &BoxSet, doc: &str, page: u32, e: &super::boxes::Entry, of: &str) -> Diagnostic {
    let line = (e.origin.line > 0).then_some(e.origin.line as usize);
    Diagnostic::error(
        set.file_of(e.origin),
        line,
        format!("box on page {page} of {doc}, which is no image of {of}"),
    )
}

/// Every box of `set` made into a JSON item by `make` (its place among
/// them, its image, its box) on the image of its page in `ids`; the boxes
/// on a page no image is (of `of`) are the errors.
fn placed<I: Copy>(
    set: &BoxSet,
    ids: &HashMap<Page, I>,
    of: &str,
    mut make: impl FnMut(usize, I, BBox) -> serde_json::Value,
) -> Result<Vec<serde_json::Value>, Errors> {
    let (mut items, mut errors) = (Vec::new(), Vec::new());
    for (doc, page, e) in each_box(set) {
        match ids.get(&(doc.to_string(), page)) {
            Some(&image) => items.push(make(items.len(), image, e.bbox)),
            None => errors.push(no_image(set, doc, page, e, of)),
        }
    }
    if errors.is_empty() {
        Ok(items)
    } else {
        Err(errors)
    }
}

/// The box files `inputs` as COCO JSON, their images from `images`.
pub fn to_coco(inputs: &[PathBuf], images: &Images) -> Result<Converted, Errors> {
    let (set, warnings) = boxes(inputs, &mut Context::default())?;
    let text = match images {
        Images::Pages(dir) => ground_truth(&set, dir)?,
        Images::Gold(gold) => detections(&set, gold)?,
    };
    Ok(Converted { text, warnings })
}

/// A ground truth: every page of the page images of `dir` an image.
fn ground_truth(set: &BoxSet, dir: &Path) -> Result<String, Errors> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| failed(format!("cannot list the page images: {e}"), dir))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| matches!(crate::inputs::extension(p).as_str(), "tif" | "tiff"))
        .collect();
    files.sort();
    let mut images = Vec::new();
    let mut ids: HashMap<Page, usize> = HashMap::new();
    for file in &files {
        let doc = crate::inputs::stem(file);
        let pages = read_pages(file, |_, _, _| {}).map_err(|e| failed(e.to_string(), file))?;
        for (n, info) in pages.iter().enumerate() {
            let page = u32::try_from(n + 1).unwrap_or(u32::MAX);
            let id = images.len() + 1;
            ids.insert((doc.clone(), page), id);
            images.push(serde_json::json!({
                "id": id,
                "file_name": format!("{doc}_p{page}"),
                "width": info.width,
                "height": info.height,
            }));
        }
    }
    let of = format!("the page images in {}", dir.display());
    let annotations = placed(set, &ids, &of, |n, image, b| {
        serde_json::json!({
            "id": n + 1,
            "image_id": image,
            "category_id": 1,
            "bbox": [b.x, b.y, b.width, b.height],
            "area": u64::from(b.width) * u64::from(b.height),
            "iscrowd": 0,
        })
    })?;
    Ok(format!(
        "{{\n\"images\": {},\n\"categories\": [{{\"id\": 1, \"name\": \"structure\"}}],\n\"annotations\": {}\n}}\n",
        json_lines(&images),
        json_lines(&annotations)
    ))
}

/// A detections list on the images of the ground truth `gold` (score 1,
/// the gold's first category).
fn detections(set: &BoxSet, gold: &Path) -> Result<String, Errors> {
    let truth = read_gold(gold)?;
    let mut ids: HashMap<Page, &ImageId> = HashMap::new();
    for (id, page) in truth.images.iter().zip(&truth.pages) {
        if let Some(page) = page {
            ids.entry(page.clone()).or_insert(id);
        }
    }
    let category = truth.categories.first().map_or(1, |c| c.id);
    let of = format!("the COCO ground truth {}", gold.display());
    let found = placed(set, &ids, &of, |_, image, b| {
        serde_json::json!({
            "image_id": image,
            "category_id": category,
            "bbox": [b.x, b.y, b.width, b.height],
            "score": 1.0,
        })
    })?;
    Ok(json_lines(&found) + "\n")
}

fn read_gold(gold: &Path) -> Result<coco::Gold, Errors> {
    let bytes = crate::inputs::read_limited(gold, super::coco::MAX_FILE_BYTES)
        .map_err(|e| failed(e, gold))?;
    coco::read_gold(&bytes).map_err(|e| failed(e, gold))
}

/// The box files `inputs` (COCO ones among them) as one box CSV; a COCO
/// detections list finds its pages in the ground truth `gold` and keeps
/// the boxes scored at least `min_score`.
pub fn to_csv(
    inputs: &[PathBuf],
    gold: Option<&Path>,
    min_score: Option<f64>,
) -> Result<Converted, Errors> {
    let mut context = Context {
        min_score,
        ..Context::default()
    };
    if let Some(gold) = gold {
        let truth = read_gold(gold)?;
        for (id, page) in truth.images.iter().zip(truth.pages) {
            if let Some(page) = page {
                context.pages.insert(id.clone(), page);
            }
        }
    }
    let (set, warnings) = boxes(inputs, &mut context)?;
    let mut text = String::from("doc,page,x,y,width,height\n");
    for (doc, page, e) in each_box(&set) {
        let b = e.bbox;
        let doc = if doc.contains([',', '"', '\n', '\r']) {
            format!("\"{}\"", doc.replace('"', "\"\""))
        } else {
            doc.to_string()
        };
        text.push_str(&format!(
            "{doc},{page},{},{},{},{}\n",
            b.x, b.y, b.width, b.height
        ));
    }
    Ok(Converted { text, warnings })
}
