//! Project automation for Thicket.
//!
//! - `cargo xtask conformance [SUITE...] [--json] [--check] [--write-expectations] [--no-fetch]`
//! - `cargo xtask codegen [--check]`
//! - `cargo xtask bench [--compare]`
//! - `cargo xtask callgrind [--files PAT,...] [--views VIEW,...] [--others] [--save FILE] [--against FILE] [--max-increase PCT]`
//! - `cargo xtask package`
//! - `cargo xtask suites [list | fetch]`
//! - `cargo xtask adversarial [--quick] [...]`

mod adversarial;
mod bench;
mod callgrind;
mod codegen;
mod conformance;
mod package;
mod paths;
mod suites;

/// Errors are reported as text and make the command exit with status 1.
pub type Result<T> = std::result::Result<T, Box<dyn std::error::Error>>;

const USAGE: &str = "\
usage: cargo xtask <command>

commands:
  conformance [SUITE...] [--json] [--check] [--write-expectations] [--no-fetch]
                 run the conformance suites and print one table (writes conformance/STATUS.md);
                 suites found nowhere are first fetched at their pinned commits
  codegen [--check]
                 regenerate crates/thicket-charref/src/generated/entities.rs
  bench [--compare]
                 run the criterion benchmarks, or the comparison with other parsers
  callgrind [--files PAT,...] [--views VIEW,...] [--others] [--save FILE.json]
            [--against FILE.json] [--max-increase PCT] [--iterations K]
                 instructions per parse of every view on every corpus file (valgrind);
                 `cargo xtask callgrind --help` for details
  package        package every publishable crate, verify each builds from its package alone
                 (dependencies first), and check licenses, README and manifest of each
  suites [list | fetch]
                 where each external suite is read from; fetch the missing ones at their
                 pinned commits into conformance/suites/
  adversarial [--quick] [--cases A,B] [--dialects D] [--sizes 1,2,4] [--out FILE.md] ...
                 hostile inputs through every dialect (library and command line): time per
                 byte against a normal document, growth, peak memory (--help for all options)
";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("conformance") => conformance::run(&args[1..]),
        Some("codegen") => codegen::run(args[1..].iter().any(|a| a == "--check")),
        Some("bench") => bench::run(&args[1..]),
        Some("callgrind") => callgrind::run(&args[1..]),
        Some("suites") => suites::run(&args[1..]),
        Some("package") => package::run(&args[1..]),
        Some("adversarial") => adversarial::run(&args[1..]),
        Some("help" | "--help" | "-h") => {
            print!("{USAGE}");
            Ok(())
        }
        _ => {
            eprint!("{USAGE}");
            std::process::exit(2);
        }
    };
    if let Err(e) = result {
        eprintln!("xtask: {e}");
        std::process::exit(1);
    }
}
