//! Bytes in, bytes out for the ASCII-compatible legacy encodings (docs/rewrite.md,
//! "Encodings").
//!
//! The rewriter's core works on decoded text: its source buffer, token spans and pending output
//! are offsets into the UTF-8 text the tokenizers read. With a legacy encoding the output must
//! hold the input's own bytes wherever no handler acted (a byte that decodes to U+FFFD too), so
//! [`Legacy`] keeps the source bytes beside the text and maps each decoded offset the output
//! needs (the ends of the source ranges written out) back to a source byte offset:
//!
//! - **The maps.** Offsets are asked for in document order (the output is the source in order,
//!   with edits), so each map (the output's, the spans handlers see, the diagnostics') holds
//!   one position, a decoded offset and the byte offset it came from, that moves forward only.
//!   Single-byte encodings record, as they decode, the runs of the input that hold bytes past
//!   ASCII (a run goes on over ASCII gaps shorter than 64 bytes, so there is at most one run
//!   for every 64 bytes); outside them each byte is its own character and a map moves by
//!   arithmetic, inside one it steps with a table of the UTF-8 length of each byte's
//!   character. The decoding goes by 4 KiB blocks, and a block whose text is as long as its
//!   bytes is all ASCII (every other byte decodes to two or three) and is not looked through.
//!   Multi-byte encodings (Shift_JIS, EUC-JP, EUC-KR, GBK, gb18030, Big5) feed the bytes one
//!   at a time to a second `encoding_rs` decoder and count what comes out; while it is known
//!   to be between characters, ASCII bytes step without it (in every such encoding an ASCII
//!   byte in that state is its own character and leaves it there). Work: linear in the
//!   input, whatever the chunks or the queries.
//! - **Source copied as text.** Source a rebuilt tag copies is pushed as text where its bytes
//!   are its text (outside every run of a single-byte encoding); elsewhere it is marked and
//!   written from the bytes. Short output is gathered into one write per drain.
//! - **Where a sequence gives several characters at once** (a malformed lead byte and the ASCII
//!   byte after it give U+FFFD and that character; a few Big5 codes give two characters), an
//!   offset before the ASCII character maps to that byte; any other offset inside maps to the
//!   end of the bytes. The map is a function of the bytes alone, monotone, so ranges that tile
//!   the text map to byte ranges that tile the input: the output does not depend on the chunks.
//! - **Memory.** Bytes are kept from the first offset still wanted on (what the core holds for
//!   output, compacted with it), and the runs over them; a multi-byte map holds a decoder's
//!   state. No table per character.
//! - **Inserted text** (and attribute values, renamed names) is encoded with `encoding_rs`'s
//!   encoder, which writes a character the encoding cannot hold as a decimal numeric character
//!   reference (`&#NNNN;`).

use encoding_rs::{CoderResult, Decoder, Encoding};

use crate::core::Src;
use crate::rewriter::Settings;

impl<'h> Settings<'h> {
    /// The encoding of byte input that says nothing about its own (no BOM; HTML: no `<meta>`
    /// charset in the first 1024 bytes; XML5: no declared encoding); UTF-8 if not set. Any
    /// ASCII-compatible encoding `encoding_rs` knows is rewritten bytes in, bytes out
    /// (docs/rewrite.md, "Encodings"). HTML and XML5 only: MicroXML and LeafXML documents are
    /// UTF-8 (a BOM, else UTF-8), as their crates read them.
    ///
    /// ```
    /// use thicket_rewrite::{Dialect, Rewriter, Settings, encoding_rs::WINDOWS_1252};
    /// let settings = Settings::new()
    ///     .default_encoding(WINDOWS_1252)
    ///     .on_element("p", |p| p.set_attribute("title", "\u{e9}\u{65e5}"))
    ///     .unwrap();
    /// let mut out = Vec::new();
    /// let mut r = Rewriter::new(Dialect::Html, settings, |b: &[u8]| out.extend_from_slice(b));
    /// r.feed(b"<p>caf\xE9</p>").unwrap();
    /// r.finish().unwrap();
    /// assert_eq!(out, b"<p title=\"\xE9&#26085;\">caf\xE9</p>");
    /// ```
    pub fn default_encoding(mut self, encoding: &'static Encoding) -> Settings<'h> {
        self.handlers.modes.encoding = Some(encoding);
        self
    }
}

/// The bytes side of a rewrite in a legacy encoding.
pub(crate) struct Legacy {
    encoding: &'static Encoding,
    /// The source bytes from absolute offset `base` on.
    bytes: Vec<u8>,
    base: usize,
    /// The decoding and the maps from decoded offsets to byte offsets.
    maps: Maps,
    /// Source ranges (decoded offsets) written out after `out[..at]`: `(at, from, to)`.
    marks: Vec<(usize, usize, usize)>,
    /// One drain's output gathered for one write (inserted text encoded, short source
    /// ranges), reused.
    scratch: Vec<u8>,
}

impl std::fmt::Debug for Legacy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Legacy")
            .field("encoding", &self.encoding.name())
            .field("base", &self.base)
            .field("held", &self.bytes.len())
            .finish_non_exhaustive()
    }
}

