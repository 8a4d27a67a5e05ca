//! Where things are.

use std::path::PathBuf;

use crate::Result;

/// The workspace root.
pub fn project_root() -> PathBuf {
    thicket_testkit::project_root()
}

/// The folder holding the external suites (see `thicket_testkit::suite_root`), if it exists.
pub fn suite_root() -> Result<PathBuf> {
    let root = thicket_testkit::suite_root();
    if root.is_dir() {
        Ok(root)
    } else {
        Err(format!(
            "no suites found at {} (set THICKET_SUITES, or run `cargo xtask suites fetch`)",
            root.display()
        )
        .into())
    }
}
