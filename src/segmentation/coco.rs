//! COCO files as box files (docs/segmentation.md, "COCO files"), so that
//! one detector output is scored both by the pixel tolerances and by COCO
//! average precision: a ground truth's annotations (crowd regions left
//! out) and a detections list's boxes (those scored below the minimum
//! score left out), each on the patent page its image is. A ground truth
//! says which page each image is ([`crate::coco::page_of`]) and tells the
//! [`Context`], so that a detections list given after it (the gold before
//! the runs) finds its images' pages there; a string image id of the form
//! `<doc>_p<page>` is a page by itself. Box edges are rounded to the
//! nearest pixel. A box comes from no line of a file: its origin's line
//! is 0, and what is said about it names its JSON path.

use super::boxes::{BBox, BoxSet, Origin};
use crate::coco::{self, ImageId, Page};
use crate::diagnostics::{Diagnostic, FileDiagnostics, binary_data};
use std::collections::HashMap;
use std::path::Path;

/// The largest COCO file read as boxes, in bytes.
pub const MAX_FILE_BYTES: u64 = 8 << 30;

/// What reading a COCO file needs from the files read before it: the
/// page of every image of the COCO ground truths read, and the minimum
/// score of a detection kept.
#[derive(Clone, Debug, Default)]
pub struct Context {
    pub pages: HashMap<ImageId, Page>,
    pub min_score: Option<f64>,
}

/// Reads the COCO file at `path` into `set`.
pub fn read_file(path: &Path, set: &mut BoxSet, context: &mut Context) -> Vec<Diagnostic> {
    let name = path.display().to_string();
    match crate::inputs::read_limited(path, MAX_FILE_BYTES) {
        Ok(bytes) => {
            if let Some(error) = binary_data(&name, &bytes, "a COCO JSON file") {
                return vec![error];
            }
            read_bytes(&name, &bytes, set, context)
        }
        Err(e) => vec![Diagnostic::error(name, None, e)],
    }
}

/// Reads COCO JSON (`name` is used in diagnostics) into `set`: a list is
/// a detections file, anything else a ground truth.
pub fn read_bytes(
    name: &str,
    bytes: &[u8],
    set: &mut BoxSet,
    context: &mut Context,
) -> Vec<Diagnostic> {
    let file = set.add_file(name.to_string());
    let mut diagnostics = FileDiagnostics::new(name);
    let start = (bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes).iter())
        .find(|b| !b.is_ascii_whitespace())
        .copied();
    if start == Some(b'[') {
        match coco::read_detections(bytes) {
            Ok(detections) => read_detections(&detections, file, set, context, &mut diagnostics),
            Err(e) => diagnostics.error(None, e),
        }
    } else {
        match coco::read_gold(bytes) {
            Ok(gold) => read_gold(&gold, file, set, context, &mut diagnostics),
            Err(e) => diagnostics.error(None, e),
        }
    }
    diagnostics.finish()
}

/// The box of a COCO `[x, y, width, height]`: each edge rounded to the
/// nearest pixel (halves away from zero); `None` when the box leaves the
/// page's top or left, is under a pixel wide or high once rounded, or
/// lies past 2³² pixels.
fn pixel_box(b: &coco::BBox) -> Option<BBox> {
    let edge = |v: f64| {
        let r = v.round();
        (r >= 0.0 && r <= f64::from(u32::MAX)).then_some(r as u32)
    };
    let [x, y, w, h] = *b;
    let (left, top) = (edge(x)?, edge(y)?);
    let (right, bottom) = (edge(x + w)?, edge(y + h)?);
    let (width, height) = (right.checked_sub(left)?, bottom.checked_sub(top)?);
    (width >= 1 && height >= 1).then_some(BBox {
        x: left,
        y: top,
        width,
        height,
    })
}

fn not_a_box(b: &coco::BBox) -> String {
    format!(
        "[{}, {}, {}, {}] is no box of at least one pixel on the page once its edges are rounded",
        b[0], b[1], b[2], b[3]
    )
}

/// A ground truth's boxes; every image that names its page is a page (a
/// document of no box is known all the same), and tells `context`.
fn read_gold(
    gold: &coco::Gold,
    file: u32,
    set: &mut BoxSet,
    context: &mut Context,
    diagnostics: &mut FileDiagnostics,
) {
    let mut index: HashMap<&ImageId, Option<&Page>> = HashMap::new();
    for (i, (id, page)) in gold.images.iter().zip(&gold.pages).enumerate() {
        index.insert(id, page.as_ref());
        match page {
            Some(page) => {
                set.touch(&page.0);
                context.pages.insert(id.clone(), page.clone());
            }
            None => diagnostics.error(
                None,
                format!(
                    "$.images[{i}]: image {id} names no page: give it `doc_id` and `page`, or a \
                     `file_name` <doc>_p<page>; its boxes are not read"
                ),
            ),
        }
    }
    let mut crowd = 0usize;
    for (i, a) in gold.annotations.iter().enumerate() {
        if a.iscrowd {
            crowd += 1;
            continue;
        }
        let Some(Some((doc, page))) = index.get(&a.image) else {
            continue;
        };
        match pixel_box(&a.bbox) {
            Some(bbox) => set.push(doc, *page, bbox, Origin::at(file, 0)),
            None => diagnostics.error(
                None,
                format!("$.annotations[{i}].bbox: {}", not_a_box(&a.bbox)),
            ),
        }
    }
    if crowd > 0 {
        diagnostics.warning(
            None,
            format!(
                "{crowd} crowd region{} (iscrowd 1) left out: no diagram box",
                if crowd == 1 { "" } else { "s" }
            ),
        );
    }
}