/// Which map: the output's, the spans handlers see, the rewriter's diagnostics'.
#[derive(Clone, Copy)]
enum Which {
    Output,
    Spans,
    Diagnostics,
}

/// The decoding and the three maps, by kind of encoding.
enum Maps {
    Single(Box<Single>),
    Multi(Box<Multi>),
}

/// A single-byte encoding: the stretches that hold bytes past ASCII are recorded as the
/// input is decoded. Outside them every byte is its own character, so a map crosses them by
/// arithmetic and steps through the bytes only inside one.
struct Single {
    /// Decodes the input for the tokenizer (unmapped bytes become U+FFFD).
    decoder: Decoder,
    /// The UTF-8 length of each byte's character.
    lengths: [u8; 256],
    /// The stretches holding the bytes past ASCII, in order (absolute offsets).
    runs: std::collections::VecDeque<Run>,
    /// How many runs were dropped from the front (cursors count runs from the first).
    dropped: usize,
    /// The length of the text decoded so far.
    decoded: usize,
    maps: [Cursor; 3],
}

/// A stretch of the input holding bytes past ASCII (and the short ASCII gaps between them,
/// so that there are at most one for every [`GAP`] bytes): text `d0..d1` from bytes
/// `b0..b1`.
#[derive(Clone, Copy, Debug)]
struct Run {
    d0: usize,
    b0: usize,
    d1: usize,
    b1: usize,
}

/// ASCII gaps shorter than this join the runs on either side.
const GAP: usize = 64;

/// The blocks a single-byte input is decoded in (each checked for bytes past ASCII).
const BLOCK: usize = 4096;

/// Where a single-byte map has reached: decoded offset `d` comes from byte offset `b`; `run`
/// is the first run not left behind (counted from the first run ever).
#[derive(Clone, Copy, Debug, Default)]
struct Cursor {
    d: usize,
    b: usize,
    run: usize,
}

/// A multi-byte encoding: `encoding_rs` decodes, and each map steps through the bytes.
struct Multi {
    /// Decodes the input for the tokenizer (lossy: malformed bytes become U+FFFD).
    decoder: Decoder,
    maps: [Walker; 3],
}

/// The position a multi-byte map has reached: decoded offset `d` comes from byte offset `b`.
struct Walker {
    d: usize,
    b: usize,
    /// The decoder the bytes are stepped through.
    decoder: Decoder,
    /// True when that decoder is between characters (nothing pending).
    ground: bool,
    /// The last group of characters one byte completed: text `gd..d` from bytes `gb..b`, and
    /// whether its last character is the ASCII byte at `b - 1`.
    gd: usize,
    gb: usize,
    ascii_tail: bool,
    /// Where the sequence the decoder holds started (after the last character out).
    seq: usize,
    out: String,
}

/// Whether `encoding` can be rewritten bytes in, bytes out: ASCII-compatible and stateless
/// (not UTF-16, ISO-2022-JP or the replacement encoding).
pub(crate) fn supported(encoding: &'static Encoding) -> bool {
    encoding.is_ascii_compatible() && encoding != encoding_rs::ISO_2022_JP
}

/// A source range longer than this is written by itself rather than gathered.
const GATHER: usize = 512;

impl Legacy {
    pub(crate) fn new(encoding: &'static Encoding) -> Legacy {
        let maps = if encoding.is_single_byte() {
            Maps::Single(Box::new(Single {
                decoder: encoding.new_decoder_without_bom_handling(),
                lengths: single_byte_lengths(encoding),
                runs: std::collections::VecDeque::new(),
                dropped: 0,
                decoded: 0,
                maps: [Cursor::default(); 3],
            }))
        } else {
            Maps::Multi(Box::new(Multi {
                decoder: encoding.new_decoder_without_bom_handling(),
                maps: [
                    Walker::new(encoding),
                    Walker::new(encoding),
                    Walker::new(encoding),
                ],
            }))
        };
        Legacy {
            encoding,
            bytes: Vec::new(),
            base: 0,
            maps,
            marks: Vec::new(),
            scratch: Vec::new(),
        }
    }

