//! `cargo xtask package`: every publishable crate packaged as crates.io would receive it, each
//! package built on its own against its packaged dependencies, and the packages checked.
//!
//! `cargo package` with several `-p` packages the workspace crates together: a dependent is
//! verified against a local registry holding the packages of its dependencies (cargo orders them),
//! so each crate is really built from its `.crate` alone. Then, for each package: both license
//! files (with the workspace's text) and the README are in it, and its normalized manifest has no
//! exact (`=`) or wildcard version requirement, a description, a license, keywords and
//! categories, a `rust-version`, and no placeholder address.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use crate::{Result, paths};

/// Files every package must hold, with the workspace file each must equal (if any).
const REQUIRED: &[(&str, Option<&str>)] = &[
    ("LICENSE-MIT", Some("LICENSE-MIT")),
    ("LICENSE-APACHE", Some("LICENSE-APACHE")),
    ("README.md", None),
    ("Cargo.toml", None),
];

/// A publishable workspace crate.
#[derive(Debug)]
struct Crate {
    name: String,
    version: String,
}

/// Runs `cargo xtask package`.
pub fn run(args: &[String]) -> Result<()> {
    if let Some(a) = args.first() {
        return Err(format!("usage: cargo xtask package (unknown argument {a})").into());
    }
    let root = paths::project_root();
    let (crates, target) = publishable(&root)?;
    if crates.is_empty() {
        return Err("no publishable crate in the workspace".into());
    }
    let names: Vec<&str> = crates.iter().map(|c| c.name.as_str()).collect();
    eprintln!("package: {}", names.join(", "));

    // Everything the packages need is in Cargo.lock; with it downloaded, the verification builds
    // need no network (and resolve the same versions as the workspace).
    cargo(&root, &["fetch", "--locked"])?;
    forget_stale_extracts(&crates)?;
    let mut args = vec!["package", "--locked", "--offline", "--allow-dirty"];
    for name in &names {
        args.extend(["-p", name]);
    }
    cargo(&root, &args)?;

    let mut problems = Vec::new();
    for c in &crates {
        let dir = target
            .join("package")
            .join(format!("{}-{}", c.name, c.version));
        check_package(&root, c, &dir, &mut problems);
    }
    if problems.is_empty() {
        eprintln!(
            "package: {} crates packaged and verified, each with its licenses, README and a \
             manifest without exact pins",
            crates.len()
        );
        return Ok(());
    }
    for p in &problems {
        eprintln!("{p}");
    }
    Err(format!("package: {} problems", problems.len()).into())
}

/// Removes the unpacked sources of earlier packages of these crates that cargo left in
/// `$CARGO_HOME/registry/src`.
///
/// Cargo verifies a dependent against a local registry in `target/package`, and unpacks each
/// dependency's `.crate` into `$CARGO_HOME/registry/src/-HASH/NAME-VERSION`, where `HASH` depends
/// only on the registry's path. It unpacks only when that folder is missing: with the same version
/// and the same checkout path (a CI machine, a reused clone), a later run would build a dependent
/// against an earlier run's sources of its dependency. Local registries are the folders whose
/// name starts with `-` (a registry with no host); only this workspace's crates are removed there.
fn forget_stale_extracts(crates: &[Crate]) -> Result<()> {
    let home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")));
    let Some(src) = home.map(|h| h.join("registry").join("src")) else {
        return Ok(());
    };
    let Ok(registries) = std::fs::read_dir(&src) else {
        return Ok(());
    };
    for registry in registries {
        let registry = registry?;
        if !registry.file_name().to_string_lossy().starts_with('-') {
            continue;
        }
        for c in crates {
            let unpacked = registry.path().join(format!("{}-{}", c.name, c.version));
            if unpacked.is_dir() {
                std::fs::remove_dir_all(&unpacked)?;
            }
        }
    }
    Ok(())
}

/// The workspace crates that may be published (no `publish = false`), and the target directory.
fn publishable(root: &Path) -> Result<(Vec<Crate>, PathBuf)> {
    let out = Command::new(cargo_bin())
        .current_dir(root)
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--locked",
            "--offline",
        ])
        .output()?;
    if !out.status.success() {
        return Err(format!(
            "cargo metadata failed: {}",
            String::from_utf8_lossy(&out.stderr)
        )
        .into());
    }
    let meta: Value = serde_json::from_slice(&out.stdout)?;
    let target = PathBuf::from(
        meta["target_directory"]
            .as_str()
            .ok_or("cargo metadata: no target_directory")?,
    );
    let mut crates = Vec::new();
    for p in meta["packages"]
        .as_array()
        .ok_or("cargo metadata: no packages")?
    {
        // `publish = false` appears as an empty list of registries.
        if p["publish"].as_array().is_some_and(Vec::is_empty) {
            continue;
        }
        crates.push(Crate {
            name: p["name"].as_str().unwrap_or_default().to_owned(),
            version: p["version"].as_str().unwrap_or_default().to_owned(),
        });
    }
    Ok((crates, target))
}

