//! TIFF page reading (`segmentation::pages::read_pages`, the path of
//! `--pages`) on arbitrary bytes written to a temporary file: it must not
//! panic or allocate beyond the page limits; pages are visited in order
//! from 1, each once, with a bitmap of the declared size; an error is a
//! non-empty message.
#![no_main]

use clefeval::segmentation::pages::{MAX_PIXELS, MAX_SIDE, read_pages};
use libfuzzer_sys::fuzz_target;
use std::path::PathBuf;
use std::sync::OnceLock;

fn scratch() -> &'static PathBuf {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| {
        std::env::temp_dir().join(format!("clefeval-fuzz-{}.tif", std::process::id()))
    })
}

fuzz_target!(|data: &[u8]| {
    let path = scratch();
    std::fs::write(path, data).expect("scratch file is writable");
    let mut visited = Vec::new();
    let result = read_pages(path, |number, info, bitmap| {
        assert_eq!((bitmap.width, bitmap.height), (info.width, info.height));
        visited.push((number, *info));
    });
    match result {
        Ok(pages) => {
            assert!(!pages.is_empty());
            assert_eq!(visited.len(), pages.len());
            for (i, ((number, seen), page)) in visited.iter().zip(&pages).enumerate() {
                assert_eq!(*number as usize, i + 1);
                assert_eq!(seen, page);
                assert!((1..=MAX_SIDE).contains(&page.width));
                assert!((1..=MAX_SIDE).contains(&page.height));
                assert!(u64::from(page.width) * u64::from(page.height) <= MAX_PIXELS);
            }
        }
        Err(e) => {
            assert!(!e.message.is_empty());
            // Pages before the failing one were visited, in order.
            for (i, (number, _)) in visited.iter().enumerate() {
                assert_eq!(*number as usize, i + 1);
            }
        }
    }
});