    /// The document's encoding.
    pub(crate) fn encoding(&self) -> &'static Encoding {
        self.encoding
    }

    /// Keeps `bytes` and decodes them onto `text`.
    pub(crate) fn feed(&mut self, bytes: &[u8], text: &mut String) {
        let at = self.base + self.bytes.len();
        match &mut self.maps {
            Maps::Single(s) => s.decode(bytes, at, text),
            Maps::Multi(m) => decode(&mut m.decoder, bytes, text, false),
        }
        self.bytes.extend_from_slice(bytes);
    }

    /// The text of `bytes` with no decoding, when the encoding is a single-byte one and they
    /// are all ASCII (then they are their own UTF-8, and a single-byte decoder holds no state
    /// between them): recorded as [`feed`](Self::feed) records them. `None` otherwise.
    pub(crate) fn feed_ascii<'b>(&mut self, bytes: &'b [u8]) -> Option<&'b str> {
        let Maps::Single(s) = &mut self.maps else {
            return None;
        };
        if !bytes.is_ascii() {
            return None;
        }
        let text = std::str::from_utf8(bytes).ok()?;
        s.decoded += bytes.len();
        self.bytes.extend_from_slice(bytes);
        Some(text)
    }

    /// The end of the input: an incomplete sequence at the end becomes U+FFFD.
    pub(crate) fn finish(&mut self, text: &mut String) {
        if let Maps::Multi(m) = &mut self.maps {
            decode(&mut m.decoder, &[], text, true);
        }
    }

    /// The source byte offset of decoded offset `d` by map `which` (each map is asked in
    /// order: an offset before one asked already gives where that map is).
    fn map_by(&mut self, which: Which, d: usize) -> usize {
        match &mut self.maps {
            Maps::Single(s) => s.map(which as usize, &self.bytes, self.base, d),
            Maps::Multi(m) => m.maps[which as usize].map(&self.bytes, self.base, d),
        }
    }

    /// The source byte offset of decoded offset `d`, for the output (not before an offset
    /// asked for already).
    pub(crate) fn map(&mut self, d: usize) -> usize {
        self.map_by(Which::Output, d)
    }

    /// A span handlers see, as source byte offsets (spans in input order).
    pub(crate) fn span(&mut self, span: thicket_input::Span) -> thicket_input::Span {
        let start = self.map_by(Which::Spans, span.start);
        let end = self.map_by(Which::Spans, span.end);
        thicket_input::Span::new(start, end)
    }

    /// A diagnostic's span as source byte offsets (diagnostics in input order).
    pub(crate) fn diagnostic_span(&mut self, span: thicket_input::Span) -> thicket_input::Span {
        let start = self.map_by(Which::Diagnostics, span.start);
        let end = self.map_by(Which::Diagnostics, span.end);
        thicket_input::Span::new(start, end)
    }

    /// Whether the source range `from..to` (decoded offsets) is its own bytes: ASCII in a
    /// single-byte encoding, outside every run (the caller may then copy the text itself).
    pub(crate) fn same_as_text(&self, from: usize, to: usize) -> bool {
        match &self.maps {
            Maps::Single(s) => match (s.runs.front(), s.runs.back()) {
                // Past the last run or before the first (the usual case): no search.
                (Some(first), Some(last)) if from < last.d1 && to > first.d0 => {
                    let next = s.runs.partition_point(|r| r.d1 <= from);
                    s.runs.get(next).is_none_or(|r| r.d0 >= to)
                }
                _ => true,
            },
            Maps::Multi(_) => false,
        }
    }

    /// Source `span` (decoded offsets, its text in `src`) copied onto `out`: the text where the
    /// bytes are the text, else a mark.
    pub(crate) fn copy(&mut self, out: &mut String, span: thicket_input::Span, src: Src<'_>) {
        if self.same_as_text(span.start, span.end) {
            out.push_str(src.get(span));
        } else {
            self.mark(out.len(), span.start, span.end);
        }
    }

    /// Records that the source range `from..to` (decoded offsets) follows `out[..at]`.
    pub(crate) fn mark(&mut self, at: usize, from: usize, to: usize) {
        self.marks.push((at, from, to));
    }

    /// Writes `out` (inserted text, encoded) with the marked source ranges among it, then the
    /// source range `pending` (decoded offsets), and empties `out` and the marks. What is
    /// short is gathered into one write; a long source range is written from the held bytes.
    pub(crate) fn drain<E>(
        &mut self,
        out: &mut String,
        pending: (usize, usize),
        write: &mut impl FnMut(&[u8]) -> Result<(), E>,
    ) -> Result<(), E> {
        let mut r = Ok(());
        let mut done = 0;
        let marks = std::mem::take(&mut self.marks);
        let mut buf = std::mem::take(&mut self.scratch);
        buf.clear();
        for &(at, from, to) in &marks {
            encode(self.encoding, &out[done..at], &mut buf);
            done = at;
            let (from, to) = (self.map(from), self.map(to));
            if from >= to {
                continue;
            }
            let source = &self.bytes[from - self.base..to - self.base];
            if source.len() <= GATHER {
                buf.extend_from_slice(source);
                continue;
            }
            if !buf.is_empty() {
                r = write(&buf);
                buf.clear();
            }
            if r.is_ok() {
                r = write(source);
            }
            if r.is_err() {
                break;
            }
        }
        if r.is_ok() {
            encode(self.encoding, &out[done..], &mut buf);
            if !buf.is_empty() {
                r = write(&buf);
            }
        }
        out.clear();
        self.marks = marks;
        self.marks.clear();
        self.scratch = buf;
        if r.is_ok() && pending.0 < pending.1 {
            let (from, to) = (self.map(pending.0), self.map(pending.1));
            if from < to {
                r = write(&self.bytes[from - self.base..to - self.base]);
            }
        }
        r
    }

    /// Drops the bytes before decoded offset `keep` (nothing before it is asked for again)
    /// and before every map's position (the output's may be past `keep`: source copied into a
    /// rebuilt tag is marked ahead of the pending range).
    pub(crate) fn compact(&mut self, keep: usize) {
        let cut = match &mut self.maps {
            Maps::Single(s) => s.compact(&self.bytes, self.base, keep),
            Maps::Multi(m) => m.compact(&self.bytes, self.base, keep, self.encoding),
        };
        let cut = cut.saturating_sub(self.base).min(self.bytes.len());
        // Only once the dead prefix is at least half of what is held: each drain then moves
        // no more bytes than it drops (amortized linear when the caller compacts often).
        if cut > 0 && cut * 2 >= self.bytes.len() {
            self.bytes.drain(..cut);
            self.base += cut;
        }
    }

    /// How many source bytes are held.
    #[cfg(test)]
    pub(crate) fn held(&self) -> usize {
        self.bytes.len()
    }
}

