//! The fuzz targets (`fuzz/`, their own workspace, built by `cargo fuzz`
//! with nightly flags) still compile against the library: `cargo check`
//! of every target, without building libFuzzer itself, into a folder of
//! its own under this build's target folder (cargo has released its lock
//! on it by the time tests run).

use std::path::Path;
use std::process::Command;

#[test]
fn every_fuzz_target_compiles() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let exe = std::env::current_exe().unwrap();
    let target = exe.ancestors().nth(3).unwrap().join("fuzz-check");
    let out = Command::new(env!("CARGO"))
        .args(["check", "--bins", "--no-default-features", "--quiet"])
        .arg("--manifest-path")
        .arg(root.join("fuzz/Cargo.toml"))
        .arg("--target-dir")
        .arg(&target)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "cargo check of fuzz/ failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
