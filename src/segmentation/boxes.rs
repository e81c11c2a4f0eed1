//! Bounding boxes and the sets of boxes read from gold or submitted files,
//! grouped by document and page (docs/segmentation.md).

use std::collections::BTreeMap;

/// An axis-aligned box in page pixels: origin at the top-left, y downward.
/// `width` and `height` are at least 1 (the readers reject the rest).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BBox {
    pub x: u32,
    pub y: u32,
    pub width: u32,
    pub height: u32,
}

impl BBox {
    /// Left side, x.
    pub fn left(&self) -> u64 {
        u64::from(self.x)
    }
    /// Top side, y.
    pub fn top(&self) -> u64 {
        u64::from(self.y)
    }
    /// Right side, x + width (exclusive edge, as docs/segmentation.md defines it).
    pub fn right(&self) -> u64 {
        u64::from(self.x) + u64::from(self.width)
    }
    /// Bottom side, y + height.
    pub fn bottom(&self) -> u64 {
        u64::from(self.y) + u64::from(self.height)
    }

    /// Largest horizontal side difference: max(|Δleft|, |Δright|).
    pub fn dx(&self, other: &BBox) -> u64 {
        self.left()
            .abs_diff(other.left())
            .max(self.right().abs_diff(other.right()))
    }

    /// Largest vertical side difference: max(|Δtop|, |Δbottom|).
    pub fn dy(&self, other: &BBox) -> u64 {
        self.top()
            .abs_diff(other.top())
            .max(self.bottom().abs_diff(other.bottom()))
    }

    /// The pair's match tolerance: the smallest t at which the two boxes
    /// match, max(|Δleft|, |Δtop|, |Δright|, |Δbottom|).
    pub fn tolerance_to(&self, other: &BBox) -> u64 {
        self.dx(other).max(self.dy(other))
    }
}

/// Where a box was read: index into [`BoxSet::files`] and 1-based line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Origin {
    pub file: u32,
    pub line: u32,
}

impl Origin {
    /// The origin of a box read at `line` (1-based) of file `file`.
    pub fn at(file: u32, line: usize) -> Self {
        Origin {
            file,
            line: u32::try_from(line).unwrap_or(u32::MAX),
        }
    }
}

/// A box with the place it was read from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub bbox: BBox,
    pub origin: Origin,
}

/// The boxes of one document, by 1-based page number.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Document {
    pub pages: BTreeMap<u32, Vec<Entry>>,
}

impl Document {
    /// Number of boxes over all pages.
    pub fn len(&self) -> usize {
        self.pages.values().map(Vec::len).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.pages.values().all(Vec::is_empty)
    }
}

/// All boxes of one side (gold or one run), by document id then page, in
/// the order they were read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BoxSet {
    /// The files read, for diagnostics ([`Origin::file`] indexes this).
    pub files: Vec<String>,
    pub documents: BTreeMap<String, Document>,
}

impl BoxSet {
    /// Registers a file and returns its index for [`Origin::file`].
    pub fn add_file(&mut self, name: String) -> u32 {
        self.files.push(name);
        u32::try_from(self.files.len() - 1).unwrap_or(u32::MAX)
    }

    /// Makes sure `doc` is known even without boxes (an empty per-document
    /// file says that the document has none).
    pub fn touch(&mut self, doc: &str) {
        if !self.documents.contains_key(doc) {
            self.documents.insert(doc.to_string(), Document::default());
        }
    }

    /// Adds one box.
    pub fn push(&mut self, doc: &str, page: u32, bbox: BBox, origin: Origin) {
        self.touch(doc);
        if let Some(d) = self.documents.get_mut(doc) {
            d.pages
                .entry(page)
                .or_default()
                .push(Entry { bbox, origin });
        }
    }

    /// Total number of boxes.
    pub fn len(&self) -> usize {
        self.documents.values().map(Document::len).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.documents.values().all(Document::is_empty)
    }

    /// `file:line` of a box, for diagnostics.
    /// The boxes of one page of `doc`, in the order read (none when absent).
    pub fn page(&self, doc: &str, page: u32) -> &[Entry] {
        self.documents
            .get(doc)
            .and_then(|d| d.pages.get(&page))
            .map_or(&[], Vec::as_slice)
    }

    pub fn file_of(&self, origin: Origin) -> &str {
        self.files
            .get(origin.file as usize)
            .map(String::as_str)
            .unwrap_or("?")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tolerance_is_the_largest_side_difference() {
        let a = BBox {
            x: 10,
            y: 20,
            width: 30,
            height: 40,
        };
        let b = BBox {
            x: 12,
            y: 15,
            width: 30,
            height: 47,
        };
        // left 2, top 5, right 2, bottom 2
        assert_eq!(a.dx(&b), 2);
        assert_eq!(a.dy(&b), 5);
        assert_eq!(a.tolerance_to(&b), 5);
        assert_eq!(b.tolerance_to(&a), 5);
        assert_eq!(a.tolerance_to(&a), 0);
    }
}
