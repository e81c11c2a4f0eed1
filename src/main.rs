fn main() -> std::process::ExitCode {
    clefeval::cli::main()
}
