//! Opening run, qrels and group files, plain or compressed, and cutting them
//! into lines and fields without allocating per line.
//!
//! Compressed inputs (`.gz`, `.zip`, `.tgz`/`.tar.gz`) are decompressed as a
//! stream. Their decompressed size is capped, so a decompression bomb is an
//! error naming the file instead of hours of work: at most
//! [`RATIO_CAP`] times the compressed size, never less than [`FLOOR_CAP`]
//! and never more than [`ABSOLUTE_CAP`]. Plain files are streamed without a
//! size cap. Every input caps its line length at [`MAX_LINE`] bytes, so a
//! file without line ends cannot make memory grow. Only regular files are
//! opened ([`crate::inputs::open_regular`]): a FIFO, a socket, a device or a
//! folder is an error naming it, never waited on.

use crate::diagnostics::Diagnostic;
use crate::inputs::open_regular;
use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

/// Decompressed bytes allowed per compressed byte.
pub const RATIO_CAP: u64 = 64;
/// Decompressed bytes always allowed, whatever the compressed size (16 MiB).
pub const FLOOR_CAP: u64 = 16 << 20;
/// Decompressed bytes never exceeded (4 GiB).
pub const ABSOLUTE_CAP: u64 = 4 << 30;
/// Longest line accepted (64 KiB); longer is an error of the file.
pub const MAX_LINE: usize = 64 << 10;

/// Compression extensions, longest first (`.tar.gz` before `.gz`).
use crate::inputs::COMPRESSED;

/// True when `path`'s name ends with a compression extension: the file is
/// read as a stream through its decompressor.
pub fn is_compressed(path: &Path) -> bool {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    COMPRESSED.iter().any(|ext| name.ends_with(ext))
}

pub use crate::inputs::run_name;

/// The decompressed bytes allowed for a compressed file of `size` bytes.
pub fn decompressed_cap(size: u64) -> u64 {
    size.saturating_mul(RATIO_CAP)
        .clamp(FLOOR_CAP, ABSOLUTE_CAP)
}

/// A reader that fails once more than `cap` bytes came through.
struct Capped<R> {
    inner: R,
    left: u64,
    cap: u64,
}

impl<R: Read> Read for Capped<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        if n as u64 > self.left {
            return Err(io::Error::other(format!(
                "decompresses to more than {} MiB (at most {}× the compressed size, \
                 between {} MiB and {} MiB); refused as a decompression bomb",
                self.cap >> 20,
                RATIO_CAP,
                FLOOR_CAP >> 20,
                ABSOLUTE_CAP >> 20
            )));
        }
        self.left -= n as u64;
        Ok(n)
    }
}

fn capped<R: Read>(inner: R, compressed: u64) -> Capped<R> {
    let cap = decompressed_cap(compressed);
    Capped {
        inner,
        left: cap,
        cap,
    }
}

fn error(path: &Path, message: impl std::fmt::Display) -> Diagnostic {
    Diagnostic::error(path.display().to_string(), None, message.to_string())
}

/// Opens `path` (plain or compressed by its extension) and hands the
/// decompressed byte stream to `read`. I/O errors met by `read` (a corrupt
/// stream, the size cap) are `read`'s to report; a path that is no regular
/// file or cannot be opened, and archive-level problems (not a zip, not
/// exactly one regular file), are returned here.
pub fn with_reader<T>(path: &Path, read: impl FnOnce(&mut dyn Read) -> T) -> Result<T, Diagnostic> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let file = open_regular(path).map_err(|why| error(path, why))?;
    let size = file.metadata().map(|m| m.len()).unwrap_or(0);
    if name.ends_with(".tar.gz") || name.ends_with(".tgz") {
        with_tar(path, file, size, read)
    } else if name.ends_with(".gz") {
        if size == 0 {
            return Err(error(path, "empty file: not gzip data"));
        }
        let mut r = capped(
            flate2::read::MultiGzDecoder::new(io::BufReader::new(file)),
            size,
        );
        Ok(read(&mut r))
    } else if name.ends_with(".zip") {
        with_zip(path, file, size, read)
    } else {
        let mut file = file;
        Ok(read(&mut file))
    }
}

