//! Diagnostics as a person reads them. The rendering lives in [`thicket_input::render`] (one
//! place, available to library users); this module adds what only the command prints.

use std::io::{self, Write};

pub use thicket_input::render::{Report as Diag, write_report as write_diag};

/// Writes the line that ends the diagnostics of a file when `omitted` of them were not shown
/// (past `--max-diagnostics`).
pub fn write_omitted(out: &mut dyn Write, name: &str, omitted: usize) -> io::Result<()> {
    if omitted > 0 {
        let what = if omitted == 1 {
            "diagnostic"
        } else {
            "diagnostics"
        };
        writeln!(
            out,
            "{name}: {omitted} more {what} (not shown: --max-diagnostics sets how many are)"
        )?;
    }
    Ok(())
}