impl Single {
    /// Decodes `bytes` (from absolute offset `at`) onto `text`, recording the runs: a block
    /// that decodes to as many bytes as it has is all ASCII (every other byte decodes to two
    /// or three), and only the others are looked through.
    fn decode(&mut self, bytes: &[u8], at: usize, text: &mut String) {
        // Room for the bytes and a few past ASCII (two or three bytes each): more is made
        // only when a block needs it.
        text.reserve(bytes.len() + bytes.len() / 8 + 16);
        let mut done = 0;
        for block in bytes.chunks(BLOCK) {
            let before = text.len();
            let mut rest = block;
            loop {
                let (result, read, _) = self.decoder.decode_to_string(rest, text, false);
                rest = &rest[read..];
                if result == CoderResult::InputEmpty {
                    break;
                }
                text.reserve(rest.len() * 3);
            }
            let grew = text.len() - before;
            if grew != block.len() {
                self.record_runs(block, at + done, self.decoded);
            }
            self.decoded += grew;
            done += block.len();
        }
    }

    /// Records the runs of `bytes` (from absolute offset `at`, decoded from `d` on).
    fn record_runs(&mut self, bytes: &[u8], at: usize, mut d: usize) {
        let mut i = 0;
        while i < bytes.len() {
            let n = ascii_prefix(&bytes[i..]);
            i += n;
            d += n;
            if i == bytes.len() {
                break;
            }
            // A byte past ASCII: a run starts here, or the last one goes on over the gap.
            let b = at + i;
            match self.runs.back() {
                Some(last) if b - last.b1 < GAP => {}
                _ => self.runs.push_back(Run {
                    d0: d,
                    b0: b,
                    d1: d,
                    b1: b,
                }),
            }
            loop {
                while let Some(&byte) = bytes.get(i).filter(|&&b| b >= 0x80) {
                    d += usize::from(self.lengths[usize::from(byte)]);
                    i += 1;
                }
                let gap = ascii_prefix(&bytes[i..bytes.len().min(i + GAP)]);
                if gap == GAP || i + gap == bytes.len() {
                    break;
                }
                i += gap;
                d += gap;
            }
            if let Some(last) = self.runs.back_mut() {
                last.d1 = d;
                last.b1 = at + i;
            }
        }
    }