fn with_zip<T>(
    path: &Path,
    file: File,
    size: u64,
    read: impl FnOnce(&mut dyn Read) -> T,
) -> Result<T, Diagnostic> {
    let mut archive = zip::ZipArchive::new(io::BufReader::new(file))
        .map_err(|e| error(path, format!("not a readable zip archive: {e}")))?;
    let mut regular = Vec::new();
    for i in 0..archive.len() {
        let entry = archive
            .by_index_raw(i)
            .map_err(|e| error(path, format!("unreadable zip entry {}: {e}", i + 1)))?;
        if entry.is_file() {
            regular.push(i);
        }
    }
    let [index] = regular[..] else {
        return Err(error(
            path,
            format!(
                "a zip run must hold exactly one regular file; this one holds {}",
                regular.len()
            ),
        ));
    };
    let entry = archive
        .by_index(index)
        .map_err(|e| error(path, format!("unreadable zip entry: {e}")))?;
    let mut r = capped(entry, size);
    Ok(read(&mut r))
}

fn with_tar<T>(
    path: &Path,
    file: File,
    size: u64,
    read: impl FnOnce(&mut dyn Read) -> T,
) -> Result<T, Diagnostic> {
    let gz = flate2::read::MultiGzDecoder::new(io::BufReader::new(file));
    let mut archive = tar::Archive::new(capped(gz, size));
    let mut entries = archive
        .entries()
        .map_err(|e| error(path, format!("not a readable tar archive: {e}")))?;
    let one = "a tar run must hold exactly one regular file and nothing else";
    let mut first = match entries.next() {
        Some(Ok(entry)) => entry,
        Some(Err(e)) => return Err(error(path, format!("not a readable tar archive: {e}"))),
        None => return Err(error(path, format!("{one}; this one is empty"))),
    };
    if !first.header().entry_type().is_file() {
        return Err(error(path, format!("{one}; its first entry is not a file")));
    }
    let result = read(&mut first);
    match entries.next() {
        None => Ok(result),
        Some(Ok(_)) => Err(error(path, format!("{one}; this one holds more"))),
        Some(Err(e)) => Err(error(path, format!("unreadable tar archive: {e}"))),
    }
}

/// Calls `line(number, bytes)` for every line of `reader` (1-based physical
/// line numbers, line end and a trailing `\r` removed, a leading BOM removed
/// from line 1). Stops early when `line` returns `false`. `Err` is the I/O
/// error or an over-long line, with its line number.
pub fn for_each_line(
    reader: &mut dyn Read,
    line: impl FnMut(usize, &[u8]) -> bool,
) -> Result<(), (Option<usize>, String)> {
    for_each_line_of(reader, true, line)
}

