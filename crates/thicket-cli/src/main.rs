//! The `thicket` command line (not written yet).

fn main() {
    eprintln!("thicket: the command line is not written yet");
    std::process::exit(2);
}
