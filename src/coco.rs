//! COCO files (docs/detection.md, "Files"): the ground truth (`images`,
//! `annotations`, `categories`) and a detections file (a list of
//! `{image_id, category_id, bbox, score}`), read with correctly rounded
//! floats (one ulp moves a match across an IoU threshold). Every refusal
//! names the JSON path of the value (`$.annotations[3].area`); a file of
//! the other kind is named as such.

use serde::Deserializer as _;
use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use std::collections::HashMap;
use std::fmt;

/// An image id: COCO files use numbers; strings are accepted too. In a
/// result file it is written as it was given, a number or a string.
#[derive(
    Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(untagged)]
pub enum ImageId {
    Number(i64),
    Text(String),
}

impl fmt::Display for ImageId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ImageId::Number(n) => write!(f, "{n}"),
            ImageId::Text(t) => write!(f, "{t:?}"),
        }
    }
}

/// A box `[x, y, width, height]`.
pub type BBox = [f64; 4];

/// One gold annotation.
#[derive(Clone, Debug, PartialEq)]
pub struct GoldBox {
    pub id: i64,
    pub image: ImageId,
    pub category: i64,
    pub bbox: BBox,
    /// The `area` field, which the area ranges test (not w·h).
    pub area: f64,
    pub iscrowd: bool,
}

/// One category of the gold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Category {
    pub id: i64,
    pub name: String,
}

/// A ground-truth file.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Gold {
    /// Image ids in file order, each once.
    pub images: Vec<ImageId>,
    /// For each image (in the same order), the patent page it is when its
    /// fields say so ([`page_of`]).
    pub pages: Vec<Option<Page>>,
    pub categories: Vec<Category>,
    pub annotations: Vec<GoldBox>,
    /// What was said about the file (an annotation id 0).
    pub warnings: Vec<String>,
}

/// One detection; its id is its position in the file, from 1.
#[derive(Clone, Debug, PartialEq)]
pub struct Detection {
    pub image: ImageId,
    pub category: i64,
    pub bbox: BBox,
    pub score: f64,
}

/// The most detections or annotations one file may hold.
pub const MAX_ITEMS: usize = 50_000_000;

/// A refusal: the JSON path and what is wrong there.
fn at(path: &str, message: impl fmt::Display) -> String {
    format!("{path}: {message}")
}

/// `text`'s bytes as JSON text, or the reason they are not.
fn json_text(bytes: &[u8]) -> Result<&[u8], String> {
    if bytes.contains(&0) {
        return Err(crate::diagnostics::binary_message("a COCO JSON file"));
    }
    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    match bytes.iter().find(|b| !b.is_ascii_whitespace()) {
        Some(b'{' | b'[') => Ok(bytes),
        Some(_) => Err("not JSON (it does not start with `{` or `[`): not a COCO file".into()),
        None => Err("empty file".into()),
    }
}

/// A page of a patent document: its id and its number, from 1.
pub type Page = (String, u32);

/// The page an image is: its `doc_id` (a string) and `page` (a whole
/// number from 1) fields, or else its `file_name` read by [`page_name`];
/// `None` when neither says.
pub fn page_of(image: &serde_json::Value) -> Option<Page> {
    let doc = image.get("doc_id").and_then(serde_json::Value::as_str);
    let page = (image.get("page").and_then(serde_json::Value::as_u64))
        .and_then(|p| u32::try_from(p).ok())
        .filter(|&p| p >= 1);
    if let (Some(doc), Some(page)) = (doc, page) {
        return Some((doc.to_string(), page));
    }
    page_name(image.get("file_name")?.as_str()?)
}

/// The page a name says, `<doc>_p<page>` (the form `clefeval convert`
/// writes), with any folder before it and any extension after it left
/// out: `images/EP-1000001-A1_p2.tif` is page 2 of `EP-1000001-A1`.
pub fn page_name(name: &str) -> Option<Page> {
    let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
    let (doc, rest) = base.rsplit_once("_p")?;
    let digits = rest.split_once('.').map_or(rest, |(d, _)| d);
    if doc.is_empty() || digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let page = digits.parse::<u32>().ok().filter(|&p| p >= 1)?;
    Some((doc.to_string(), page))
}

