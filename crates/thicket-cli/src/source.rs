//! Where a document comes from: a file or standard input, read in chunks with an optional
//! progress bar, or whole.

use std::fs::File;
use std::io::{self, IsTerminal, Read};
use std::path::Path;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Size of the chunks read from the input.
pub const CHUNK: usize = 64 * 1024;

/// From this size on, a progress bar is drawn (when stderr is a terminal).
pub const PROGRESS_FROM: u64 = 64 * 1024 * 1024;

/// An opened input.
pub struct Source {
    /// The name shown in diagnostics: the path, or `<stdin>`.
    pub name: String,
    reader: Box<dyn Read + Send>,
    /// The size when known (files).
    pub len: Option<u64>,
    progress: Option<ProgressBar>,
    /// The error a [`SourceReader`] met, kept so that it is reported as a read error.
    read_error: Option<io::Error>,
    /// Bytes per chunk.
    chunk: usize,
}

impl std::fmt::Debug for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Source")
            .field("name", &self.name)
            .field("len", &self.len)
            .field("chunk", &self.chunk)
            .finish_non_exhaustive()
    }
}

/// Why an input could not be read, in words a person understands.
#[derive(Debug)]
pub struct OpenError {
    /// The path as given.
    pub name: String,
    /// The underlying error.
    pub error: io::Error,
}

impl std::fmt::Display for OpenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot read `{}`: {}", self.name, describe(&self.error))
    }
}

/// A short description of an I/O error without the OS error number.
pub fn describe(error: &io::Error) -> String {
    match error.kind() {
        io::ErrorKind::NotFound => "no such file".to_owned(),
        io::ErrorKind::PermissionDenied => "permission denied".to_owned(),
        io::ErrorKind::IsADirectory => "it is a directory".to_owned(),
        _ => {
            let text = error.to_string();
            match text.find(" (os error") {
                Some(i) => text[..i].to_owned(),
                None => text,
            }
        }
    }
}

impl Source {
    /// Opens `path`, or standard input for `-`.
    pub fn open(path: &str) -> Result<Source, OpenError> {
        if path == "-" {
            if stdin_is_closed() {
                return Err(OpenError {
                    name: "<stdin>".to_owned(),
                    error: io::Error::other("standard input is closed"),
                });
            }
            return Ok(Source {
                name: "<stdin>".to_owned(),
                reader: Box::new(io::stdin()),
                len: None,
                progress: None,
                read_error: None,
                chunk: CHUNK,
            });
        }
        let fail = |error| OpenError {
            name: path.to_owned(),
            error,
        };
        let file = File::open(Path::new(path)).map_err(fail)?;
        let meta = file.metadata().map_err(fail)?;
        if meta.is_dir() {
            return Err(fail(io::Error::from(io::ErrorKind::IsADirectory)));
        }
        Ok(Source {
            name: path.to_owned(),
            reader: Box::new(file),
            len: Some(meta.len()),
            progress: None,
            read_error: None,
            chunk: CHUNK,
        })
    }

    /// A source reading from `reader` (a document in memory, for instance), named `name` in
    /// messages.
    pub fn from_reader(name: &str, reader: Box<dyn Read + Send>) -> Source {
        Source {
            name: name.to_owned(),
            reader,
            len: None,
            progress: None,
            read_error: None,
            chunk: CHUNK,
        }
    }

    /// Reads chunks of `bytes` (at least 1 KiB, so that the first holds the XML declaration
    /// the encoding is found in) instead of [`CHUNK`].
    pub fn with_chunk_size(mut self, bytes: usize) -> Source {
        self.chunk = bytes.max(1024);
        self
    }

