//! The external suites of `conformance/suites.toml`: where each is read from, and fetching the
//! missing ones at their pinned commits.
//!
//! - `cargo xtask suites` lists every suite and where it is read from.
//! - `cargo xtask suites fetch` fetches every upstream folder found nowhere into
//!   `conformance/suites/` (git-ignored); `cargo xtask conformance` does the same for the suites
//!   it runs before running them.
//!
//! A suite is looked for in `$THICKET_SUITES`, then `../shared/conformance`, then
//! `conformance/suites/`, and read from the first that holds its folder and every derived file it
//! needs. Derived files were made for Thicket from upstream data and are in no upstream repository:
//! a fetch cannot provide them, so a suite that needs one is named with where to get it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::{Result, paths};

/// Replaces the `https://HOST` part of every upstream address (see [`mirrored`]).
const MIRROR_VAR: &str = "THICKET_UPSTREAM_MIRROR";

/// One `[[suite]]` entry of suites.toml: a folder under a suite root.
#[derive(Debug, Clone, serde::Deserialize)]
pub struct Folder {
    /// The folder name under a suite root.
    pub folder: String,
    /// The conformance suites that read it.
    pub suites: Vec<String>,
    /// The repository the data comes from; `None` when the folder cannot be fetched.
    #[serde(default)]
    pub upstream: Option<String>,
    /// The pinned commit of `upstream`.
    #[serde(default)]
    pub commit: Option<String>,
    /// Directories of the upstream repository to check out (all when empty).
    #[serde(default)]
    pub sparse: Vec<String>,
    /// Path in the folder -> path in the upstream repository, where the layouts differ.
    #[serde(default)]
    pub place: BTreeMap<String, String>,
    /// Files made for Thicket, not in the upstream repository.
    #[serde(default)]
    pub derived: Vec<Derived>,
}

/// A derived file of a folder: made for Thicket from upstream data.
#[derive(Debug, Clone, serde::Deserialize)]
pub struct Derived {
    /// Path in the folder.
    pub file: String,
    /// The suites that need it.
    pub suites: Vec<String>,
    /// How it was made.
    pub how: String,
}

impl Folder {
    /// The upstream repository and commit, when the folder can be fetched.
    fn fetchable(&self) -> Option<(&str, &str)> {
        Some((self.upstream.as_deref()?, self.commit.as_deref()?))
    }

    /// The derived files `suite` needs.
    fn derived_for<'a>(&'a self, suite: &'a str) -> impl Iterator<Item = &'a Derived> + 'a {
        self.derived
            .iter()
            .filter(move |d| d.suites.iter().any(|s| s == suite))
    }
}

#[derive(Debug, serde::Deserialize)]
struct File {
    suite: Vec<Folder>,
}

/// conformance/suites.toml, parsed.
#[derive(Debug)]
pub struct Catalog {
    folders: Vec<Folder>,
}

/// A place suites are read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// `$THICKET_SUITES`.
    Env,
    /// `../shared/conformance`, next to the checkout.
    Shared,
    /// `conformance/suites/`, where fetched suites go.
    Fetched,
    /// `conformance/` in the repository (Thicket's own suites).
    Repository,
}

impl Source {
    /// How the conformance table names it.
    pub fn label(self) -> &'static str {
        match self {
            Source::Env => "$THICKET_SUITES",
            Source::Shared => "../shared/conformance",
            Source::Fetched => "conformance/suites",
            Source::Repository => "repository (conformance/)",
        }
    }
}

/// The suite roots, in the order they are searched.
#[derive(Debug, Clone)]
pub struct Roots {
    list: Vec<(Source, PathBuf)>,
}

impl Roots {
    /// `$THICKET_SUITES` (when set), `../shared/conformance` (when it exists) and
    /// `conformance/suites/` of the project at `project`.
    pub fn from_env(project: &Path) -> Roots {
        let mut list = Vec::new();
        if let Some(dir) = std::env::var_os("THICKET_SUITES") {
            list.push((Source::Env, PathBuf::from(dir)));
        }
        let shared = project.join("../shared/conformance");
        if shared.is_dir() {
            list.push((Source::Shared, shared));
        }
        list.push((Source::Fetched, project.join("conformance/suites")));
        Roots { list }
    }

