//! Suite runners for thicket-html (not written yet).

use crate::SuiteDef;

/// The suites this dialect runs.
pub fn suites() -> Vec<SuiteDef> {
    Vec::new()
}