    /// Draws a progress bar on stderr while reading, when stderr is a terminal and the input is
    /// large.
    pub fn with_progress(mut self) -> Source {
        if let Some(len) = self.len
            && len >= PROGRESS_FROM
            && io::stderr().is_terminal()
        {
            let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
            if let Ok(style) = ProgressStyle::with_template(
                "{msg} [{bar:40}] {bytes}/{total_bytes} ({bytes_per_sec}, {eta})",
            ) {
                bar.set_style(style.progress_chars("=> "));
            }
            bar.set_message(self.name.clone());
            self.progress = Some(bar);
        }
        self
    }

    /// Reads the next chunk into `buf` (cleared first), filling it up to [`CHUNK`] bytes (or the
    /// size set with [`Source::with_chunk_size`]) unless the input ends. Returns false at the
    /// end of the input.
    pub fn next_chunk(&mut self, buf: &mut Vec<u8>) -> Result<bool, OpenError> {
        let chunk = self.chunk;
        buf.clear();
        buf.resize(chunk, 0);
        let mut filled = 0;
        while filled < chunk {
            match self.reader.read(&mut buf[filled..]) {
                Ok(0) => break,
                Ok(n) => filled += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(error) => {
                    return Err(OpenError {
                        name: self.name.clone(),
                        error,
                    });
                }
            }
        }
        buf.truncate(filled);
        if let Some(bar) = &self.progress {
            bar.inc(filled as u64);
        }
        Ok(filled > 0)
    }

    /// Reads everything that is left.
    pub fn read_all(mut self) -> Result<Vec<u8>, OpenError> {
        let mut all = Vec::with_capacity(self.len.map_or(0, |l| l as usize));
        let mut buf = Vec::new();
        while self.next_chunk(&mut buf)? {
            all.extend_from_slice(&buf);
        }
        self.done();
        Ok(all)
    }

    /// Removes the progress bar.
    pub fn done(&mut self) {
        if let Some(bar) = self.progress.take() {
            bar.finish_and_clear();
        }
    }

    /// The source as a reader (for LeafXML, which reads its own chunks). An error it returns
    /// is also kept for [`Source::take_read_error`].
    pub fn reader(&mut self) -> SourceReader<'_> {
        SourceReader { source: self }
    }

    /// The error the [`reader`](Self::reader) met, if any: whoever consumed the reader (and
    /// may have turned the error into something else) reports it as a read error.
    pub fn take_read_error(&mut self) -> Option<OpenError> {
        self.read_error.take().map(|error| OpenError {
            name: self.name.clone(),
            error,
        })
    }
}

/// Whether standard input is closed (`thicket parse - <&-`). Rust's runtime opens `/dev/null`
/// read-write in place of a closed standard stream, where a redirection from `/dev/null` opens
/// it read-only; so a read-write `/dev/null` (or no descriptor at all) is a closed input. Linux
/// only (it reads `/proc`); elsewhere a closed standard input reads as empty.
fn stdin_is_closed() -> bool {
    if !cfg!(target_os = "linux") || !Path::new("/proc/self/fd").is_dir() {
        return false;
    }
    let Ok(target) = std::fs::read_link("/proc/self/fd/0") else {
        return true;
    };
    if target != Path::new("/dev/null") {
        return false;
    }
    std::fs::read_to_string("/proc/self/fdinfo/0").is_ok_and(|info| {
        info.lines()
            .find_map(|l| l.strip_prefix("flags:"))
            .and_then(|flags| u32::from_str_radix(flags.trim(), 8).ok())
            .is_some_and(|flags| flags & 0o3 == 0o2)
    })
}

impl Drop for Source {
    fn drop(&mut self) {
        self.done();
    }
}

/// A [`Read`] over a [`Source`] that advances its progress bar.
pub struct SourceReader<'a> {
    source: &'a mut Source,
}

impl Read for SourceReader<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = match self.source.reader.read(buf) {
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => return Err(e),
            Err(e) => {
                let kept = io::Error::new(e.kind(), e.to_string());
                self.source.read_error = Some(kept);
                return Err(e);
            }
        };
        if let Some(bar) = &self.source.progress {
            bar.inc(n as u64);
        }
        Ok(n)
    }
}