    /// Where fetched folders go (the last root).
    pub fn fetch_dir(&self) -> &Path {
        &self
            .list
            .last()
            .expect("conformance/suites is always a root")
            .1
    }

    /// The root path of `source`, if it is searched.
    fn path_of(&self, source: Source) -> Option<&Path> {
        self.list
            .iter()
            .find(|(s, _)| *s == source)
            .map(|(_, p)| p.as_path())
    }
}

/// Where a suite is read from, or why it cannot be.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Located {
    /// Read from `dir`, found under `source`.
    At {
        /// The resolved folder.
        dir: PathBuf,
        /// The root it was found under.
        source: Source,
    },
    /// The folder is found nowhere and can be fetched.
    Fetchable,
    /// Not runnable here; the text says why and where to get what is missing.
    Missing(String),
}

impl Catalog {
    /// Reads `conformance/suites.toml` of the project at `project`.
    pub fn load(project: &Path) -> Result<Catalog> {
        let path = project.join("conformance/suites.toml");
        let text = std::fs::read_to_string(&path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        Catalog::parse(&text).map_err(|e| format!("{}: {e}", path.display()).into())
    }

    fn parse(text: &str) -> Result<Catalog> {
        let file: File = toml::from_str(text)?;
        for f in &file.suite {
            if f.upstream.is_some() != f.commit.is_some() {
                return Err(format!("{}: `upstream` and `commit` go together", f.folder).into());
            }
        }
        Ok(Catalog {
            folders: file.suite,
        })
    }

    /// The folder `suite` reads.
    pub fn folder_of(&self, suite: &str) -> Option<&Folder> {
        self.folders
            .iter()
            .find(|f| f.suites.iter().any(|s| s == suite))
    }

    /// Where `suite`, which reads `dir` (relative to a suite root, starting with its folder), is
    /// read from.
    pub fn locate(&self, roots: &Roots, suite: &str, dir: &str) -> Located {
        let folder = self.folder_of(suite);
        let derived: Vec<&Derived> = folder
            .map(|f| f.derived_for(suite).collect())
            .unwrap_or_default();
        let mut lacking: Option<&Derived> = None;
        for (source, root) in &roots.list {
            let candidate = root.join(dir);
            if !candidate.is_dir() {
                continue;
            }
            let folder_dir = root.join(folder.map_or(dir, |f| f.folder.as_str()));
            match derived.iter().find(|d| !folder_dir.join(&d.file).is_file()) {
                None => {
                    return Located::At {
                        dir: candidate,
                        source: *source,
                    };
                }
                Some(d) => lacking = lacking.or(Some(d)),
            }
        }
        let Some(folder) = folder else {
            return Located::Missing(format!(
                "not found ({dir} under {}); not listed in conformance/suites.toml",
                searched(roots)
            ));
        };
        if let Some(d) = lacking.or(derived.first().copied()) {
            return Located::Missing(derived_note(folder, d, roots));
        }
        if folder.fetchable().is_some() {
            Located::Fetchable
        } else {
            Located::Missing(format!(
                "not found ({dir} under {}) and not fetchable",
                searched(roots)
            ))
        }
    }

    /// The folders that the suites `wanted` (name, dir) need, found nowhere and fetchable, each
    /// once.
    pub fn to_fetch(&self, roots: &Roots, wanted: &[(&str, &str)]) -> Vec<&Folder> {
        let mut out: Vec<&Folder> = Vec::new();
        for &(suite, dir) in wanted {
            if self.locate(roots, suite, dir) != Located::Fetchable {
                continue;
            }
            if let Some(f) = self.folder_of(suite)
                && !out.iter().any(|o| o.folder == f.folder)
            {
                out.push(f);
            }
        }
        out
    }
}

/// The roots searched, for messages.
fn searched(roots: &Roots) -> String {
    let labels: Vec<&str> = roots.list.iter().map(|(s, _)| s.label()).collect();
    labels.join(", ")
}

/// Why a suite that needs a derived file cannot run, and where to get the file.
fn derived_note(folder: &Folder, d: &Derived, roots: &Roots) -> String {
    let absent = if roots.path_of(Source::Shared).is_some() {
        ""
    } else {
        " (absent here)"
    };
    format!(
        "derived data missing: {f}/{file} is in no upstream repository, so it cannot be fetched \
         (made for Thicket: {how}). It comes with Thicket's reference material: \
         ../shared/conformance/{f}/ next to the checkout{absent}, or set $THICKET_SUITES to a \
         folder holding {f}/.",
        f = folder.folder,
        file = d.file,
        how = d.how,
    )
}

/// The address `upstream` is fetched from: with a mirror, `https://HOST/OWNER/REPO` becomes
/// `MIRROR/OWNER/REPO` (the mirror is a folder or a URL prefix).
pub fn mirrored(upstream: &str, mirror: Option<&str>) -> String {
    let Some(mirror) = mirror else {
        return upstream.to_owned();
    };
    let path = upstream.split_once("://").map_or(upstream, |(_, rest)| {
        rest.split_once('/').map_or("", |(_, p)| p)
    });
    format!("{}/{}", mirror.trim_end_matches('/'), path)
}

/// The mirror named by `$THICKET_UPSTREAM_MIRROR`, if set.
pub fn mirror_from_env() -> Option<String> {
    std::env::var(MIRROR_VAR).ok().filter(|m| !m.is_empty())
}

/// Why a fetch failed.
#[derive(Debug)]
pub enum FetchError {
    /// The upstream could not be reached (offline, no such repository): git's message.
    Unreachable(String),
    /// Anything else: the upstream lacks the commit or a file, or a local error.
    Failed(String),
}

impl std::fmt::Display for FetchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FetchError::Unreachable(m) | FetchError::Failed(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for FetchError {}

impl From<std::io::Error> for FetchError {
    fn from(e: std::io::Error) -> FetchError {
        FetchError::Failed(e.to_string())
    }
}

/// Fetches `folder` from its upstream (through `mirror`) at the pinned commit into
/// `dest_root/<folder>`, replacing an older fetch. The checkout is made beside it and renamed into
/// place only when complete, so a failed or interrupted fetch never looks like a suite.
pub fn fetch(
    folder: &Folder,
    mirror: Option<&str>,
    dest_root: &Path,
) -> std::result::Result<PathBuf, FetchError> {
    let (upstream, commit) = folder
        .fetchable()
        .ok_or_else(|| FetchError::Failed(format!("{} has no upstream to fetch", folder.folder)))?;
    let url = mirrored(upstream, mirror);
    let dest = dest_root.join(&folder.folder);
    let partial = dest_root.join(format!(".{}.partial", folder.folder));
    if partial.exists() {
        std::fs::remove_dir_all(&partial)?;
    }
    std::fs::create_dir_all(&partial)?;
    if let Err(e) = check_out(folder, &url, commit, &partial) {
        let _ = std::fs::remove_dir_all(&partial);
        return Err(e);
    }
    if dest.exists() {
        std::fs::remove_dir_all(&dest)?;
    }
    std::fs::rename(&partial, &dest)?;
    Ok(dest)
}

/// Fetches `commit` of `url` into the empty folder `at` and places the files `folder` names.
fn check_out(
    folder: &Folder,
    url: &str,
    commit: &str,
    at: &Path,
) -> std::result::Result<(), FetchError> {
    let at_str = at.to_string_lossy();
    let in_at = |args: &[&str]| {
        let mut all = vec!["-C", &*at_str];
        all.extend_from_slice(args);
        git(&all)
    };
    in_at(&["init", "--quiet"]).map_err(FetchError::Failed)?;
    // Only the pinned commit, and with `sparse` only the blobs of those directories.
    let filter: &[&str] = if folder.sparse.is_empty() {
        &[]
    } else {
        &["--filter=blob:none"]
    };
    let by_commit = [&["fetch", "--quiet", "--depth=1"], filter, &[url, commit]].concat();
    if let Err(first) = in_at(&by_commit) {
        // Some servers refuse a commit they do not advertise: fetch every ref instead. When that
        // fails too (offline, no such repository), the first error is the one to show.
        let every_ref = [
            &["fetch", "--quiet"],
            filter,
            &[url, "+refs/*:refs/upstream/*"],
        ]
        .concat();
        if in_at(&every_ref).is_err() {
            return Err(FetchError::Unreachable(format!(
                "could not fetch {} from {url} at {commit}: {first}",
                folder.folder
            )));
        }
    }
    if !folder.sparse.is_empty() {
        let mut set = vec!["sparse-checkout", "set", "--cone"];
        set.extend(folder.sparse.iter().map(String::as_str));
        in_at(&set).map_err(FetchError::Failed)?;
    }
    let checkout = [
        "-c",
        "advice.detachedHead=false",
        "checkout",
        "--quiet",
        "--detach",
        commit,
    ];
    in_at(&checkout)
        .map_err(|e| FetchError::Failed(format!("{url} has no commit {commit}: {e}")))?;
    for (to, from) in &folder.place {
        let target = at.join(to);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::copy(at.join(from), &target).map_err(|e| {
            FetchError::Failed(format!(
                "{url} at {commit}: cannot place {from} as {to}: {e}"
            ))
        })?;
    }
    Ok(())
}

/// The commit a fetched folder is checked out at, if it is a git checkout.
fn checked_out(dir: &Path) -> Option<String> {
    if !dir.join(".git").exists() {
        return None;
    }
    let out = Command::new("git")
        .args(["-C", &dir.to_string_lossy(), "rev-parse", "HEAD"])
        .stderr(std::process::Stdio::null())
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_owned())
}

/// Runs git without prompts and with a stall timeout; on failure the error is git's last line.
fn git(args: &[&str]) -> std::result::Result<(), String> {
    let mut cmd = Command::new("git");
    cmd.args(args).env("GIT_TERMINAL_PROMPT", "0");
    for (var, value) in [
        ("GIT_HTTP_LOW_SPEED_LIMIT", "1000"),
        ("GIT_HTTP_LOW_SPEED_TIME", "60"),
    ] {
        if std::env::var_os(var).is_none() {
            cmd.env(var, value);
        }
    }
    let out = cmd
        .output()
        .map_err(|e| format!("cannot run git (is it installed?): {e}"))?;
    if out.status.success() {
        return Ok(());
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    let last = stderr
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty() && !l.starts_with("warning:") && !l.starts_with("hint:"))
        .unwrap_or("failed without a message");
    Err(last.trim().to_owned())
}

/// Fetches `folders` for `cargo xtask conformance` / `suites fetch`, saying what it does; a failure
/// is an error that says how to go on.
pub fn fetch_all(folders: &[&Folder], roots: &Roots) -> Result<()> {
    let mirror = mirror_from_env();
    for f in folders {
        let (upstream, commit) = f.fetchable().expect("to_fetch returns fetchable folders");
        eprintln!(
            "suites: fetching {} ({}) from {} at {} into {}",
            f.folder,
            f.suites.join(", "),
            mirrored(upstream, mirror.as_deref()),
            &commit[..12.min(commit.len())],
            roots.fetch_dir().display()
        );
        match fetch(f, mirror.as_deref(), roots.fetch_dir()) {
            Ok(_) => {}
            Err(FetchError::Unreachable(e)) => {
                return Err(format!(
                    "{e}\n  Offline? Provide the suites another way, in a folder named by \
                     $THICKET_SUITES or in ../shared/conformance next to the checkout; \
                     `cargo xtask conformance --no-fetch` runs only the suites at hand."
                )
                .into());
            }
            Err(FetchError::Failed(e)) => return Err(e.into()),
        }
    }
    Ok(())
}

/// The folder `suite` reads (`dir`, relative to a suite root), fetched first when it is found
/// nowhere: for the xtask commands that read one suite folder (codegen).
pub fn dir_for(suite: &str, dir: &str) -> Result<PathBuf> {
    let project = paths::project_root();
    let catalog = Catalog::load(&project)?;
    let roots = Roots::from_env(&project);
    fetch_all(&catalog.to_fetch(&roots, &[(suite, dir)]), &roots)?;
    match catalog.locate(&roots, suite, dir) {
        Located::At { dir, .. } => Ok(dir),
        Located::Fetchable => Err(format!("{dir}: found nowhere after fetching").into()),
        Located::Missing(why) => Err(format!("{dir}: {why}").into()),
    }
}

/// Runs `cargo xtask suites [fetch]`.
pub fn run(args: &[String]) -> Result<()> {
    let project = paths::project_root();
    let catalog = Catalog::load(&project)?;
    let roots = Roots::from_env(&project);
    match args.first().map(String::as_str) {
        None | Some("list") => {
            list(&catalog, &roots);
            Ok(())
        }
        Some("fetch") => {
            let wanted = catalog.fetch_targets();
            let mut missing = catalog.to_fetch(&roots, &wanted);
            // A fetch from an older pin is replaced by the pinned commit.
            for f in &catalog.folders {
                let dir = roots.fetch_dir().join(&f.folder);
                if let (Some((_, commit)), Some(at)) = (f.fetchable(), checked_out(&dir))
                    && at != commit
                    && !missing.iter().any(|m| m.folder == f.folder)
                {
                    missing.push(f);
                }
            }
            if missing.is_empty() {
                eprintln!("suites: every fetchable suite is present");
            }
            fetch_all(&missing, &roots)?;
            list(&catalog, &roots);
            Ok(())
        }
        Some(other) => {
            Err(format!("usage: cargo xtask suites [list | fetch] (not {other})").into())
        }
    }
}

impl Catalog {
    /// Every (suite, folder) pair, the folder standing for the suite's directory.
    fn fetch_targets(&self) -> Vec<(&str, &str)> {
        self.folders
            .iter()
            .flat_map(|f| {
                f.suites
                    .iter()
                    .map(move |s| (s.as_str(), f.folder.as_str()))
            })
            .collect()
    }
}

fn list(catalog: &Catalog, roots: &Roots) {
    for (suite, folder) in catalog.fetch_targets() {
        let place = match catalog.locate(roots, suite, folder) {
            Located::At { source, dir } => format!("{} ({})", source.label(), dir.display()),
            Located::Fetchable => "not present; fetched by `cargo xtask suites fetch`".to_owned(),
            Located::Missing(why) => why,
        };
        println!("{suite:<28} {place}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs git in `dir` with a fixed identity and no user configuration.
    fn git_in(dir: &Path, args: &[&str]) -> String {
        let out = Command::new("git")
            .current_dir(dir)
            .args(args)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_AUTHOR_NAME", "t")
            .env("GIT_AUTHOR_EMAIL", "t@example.org")
            .env("GIT_COMMITTER_NAME", "t")
            .env("GIT_COMMITTER_EMAIL", "t@example.org")
            .output()
            .expect("git runs");
        assert!(
            out.status.success(),
            "git {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).trim().to_owned()
    }

    fn write(path: &Path, text: &str) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    /// A stand-in upstream `MIRROR/owner/repo` with two commits; returns the first (pinned) one.
    fn upstream(mirror: &Path) -> String {
        let repo = mirror.join("owner/repo");
        std::fs::create_dir_all(&repo).unwrap();
        git_in(&repo, &["init", "--quiet"]);
        write(&repo.join("test/tests.json"), "pinned");
        write(&repo.join("big/other.json"), "not checked out when sparse");
        git_in(&repo, &["add", "."]);
        git_in(&repo, &["commit", "--quiet", "-m", "pinned"]);
        let pinned = git_in(&repo, &["rev-parse", "HEAD"]);
        write(&repo.join("test/tests.json"), "later");
        git_in(&repo, &["commit", "--quiet", "-am", "later"]);
        pinned
    }

    fn folder(commit: &str) -> Folder {
        Folder {
            folder: "stand-in".into(),
            suites: vec!["stand-in-suite".into()],
            upstream: Some("https://github.com/owner/repo".into()),
            commit: Some(commit.into()),
            sparse: Vec::new(),
            place: BTreeMap::from([("tests.json".to_owned(), "test/tests.json".to_owned())]),
            derived: Vec::new(),
        }
    }

    #[test]
    fn a_mirror_replaces_the_host() {
        let up = "https://github.com/html5lib/html5lib-tests";
        assert_eq!(mirrored(up, None), up);
        assert_eq!(mirrored(up, Some("/m/")), "/m/html5lib/html5lib-tests");
        assert_eq!(
            mirrored(up, Some("https://mirror.example/git")),
            "https://mirror.example/git/html5lib/html5lib-tests"
        );
    }

    #[test]
    fn fetches_the_pinned_commit_from_a_local_upstream() {
        let tmp = tempfile::tempdir().unwrap();
        let mirror = tmp.path().join("mirror");
        let pinned = upstream(&mirror);
        let dest_root = tmp.path().join("suites");
        let dir = fetch(
            &folder(&pinned),
            Some(&mirror.to_string_lossy()),
            &dest_root,
        )
        .unwrap();
        assert_eq!(dir, dest_root.join("stand-in"));
        assert_eq!(checked_out(&dir).as_deref(), Some(pinned.as_str()));
        // The pinned commit's content (not the branch tip's), placed where the suite reads it.
        assert_eq!(
            std::fs::read_to_string(dir.join("tests.json")).unwrap(),
            "pinned"
        );
        assert_eq!(
            std::fs::read_to_string(dir.join("test/tests.json")).unwrap(),
            "pinned"
        );
        assert!(!dest_root.join(".stand-in.partial").exists());
    }

    #[test]
    fn a_sparse_fetch_checks_out_only_the_named_directories() {
        let tmp = tempfile::tempdir().unwrap();
        let mirror = tmp.path().join("mirror");
        let pinned = upstream(&mirror);
        // Serve partial fetches as GitHub does, over a transport that honours the filter.
        git_in(
            &mirror.join("owner/repo"),
            &["config", "uploadpack.allowFilter", "true"],
        );
        let url = format!("file://{}", mirror.display());
        let mut f = folder(&pinned);
        f.sparse = vec!["test".into()];
        let dir = fetch(&f, Some(&url), tmp.path()).unwrap();
        assert_eq!(
            std::fs::read_to_string(dir.join("tests.json")).unwrap(),
            "pinned"
        );
        assert!(!dir.join("big/other.json").exists());
        // The blob outside the sparse directories was never downloaded.
        let missing = git_in(&dir, &["rev-list", "--objects", "--missing=print", "HEAD"]);
        assert_eq!(
            missing.lines().filter(|l| l.starts_with('?')).count(),
            1,
            "{missing}"
        );
    }

    #[test]
    fn an_unreachable_upstream_is_a_clear_error_and_leaves_nothing() {
        let tmp = tempfile::tempdir().unwrap();
        let nowhere = tmp.path().join("no-mirror");
        let f = folder("224991ec10db04f056a89eed8b0bd8695fd2950e");
        let e = fetch(&f, Some(&nowhere.to_string_lossy()), tmp.path()).unwrap_err();
        assert!(matches!(e, FetchError::Unreachable(_)), "{e:?}");
        let e = e.to_string();
        assert!(e.starts_with("could not fetch stand-in from "), "{e}");
        assert!(
            e.contains("at 224991ec10db04f056a89eed8b0bd8695fd2950e: "),
            "{e}"
        );
        assert!(!tmp.path().join("stand-in").exists());
        assert!(!tmp.path().join(".stand-in.partial").exists());
    }

    #[test]
    fn a_commit_the_upstream_lacks_is_an_error() {
        let tmp = tempfile::tempdir().unwrap();
        let mirror = tmp.path().join("mirror");
        upstream(&mirror);
        let f = folder("0123456789012345678901234567890123456789");
        let e = fetch(&f, Some(&mirror.to_string_lossy()), tmp.path()).unwrap_err();
        assert!(matches!(e, FetchError::Failed(_)), "{e:?}");
        let e = e.to_string();
        assert!(
            e.contains("0123456789012345678901234567890123456789"),
            "{e}"
        );
        assert!(!tmp.path().join("stand-in").exists());
    }

    const CATALOG: &str = r#"
        [[suite]]
        folder = "up"
        suites = ["plain", "needs-derived"]
        upstream = "https://github.com/owner/up"
        commit = "224991ec10db04f056a89eed8b0bd8695fd2950e"
        derived = [{ file = "made.json", suites = ["needs-derived"], how = "by hand" }]

        [[suite]]
        folder = "generated"
        suites = ["only-derived"]
        derived = [{ file = "cases.json", suites = ["only-derived"], how = "generated" }]
    "#;

    fn roots(list: &[(Source, &Path)]) -> Roots {
        Roots {
            list: list.iter().map(|(s, p)| (*s, p.to_path_buf())).collect(),
        }
    }

    #[test]
    fn each_suite_is_read_from_the_first_root_that_holds_all_it_needs() {
        let catalog = Catalog::parse(CATALOG).unwrap();
        let tmp = tempfile::tempdir().unwrap();
        let (env, fetched) = (tmp.path().join("env"), tmp.path().join("fetched"));
        let r = roots(&[(Source::Env, &env), (Source::Fetched, &fetched)]);

        // Found nowhere: the plain suite is fetched, the derived ones say where to get their data.
        assert_eq!(catalog.locate(&r, "plain", "up/sub"), Located::Fetchable);
        assert_eq!(
            catalog
                .to_fetch(&r, &[("plain", "up/sub"), ("needs-derived", "up")])
                .len(),
            1
        );
        let Located::Missing(why) = catalog.locate(&r, "needs-derived", "up") else {
            panic!()
        };
        assert!(
            why.starts_with("derived data missing: up/made.json is in no upstream repository"),
            "{why}"
        );
        assert!(why.contains("(made for Thicket: by hand)"), "{why}");
        let Located::Missing(why) = catalog.locate(&r, "only-derived", "generated") else {
            panic!()
        };
        assert!(why.contains("generated/cases.json"), "{why}");
        assert!(
            catalog
                .to_fetch(&r, &[("only-derived", "generated")])
                .is_empty()
        );

        // A fetched folder without the derived file: the plain suite runs from it, the other
        // still names the derived file.
        std::fs::create_dir_all(fetched.join("up/sub")).unwrap();
        assert_eq!(
            catalog.locate(&r, "plain", "up/sub"),
            Located::At {
                dir: fetched.join("up/sub"),
                source: Source::Fetched
            }
        );
        assert!(matches!(
            catalog.locate(&r, "needs-derived", "up"),
            Located::Missing(_)
        ));
        assert!(catalog.to_fetch(&r, &[("plain", "up/sub")]).is_empty());

        // The first root wins once it holds everything the suite needs.
        write(&env.join("up/made.json"), "{}");
        std::fs::create_dir_all(env.join("up/sub")).unwrap();
        assert_eq!(
            catalog.locate(&r, "needs-derived", "up"),
            Located::At {
                dir: env.join("up"),
                source: Source::Env
            }
        );
        assert_eq!(
            catalog.locate(&r, "plain", "up/sub"),
            Located::At {
                dir: env.join("up/sub"),
                source: Source::Env
            }
        );
    }

    #[test]
    fn the_project_catalog_parses_and_names_every_fetch_and_derived_file() {
        let catalog = Catalog::load(&paths::project_root()).unwrap();
        for f in &catalog.folders {
            for d in &f.derived {
                assert!(
                    d.suites.iter().all(|s| f.suites.contains(s)),
                    "{}: {}",
                    f.folder,
                    d.file
                );
            }
            if let Some((upstream, commit)) = f.fetchable() {
                assert!(upstream.starts_with("https://"), "{upstream}");
                assert_eq!(commit.len(), 40, "{}: pin a full commit", f.folder);
            }
        }
        assert!(catalog.folder_of("html5lib-tokenizer").is_some());
    }
}