/// [`for_each_line`] over a stream that is the file from its start
/// (`file_start`, a BOM on line 1 removed) or a part of it that begins at
/// a line start further in (numbered from 1 within the part, nothing
/// removed but line ends).
pub fn for_each_line_of(
    reader: &mut dyn Read,
    file_start: bool,
    mut line: impl FnMut(usize, &[u8]) -> bool,
) -> Result<(), (Option<usize>, String)> {
    const CHUNK: usize = 1 << 20;
    let mut buf: Vec<u8> = vec![0; CHUNK];
    let mut start = 0; // first byte of the pending partial line
    let mut end = 0; // bytes filled
    let mut number = 0usize;
    let mut eof = false;
    while !eof {
        if start > 0 {
            buf.copy_within(start..end, 0);
            end -= start;
            start = 0;
        }
        // The pending partial line is at most MAX_LINE < CHUNK bytes (checked
        // below), so there is always room to read into.
        let n = loop {
            match reader.read(buf.get_mut(end..).unwrap_or_default()) {
                Ok(n) => break n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err((None, e.to_string())),
            }
        };
        if n == 0 {
            eof = true;
        }
        end += n;
        let filled = buf.get(..end).unwrap_or_default();
        let mut pos = start;
        for nl in memchr::memchr_iter(b'\n', filled.get(start..).unwrap_or_default()) {
            let stop = start + nl;
            number += 1;
            let text = trim_line(
                filled.get(pos..stop).unwrap_or_default(),
                number,
                file_start,
            );
            check_line(text, number)?;
            if !line(number, text) {
                return Ok(());
            }
            pos = stop + 1;
        }
        start = pos;
        if eof && start < end {
            number += 1;
            let text = trim_line(
                filled.get(start..end).unwrap_or_default(),
                number,
                file_start,
            );
            check_line(text, number)?;
            line(number, text);
        }
        if !eof && start == 0 && end - start > MAX_LINE {
            return Err((
                Some(number + 1),
                format!("line longer than {} KiB", MAX_LINE >> 10),
            ));
        }
    }
    Ok(())
}

/// An over-long line, or binary data (a NUL byte, which no text file
/// holds), stops reading the file.
fn check_line(text: &[u8], number: usize) -> Result<(), (Option<usize>, String)> {
    if text.len() > MAX_LINE {
        return Err((
            Some(number),
            format!("line longer than {} KiB", MAX_LINE >> 10),
        ));
    }
    if memchr::memchr(0, text).is_some() {
        return Err((
            Some(number),
            "binary data (a NUL byte), not a text file; not read further".into(),
        ));
    }
    Ok(())
}

fn trim_line(line: &[u8], number: usize, file_start: bool) -> &[u8] {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    if number == 1 && file_start {
        line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line)
    } else {
        line
    }
}

/// Splits `line` at ASCII white space into at most `N` fields; returns the
/// number of fields (more than `N` when the line has more; only the first
/// `N` are stored).
pub fn split_fields<'a, const N: usize>(line: &'a [u8], fields: &mut [&'a [u8]; N]) -> usize {
    let mut count = 0;
    let mut i = 0;
    let len = line.len();
    while i < len {
        while i < len && is_space(line.get(i).copied().unwrap_or(b' ')) {
            i += 1;
        }
        if i >= len {
            break;
        }
        let begin = i;
        while i < len && !is_space(line.get(i).copied().unwrap_or(b' ')) {
            i += 1;
        }
        if let Some(slot) = fields.get_mut(count) {
            *slot = line.get(begin..i).unwrap_or_default();
        }
        count += 1;
    }
    count
}

#[inline]
fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n' | 0x0b | 0x0c)
}

/// True for a line to skip: blank, or its first field starts with `#`.
pub fn is_skipped(fields: usize, first: &[u8]) -> bool {
    fields == 0 || first.first() == Some(&b'#')
}

/// Reads every non-skipped line of a small file (qrels, groups) and calls
/// `line(number, fields)`; the first error (I/O or `line`'s) stops reading.
pub fn read_table<const N: usize>(
    path: &Path,
    mut line: impl FnMut(usize, &[&[u8]], usize) -> Result<(), String>,
) -> Result<(), Diagnostic> {
    let file_name = path.display().to_string();
    let mut failure: Option<Diagnostic> = None;
    let outcome = with_reader(path, |reader| {
        for_each_line(reader, |number, text| {
            let mut fields: [&[u8]; N] = [&[]; N];
            let count = split_fields(text, &mut fields);
            if is_skipped(count, fields.first().copied().unwrap_or_default()) {
                return true;
            }
            match line(number, &fields, count) {
                Ok(()) => true,
                Err(message) => {
                    failure = Some(Diagnostic::error(file_name.clone(), Some(number), message));
                    false
                }
            }
        })
    })?;
    if let Some(d) = failure {
        return Err(d);
    }
    outcome.map_err(|(line, message)| Diagnostic::error(file_name.clone(), line, message))
}

