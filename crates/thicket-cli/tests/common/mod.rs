//! Helpers shared by the command-line tests: the fixtures directory and a run of `thicket`
//! rendered as one text (exit status, stdout, stderr) for snapshots.

#![allow(dead_code)] // Each test crate uses a part.

use std::path::{Path, PathBuf};

pub fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

/// Runs `thicket args` in `tests/data` (with `stdin` when given) and returns one text with the
/// exit status, stdout and stderr.
pub fn run(args: &[&str], stdin: Option<&[u8]>) -> String {
    let mut cmd = assert_cmd::cargo::cargo_bin_cmd!("thicket");
    cmd.current_dir(data()).args(args).env_remove("NO_COLOR");
    if let Some(input) = stdin {
        cmd.write_stdin(input.to_vec());
    }
    let output = cmd.output().expect("thicket runs");
    let code = output
        .status
        .code()
        .map_or("signal".to_owned(), |c| c.to_string());
    format!(
        "$ thicket {}\nexit: {code}\n--- stdout\n{}--- stderr\n{}",
        args.join(" "),
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

/// Runs `thicket args` in `dir` (with `stdin` when given) and returns its raw output.
pub fn output(dir: &Path, args: &[&str], stdin: Option<&[u8]>) -> std::process::Output {
    let mut cmd = assert_cmd::cargo::cargo_bin_cmd!("thicket");
    cmd.current_dir(dir).args(args).env_remove("NO_COLOR");
    if let Some(input) = stdin {
        cmd.write_stdin(input.to_vec());
    }
    cmd.output().expect("thicket runs")
}
