//! The `thicket` binary: see the `thicket_cli` library and docs/cli.md.

fn main() -> std::process::ExitCode {
    thicket_cli::run(std::env::args_os())
}
