//! `cargo xtask suites fetch`: clones the external suites listed in conformance/suites.toml at
//! their pinned commits into conformance/suites/ (git-ignored).

use std::process::Command;

use crate::{Result, paths};

/// One `[[suite]]` entry of suites.toml.
#[derive(Debug, serde::Deserialize)]
struct Entry {
    folder: String,
    upstream: String,
    commit: String,
}

#[derive(Debug, serde::Deserialize)]
struct File {
    suite: Vec<Entry>,
}

/// Runs `suites fetch`.
pub fn run(args: &[String]) -> Result<()> {
    if args.first().map(String::as_str) != Some("fetch") {
        return Err("usage: cargo xtask suites fetch".into());
    }
    let root = paths::project_root();
    let text = std::fs::read_to_string(root.join("conformance/suites.toml"))?;
    let file: File = toml::from_str(&text)?;
    let dest = root.join("conformance/suites");
    std::fs::create_dir_all(&dest)?;
    for e in file.suite {
        let dir = dest.join(&e.folder);
        if !dir.exists() {
            git(&["clone", "--quiet", &e.upstream, &dir.to_string_lossy()])?;
        }
        git(&[
            "-C",
            &dir.to_string_lossy(),
            "checkout",
            "--quiet",
            &e.commit,
        ])?;
        println!("{}: {} at {}", e.folder, e.upstream, e.commit);
    }
    println!(
        "Derived files (marked `derived` in conformance/suites.toml) are not upstream; \
         the suites that need them report as missing until they are provided."
    );
    Ok(())
}

fn git(args: &[&str]) -> Result<()> {
    let status = Command::new("git").args(args).status()?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("git {} failed", args.join(" ")).into())
    }
}