/// A detections list's boxes scored at least the minimum score, each on
/// the page of its image.
fn read_detections(
    detections: &[coco::Detection],
    file: u32,
    set: &mut BoxSet,
    context: &Context,
    diagnostics: &mut FileDiagnostics,
) {
    for (n, d) in detections.iter().enumerate() {
        if context.min_score.is_some_and(|min| d.score < min) {
            continue;
        }
        let page = context
            .pages
            .get(&d.image)
            .cloned()
            .or_else(|| match &d.image {
                ImageId::Text(name) => coco::page_name(name),
                ImageId::Number(_) => None,
            });
        let Some((doc, page)) = page else {
            diagnostics.error(
                None,
                format!(
                    "$[{n}].image_id: image {} is in no COCO ground truth given as gold and is no \
                     <doc>_p<page> name: its page is unknown",
                    d.image
                ),
            );
            continue;
        };
        match pixel_box(&d.bbox) {
            Some(bbox) => set.push(&doc, page, bbox, Origin::at(file, 0)),
            None => diagnostics.error(None, format!("$[{n}].bbox: {}", not_a_box(&d.bbox))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str, context: &mut Context) -> (BoxSet, Vec<String>) {
        let mut set = BoxSet::default();
        let d = read_bytes("f.json", text.as_bytes(), &mut set, context);
        (set, d.iter().map(ToString::to_string).collect())
    }

    const GOLD: &str = r#"{"images": [
        {"id": 1, "file_name": "EP-1_p1.tif"}, {"id": 2, "doc_id": "EP-2", "page": 3},
        {"id": 3}],
      "categories": [{"id": 1, "name": "structure"}],
      "annotations": [
        {"id": 1, "image_id": 1, "category_id": 1, "bbox": [10.4, 20.5, 30.2, 40], "area": 1, "iscrowd": 0},
        {"id": 2, "image_id": 2, "category_id": 1, "bbox": [0, 0, 5, 5], "area": 1, "iscrowd": 1},
        {"id": 3, "image_id": 3, "category_id": 1, "bbox": [0, 0, 5, 5], "area": 1, "iscrowd": 0},
        {"id": 4, "image_id": 1, "category_id": 1, "bbox": [5, 5, 0.2, 5], "area": 1, "iscrowd": 0}]}"#;

    #[test]
    fn a_ground_truth_gives_its_pages_and_boxes_by_rounded_edges() {
        let mut context = Context::default();
        let (set, said) = read(GOLD, &mut context);
        // Edges 10.4 → 10, 20.5 → 21, 40.6 → 41, 60.5 → 61.
        let b = set.page("EP-1", 1)[0].bbox;
        assert_eq!((b.x, b.y, b.width, b.height), (10, 21, 31, 40));
        assert_eq!(set.len(), 1);
        // EP-2 is known (its one box is a crowd region).
        assert!(set.documents["EP-2"].is_empty());
        assert_eq!(context.pages[&ImageId::Number(2)], ("EP-2".into(), 3));
        assert_eq!(
            said,
            [
                "f.json: error: $.images[2]: image 3 names no page: give it `doc_id` and `page`, or a `file_name` <doc>_p<page>; its boxes are not read",
                "f.json: error: $.annotations[3].bbox: [5, 5, 0.2, 5] is no box of at least one pixel on the page once its edges are rounded",
                "f.json: warning: 1 crowd region (iscrowd 1) left out: no diagram box",
            ]
        );
    }

    #[test]
    fn detections_find_their_pages_in_the_gold_or_their_names() {
        let mut context = Context {
            min_score: Some(0.5),
            ..Context::default()
        };
        read(GOLD, &mut context);
        let run = r#"[
            {"image_id": 2, "category_id": 1, "bbox": [1, 2, 3, 4], "score": 0.9},
            {"image_id": 2, "category_id": 1, "bbox": [1, 2, 3, 4], "score": 0.4},
            {"image_id": "EP-9_p2", "category_id": 1, "bbox": [1, 2, 3, 4], "score": 0.5},
            {"image_id": 7, "category_id": 1, "bbox": [1, 2, 3, 4], "score": 0.8}]"#;
        let (set, said) = read(run, &mut context);
        assert_eq!(set.page("EP-2", 3).len(), 1);
        assert_eq!(set.page("EP-9", 2).len(), 1);
        assert_eq!(set.len(), 2);
        assert_eq!(
            said,
            [
                "f.json: error: $[3].image_id: image 7 is in no COCO ground truth given as gold and is no <doc>_p<page> name: its page is unknown"
            ]
        );
        let (_, said) = read("{\"images\": 1}", &mut context);
        assert_eq!(
            said,
            ["f.json: error: $.images: expected a list, found a number (1)"]
        );
    }
}
