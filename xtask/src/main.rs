//! Project automation for Thicket.
//!
//! - `cargo xtask conformance [SUITE...] [--json] [--check] [--write-expectations]`
//! - `cargo xtask codegen [--check]`
//! - `cargo xtask bench [--compare]`
//! - `cargo xtask suites fetch`
//! - `cargo xtask adversarial [--quick] [...]`

mod adversarial;
mod bench;
mod codegen;
mod conformance;
mod paths;
mod suites;

/// Errors are reported as text and make the command exit with status 1.
pub type Result<T> = std::result::Result<T, Box<dyn std::error::Error>>;

const USAGE: &str = "\
usage: cargo xtask <command>

commands:
  conformance [SUITE...] [--json] [--check] [--write-expectations]
                 run the conformance suites and print one table (writes conformance/STATUS.md)
  codegen [--check]
                 regenerate crates/thicket-charref/src/generated/entities.rs
  bench [--compare]
                 run the criterion benchmarks, or the comparison with other parsers
  suites fetch   clone the external suites at their pinned commits into conformance/suites/
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
        Some("suites") => suites::run(&args[1..]),
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
