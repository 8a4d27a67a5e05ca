//! Where things are.

use std::path::PathBuf;

/// The workspace root.
pub fn project_root() -> PathBuf {
    thicket_testkit::project_root()
}