/// Reads a ground-truth file.
pub fn read_gold(bytes: &[u8]) -> Result<Gold, String> {
    let bytes = json_text(bytes)?;
    let value: serde_json::Value = serde_json::from_slice(bytes).map_err(|e| at("$", e))?;
    let root = match &value {
        serde_json::Value::Object(map) => map,
        serde_json::Value::Array(_) => {
            return Err(
                "$: a list, as a detections file is, not a COCO ground truth (an object with \
                 images, annotations, categories)"
                    .into(),
            );
        }
        _ => return Err("$: not an object".into()),
    };
    let list = |key: &str| -> Result<&Vec<serde_json::Value>, String> {
        match root.get(key) {
            Some(serde_json::Value::Array(items)) if items.len() <= MAX_ITEMS => Ok(items),
            Some(serde_json::Value::Array(_)) => Err(at(
                &format!("$.{key}"),
                format!("more than {MAX_ITEMS} entries"),
            )),
            Some(other) => Err(at(&format!("$.{key}"), expected("a list", other))),
            None => Err(at("$", format!("no `{key}` list: not a COCO ground truth"))),
        }
    };
    let mut gold = Gold::default();
    let mut seen = HashMap::new();
    for (i, image) in list("images")?.iter().enumerate() {
        let path = format!("$.images[{i}]");
        let id = image_id(field(image, &path, "id")?, &format!("{path}.id"))?;
        once(&mut seen, id.clone(), i, "images", "image")?;
        gold.images.push(id);
        gold.pages.push(page_of(image));
    }
    let mut categories = HashMap::new();
    for (i, category) in list("categories")?.iter().enumerate() {
        let path = format!("$.categories[{i}]");
        let id = integer(field(category, &path, "id")?, &format!("{path}.id"))?;
        once(&mut categories, id, i, "categories", "category")?;
        let name = match category.get("name") {
            Some(serde_json::Value::String(s)) => s.clone(),
            _ => String::new(),
        };
        gold.categories.push(Category { id, name });
    }
    let mut ids = HashMap::new();
    for (i, a) in list("annotations")?.iter().enumerate() {
        let path = format!("$.annotations[{i}]");
        let id = integer(field(a, &path, "id")?, &format!("{path}.id"))?;
        once(&mut ids, id, i, "annotations", "annotation id")?;
        if id == 0 {
            gold.warnings.push(format!(
                "{path}.id: annotation id 0, which COCOeval takes for \"no match\": a detection \
                 matched to it counts as a false positive, as there"
            ));
        }
        let image = image_id(field(a, &path, "image_id")?, &format!("{path}.image_id"))?;
        if !seen.contains_key(&image) {
            return Err(at(
                &format!("{path}.image_id"),
                format!("image {image} is not in $.images"),
            ));
        }
        let category = integer(
            field(a, &path, "category_id")?,
            &format!("{path}.category_id"),
        )?;
        if !categories.contains_key(&category) {
            return Err(at(
                &format!("{path}.category_id"),
                format!("category {category} is not in $.categories"),
            ));
        }
        let bbox = bbox(field(a, &path, "bbox")?, &format!("{path}.bbox"))?;
        let area = number(field(a, &path, "area")?, &format!("{path}.area"))?;
        let iscrowd = match field(a, &path, "iscrowd")? {
            serde_json::Value::Bool(b) => *b,
            serde_json::Value::Number(n) if n.as_i64() == Some(0) => false,
            serde_json::Value::Number(n) if n.as_i64() == Some(1) => true,
            other => {
                return Err(at(&format!("{path}.iscrowd"), expected("0 or 1", other)));
            }
        };
        gold.annotations.push(GoldBox {
            id,
            image,
            category,
            bbox,
            area,
            iscrowd,
        });
    }
    Ok(gold)
}

/// Records that `list[i]` has the id `id`; the error when an earlier entry
/// has it too.
fn once<K>(
    seen: &mut HashMap<K, usize>,
    id: K,
    i: usize,
    list: &str,
    what: &str,
) -> Result<(), String>
where
    K: std::hash::Hash + Eq + fmt::Display,
{
    if let Some(first) = seen.get(&id) {
        return Err(at(
            &format!("$.{list}[{i}].id"),
            format!("{what} {id} again (first at $.{list}[{first}])"),
        ));
    }
    seen.insert(id, i);
    Ok(())
}

fn field<'v>(
    value: &'v serde_json::Value,
    path: &str,
    key: &str,
) -> Result<&'v serde_json::Value, String> {
    match value {
        serde_json::Value::Object(map) => {
            map.get(key).ok_or_else(|| at(path, format!("no `{key}`")))
        }
        other => Err(at(path, expected("an object", other))),
    }
}