    /// Map `which`'s byte offset of decoded offset `d` (`bytes` from absolute `base`).
    fn map(&mut self, which: usize, bytes: &[u8], base: usize, d: usize) -> usize {
        let c = &mut self.maps[which];
        if d <= c.d {
            return c.b;
        }
        let end = base + bytes.len();
        loop {
            let Some(r) = self.runs.get(c.run - self.dropped) else {
                // Only ASCII ahead.
                c.b = (c.b + (d - c.d)).min(end);
                c.d = d;
                return c.b;
            };
            if d <= r.d0 {
                c.b += d - c.d;
                c.d = d;
                return c.b;
            }
            if c.d < r.d0 {
                c.d = r.d0;
                c.b = r.b0;
            }
            if d >= r.d1 {
                if c.d < r.d1 {
                    c.d = r.d1;
                    c.b = r.b1;
                }
                if c.run - self.dropped + 1 < self.runs.len() {
                    c.run += 1;
                    continue;
                }
                // Past the last run (which stays current: it may grow with the next feed).
                c.b = (c.b + (d - c.d)).min(end);
                c.d = d;
                return c.b;
            }
            // Inside the run: step, ASCII as far as it goes at a time.
            while c.d < d && c.b < end {
                let at = c.b - base;
                let room = (d - c.d).min(end - c.b);
                let n = ascii_prefix(&bytes[at..at + room]);
                c.d += n;
                c.b += n;
                if n == room {
                    continue;
                }
                c.d += usize::from(self.lengths[usize::from(bytes[c.b - base])]);
                c.b += 1;
            }
            return c.b;
        }
    }

    /// Brings every map to `keep` and lets go of the runs all have left behind: returns the
    /// first byte offset still wanted.
    fn compact(&mut self, bytes: &[u8], base: usize, keep: usize) -> usize {
        for which in 0..3 {
            self.map(which, bytes, base, keep);
        }
        let cut = self.maps.iter().map(|c| c.b).min().unwrap_or(0);
        while self.runs.front().is_some_and(|r| r.b1 <= cut) {
            self.runs.pop_front();
            self.dropped += 1;
        }
        for c in &mut self.maps {
            c.run = c.run.max(self.dropped);
        }
        cut
    }
}

impl Multi {
    /// Brings every map to `keep`: returns the first byte offset still wanted.
    fn compact(
        &mut self,
        bytes: &[u8],
        base: usize,
        keep: usize,
        encoding: &'static Encoding,
    ) -> usize {
        let [walker, spans, diagnostics] = &mut self.maps;
        walker.map(bytes, base, keep);
        for w in [spans, diagnostics] {
            // A map behind the output's jumps to it where it is between characters, rather
            // than step over the same bytes again.
            if w.d < walker.d && walker.d <= keep && walker.ground {
                w.jump_to(walker, encoding);
            }
        }
        let mut cut = usize::MAX;
        for w in &mut self.maps {
            // Each steps through the bytes from where it is: bring it along.
            w.map(bytes, base, keep);
            cut = cut.min(w.gb);
        }
        cut
    }
}

impl Walker {
    fn new(encoding: &'static Encoding) -> Walker {
        Walker {
            d: 0,
            b: 0,
            decoder: encoding.new_decoder_without_bom_handling(),
            ground: true,
            gd: 0,
            gb: 0,
            ascii_tail: false,
            seq: 0,
            out: String::new(),
        }
    }

    /// Takes `lead`'s position (where its decoder holds nothing: a new decoder is the same).
    fn jump_to(&mut self, lead: &Walker, encoding: &'static Encoding) {
        self.d = lead.d;
        self.b = lead.b;
        self.gd = lead.gd;
        self.gb = lead.gb;
        self.ascii_tail = lead.ascii_tail;
        self.seq = lead.seq;
        self.ground = true;
        self.decoder = encoding.new_decoder_without_bom_handling();
    }

    /// The source byte offset of decoded offset `d` (`bytes` from absolute offset `base`).
    fn map(&mut self, bytes: &[u8], base: usize, d: usize) -> usize {
        let w = self;
        if d < w.d {
            // Inside the last group of characters one byte completed.
            if w.ascii_tail && d == w.d - 1 {
                return w.b - 1;
            }
            return if d <= w.gd { w.gb } else { w.b };
        }
        let end = base + bytes.len();
        while w.d < d && w.b < end {
            let at = w.b - base;
            // Between characters, ASCII up to the next other byte (or as far as wanted) in
            // one step: each such byte is its own character.
            let n = if w.ground {
                ascii_prefix(&bytes[at..at + (d - w.d).min(end - w.b)])
            } else {
                0
            };
            if n > 0 {
                w.gd = w.d + n - 1;
                w.gb = w.b + n - 1;
                w.d += n;
                w.b += n;
                w.seq = w.b;
                w.ascii_tail = false;
                continue;
            }
            let byte = bytes[at];
            w.out.clear();
            decode(&mut w.decoder, &[byte], &mut w.out, false);
            w.b += 1;
            if w.out.is_empty() {
                w.ground = false;
                continue;
            }
            w.gd = w.d;
            w.gb = w.seq;
            w.seq = w.b;
            w.d += w.out.len();
            w.ascii_tail = byte < 0x80 && w.out.as_bytes().last() == Some(&byte);
            // After an ASCII byte that came out as itself the decoder is between characters
            // (a digit may be gb18030's second byte given back with more pending).
            w.ground = w.ascii_tail && !byte.is_ascii_digit();
        }
        if w.d < d {
            // Past the bytes: the U+FFFD an incomplete sequence gives at the end.
            return end;
        }
        if w.d > d {
            // Inside the group just completed.
            return if w.ascii_tail && d == w.d - 1 {
                w.b - 1
            } else {
                w.b
            };
        }
        w.b
    }
}

