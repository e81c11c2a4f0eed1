//! The text-retrieval readers (`retrieval::{run, qrels, groups}`) on
//! arbitrary bytes, each read as a plain file and as each compressed form
//! the commands take (`.gz`, `.zip`, `.tgz`: the bytes are the archive,
//! so the decoders meet them too): no panic, no hang; a refusal or a
//! malformed line names the file read, a line number within the file's
//! lines when it gives one, and says why.
#![no_main]

use clefeval::diagnostics::Diagnostic;
use clefeval::retrieval::groups::read_groups;
use clefeval::retrieval::qrels::{read_document_qrels, read_passage_qrels};
use clefeval::retrieval::run::{Layout, read_run};
use libfuzzer_sys::fuzz_target;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// A folder of this process's own for the files read.
fn folder() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("clefeval-fuzz-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a scratch folder");
        dir
    })
}

fn named(d: &Diagnostic, path: &Path) {
    assert_eq!(d.file, path.display().to_string(), "{d:?}");
    assert!(!d.message.is_empty());
    assert!(d.line != Some(0), "{d:?}");
}

fuzz_target!(|data: &[u8]| {
    for name in ["input.txt", "input.gz", "input.zip", "input.tgz"] {
        let path = folder().join(name);
        std::fs::write(&path, data).expect("the input written");
        for read in [read_document_qrels(&path), read_passage_qrels(&path)] {
            if let Err(d) = read {
                named(&d, &path);
            }
        }
        if let Err(d) = read_groups(&path) {
            named(&d, &path);
        }
        for layout in [Layout::Document, Layout::Passage] {
            let read = read_run(&path, layout, |t| assert!(!t.topic.is_empty()), || {});
            for d in &read.errors {
                named(d, &path);
            }
        }
    }
});