/// What a value is, for a message.
fn kind(value: &serde_json::Value) -> &'static str {
    match value {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "a boolean",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::String(_) => "a string",
        serde_json::Value::Array(_) => "a list",
        serde_json::Value::Object(_) => "an object",
    }
}

fn expected(what: &str, found: &serde_json::Value) -> String {
    let shown = found.to_string();
    let shown = if shown.len() > 40 {
        format!("{}…", shown.chars().take(40).collect::<String>())
    } else {
        shown
    };
    format!("expected {what}, found {} ({shown})", kind(found))
}

fn integer(value: &serde_json::Value, path: &str) -> Result<i64, String> {
    value
        .as_i64()
        .ok_or_else(|| at(path, expected("a whole number", value)))
}

fn image_id(value: &serde_json::Value, path: &str) -> Result<ImageId, String> {
    match value {
        serde_json::Value::String(s) => Ok(ImageId::Text(s.clone())),
        other => integer(other, path).map(ImageId::Number),
    }
}

fn number(value: &serde_json::Value, path: &str) -> Result<f64, String> {
    value
        .as_f64()
        .filter(|x| x.is_finite())
        .ok_or_else(|| at(path, expected("a number", value)))
}

fn bbox(value: &serde_json::Value, path: &str) -> Result<BBox, String> {
    match value {
        serde_json::Value::Array(items) if items.len() == 4 => {
            let mut out = [0.0; 4];
            for (k, (slot, item)) in out.iter_mut().zip(items).enumerate() {
                *slot = number(item, &format!("{path}[{k}]"))?;
            }
            Ok(out)
        }
        other => Err(at(path, expected("[x, y, width, height]", other))),
    }
}

/// Reads a detections file: a list of detections, in file order.
pub fn read_detections(bytes: &[u8]) -> Result<Vec<Detection>, String> {
    let bytes = json_text(bytes)?;
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    let detections = deserializer
        .deserialize_any(FileVisitor)
        .map_err(|e| e.to_string())?;
    deserializer
        .end()
        .map_err(|e| at("$ (after the list)", e))?;
    Ok(detections)
}

/// The top level of a detections file: a list, or the refusal of an
/// object (a ground-truth file given as a run).
struct FileVisitor;

impl<'de> Visitor<'de> for FileVisitor {
    type Value = Vec<Detection>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list of detections")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut out = Vec::new();
        while let Some(d) = seq.next_element_seed(DetectionSeed(out.len()))? {
            if out.len() >= MAX_ITEMS {
                return Err(de::Error::custom(format!(
                    "$: more than {MAX_ITEMS} detections"
                )));
            }
            out.push(d);
        }
        Ok(out)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        while let Some(key) = map.next_key::<String>()? {
            if key == "images" || key == "categories" {
                return Err(de::Error::custom(
                    "$: an object with images and categories, a COCO ground truth, not a list \
                     of detections",
                ));
            }
            map.next_value::<IgnoredAny>()?;
        }
        Err(de::Error::custom("$: an object, not a list of detections"))
    }
}

/// One element of the list, at index `.0`, read field by field so that a
/// refusal names its path.
struct DetectionSeed(usize);

impl DetectionSeed {
    /// The refusal of an element that is `found`, not an object.
    fn not_an_object<E: de::Error>(&self, found: &str) -> E {
        E::custom(format!(
            "$[{}]: expected a detection object, found {found}",
            self.0
        ))
    }
}