/// A field as text (invalid UTF-8 replaced, so a report can always show it).
pub fn text(field: &[u8]) -> String {
    String::from_utf8_lossy(field).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_drop_compression_extensions() {
        for (path, name) in [
            ("a/lab2-lm-PSG.gz", "lab2-lm-PSG"),
            ("lab3.zip", "lab3"),
            ("x/run.tar.gz", "run"),
            ("run.tgz", "run"),
            ("plain-PAC", "plain-PAC"),
            ("run.txt", "run.txt"),
        ] {
            assert_eq!(run_name(Path::new(path)), name);
        }
    }

    #[test]
    fn caps() {
        assert_eq!(decompressed_cap(0), FLOOR_CAP);
        assert_eq!(decompressed_cap(1 << 20), 64 << 20);
        assert_eq!(decompressed_cap(1 << 30), ABSOLUTE_CAP);
    }

    #[test]
    fn lines_fields_bom_crlf() {
        let data = b"\xEF\xBB\xBFa b\r\n\n  c\td  e \nlast";
        let mut seen = Vec::new();
        for_each_line(&mut &data[..], |n, l| {
            seen.push((n, l.to_vec()));
            true
        })
        .unwrap();
        assert_eq!(
            seen,
            vec![
                (1, b"a b".to_vec()),
                (2, b"".to_vec()),
                (3, b"  c\td  e ".to_vec()),
                (4, b"last".to_vec())
            ]
        );
        let mut fields: [&[u8]; 2] = [&[]; 2];
        assert_eq!(split_fields(b"  c\td  e ", &mut fields), 3);
        assert_eq!(fields, [&b"c"[..], &b"d"[..]]);
    }

    #[test]
    fn lines_across_buffer_refills() {
        let mut data = Vec::new();
        for i in 0..300_000 {
            data.extend_from_slice(format!("line {i} {}\r\n", "x".repeat(i % 13)).as_bytes());
        }
        data.extend_from_slice(b"tail");
        let mut count = 0;
        for_each_line(&mut &data[..], |n, l| {
            let want = if n == 300_001 {
                "tail".to_string()
            } else {
                format!("line {} {}", n - 1, "x".repeat((n - 1) % 13))
            };
            assert_eq!(l, want.as_bytes());
            count += 1;
            true
        })
        .unwrap();
        assert_eq!(count, 300_001);
    }

    #[test]
    fn long_line_is_an_error() {
        let data = vec![b'x'; MAX_LINE * 3];
        let err = for_each_line(&mut &data[..], |_, _| true).unwrap_err();
        assert_eq!(err.0, Some(1));
    }

    use crate::retrieval::test_files::named;
    use std::io::Write;

    fn gz(bytes: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(bytes).unwrap();
        e.finish().unwrap()
    }

    /// The lines of a file through `with_reader`, or the error text.
    fn lines_of(path: &Path) -> Result<Vec<String>, String> {
        let mut lines = Vec::new();
        let outcome = with_reader(path, |r| {
            for_each_line(r, |_, l| {
                lines.push(String::from_utf8_lossy(l).into_owned());
                true
            })
        })
        .map_err(|d| d.to_string())?;
        outcome.map_err(|(_, m)| m)?;
        Ok(lines)
    }

    fn zip(files: &[(&str, &[u8])]) -> Vec<u8> {
        let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
        for (name, bytes) in files {
            w.start_file(*name, zip::write::SimpleFileOptions::default())
                .unwrap();
            w.write_all(bytes).unwrap();
        }
        w.finish().unwrap().into_inner()
    }

    fn tgz(files: &[(&str, &[u8])]) -> Vec<u8> {
        let mut b = tar::Builder::new(Vec::new());
        for (name, bytes) in files {
            let mut h = tar::Header::new_gnu();
            h.set_size(bytes.len() as u64);
            h.set_mode(0o644);
            h.set_cksum();
            b.append_data(&mut h, name, *bytes).unwrap();
        }
        gz(&b.into_inner().unwrap())
    }

    #[test]
    fn gzip_zip_and_tgz_read_alike() {
        let text = b"a b\nc d\n";
        let want = Ok(vec!["a b".to_string(), "c d".to_string()]);
        let f = named("run.gz", &gz(text));
        assert_eq!(lines_of(f.path()), want);
        let f = named("run.zip", &zip(&[("run.txt", text)]));
        assert_eq!(lines_of(f.path()), want);
        let f = named("run.tgz", &tgz(&[("run.txt", text)]));
        assert_eq!(lines_of(f.path()), want);
        let f = named("run.tar.gz", &tgz(&[("run.txt", text)]));
        assert_eq!(lines_of(f.path()), want);
        // A gzip stream of nothing is an empty run.
        let f = named("empty-content.gz", &gz(b""));
        assert_eq!(lines_of(f.path()), Ok(vec![]));
    }

    #[test]
    fn broken_archives_are_errors_with_the_path() {
        let f = named("empty.gz", b"");
        let e = lines_of(f.path()).unwrap_err();
        assert!(e.contains("empty.gz") && e.contains("not gzip"), "{e}");
        let mut corrupt = gz(b"a b\nc d\n");
        let middle = corrupt.len() / 2;
        corrupt[middle] ^= 0xff;
        corrupt.truncate(corrupt.len() - 4);
        let f = named("corrupt.gz", &corrupt);
        assert!(lines_of(f.path()).is_err());
        let f = named("not.gz", b"plain text\n");
        assert!(lines_of(f.path()).is_err());
        let f = named("two.zip", &zip(&[("a.txt", b"x"), ("b.txt", b"y")]));
        let e = lines_of(f.path()).unwrap_err();
        assert!(e.contains("two.zip") && e.contains("exactly one"), "{e}");
        let f = named("none.zip", &zip(&[]));
        assert!(lines_of(f.path()).unwrap_err().contains("exactly one"));
        let f = named("bad.zip", b"PK not really");
        assert!(lines_of(f.path()).unwrap_err().contains("zip"));
        let f = named("two.tgz", &tgz(&[("a", b"x"), ("b", b"y")]));
        assert!(lines_of(f.path()).unwrap_err().contains("exactly one"));
    }

    #[test]
    fn only_regular_files_are_opened() {
        let f = named("run.txt", b"a b\n");
        let dir = f.path().parent().unwrap();
        let socket = dir.join("socket.gz");
        let _listener = std::os::unix::net::UnixListener::bind(&socket).unwrap();
        let fifo = dir.join("fifo.zip");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: `c` is a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
        let refused = |path: &Path, why: &str| {
            let e = lines_of(path).unwrap_err();
            assert_eq!(e, format!("{}: error: {why}", path.display()));
        };
        refused(&fifo, "is a FIFO (named pipe), not a regular file");
        refused(&socket, "is a socket, not a regular file");
        refused(dir, "is a folder, not a regular file");
        refused(Path::new("/dev/null"), "is a device, not a regular file");
        refused(&dir.join("missing.tgz"), "no such file or folder");
        std::fs::remove_file(&fifo).unwrap();
        std::fs::remove_file(&socket).unwrap();
    }

    #[test]
    fn decompression_bomb_is_refused() {
        // 100 MB of line ends compress to about 100 KB: over the 16 MiB floor
        // and over 64× the compressed size.
        let bomb = gz(&vec![b'\n'; 100 << 20]);
        assert!(bomb.len() < 1 << 20);
        for (name, bytes) in [
            ("bomb.gz", bomb.clone()),
            ("bomb.zip", zip(&[("bomb.txt", &vec![b'\n'; 100 << 20])])),
        ] {
            let f = named(name, &bytes);
            let e = lines_of(f.path()).unwrap_err();
            assert!(e.contains("decompression bomb"), "{name}: {e}");
        }
    }
}