/// How many bytes `bytes` starts with that are ASCII: 32 at a time (the top bits of four
/// words at once), then one at a time.
fn ascii_prefix(bytes: &[u8]) -> usize {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let word = |b: &[u8]| u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]);
    let mut n = 0;
    while let Some(block) = bytes.get(n..n + 32) {
        let any =
            word(&block[..8]) | word(&block[8..16]) | word(&block[16..24]) | word(&block[24..]);
        if any & HIGH != 0 {
            break;
        }
        n += 32;
    }
    n + bytes[n..].iter().take_while(|&&b| b < 0x80).count()
}

/// The UTF-8 length of the character each byte of a single-byte encoding decodes to: the 128
/// bytes past ASCII decoded in one call (each is one character, U+FFFD where unmapped), ASCII
/// bytes themselves.
fn single_byte_lengths(encoding: &'static Encoding) -> [u8; 256] {
    let mut table = [1u8; 256];
    let high: Vec<u8> = (0x80..=0xFF).collect();
    let (text, _) = encoding.decode_without_bom_handling(&high);
    for (len, ch) in table[0x80..].iter_mut().zip(text.chars()) {
        *len = ch.len_utf8() as u8;
    }
    table
}

/// Decodes `bytes` lossily onto `text`.
fn decode(decoder: &mut Decoder, mut bytes: &[u8], text: &mut String, last: bool) {
    loop {
        let need = decoder
            .max_utf8_buffer_length(bytes.len())
            .unwrap_or(bytes.len() * 3 + 16);
        text.reserve(need);
        let (result, read, _) = decoder.decode_to_string(bytes, text, last);
        bytes = &bytes[read..];
        if result == CoderResult::InputEmpty {
            return;
        }
    }
}