impl<'de> DeserializeSeed<'de> for DetectionSeed {
    type Value = Detection;

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Detection, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for DetectionSeed {
    type Value = Detection;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "a detection object at $[{}]", self.0)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<Detection, A::Error> {
        Err(self.not_an_object("a list"))
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<Detection, E> {
        Err(self.not_an_object("a string"))
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Detection, E> {
        Err(self.not_an_object("a boolean"))
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Detection, E> {
        Err(self.not_an_object("a number"))
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Detection, E> {
        Err(self.not_an_object("a number"))
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Detection, E> {
        Err(self.not_an_object("a number"))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Detection, E> {
        Err(self.not_an_object("null"))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Detection, A::Error> {
        let path = format!("$[{}]", self.0);
        let (mut image, mut category, mut bbox, mut score) = (None, None, None, None);
        let wrap = |key: &str, e: A::Error| de::Error::custom(format!("{path}.{key}: {e}"));
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "image_id" => {
                    let id: ImageId = map.next_value().map_err(|_| {
                        de::Error::custom(format!(
                            "{path}.image_id: expected a whole number or a string"
                        ))
                    })?;
                    image = Some(id);
                }
                "category_id" => {
                    category = Some(map.next_value::<i64>().map_err(|e| wrap(&key, e))?)
                }
                "bbox" => bbox = Some(map.next_value::<[f64; 4]>().map_err(|e| wrap(&key, e))?),
                "score" => score = Some(map.next_value::<f64>().map_err(|e| wrap(&key, e))?),
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        let missing = |key: &str| de::Error::custom(format!("{path}: no `{key}`"));
        let bbox = bbox.ok_or_else(|| missing("bbox"))?;
        let score = score.ok_or_else(|| missing("score"))?;
        if let Some(k) = bbox.iter().position(|x| !x.is_finite()) {
            return Err(de::Error::custom(format!(
                "{path}.bbox[{k}]: not a finite number"
            )));
        }
        if !score.is_finite() {
            return Err(de::Error::custom(format!(
                "{path}.score: not a finite number"
            )));
        }
        Ok(Detection {
            image: image.ok_or_else(|| missing("image_id"))?,
            category: category.ok_or_else(|| missing("category_id"))?,
            bbox,
            score,
        })
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn an_image_names_its_page_by_fields_or_file_name() {
        let page = |v: serde_json::Value| page_of(&v);
        let json = |t: &str| serde_json::from_str::<serde_json::Value>(t).unwrap();
        assert_eq!(
            page(json(
                r#"{"id": 1, "doc_id": "EP-1", "page": 3, "file_name": "x_p9"}"#
            )),
            Some(("EP-1".into(), 3))
        );
        assert_eq!(
            page(json(
                r#"{"id": 1, "file_name": "pages/EP-1000001-A1_p2.tif"}"#
            )),
            Some(("EP-1000001-A1".into(), 2))
        );
        assert_eq!(page_name("a_b_p12"), Some(("a_b".into(), 12)));
        for no in [
            "EP-1_p0", "EP-1_p", "_p2", "EP-1_px", "EP-1.tif", "EP-1_p2x",
        ] {
            assert_eq!(page_name(no), None, "{no}");
        }
        assert_eq!(
            page(json(r#"{"id": 1, "doc_id": "EP-1", "page": 0}"#)),
            None
        );
    }
    use super::*;

    #[test]
    fn a_ground_truth_is_read_with_its_paths_named() {
        let text = br#"{"images": [{"id": 1}, {"id": "p2"}],
            "categories": [{"id": 3, "name": "structure"}],
            "annotations": [{"id": 0, "image_id": "p2", "category_id": 3,
                             "bbox": [1, 2.5, 3, 4], "area": 12, "iscrowd": 0}]}"#;
        let gold = read_gold(text).unwrap();
        assert_eq!(
            gold.images,
            [ImageId::Number(1), ImageId::Text("p2".into())]
        );
        assert_eq!(
            gold.annotations[0],
            GoldBox {
                id: 0,
                image: ImageId::Text("p2".into()),
                category: 3,
                bbox: [1.0, 2.5, 3.0, 4.0],
                area: 12.0,
                iscrowd: false,
            }
        );
        assert!(gold.warnings[0].starts_with("$.annotations[0].id: annotation id 0"));
        let no_area = br#"{"images": [{"id": 1}], "categories": [{"id": 1}],
            "annotations": [{"id": 5, "image_id": 1, "category_id": 1, "bbox": [0,0,1,1], "iscrowd": 0}]}"#;
        assert_eq!(
            read_gold(no_area).unwrap_err(),
            "$.annotations[0]: no `area`"
        );
        let bad_box = br#"{"images": [{"id": 1}], "categories": [{"id": 1}],
            "annotations": [{"id": 5, "image_id": 1, "category_id": 1, "bbox": [0,"0",1,1], "area": 1, "iscrowd": 0}]}"#;
        assert_eq!(
            read_gold(bad_box).unwrap_err(),
            "$.annotations[0].bbox[1]: expected a number, found a string (\"0\")"
        );
        assert!(read_gold(b"[]").unwrap_err().contains("detections file"));
    }

    #[test]
    fn detections_are_read_in_order_with_exact_floats() {
        let text = br#"[{"image_id": 7, "category_id": 1, "bbox": [0.1, 0.2, 10, 20], "score": 0.9, "extra": [1]},
                        {"image_id": "a", "category_id": 2, "bbox": [1e-3, 2, 3, 4], "score": 1}]"#;
        let d = read_detections(text).unwrap();
        assert_eq!(d.len(), 2);
        assert_eq!(d[0].bbox, [0.1, 0.2, 10.0, 20.0]);
        assert_eq!(d[1].image, ImageId::Text("a".into()));
        // Correctly rounded: the nearest double to the decimal.
        let x = read_detections(br#"[{"image_id":1,"category_id":1,"bbox":[0.30000000000000004,0,1,1],"score":2.2250738585072011e-308}]"#).unwrap();
        assert_eq!(x[0].bbox[0], 0.30000000000000004);
        // The largest subnormal, which the decimal rounds to.
        assert_eq!(x[0].score.to_bits(), 0x000f_ffff_ffff_ffff);
        let err = read_detections(br#"[{"image_id":1,"category_id":1,"bbox":[0,0,1,1],"score":1}, {"image_id":1,"category_id":"x","bbox":[0,0,1,1],"score":1}]"#).unwrap_err();
        assert!(
            err.starts_with("$[1].category_id: invalid type: string \"x\""),
            "{err}"
        );
        let err = read_detections(br#"[{"image_id":1,"category_id":1,"bbox":[0,0,1],"score":1}]"#)
            .unwrap_err();
        assert!(err.starts_with("$[0].bbox: invalid length 3"), "{err}");
        let err =
            read_detections(br#"[{"image_id":1,"category_id":1,"bbox":[0,0,1,1]}]"#).unwrap_err();
        assert!(err.starts_with("$[0]: no `score`"), "{err}");
        let err = read_detections(br#"{"images": [], "annotations": []}"#).unwrap_err();
        assert!(
            err.contains("a COCO ground truth, not a list of detections"),
            "{err}"
        );
        assert!(
            read_detections(br#"[{"image_id":1,"category_id":1,"bbox":[0,0,1,1],"score":1e999}]"#)
                .is_err()
        );
        assert!(read_detections(b"\0").unwrap_err().contains("binary"));
    }

    #[test]
    fn hostile_json_is_refused_with_its_place() {
        // Deep nesting in an ignored field is skipped without recursion;
        // the detection is still refused for what it lacks.
        let deep = format!("[{{\"extra\": {}{}}}]", "[".repeat(5000), "]".repeat(5000));
        let err = read_detections(deep.as_bytes()).unwrap_err();
        assert!(err.starts_with("$[0]: no `bbox`"), "{err}");
        let err = read_detections(b"[[1]]").unwrap_err();
        assert!(
            err.starts_with("$[0]: expected a detection object, found a list"),
            "{err}"
        );
        let deep_gold = format!("{{\"images\": {}{}}}", "[".repeat(5000), "]".repeat(5000));
        assert!(
            read_gold(deep_gold.as_bytes())
                .unwrap_err()
                .contains("recursion limit")
        );
        let huge = br#"[{"image_id":1,"category_id":1,"bbox":[0,0,1,1e400],"score":1}]"#;
        let err = read_detections(huge).unwrap_err();
        assert!(err.starts_with("$[0].bbox: number out of range"), "{err}");
        let nan = br#"[{"image_id":1,"category_id":1,"bbox":[0,0,1,NaN],"score":1}]"#;
        assert!(read_detections(nan).unwrap_err().starts_with("$[0].bbox: "));
        let big_id = br#"[{"image_id":1e30,"category_id":1,"bbox":[0,0,1,1],"score":1}]"#;
        let err = read_detections(big_id).unwrap_err();
        assert!(
            err.starts_with("$[0].image_id: expected a whole number or a string"),
            "{err}"
        );
        let gold = br#"{"images": [{"id": 1.5}], "categories": [], "annotations": []}"#;
        assert_eq!(
            read_gold(gold).unwrap_err(),
            "$.images[0].id: expected a whole number, found a number (1.5)"
        );
        assert_eq!(read_gold(b"  ").unwrap_err(), "empty file");
        assert!(read_gold(b"id,x\n").unwrap_err().starts_with("not JSON"));
    }
}
