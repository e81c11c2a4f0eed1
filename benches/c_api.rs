//! What the C API adds to one call: the small flowchart pair of
//! `native/examples/samples.h` scored at every level from its two texts,
//! once through the library's Rust functions (parse both texts, then
//! `score::score_pair`) and once through `clefeval_flowchart_score` and
//! `clefeval_flowchart_score_free` of `libclefeval.so`, loaded with
//! `dlopen`. The difference of the two medians is the boundary's cost:
//! the pointer and UTF-8 checks, the guard, the result's C copy and its
//! freeing.
//!
//! Run: `cargo build --release -p clefeval-native && cargo bench --bench
//! c_api` (docs/c-api.md, "Speed").

use clefeval::flowchart::mcs::{Level, Settings};
use clefeval::flowchart::{ParseOptions, parse, score};
use criterion::{Criterion, criterion_group, criterion_main};
use std::ffi::{CStr, CString, c_char, c_int, c_void};
use std::hint::black_box;
use std::path::PathBuf;

const GOLD: &str = "NO 1 oval \"START\"\nNO 2 rectangle \"Read data\"\nNO 3 oval \"END\"\n\
                    DE 1 2 plain\nDE 2 3 plain\n";
const RUN: &str = "NO 1 oval \"START\"\nNO 2 diamond \"Read data\"\nNO 3 oval \"End\"\n\
                   DE 1 2 plain\nDE 2 3 plain\n";

type ScoreFn =
    unsafe extern "C" fn(*const c_char, *const c_char, *const c_void, *mut c_void) -> c_int;
type FreeFn = unsafe extern "C" fn(*mut c_void);

/// Room for a `ClefevalFlowchartScore` (under 1 KiB), 8-byte aligned.
type ScoreBuffer = [u64; 256];

/// `clefeval_flowchart_score` and `clefeval_flowchart_score_free` of the
/// built shared library (`<target>/release/libclefeval.so`).
fn c_functions() -> (ScoreFn, FreeFn) {
    let exe = std::env::current_exe().unwrap();
    let lib: PathBuf = exe.ancestors().nth(2).unwrap().join("libclefeval.so");
    assert!(
        lib.is_file(),
        "{} is missing: cargo build --release -p clefeval-native first",
        lib.display()
    );
    let path = CString::new(lib.to_str().unwrap()).unwrap();
    // SAFETY: a NUL-terminated path; the library stays loaded (never closed).
    let handle = unsafe { libc::dlopen(path.as_ptr(), libc::RTLD_NOW) };
    assert!(!handle.is_null(), "cannot load {}", lib.display());
    let symbol = |name: &CStr| {
        // SAFETY: a loaded library and a NUL-terminated name.
        let found = unsafe { libc::dlsym(handle, name.as_ptr()) };
        assert!(!found.is_null(), "{name:?} is not in {}", lib.display());
        found
    };
    let score = symbol(c"clefeval_flowchart_score");
    let free = symbol(c"clefeval_flowchart_score_free");
    // SAFETY: the header's signatures of these two functions.
    unsafe {
        (
            std::mem::transmute::<*mut c_void, ScoreFn>(score),
            std::mem::transmute::<*mut c_void, FreeFn>(free),
        )
    }
}

fn bench(c: &mut Criterion) {
    let (c_score, c_free) = c_functions();
    let (gold, run) = (CString::new(GOLD).unwrap(), CString::new(RUN).unwrap());
    let mut group = c.benchmark_group("c_api");
    group.bench_function("rust", |b| {
        let settings = Settings::default();
        b.iter(|| {
            let options = ParseOptions::default();
            let g = parse(black_box(GOLD).as_bytes(), "gold", &options);
            let r = parse(black_box(RUN).as_bytes(), "run", &options);
            score::score_pair(&g.flowchart, &r.flowchart, &Level::ALL, &settings)
        })
    });
    group.bench_function("c", |b| {
        let mut out: ScoreBuffer = [0; 256];
        b.iter(|| {
            let out = out.as_mut_ptr().cast::<c_void>();
            // SAFETY: NUL-terminated texts, default options, room for the result.
            let status = unsafe { c_score(gold.as_ptr(), run.as_ptr(), std::ptr::null(), out) };
            assert_eq!(status, 0);
            // SAFETY: filled by the call above.
            unsafe { c_free(out) };
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
