//! The `clefeval` command built with the test-only toy flowchart format
//! (the `toy-format` feature): what tests/toy_format.rs runs.

fn main() -> std::process::ExitCode {
    clefeval::cli::main()
}
