#![doc = include_str!("../README.md")]

use std::path::{Path, PathBuf};

pub mod chunks;
pub mod runners;
pub mod spans;
pub mod suites;

/// The result of one suite case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The output matched.
    Pass,
    /// The output differed; the string says how (first difference, expected vs actual).
    Fail(String),
    /// Not run, with the reason (for example: the input holds a lone surrogate).
    Skip(String),
}

impl Outcome {
    /// True for [`Outcome::Pass`].
    pub fn is_pass(&self) -> bool {
        matches!(self, Outcome::Pass)
    }
}

/// One suite case: its stable name (`file#index: description`) and outcome.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    /// `file#index: description`, unique within the suite.
    pub name: String,
    /// What happened.
    pub outcome: Outcome,
}

impl Case {
    /// A case named `name` with `outcome`.
    pub fn new(name: impl Into<String>, outcome: Outcome) -> Case {
        Case {
            name: name.into(),
            outcome,
        }
    }
}

/// A suite a dialect runs: its stable name, the spec it checks, the folder it reads (relative to
/// the suite root) and the function that runs every case.
pub struct SuiteDef {
    /// Stable suite name, e.g. `html5lib-tokenizer`.
    pub name: &'static str,
    /// The spec (short name) the suite checks.
    pub spec: &'static str,
    /// Folder relative to the suite root (or to the project root when `in_project`).
    pub dir: &'static str,
    /// True for suites kept in this repository (`conformance/<dir>`), false for external ones.
    pub in_project: bool,
    /// Runs every case; `dir` is the resolved folder.
    pub run: fn(dir: &Path) -> Result<Vec<Case>, String>,
}

/// Where the external suites live: `$THICKET_SUITES`, else `../shared/conformance` (relative to the
/// project root), else `conformance/suites/`.
pub fn suite_root() -> PathBuf {
    if let Some(dir) = std::env::var_os("THICKET_SUITES") {
        return PathBuf::from(dir);
    }
    let root = project_root();
    let shared = root.join("../shared/conformance");
    if shared.is_dir() {
        return shared;
    }
    root.join("conformance/suites")
}

/// The workspace root (two levels above this crate).
pub fn project_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("testkit lives in crates/thicket-testkit")
        .to_path_buf()
}

/// Runs `suite` from wherever it lives, or returns `None` when its folder is missing.
pub fn run_suite(suite: &SuiteDef) -> Option<Result<Vec<Case>, String>> {
    let dir = if suite.in_project {
        project_root().join("conformance").join(suite.dir)
    } else {
        suite_root().join(suite.dir)
    };
    if !dir.is_dir() {
        return None;
    }
    Some((suite.run)(&dir))
}