/// Checks one unpacked package (the folder `cargo package` verified it in).
fn check_package(root: &Path, c: &Crate, dir: &Path, problems: &mut Vec<String>) {
    for &(file, same_as) in REQUIRED {
        let path = dir.join(file);
        let Ok(bytes) = std::fs::read(&path) else {
            problems.push(format!("{}: the package has no {file}", c.name));
            continue;
        };
        if let Some(original) = same_as
            && std::fs::read(root.join(original)).ok().as_deref() != Some(&bytes[..])
        {
            problems.push(format!(
                "{}: the packaged {file} differs from the workspace's {original}",
                c.name
            ));
        }
    }
    match std::fs::read_to_string(dir.join("Cargo.toml")) {
        Ok(text) => match toml::from_str::<toml::Table>(&text) {
            Ok(manifest) => check_manifest(&c.name, &manifest, problems),
            Err(e) => problems.push(format!("{}: packaged Cargo.toml: {e}", c.name)),
        },
        Err(e) => problems.push(format!("{}: packaged Cargo.toml: {e}", c.name)),
    }
}

/// Checks a normalized (packaged) manifest.
fn check_manifest(name: &str, manifest: &toml::Table, problems: &mut Vec<String>) {
    let package = manifest.get("package").and_then(|p| p.as_table());
    let field = |key: &str| package.and_then(|p| p.get(key));
    for key in ["description", "license", "rust-version"] {
        if field(key)
            .and_then(|v| v.as_str())
            .is_none_or(str::is_empty)
        {
            problems.push(format!("{name}: no `{key}`"));
        }
    }
    for key in ["keywords", "categories"] {
        if field(key)
            .and_then(|v| v.as_array())
            .is_none_or(Vec::is_empty)
        {
            problems.push(format!("{name}: no `{key}`"));
        }
    }
    for key in ["repository", "homepage", "documentation"] {
        if let Some(url) = field(key).and_then(|v| v.as_str())
            && (!url.starts_with("https://") || url.contains("example."))
        {
            problems.push(format!("{name}: `{key}` is not a real address: {url}"));
        }
    }
    for section in ["dependencies", "dev-dependencies", "build-dependencies"] {
        let Some(deps) = manifest.get(section).and_then(|d| d.as_table()) else {
            continue;
        };
        for (dep, spec) in deps {
            let req = match spec {
                toml::Value::String(s) => Some(s.as_str()),
                toml::Value::Table(t) => t.get("version").and_then(|v| v.as_str()),
                _ => None,
            };
            if let Some(problem) = req.and_then(requirement_problem) {
                problems.push(format!(
                    "{name}: [{section}] {dep} = \"{}\": {problem}",
                    req.unwrap_or("")
                ));
            }
        }
    }
}

/// Why a version requirement does not belong in a published manifest, if it does not.
fn requirement_problem(req: &str) -> Option<&'static str> {
    let parts = req.split(',').map(str::trim);
    for part in parts {
        if part.starts_with('=') {
            return Some(
                "an exact pin stops applications from resolving newer compatible versions",
            );
        }
        if part == "*" || part.is_empty() {
            return Some("no lower bound");
        }
    }
    None
}

fn cargo_bin() -> String {
    std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned())
}

fn cargo(root: &Path, args: &[&str]) -> Result<()> {
    let status = Command::new(cargo_bin())
        .current_dir(root)
        .args(args)
        .status()?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("cargo {} failed", args.join(" ")).into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_and_wildcard_requirements_are_refused() {
        assert_eq!(requirement_problem("2.8.3"), None);
        assert_eq!(requirement_problem("^0.14"), None);
        assert_eq!(requirement_problem(">=1.2, <2"), None);
        assert!(requirement_problem("=2.8.3").is_some());
        assert!(requirement_problem(">=1, =1.4.0").is_some());
        assert!(requirement_problem("*").is_some());
    }

    #[test]
    fn a_manifest_lacking_metadata_or_pinning_is_reported() {
        let manifest: toml::Table = toml::from_str(
            r#"
            [package]
            name = "x"
            description = "d"
            license = "MIT"
            rust-version = "1.85"
            keywords = []
            repository = "https://example.invalid/x"
            [dependencies.memchr]
            version = "=2.8.3"
            [dev-dependencies]
            insta = "1.49.0"
            "#,
        )
        .unwrap();
        let mut problems = Vec::new();
        check_manifest("x", &manifest, &mut problems);
        assert_eq!(problems.len(), 4, "{problems:#?}");
        assert!(problems[0].contains("`keywords`"));
        assert!(problems[1].contains("`categories`"));
        assert!(problems[2].contains("`repository`"));
        assert!(problems[3].contains("memchr = \"=2.8.3\""));
    }
}
