//! The Python package (`python/`) as a user installs it: a scratch virtual
//! environment in Cargo's target tmp folder (`python3 -m venv`, then `pip
//! install maturin pytest dask[distributed]` from PyPI; kept between runs),
//! the abi3 wheel built by maturin in release mode, with the test-only toy
//! flowchart format (`test_toy_format.py` reads it), and installed into it,
//! and the package's pytest suite (`python/tests/`) run there against this
//! build's `clefeval` binary, which also serves as the InChI worker. The
//! suite includes the Dask test (`test_dask.py`: the parts of an
//! evaluation mapped over a `LocalCluster` of two worker processes), which
//! must run and pass: no test may be skipped.
//!
//! Needs Python 3.9 or later with `venv` and `pip` (`PYTHON=/path/to/python3`
//! picks one; otherwise `python3` on PATH). Without it the test fails,
//! saying so. The wheel is built into the same target folder as the rest:
//! Cargo holds its lock only while it builds, not while tests run.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Longest any one step (venv, pip, maturin, pytest) may take.
const STEP_LIMIT: Duration = Duration::from_secs(1800);

/// The Python the environment is made from.
fn python() -> PathBuf {
    if let Some(path) = std::env::var_os("PYTHON") {
        let path = PathBuf::from(path);
        assert!(path.is_file(), "PYTHON={}: no such file", path.display());
        return path;
    }
    let found = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join("python3"))
            .find(|p| p.is_file())
    });
    found.unwrap_or_else(|| {
        panic!(
            "the Python package's test needs Python 3.9 or later with venv and pip: \
             install python3 (and python3-venv on Debian) or set PYTHON=/path/to/python3"
        )
    })
}

/// Runs `command` in the repository root, its output kept in `logs` (read
/// back through files: a pipe left unread would stall it); fails the test
/// with that output when it fails or takes longer than [`STEP_LIMIT`].
fn run(what: &str, command: &mut Command, logs: &Path) -> String {
    let (out_path, err_path) = (
        logs.join(format!("{what}.out")),
        logs.join(format!("{what}.err")),
    );
    let mut child = command
        .current_dir(ROOT)
        .stdin(std::process::Stdio::null())
        .stdout(File::create(&out_path).unwrap())
        .stderr(File::create(&err_path).unwrap())
        .spawn()
        .unwrap_or_else(|e| panic!("{what}: cannot start {command:?}: {e}"));
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > STEP_LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what} did not finish within {STEP_LIMIT:?}: {command:?}");
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let out = std::fs::read_to_string(&out_path).unwrap_or_default();
    let err = std::fs::read_to_string(&err_path).unwrap_or_default();
    assert!(
        status.success(),
        "{what} failed ({status}): {command:?}\n--- stdout ---\n{out}\n--- stderr ---\n{err}"
    );
    out
}

/// What the environment installs from PyPI.
const PACKAGES: [&str; 3] = ["maturin>=1.9.4,<2", "pytest", "dask[distributed]"];

/// The virtual environment with [`PACKAGES`], made once and kept (made
/// again when one of their commands is missing).
fn environment(dir: &Path, logs: &Path) -> PathBuf {
    let bin = dir.join("bin");
    let ready = ["python", "maturin", "pytest", "dask"]
        .iter()
        .all(|tool| bin.join(tool).is_file());
    if !ready {
        let python = python();
        let version = run(
            "python-version",
            Command::new(&python).args(["-c", "import sys; print(sys.version_info >= (3, 9))"]),
            logs,
        );
        assert_eq!(
            version.trim(),
            "True",
            "{} is older than Python 3.9, which the package needs",
            python.display()
        );
        let _ = std::fs::remove_dir_all(dir);
        run(
            "venv",
            Command::new(&python).args(["-m", "venv"]).arg(dir),
            logs,
        );
        run("pip", pip(&bin).args(PACKAGES), logs);
    }
    bin
}

/// `pip install` in the environment whose `bin` folder is `bin`.
fn pip(bin: &Path) -> Command {
    let mut command = Command::new(bin.join("python"));
    command.args(["-m", "pip", "install", "--quiet"]);
    command.arg("--disable-pip-version-check");
    command
}

#[test]
fn python_package_builds_installs_and_passes_its_tests() {
    let scratch = Path::new(env!("CARGO_TARGET_TMPDIR")).join("python");
    let (logs, wheels) = (scratch.join("logs"), scratch.join("wheels"));
    let _ = std::fs::remove_dir_all(&wheels);
    std::fs::create_dir_all(&logs).unwrap();
    let bin = environment(&scratch.join("venv"), &logs);
    run(
        "maturin",
        Command::new(bin.join("maturin"))
            .args(["build", "--release", "--quiet", "--features", "toy-format"])
            .arg("--manifest-path")
            .arg(Path::new(ROOT).join("python/Cargo.toml"))
            .arg("--interpreter")
            .arg(bin.join("python"))
            .arg("--out")
            .arg(&wheels),
        &logs,
    );
    let wheel: Vec<PathBuf> = std::fs::read_dir(&wheels)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "whl"))
        .collect();
    assert_eq!(wheel.len(), 1, "maturin built {wheel:?}");
    // The licence texts and the InChI notices travel in the wheel.
    let archive = zip::ZipArchive::new(File::open(&wheel[0]).unwrap()).unwrap();
    for name in ["LICENSE-MIT", "LICENSE-APACHE", "NOTICE"] {
        let found = (archive.file_names().map(Result::unwrap))
            .any(|f| f.contains(".dist-info/") && f.ends_with(&format!("/{name}")));
        assert!(found, "the wheel lacks {name}");
    }
    let mut install = pip(&bin);
    install
        .args(["--force-reinstall", "--no-deps"])
        .arg(&wheel[0]);
    run("install", &mut install, &logs);
    let out = run(
        "pytest",
        Command::new(bin.join("python"))
            .args([
                "-m",
                "pytest",
                "-q",
                "-rfEsp",
                "-p",
                "no:cacheprovider",
                "python/tests",
            ])
            .env("CLEFEVAL_BINARY", env!("CARGO_BIN_EXE_clefeval"))
            .env("CLEFEVAL_ROOT", ROOT)
            .env("CLEFEVAL_TOY_FORMAT", "1")
            .env("PYTHONDONTWRITEBYTECODE", "1"),
        &logs,
    );
    // pytest's closing line counts the tests; none may fail or be skipped.
    let summary = out.lines().last().unwrap_or_default();
    assert!(
        summary.contains(" passed") && !summary.contains("skipped"),
        "pytest: {summary}"
    );
    // `-rp` lists every test passed: the Dask tests among them.
    let dask = out
        .lines()
        .filter(|l| l.starts_with("PASSED python/tests/test_dask.py::"))
        .count();
    assert!(dask >= 3, "pytest ran {dask} Dask tests:\n{out}");
}
