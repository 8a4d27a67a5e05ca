//! Suite runners for thicket-xml5 (not written yet).

use crate::SuiteDef;

/// The suites this dialect runs.
pub fn suites() -> Vec<SuiteDef> {
    Vec::new()
}