/// Encodes `text` in `encoding` onto `out`, characters it cannot hold as decimal numeric
/// character references (`encoding_rs`'s replacement for HTML).
pub(crate) fn encode(encoding: &'static Encoding, text: &str, out: &mut Vec<u8>) {
    // ASCII is itself in every encoding rewritten (all ASCII-compatible).
    if text.is_ascii() {
        out.extend_from_slice(text.as_bytes());
        return;
    }
    let (bytes, _, _) = encoding.encode(text);
    out.extend_from_slice(&bytes);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mapped(encoding: &'static Encoding, bytes: &[u8]) -> Vec<(usize, usize)> {
        let mut l = Legacy::new(encoding);
        let mut text = String::new();
        l.feed(bytes, &mut text);
        l.finish(&mut text);
        (0..=text.len())
            .filter(|&d| text.is_char_boundary(d))
            .map(|d| (d, l.map(d)))
            .collect()
    }

    /// [`mapped`], fed in `step`-byte pieces, the ASCII ones through `feed_ascii`.
    fn mapped_ascii_pieces(
        encoding: &'static Encoding,
        bytes: &[u8],
        step: usize,
    ) -> Vec<(usize, usize)> {
        let mut l = Legacy::new(encoding);
        let mut text = String::new();
        for piece in bytes.chunks(step) {
            match l.feed_ascii(piece) {
                Some(ascii) => text.push_str(ascii),
                None => l.feed(piece, &mut text),
            }
        }
        l.finish(&mut text);
        (0..=text.len())
            .filter(|&d| text.is_char_boundary(d))
            .map(|d| (d, l.map(d)))
            .collect()
    }

    #[test]
    fn ascii_pieces_map_as_decoded_ones() {
        let mut doc = b"<p>caf\xe9</p>".repeat(3);
        doc.extend(b"<b>plain ascii here</b>".repeat(5));
        doc.extend(b"\xe9\xe8 end");
        let whole = mapped(encoding_rs::WINDOWS_1252, &doc);
        for step in [1, 2, 3, 7, 16, 40] {
            assert_eq!(
                mapped_ascii_pieces(encoding_rs::WINDOWS_1252, &doc, step),
                whole,
                "{step}"
            );
        }
        // A multi-byte encoding is always decoded (its decoder keeps state between pieces).
        let mut l = Legacy::new(encoding_rs::SHIFT_JIS);
        assert_eq!(l.feed_ascii(b"abc"), None);
        let mut w = Legacy::new(encoding_rs::WINDOWS_1252);
        assert_eq!(w.feed_ascii(b"ab\xe9"), None);
        assert_eq!(w.feed_ascii(b"abc"), Some("abc"));
    }

    #[test]
    fn single_byte_lengths_are_each_bytes_character() {
        // Every single-byte encoding encoding_rs knows: the table built from one decode of the
        // high half is the byte-by-byte decode.
        for label in [
            "windows-1252",
            "iso-8859-2",
            "iso-8859-5",
            "iso-8859-6",
            "iso-8859-7",
            "iso-8859-8",
            "iso-8859-10",
            "iso-8859-13",
            "iso-8859-16",
            "koi8-r",
            "koi8-u",
            "ibm866",
            "macintosh",
            "x-mac-cyrillic",
            "windows-874",
            "windows-1250",
            "windows-1253",
            "windows-1255",
            "windows-1258",
            "iso-8859-3",
            "iso-8859-4",
        ] {
            let encoding = Encoding::for_label(label.as_bytes()).expect("a label");
            assert!(encoding.is_single_byte(), "{label}");
            let table = single_byte_lengths(encoding);
            for byte in 0..=255u8 {
                let one = [byte];
                let (text, _) = encoding.decode_without_bom_handling(&one);
                assert_eq!(
                    usize::from(table[usize::from(byte)]),
                    text.len(),
                    "{label} {byte:#x}"
                );
            }
        }
    }

    #[test]
    fn ascii_prefix_stops_at_the_first_other_byte() {
        let mut bytes = vec![b'a'; 100];
        assert_eq!(ascii_prefix(&bytes), 100);
        for at in [0, 5, 31, 32, 33, 64, 99] {
            bytes[at] = 0xE9;
            assert_eq!(ascii_prefix(&bytes), at);
            bytes[at] = b'a';
        }
        assert_eq!(ascii_prefix(&[]), 0);
    }

    #[test]
    fn single_byte_offsets() {
        // `é` is one byte in windows-1252, two in UTF-8.
        let m = mapped(encoding_rs::WINDOWS_1252, b"a\xE9<b");
        assert_eq!(m, vec![(0, 0), (1, 1), (3, 2), (4, 3), (5, 4)]);
    }

    /// A windows-1252 input with ASCII stretches shorter and longer than a gap and a block,
    /// fed in chunks of every kind: each offset maps as stepping byte by byte does, and a
    /// range is its own text exactly where its bytes are ASCII.
    #[test]
    fn single_byte_runs_map_as_stepping_does() {
        let mut bytes = Vec::new();
        for (i, ascii) in [0, 3, 63, 64, 65, 200, 5000, 1, 9000, 2].iter().enumerate() {
            bytes.extend(std::iter::repeat_n(b'a' + i as u8, *ascii));
            bytes.extend_from_slice(&[0xE9, 0x80, 0x81][..1 + i % 3]);
        }
        bytes.extend_from_slice(b"<p>end");
        // The reference: decoded offset -> byte offset, at every character boundary.
        let lengths = single_byte_lengths(encoding_rs::WINDOWS_1252);
        let mut reference = vec![(0, 0)];
        let mut d = 0;
        for (b, &byte) in bytes.iter().enumerate() {
            d += usize::from(lengths[usize::from(byte)]);
            reference.push((d, b + 1));
        }
        for chunk in [1, 7, 64, 4095, 5000, bytes.len()] {
            let mut l = Legacy::new(encoding_rs::WINDOWS_1252);
            let mut text = String::new();
            for piece in bytes.chunks(chunk) {
                l.feed(piece, &mut text);
            }
            l.finish(&mut text);
            assert_eq!(text, encoding_rs::WINDOWS_1252.decode(&bytes).0, "{chunk}");
            for &(d, b) in &reference {
                assert_eq!(l.map(d), b, "chunk {chunk}, offset {d}");
            }
            // Only ASCII is its own text; ASCII 64 bytes or more from any other byte is.
            let mut own = 0;
            for w in reference.windows(40).step_by(13) {
                let ((from, fb), (to, tb)) = (w[0], w[w.len() - 1]);
                let around = &bytes[fb.saturating_sub(GAP)..(tb + GAP).min(bytes.len())];
                let same = l.same_as_text(from, to);
                assert!(
                    !same || bytes[fb..tb].is_ascii(),
                    "chunk {chunk}, {from}..{to}"
                );
                assert!(same || !around.is_ascii(), "chunk {chunk}, {from}..{to}");
                own += usize::from(same);
            }
            assert!(own > 1000, "{own}");
        }
    }

    /// A rebuilt tag copies its source as text only where the bytes are the text: an
    /// attribute past ASCII far from any other such byte, one near another, and a tag far
    /// from all of them each come out as their own bytes.
    #[test]
    #[cfg(feature = "html")]
    fn rebuilt_tags_copy_their_own_bytes() {
        let far = "x".repeat(200);
        let mut input = Vec::new();
        input.extend_from_slice(b"<a href=/x title=\xE9t\xE9>");
        input.extend_from_slice(far.as_bytes());
        input.extend_from_slice(b"<a href=/y>\xFC<a href=/z title=\xE0>");
        input.extend_from_slice(far.as_bytes());
        input.extend_from_slice(b"<a href=/w>");
        for chunk in [1, 3, 64, input.len()] {
            let settings = Settings::new()
                .default_encoding(encoding_rs::WINDOWS_1252)
                .on_element("a", |a| a.set_attribute("rel", "n"))
                .unwrap();
            let mut out = Vec::new();
            let mut r = crate::Rewriter::new(crate::Dialect::Html, settings, |b: &[u8]| {
                out.extend_from_slice(b)
            });
            for piece in input.chunks(chunk) {
                r.feed(piece).unwrap();
            }
            let _sink = r.finish().unwrap();
            let mut expected = Vec::new();
            expected.extend_from_slice(b"<a href=/x title=\xE9t\xE9 rel=\"n\">");
            expected.extend_from_slice(far.as_bytes());
            expected
                .extend_from_slice(b"<a href=/y rel=\"n\">\xFC<a href=/z title=\xE0 rel=\"n\">");
            expected.extend_from_slice(far.as_bytes());
            expected.extend_from_slice(b"<a href=/w rel=\"n\">");
            assert_eq!(out, expected, "chunks of {chunk}");
        }
    }

    /// Compaction lets go of the runs every map has left behind, and the maps go on.
    #[test]
    fn single_byte_compaction_drops_runs() {
        let mut l = Legacy::new(encoding_rs::WINDOWS_1252);
        let mut text = String::new();
        let unit = [&[0xE9][..], &[b'x'; 100][..]].concat();
        for _ in 0..50 {
            l.feed(&unit, &mut text);
        }
        let Maps::Single(s) = &l.maps else {
            unreachable!()
        };
        assert_eq!(s.runs.len(), 50);
        // Half way: the 25th unit's first character.
        let half = 25 * (unit.len() + 1);
        assert_eq!(
            l.span(thicket_input::Span::new(half, half)).start,
            25 * unit.len()
        );
        l.diagnostic_span(thicket_input::Span::new(half, half));
        l.compact(half);
        let Maps::Single(s) = &l.maps else {
            unreachable!()
        };
        assert_eq!(s.runs.len(), 25);
        assert_eq!(l.held(), 25 * unit.len());
        assert_eq!(l.map(text.len() - 100), 50 * unit.len() - 100);
        assert_eq!(l.map(text.len()), 50 * unit.len());
    }

    #[test]
    fn multi_byte_offsets() {
        // `日本` in Shift_JIS: two bytes each, three in UTF-8.
        let m = mapped(encoding_rs::SHIFT_JIS, b"<\x93\xFA\x96\x7B>");
        assert_eq!(m, vec![(0, 0), (1, 1), (4, 3), (7, 5), (8, 6)]);
    }

    #[test]
    fn malformed_lead_then_ascii() {
        // 0x81 then `<`: U+FFFD, then `<` itself.
        let m = mapped(encoding_rs::SHIFT_JIS, b"a\x81<b");
        assert_eq!(m, vec![(0, 0), (1, 1), (4, 2), (5, 3), (6, 4)]);
        // An incomplete sequence at the end.
        let m = mapped(encoding_rs::SHIFT_JIS, b"a\x81");
        assert_eq!(m, vec![(0, 0), (1, 1), (4, 2)]);
    }

    #[test]
    fn compaction_keeps_what_is_asked_for() {
        let mut l = Legacy::new(encoding_rs::EUC_JP);
        let mut text = String::new();
        let bytes = "<p>\u{65e5}\u{672c}</p>".repeat(100);
        let (encoded, _, _) = encoding_rs::EUC_JP.encode(&bytes);
        l.feed(&encoded, &mut text);
        assert_eq!(text, bytes);
        // A short dead prefix is kept (dropping it would move all the rest).
        l.compact(16);
        assert_eq!(l.held(), encoded.len());
        let most = text.len() * 3 / 5;
        l.compact(most);
        assert!(l.held() <= encoded.len() * 2 / 5 + 8);
        let mut out = Vec::new();
        l.drain::<()>(&mut String::new(), (most, text.len()), &mut |b| {
            out.extend_from_slice(b);
            Ok(())
        })
        .unwrap();
        assert_eq!(out, &encoded[encoded.len() * 3 / 5..]);
    }
}
