//! The patents' page images: multipage TIFF files read one page at a time
//! for the page checks (page count, page size, resolution) and overlays.
//!
//! The `tiff` crate reads the directories and decodes the usual
//! compressions. CCITT data (Group 3 one-dimensional, Group 4), the format
//! of patent pages, is decoded here with the `fax` crate so that both
//! FillOrder values are honoured (`tiff` 0.11 ignores FillOrder and has no
//! Group 3). Every page is decoded row by row into a reusable bitmap, so a
//! truncated or corrupt page is found and memory stays bounded by one page;
//! a page whose declared size exceeds [`MAX_SIDE`] or [`MAX_PIXELS`] is
//! refused before anything is allocated for it.

use std::convert::Infallible;
use std::fs::File;
use std::io::{BufReader, Read, Seek, SeekFrom};
use std::path::Path;
use tiff::decoder::{Decoder, DecodingResult};
use tiff::tags::Tag;

/// Largest page side accepted, in pixels (the limit of CCITT coding).
pub const MAX_SIDE: u32 = 65_535;
/// Largest page area accepted, in pixels (an A0 sheet at 400 dpi fits).
pub const MAX_PIXELS: u64 = 1 << 28;
/// Largest page image file opened (1 GiB; a patent's Group 4 TIFF holds a
/// few megabytes). Pages are read one at a time, so memory follows the
/// largest page, not the file.
pub const MAX_FILE_BYTES: u64 = 1 << 30;

/// What the checks need of one page.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PageInfo {
    pub width: u32,
    pub height: u32,
    /// Resolution across and down in dots per inch, when the page says.
    pub dpi: Option<(f64, f64)>,
}

/// One decoded page, one bit a pixel, 1 = ink.
#[derive(Clone, Debug, Default)]
pub struct Bitmap {
    pub width: u32,
    pub height: u32,
    stride: usize,
    bits: Vec<u8>,
}

impl Bitmap {
    fn reset(&mut self, width: u32, height: u32) {
        self.width = width;
        self.height = height;
        self.stride = (width as usize).div_ceil(8);
        self.bits.clear();
        self.bits.resize(self.stride * height as usize, 0);
    }

    /// True when pixel (x, y) is ink; false outside the page.
    pub fn is_ink(&self, x: u32, y: u32) -> bool {
        if x >= self.width || y >= self.height {
            return false;
        }
        let i = y as usize * self.stride + x as usize / 8;
        self.bits.get(i).is_some_and(|b| b & (0x80 >> (x % 8)) != 0)
    }

    /// Sets pixels [from, to) of row `y` to ink, a byte at a time.
    fn ink_run(&mut self, y: usize, from: usize, to: usize) {
        let to = to.min(self.width as usize);
        if from >= to {
            return;
        }
        let start = y * self.stride;
        let Some(row) = self.bits.get_mut(start..start + self.stride) else {
            return;
        };
        let (first, last) = (from / 8, (to - 1) / 8);
        let head = 0xFFu8 >> (from % 8);
        let tail = 0xFFu8 << (7 - (to - 1) % 8);
        match row.get_mut(first..=last) {
            Some([only]) => *only |= head & tail,
            Some([start, middle @ .., end]) => {
                *start |= head;
                middle.fill(0xFF);
                *end |= tail;
            }
            _ => {}
        }
    }

    /// Row `y` as packed bytes, for filling from decoded data.
    fn row_mut(&mut self, y: usize) -> &mut [u8] {
        let start = y * self.stride;
        self.bits
            .get_mut(start..start + self.stride)
            .unwrap_or_default()
    }

    /// Inverts every pixel (for the other photometric polarity).
    fn invert(&mut self) {
        self.bits.iter_mut().for_each(|b| *b = !*b);
        // Bits past the last column stay clear.
        let spare = self.stride * 8 - self.width as usize;
        if spare > 0 {
            let mask = !((1u8 << spare) - 1);
            for y in 0..self.height as usize {
                if let Some(last) = self.bits.get_mut(y * self.stride + self.stride - 1) {
                    *last &= mask;
                }
            }
        }
    }
}

