//! A minimal multipage TIFF writer for tests and benches: little-endian, one
//! bilevel strip a page, 300 dpi. Shared by `tests/segmentation_pages.rs`
//! and `benches/segmentation.rs` (included with `#[path]`).

/// One page: declared size, compression code and the strip's bytes.
pub struct Page<'a> {
    pub width: u32,
    pub height: u32,
    pub compression: u16,
    pub data: &'a [u8],
}

/// The TIFF file holding `pages` in order.
pub fn write(pages: &[Page]) -> Vec<u8> {
    let mut out = b"II*\0\0\0\0\0".to_vec();
    let mut link = 4usize; // where the previous "next IFD" offset goes
    for page in pages {
        let strip = out.len() as u32;
        out.extend(page.data);
        let rational = out.len() as u32;
        out.extend(300u32.to_le_bytes());
        out.extend(1u32.to_le_bytes());
        let ifd = out.len() as u32;
        out[link..link + 4].copy_from_slice(&ifd.to_le_bytes());
        let entries: [(u16, u16, u32); 11] = [
            (256, 4, page.width),
            (257, 4, page.height),
            (258, 3, 1),
            (259, 3, u32::from(page.compression)),
            (262, 3, 0),
            (273, 4, strip),
            (278, 4, page.height),
            (279, 4, page.data.len() as u32),
            (282, 5, rational),
            (283, 5, rational),
            (296, 3, 2),
        ];
        out.extend((entries.len() as u16).to_le_bytes());
        for (tag, kind, value) in entries {
            out.extend(tag.to_le_bytes());
            out.extend(kind.to_le_bytes());
            out.extend(1u32.to_le_bytes());
            if kind == 3 {
                out.extend((value as u16).to_le_bytes());
                out.extend([0, 0]);
            } else {
                out.extend(value.to_le_bytes());
            }
        }
        link = out.len();
        out.extend(0u32.to_le_bytes());
        if out.len() % 2 == 1 {
            out.push(0);
        }
    }
    out
}
