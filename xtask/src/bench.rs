//! `cargo xtask bench [--compare]`.
//!
//! Without `--compare`: runs the workspace's criterion benchmarks (`cargo bench --workspace`).
//! With `--compare`: runs `benches/compare` (its own package and lock file, outside the workspace),
//! which measures every Thicket crate and the other parsers on every corpus file in one run and
//! prints MB/s and ratios.

use std::process::Command;

use crate::{Result, paths};

/// Runs the command.
pub fn run(args: &[String]) -> Result<()> {
    let root = paths::project_root();
    let compare = args.iter().any(|a| a == "--compare");
    let rest: Vec<&String> = args.iter().filter(|a| *a != "--compare").collect();
    let status = if compare {
        Command::new(env!("CARGO"))
            .current_dir(root.join("benches/compare"))
            .args(["run", "--release", "--quiet", "--"])
            .args(&rest)
            .status()?
    } else {
        Command::new(env!("CARGO"))
            .current_dir(&root)
            .args(["bench", "--workspace"])
            .args(&rest)
            .status()?
    };
    if status.success() {
        Ok(())
    } else {
        Err("benchmark run failed".into())
    }
}