/// Why a file's pages could not be read: the page (1-based) when known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PageError {
    pub page: Option<u32>,
    pub message: String,
}

impl std::fmt::Display for PageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.page {
            Some(p) => write!(f, "page {p}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

fn fail<T>(page: Option<u32>, message: impl std::fmt::Display) -> Result<T, PageError> {
    Err(PageError {
        page,
        message: message.to_string(),
    })
}

/// Reads every page of the TIFF file at `path`, decoding each into one
/// reused bitmap handed to `visit(page number, info, bitmap)`, and returns
/// the pages' information. Any unreadable page fails the whole file.
pub fn read_pages(
    path: &Path,
    mut visit: impl FnMut(u32, &PageInfo, &Bitmap),
) -> Result<Vec<PageInfo>, PageError> {
    let file = crate::inputs::open_regular(path).or_else(|why| fail(None, why))?;
    let file_len = file.metadata().map(|m| m.len()).unwrap_or(0);
    if file_len > MAX_FILE_BYTES {
        return fail(None, crate::inputs::over_limit(MAX_FILE_BYTES));
    }
    let mut decoder = Decoder::new(BufReader::new(file))
        .or_else(|e| fail(None, format!("not a readable TIFF file: {e}")))?;
    let mut pages = Vec::new();
    let mut bitmap = Bitmap::default();
    loop {
        let number = u32::try_from(pages.len() + 1).unwrap_or(u32::MAX);
        let info =
            read_page(&mut decoder, file_len, &mut bitmap).or_else(|e| fail(Some(number), e))?;
        visit(number, &info, &bitmap);
        pages.push(info);
        if !decoder.more_images() {
            break;
        }
        decoder
            .next_image()
            .or_else(|e| fail(Some(number + 1), format!("unreadable directory: {e}")))?;
    }
    Ok(pages)
}

type Tiff = Decoder<BufReader<File>>;

fn tag_u64(decoder: &mut Tiff, tag: Tag, default: u64) -> Result<u64, String> {
    match decoder.find_tag(tag) {
        Ok(Some(v)) => v.into_u64().map_err(|e| format!("tag {tag:?}: {e}")),
        Ok(None) => Ok(default),
        Err(e) => Err(format!("tag {tag:?}: {e}")),
    }
}

/// The current page's information, with its pixels decoded into `bitmap`.
fn read_page(decoder: &mut Tiff, file_len: u64, bitmap: &mut Bitmap) -> Result<PageInfo, String> {
    let (width, height) = decoder
        .dimensions()
        .map_err(|e| format!("no page size: {e}"))?;
    if width == 0 || height == 0 || width > MAX_SIDE || height > MAX_SIDE {
        return Err(format!(
            "declared size {width} × {height} pixels is outside 1..={MAX_SIDE} pixels a side"
        ));
    }
    if u64::from(width) * u64::from(height) > MAX_PIXELS {
        return Err(format!(
            "declared size {width} × {height} pixels exceeds the limit of {MAX_PIXELS} pixels"
        ));
    }
    let info = PageInfo {
        width,
        height,
        dpi: resolution(decoder)?,
    };
    bitmap.reset(width, height);
    let compression = tag_u64(decoder, Tag::Compression, 1)?;
    let photometric = tag_u64(decoder, Tag::PhotometricInterpretation, 0)?;
    let fill_order = tag_u64(decoder, Tag::FillOrder, 1)?;
    match compression {
        3 | 4 => decode_fax(decoder, file_len, compression, fill_order == 2, bitmap)?,
        2 => return Err("CCITT modified Huffman (compression 2) is not supported".into()),
        _ => decode_other(decoder, bitmap)?,
    }
    // Decoded bits are 1 for fax black / sample value 1; with BlackIsZero
    // (photometric 1) a 1 is white paper.
    if photometric == 1 {
        bitmap.invert();
    }
    Ok(info)
}

/// The resolution tags in dots per inch (ResolutionUnit 2 inch, the
/// default, or 3 centimetre); `None` without them or with unit 1 (none).
/// A tag that cannot be read (truncated file) is an error.
fn resolution(decoder: &mut Tiff) -> Result<Option<(f64, f64)>, String> {
    let mut axis = |tag| -> Result<Option<f64>, String> {
        let value = decoder
            .find_tag(tag)
            .map_err(|e| format!("tag {tag:?}: {e}"))?;
        Ok(value.and_then(number).filter(|v| v.is_finite() && *v > 0.0))
    };
    let (Some(x), Some(y)) = (axis(Tag::XResolution)?, axis(Tag::YResolution)?) else {
        return Ok(None);
    };
    Ok(match tag_u64(decoder, Tag::ResolutionUnit, 2)? {
        2 => Some((x, y)),
        3 => Some((x * 2.54, y * 2.54)),
        _ => None,
    })
}

/// A tag value as a number (resolutions are RATIONAL, sometimes other types).
fn number(value: tiff::decoder::ifd::Value) -> Option<f64> {
    use tiff::decoder::ifd::Value;
    match value {
        Value::Rational(n, d) if d != 0 => Some(f64::from(n) / f64::from(d)),
        Value::SRational(n, d) if d != 0 => Some(f64::from(n) / f64::from(d)),
        Value::Float(v) => Some(f64::from(v)),
        Value::Double(v) => Some(v),
        Value::List(mut v) if v.len() == 1 => v.pop().and_then(number),
        other => other.into_u64().ok().map(|v| v as f64),
    }
}

/// Decodes CCITT Group 3 (one-dimensional) or Group 4 strips.
fn decode_fax(
    decoder: &mut Tiff,
    file_len: u64,
    compression: u64,
    reversed: bool,
    bitmap: &mut Bitmap,
) -> Result<(), String> {
    if compression == 3 && tag_u64(decoder, Tag::Unknown(292), 0)? & 1 != 0 {
        return Err(
            "CCITT Group 3 two-dimensional coding (T4Options bit 0) is not supported".into(),
        );
    }
    let vec = |decoder: &mut Tiff, tag| -> Result<Vec<u64>, String> {
        decoder
            .get_tag(tag)
            .and_then(|v| v.into_u64_vec())
            .map_err(|e| format!("tag {tag:?}: {e}"))
    };
    let offsets = vec(decoder, Tag::StripOffsets)?;
    let counts = vec(decoder, Tag::StripByteCounts)?;
    let height = u64::from(bitmap.height);
    let rows_per_strip = tag_u64(decoder, Tag::RowsPerStrip, height)?.clamp(1, height);
    if offsets.len() != counts.len() || (offsets.len() as u64) < height.div_ceil(rows_per_strip) {
        return Err(format!(
            "{} strip offsets and {} byte counts for {} rows of {} rows per strip",
            offsets.len(),
            counts.len(),
            height,
            rows_per_strip
        ));
    }
    let width = u16::try_from(bitmap.width).map_err(|e| e.to_string())?;
    let mut data = Vec::new();
    for (strip, (&offset, &count)) in offsets.iter().zip(&counts).enumerate() {
        let first_row = strip as u64 * rows_per_strip;
        if first_row >= height {
            break;
        }
        let rows = rows_per_strip.min(height - first_row);
        if offset.checked_add(count).is_none_or(|end| end > file_len) {
            return Err(format!(
                "strip {strip} ({count} bytes at offset {offset}) lies past the end of the file ({file_len} bytes): truncated"
            ));
        }
        data.clear();
        let reader = decoder.inner();
        reader
            .seek(SeekFrom::Start(offset))
            .and_then(|_| reader.by_ref().take(count).read_to_end(&mut data))
            .map_err(|e| format!("strip {strip}: {e}"))?;
        if reversed {
            data.iter_mut().for_each(|b| *b = b.reverse_bits());
        }
        let ok = decode_strip(
            &data,
            compression,
            width,
            first_row as usize,
            rows as usize,
            bitmap,
        );
        ok.map_err(|row| {
            format!(
                "CCITT Group {} data invalid at row {} (strip {strip})",
                compression,
                row + 1
            )
        })?;
    }
    Ok(())
}

/// Decodes one strip's `rows` rows from row `first` on; the failing row on error.
fn decode_strip(
    data: &[u8],
    compression: u64,
    width: u16,
    first: usize,
    rows: usize,
    bitmap: &mut Bitmap,
) -> Result<(), usize> {
    let bytes = data.iter().copied().map(Ok::<u8, Infallible>);
    let mut paint = |y: usize, transitions: &[u16]| {
        // Runs alternate white, black, white, ... from column 0.
        let mut pos = 0usize;
        for (i, &t) in transitions.iter().enumerate() {
            let t = usize::from(t).min(usize::from(width));
            if i % 2 == 1 {
                bitmap.ink_run(y, pos, t);
            }
            pos = t;
        }
        if transitions.len() % 2 == 1 {
            bitmap.ink_run(y, pos, usize::from(width));
        }
    };
    if compression == 4 {
        let mut g4 = fax::decoder::Group4Decoder::new(bytes, width).map_err(|_| first)?;
        for y in first..first + rows {
            match g4.advance() {
                Ok(fax::decoder::DecodeStatus::Incomplete) => paint(y, g4.transition()),
                // End of block before the last row: the rest is white.
                Ok(fax::decoder::DecodeStatus::End) => break,
                Err(_) => return Err(y),
            }
        }
    } else {
        let mut g3 = fax::decoder::Group3Decoder::new(bytes).map_err(|_| first)?;
        for y in first..first + rows {
            let status = g3.advance();
            // The strip's last row has no EOL after it: the decoder then
            // reports an error, but the row is whole if its runs reach the width.
            let whole = g3.transitions().last() == Some(&width);
            match status {
                Ok(fax::decoder::DecodeStatus::Incomplete) => paint(y, g3.transitions()),
                Ok(fax::decoder::DecodeStatus::End) => {
                    paint(y, g3.transitions());
                    break;
                }
                Err(_) if y + 1 == first + rows && whole => paint(y, g3.transitions()),
                Err(_) => return Err(y),
            }
        }
    }
    Ok(())
}

/// Decodes any other compression through the `tiff` crate (its default
/// limits bound the buffer). Bilevel pages fill the bitmap; deeper ones are
/// thresholded at half their range; colour pages are only checked.
fn decode_other(decoder: &mut Tiff, bitmap: &mut Bitmap) -> Result<(), String> {
    let bits = tag_u64(decoder, Tag::BitsPerSample, 1)?;
    let samples = tag_u64(decoder, Tag::SamplesPerPixel, 1)?;
    let image = decoder.read_image().map_err(|e| e.to_string())?;
    if samples != 1 {
        return Ok(());
    }
    let width = bitmap.width as usize;
    match (image, bits) {
        (DecodingResult::U8(data), 1) => {
            let stride = width.div_ceil(8);
            for (y, row) in data.chunks(stride).take(bitmap.height as usize).enumerate() {
                for (t, &r) in bitmap.row_mut(y).iter_mut().zip(row) {
                    *t = r;
                }
            }
        }
        (DecodingResult::U8(data), 8) => {
            for (y, row) in data.chunks(width).take(bitmap.height as usize).enumerate() {
                for (x, &v) in row.iter().enumerate() {
                    if v >= 128 {
                        bitmap.ink_run(y, x, x + 1);
                    }
                }
            }
        }
        _ => {}
    }
    Ok(())
}
