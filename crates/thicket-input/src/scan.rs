//! Scanning a run of bytes up to the next byte of a class: one searcher over three engines.
//!
//! A [`StopSet`] is a class of bytes built once (in a `const`) from the bytes where a run
//! *stops* and the bytes the caller wants to *check* (typically the UTF-8 lead bytes of
//! characters that may need a diagnostic, or a printable byte that is reported but does not end
//! the run). At construction it picks the engine that suits the class, as memchr's `Finder`
//! does:
//!
//! - [`Engine::Memchr`]: when the printable ASCII members, with tab, LF and form feed, are at
//!   most three, `memchr`/`memchr2`/`memchr3` finds them (a `\r` member fills a free needle slot),
//!   after the first [`SHORT`] bytes were tested a word at a time (most runs between two tags
//!   are shorter than a `memchr` call is worth). When at most [`MAX_EXTRAS`] other members are
//!   left (of any kind: `<&"` as needles with `>` and `\r` left over, say), a second `memchr`
//!   over the run the first one found looks for them. Otherwise every other member (controls,
//!   `\0`, DEL, bytes at or above 0x80) is found by a branch-free 16-byte block test over that
//!   run, and a table probe in a block that fails it.
//! - [`Engine::Swar`]: up to [`MAX_SWAR_PRINTABLE`] printable members: the first [`SWAR_PROBE`]
//!   bytes one by one (names are short; a set may test fewer: [`StopSet::swar_probe`]), then
//!   eight bytes at a time, the word-at-a-time test
//!   "all in printable ASCII minus these few" ([`StopSet::candidates`]) marking the lanes that
//!   may be members; only those are probed in the table.
//!
//! The word-at-a-time tests (the memchr engine's first bytes, the Swar engine's words) compare
//! each lane with every member when the class has at most [`MAX_EXACT`] members, so tab, LF
//! and non-ASCII text are not probed at all; larger classes use the "printable minus a few"
//! test.
//! - [`Engine::Table`]: anything larger: one table probe per byte.
//!
//! Every engine answers exactly what the table says; they differ only in speed (the tests check
//! all three against a plain loop on every class they build, and `cargo bench -p thicket-input
//! --bench scan` measures them).
//!
//! A dialect that folds newlines puts `\r` in every stop set (and `\0` where it replaces NULL), so
//! a fast run never swallows a byte the states must see: the run ends there and the cursor's
//! [`peek`](crate::cursor::Cursor::peek) folds it.
//!
//! [`StopSet::run`] continues past check bytes when the caller's closure says so, in one pass:
//! the engines never search the same bytes twice, so a run with many check bytes (Japanese text
//! with full-width punctuation, whose lead byte `EF` is also that of the noncharacters) stays
//! linear.

/// Byte class: part of the run.
const RUN: u8 = 0;
/// Byte class: ends the run.
const STOP: u8 = 1;
/// Byte class: the caller looks at it and says whether the run goes on.
const CHECK: u8 = 2;

/// How many bytes the memchr engine tests a word at a time before calling memchr.
pub const SHORT: usize = 64;

/// How many bytes the word-at-a-time engine probes one by one before testing words.
pub const SWAR_PROBE: usize = 16;

/// The most printable ASCII members for which [`Engine::Swar`] is chosen.
pub const MAX_SWAR_PRINTABLE: usize = 4;

/// Bytes of one block of the memchr engine's check of the run it found.
const BLOCK: usize = 16;

/// The most members left over from the memchr engine's needles that a second `memchr` over
/// the run finds (instead of the block test).
pub const MAX_EXTRAS: usize = 2;

/// The most members for which the word tests compare lanes with each member.
pub const MAX_EXACT: usize = 5;

const LO: u64 = 0x0101_0101_0101_0101;
const HI: u64 = 0x8080_8080_8080_8080;

/// How a [`StopSet`] searches. Chosen by the constructors (see the module docs); a caller may
/// force one with [`StopSet::with_engine`], for measurements.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Engine {
    /// memchr for up to three needles, a block test for the other members.
    Memchr,
    /// Eight bytes at a time: printable ASCII minus a few.
    Swar,
    /// One table probe per byte.
    Table,
}

/// A class of bytes where a run stops (or that the caller checks), with the engine that finds
/// them fastest. Build it in a `const` or `static`:
///
/// ```
/// use thicket_input::scan::{Engine, StopSet};
/// // HTML's data state: `<`, `&`, and the bytes every state folds or replaces.
/// static DATA: StopSet = StopSet::new(b"<&\r\0");
/// assert_eq!(DATA.engine(), Engine::Memchr);
/// let text = b"plain text & more";
/// assert_eq!(DATA.find(text, 0), 11);
/// assert_eq!(DATA.find(b"no stop", 0), 7);
/// ```
#[derive(Clone, Debug)]
pub struct StopSet {
    class: [u8; 256],
    engine: Engine,
    /// The memchr engine's needles (the first `needle_count`).
    needles: [u8; 3],
    needle_count: u8,
    /// Memchr engine: there are members the needles do not cover.
    verify: bool,
    /// Memchr engine: some member is at or above 0x80 (else the block test lets them pass).
    verify_high: bool,
    /// Memchr engine: the members the needles do not cover, when there are at most
    /// [`MAX_EXTRAS`] (the first `extra_count`); found by a second `memchr` over the run.
    extras: [u8; MAX_EXTRAS],
    extra_count: u8,
    /// Every member, repeated across a word (the first `exact_count`, the rest copies of the
    /// first), when there are at most [`MAX_EXACT`]; `exact_count` is 0 otherwise.
    exact: [u64; MAX_EXACT],
    exact_count: u8,
    /// Swar engine: the printable ASCII members (the first `printable_count`).
    printable: [u8; MAX_SWAR_PRINTABLE],
    printable_count: u8,
    /// Whether the class fits each engine.
    fits_memchr: bool,
    fits_swar: bool,
    /// Bytes tested one by one before the engine starts ([`StopSet::probe`]).
    probe: u8,
    /// Swar engine: bytes tested one by one before the words ([`StopSet::swar_probe`]).
    swar_probe: u8,
}

impl StopSet {
    /// A class that stops at each of `stops`.
    pub const fn new(stops: &[u8]) -> StopSet {
        let set = StopSet {
            class: [RUN; 256],
            engine: Engine::Table,
            needles: [0; 3],
            needle_count: 0,
            verify: false,
            verify_high: false,
            extras: [0; MAX_EXTRAS],
            extra_count: 0,
            exact: [0; MAX_EXACT],
            exact_count: 0,
            printable: [0; MAX_SWAR_PRINTABLE],
            printable_count: 0,
            fits_memchr: true,
            fits_swar: true,
            probe: 0,
            swar_probe: SWAR_PROBE as u8,
        };
        set.mark(stops, STOP)
    }

    /// Adds the bytes `lo..=hi` as stops.
    pub const fn stop_range(self, lo: u8, hi: u8) -> StopSet {
        self.mark_range(lo, hi, STOP)
    }

    /// Adds each of `bytes` as a stop (a class built from several lists: a dialect's own stops
    /// and a class from `thicket-names`).
    pub const fn stop(self, bytes: &[u8]) -> StopSet {
        self.mark(bytes, STOP)
    }

    /// Adds `bytes` as check bytes: [`find`](StopSet::find) stops at them like at stops, and
    /// [`run`](StopSet::run) asks its closure whether the run goes on. A byte already a stop
    /// becomes a check byte.
    pub const fn check(self, bytes: &[u8]) -> StopSet {
        self.mark(bytes, CHECK)
    }

    /// Adds the bytes `lo..=hi` as check bytes (see [`StopSet::check`]).
    pub const fn check_range(self, lo: u8, hi: u8) -> StopSet {
        self.mark_range(lo, hi, CHECK)
    }

    /// Puts each of `bytes` in `class` (a stop or a check byte), then chooses the engine.
    const fn mark(mut self, bytes: &[u8], class: u8) -> StopSet {
        let mut i = 0;
        while i < bytes.len() {
            self.class[bytes[i] as usize] = class;
            i += 1;
        }
        self.choose()
    }

    /// Puts the bytes `lo..=hi` in `class`, then chooses the engine.
    const fn mark_range(mut self, lo: u8, hi: u8, class: u8) -> StopSet {
        let mut b = lo as usize;
        while b <= hi as usize {
            self.class[b] = class;
            b += 1;
        }
        self.choose()
    }

    /// Adds as check bytes every byte whose entry in `table` is true: a class defined once
    /// elsewhere as a byte table (thicket-names' `microxml2012::FORBIDDEN_LEADS`, say), scanned
    /// here without writing it again.
    pub const fn check_table(mut self, table: &[bool; 256]) -> StopSet {
        let mut b = 0;
        while b < 256 {
            if table[b] {
                self.class[b] = CHECK;
            }
            b += 1;
        }
        self.choose()
    }

    /// The same class, searched with `engine` (for measurements; the constructors choose well).
    /// An engine that cannot search this class (memchr for more than three needles, the word
    /// test for more than [`MAX_SWAR_PRINTABLE`] printable members) is not taken.
    pub const fn with_engine(mut self, engine: Engine) -> StopSet {
        self = self.choose();
        let fits = match engine {
            Engine::Memchr => self.fits_memchr,
            Engine::Swar => self.fits_swar,
            Engine::Table => true,
        };
        if fits {
            self.engine = engine;
        }
        self
    }

    /// Tests the first `bytes` of every run one by one, with the table, before the engine
    /// starts: for a class whose runs are mostly shorter than a word or two (the text between
    /// two tags, where a table probe per byte costs less than setting up a word test or
    /// `memchr`). The memchr engine then calls `memchr` at once (the probe replaces its word
    /// test of the first [`SHORT`] bytes). Off (0) by default; at most 255.
    ///
    /// ```
    /// use thicket_input::scan::StopSet;
    /// static TEXT: StopSet = StopSet::new(b"<&\r\0").probe(16);
    /// assert_eq!(TEXT.find(b"ab<", 0), 2);
    /// assert_eq!(TEXT.find(&[b'x'; 100], 0), 100);
    /// ```
    pub const fn probe(mut self, bytes: u8) -> StopSet {
        self.probe = bytes;
        self
    }

    /// How many bytes of a run the word-at-a-time engine ([`Engine::Swar`]) tests one by one
    /// before it tests words: [`SWAR_PROBE`] by default; fewer (0: words at once) for a class
    /// whose runs are mostly a few bytes long but seldom one or two (the attribute names of
    /// data-heavy XML), where one word test finds the stop that a probe reaches only after a
    /// table test per byte. The same answer either way.
    ///
    /// ```
    /// use thicket_input::scan::{Engine, StopSet};
    /// static NAME: StopSet = StopSet::new(b"\t\n =>/").swar_probe(0);
    /// assert_eq!(NAME.engine(), Engine::Swar);
    /// assert_eq!(NAME.find(b"position=\"RF\"", 0), 8);
    /// assert_eq!(NAME.find(b"id", 0), 2);
    /// ```
    pub const fn swar_probe(mut self, bytes: u8) -> StopSet {
        self.swar_probe = bytes;
        self
    }

    /// The engine in use.
    pub const fn engine(&self) -> Engine {
        self.engine
    }

    /// True when `b` is a stop byte.
    #[inline(always)]
    pub const fn is_stop(&self, b: u8) -> bool {
        self.class[b as usize] == STOP
    }

    /// True when `b` is a check byte.
    #[inline(always)]
    pub const fn is_check(&self, b: u8) -> bool {
        self.class[b as usize] == CHECK
    }

    /// True when `b` is a stop or a check byte.
    #[inline(always)]
    pub const fn contains(&self, b: u8) -> bool {
        self.class[b as usize] != RUN
    }

    /// Picks the engine and its needles from the class table.
    const fn choose(mut self) -> StopSet {
        let mut needles = [0u8; 3];
        let mut needle_count = 0usize;
        let mut printable = [0u8; MAX_SWAR_PRINTABLE];
        let mut printable_count = 0usize;
        let mut fits_swar = true;
        // Printable members (with tab, LF, form feed) past the three needles.
        let mut over = 0usize;
        let mut high = false;
        let mut members = [0u8; MAX_EXACT];
        let mut member_count = 0usize;
        let mut b = 0usize;
        while b < 256 {
            if self.class[b] != RUN {
                let byte = b as u8;
                if member_count < MAX_EXACT {
                    members[member_count] = byte;
                }
                member_count += 1;
                let printable_byte = byte >= 0x20 && byte < 0x7F;
                if printable_byte || byte == b'\t' || byte == b'\n' || byte == 0x0C {
                    if needle_count < 3 {
                        needles[needle_count] = byte;
                        needle_count += 1;
                    } else {
                        over += 1;
                    }
                } else if byte >= 0x80 {
                    high = true;
                }
                if printable_byte {
                    if printable_count < MAX_SWAR_PRINTABLE {
                        printable[printable_count] = byte;
                        printable_count += 1;
                    } else {
                        fits_swar = false;
                    }
                }
            }
            b += 1;
        }
        // A CR member takes a free needle: CR LF text would fail every block test otherwise.
        let mut covered_cr = false;
        if needle_count < 3 && self.class[b'\r' as usize] != RUN {
            needles[needle_count] = b'\r';
            needle_count += 1;
            covered_cr = true;
        }
        // The members the needles do not cover.
        let mut extras = [0u8; MAX_EXTRAS];
        let mut extra_count = 0usize;
        let mut b = 0usize;
        while b < 256 {
            let byte = b as u8;
            let mut needle = false;
            let mut k = 0;
            while k < needle_count {
                if needles[k] == byte {
                    needle = true;
                }
                k += 1;
            }
            if self.class[b] != RUN && !needle && !(covered_cr && byte == b'\r') {
                if extra_count < MAX_EXTRAS {
                    extras[extra_count] = byte;
                }
                extra_count += 1;
            }
            b += 1;
        }
        let verify = extra_count > 0;
        // Few enough: a second memchr finds them; else the block test must (which finds only
        // members outside printable ASCII, tab, LF and form feed).
        let fits_memchr = extra_count <= MAX_EXTRAS || over == 0;
        self.extras = extras;
        self.extra_count = if extra_count <= MAX_EXTRAS {
            extra_count as u8
        } else {
            0
        };
        let mut exact = [0u64; MAX_EXACT];
        let mut k = 0;
        while k < MAX_EXACT {
            exact[k] = LO * (members[if k < member_count { k } else { 0 }] as u64);
            k += 1;
        }
        self.exact = exact;
        self.exact_count = if member_count <= MAX_EXACT {
            member_count as u8
        } else {
            0
        };
        self.needles = needles;
        self.needle_count = needle_count as u8;
        self.verify = verify;
        self.verify_high = high;
        self.printable = printable;
        self.printable_count = printable_count as u8;
        self.fits_memchr = fits_memchr;
        self.fits_swar = fits_swar;
        self.engine = if fits_memchr {
            Engine::Memchr
        } else if fits_swar {
            Engine::Swar
        } else {
            Engine::Table
        };
        self
    }

    /// The index of the first byte of `hay` at or after `from` that is a stop or a check byte,
    /// or `hay.len()` when there is none.
    ///
    /// A caller that goes on after check bytes uses [`run`](StopSet::run) instead: calling
    /// `find` again after each check byte would make the memchr engine search the same bytes
    /// again.
    #[inline]
    pub fn find(&self, hay: &[u8], from: usize) -> usize {
        self.run(hay, from, |_| None)
    }

    /// The index of the first stop byte of `hay` at or after `from`, or `hay.len()`; at each
    /// check byte on the way (index `i`), `check(i)` says where the run goes on (`Some`, an
    /// index after `i`) or that it ends at `i` (`None`).
    ///
    /// ```
    /// use thicket_input::scan::StopSet;
    /// // Text up to `<`; `>` is reported but does not end the run (MicroXML).
    /// static TEXT: StopSet = StopSet::new(b"<&\r").check(b">");
    /// let mut reported = Vec::new();
    /// let end = TEXT.run(b"a > b >> c < d", 0, |i| {
    ///     reported.push(i);
    ///     Some(i + 1)
    /// });
    /// assert_eq!((end, reported), (11, vec![2, 6, 7]));
    /// ```
    #[inline(always)]
    pub fn run(
        &self,
        hay: &[u8],
        from: usize,
        mut check: impl FnMut(usize) -> Option<usize>,
    ) -> usize {
        let mut from = from;
        if self.probe > 0 {
            let probe_end = hay.len().min(from.saturating_add(self.probe as usize));
            while from < probe_end {
                match self.class[hay[from] as usize] {
                    RUN => from += 1,
                    CHECK => match check(from) {
                        Some(next) => from = next,
                        None => return from,
                    },
                    _ => return from,
                }
            }
            if from >= hay.len() {
                return from;
            }
        }
        self.run_engine(hay, from, &mut check)
    }

    /// [`StopSet::run`] after the probe: the engine (out of line, so the probe stays small
    /// where it is inlined).
    #[inline(never)]
    fn run_engine(
        &self,
        hay: &[u8],
        from: usize,
        check: &mut impl FnMut(usize) -> Option<usize>,
    ) -> usize {
        match self.engine {
            Engine::Memchr => self.run_memchr(hay, from, check),
            Engine::Swar => self.run_swar(hay, from, check),
            Engine::Table => self.run_table(hay, from, hay.len(), check),
        }
    }

    /// The table engine over `hay[from..to]`: the first stop (or refused check) before `to`, or
    /// `to`. A check may move past `to`; then that index is returned.
    #[inline(always)]
    fn run_table(
        &self,
        hay: &[u8],
        mut i: usize,
        to: usize,
        check: &mut impl FnMut(usize) -> Option<usize>,
    ) -> usize {
        let to = to.min(hay.len());
        while i < to {
            match self.class[hay[i] as usize] {
                RUN => i += 1,
                CHECK => match check(i) {
                    Some(next) => i = next,
                    None => return i,
                },
                _ => return i,
            }
        }
        i
    }

    #[inline(always)]
    fn memchr(&self, rest: &[u8]) -> Option<usize> {
        let n = &self.needles;
        match self.needle_count {
            0 => None,
            1 => memchr::memchr(n[0], rest),
            2 => memchr::memchr2(n[0], n[1], rest),
            _ => memchr::memchr3(n[0], n[1], n[2], rest),
        }
    }

    #[inline(always)]
    fn run_memchr(
        &self,
        hay: &[u8],
        i: usize,
        check: &mut impl FnMut(usize) -> Option<usize>,
    ) -> usize {
        // Most runs end within a few words: test those before setting memchr up.
        match self.words(hay, i, i.saturating_add(SHORT), check) {
            Ok(j) => j,
            Err(i) if hay.len() - i.min(hay.len()) < 8 => self.run_table(hay, i, hay.len(), check),
            Err(i) => self.run_memchr_long(hay, i, check),
        }
    }

    /// The second `memchr` of the memchr engine: the first extra member in `rest`.
    #[inline(always)]
    fn memchr_extras(&self, rest: &[u8]) -> Option<usize> {
        let n = &self.extras;
        match self.extra_count {
            1 => memchr::memchr(n[0], rest),
            _ => memchr::memchr2(n[0], n[1], rest),
        }
    }

    /// The memchr engine after the probe. Each byte is searched by memchr once (and by the
    /// second memchr, or the block test, once).
    #[inline(never)]
    fn run_memchr_long(
        &self,
        hay: &[u8],
        mut i: usize,
        check: &mut impl FnMut(usize) -> Option<usize>,
    ) -> usize {
        let len = hay.len();
        // The first needle at or after `searched_from` is at `needle` (`len` for none).
        let (mut searched_from, mut needle) = (usize::MAX, len);
        while i < len {
            if !(searched_from <= i && i <= needle) {
                needle = match self.memchr(&hay[i..]) {
                    Some(k) => i + k,
                    None => len,
                };
                searched_from = i;
            }
            let end = needle;
            if self.extra_count > 0 {
                if let Some(k) = self.memchr_extras(&hay[i..end]) {
                    let j = i + k;
                    match self.class[hay[j] as usize] {
                        CHECK => match check(j) {
                            Some(next) => {
                                i = next;
                                continue;
                            }
                            None => return j,
                        },
                        _ => return j,
                    }
                }
            } else if self.verify {
                let j = if self.verify_high {
                    self.verify_run::<true>(hay, i, end, check)
                } else {
                    self.verify_run::<false>(hay, i, end, check)
                };
                if j != end {
                    if j > end {
                        // A check moved past the needle: search again from there.
                        i = j;
                        continue;
                    }
                    return j;
                }
            }
            if end == len {
                return len;
            }
            match self.class[hay[end] as usize] {
                CHECK => match check(end) {
                    Some(next) => i = next,
                    None => return end,
                },
                RUN => i = end + 1, // cannot happen: needles are members
                _ => return end,
            }
        }
        i
    }

    /// The members other than the needles in `hay[from..to]`: blocks of 16 bytes that pass the
    /// branch-free test (no control but tab and LF, no DEL, no byte at or above 0x80 when
    /// `HIGH`), or failing it have no member (text outside ASCII: the class of each byte,
    /// still without a branch), are skipped; others, and the last bytes, are probed byte by
    /// byte. Returns the first stop (or refused check), `to` when there is none, or an index
    /// past `to` a check moved to.
    #[inline(always)]
    fn verify_run<const HIGH: bool>(
        &self,
        hay: &[u8],
        mut i: usize,
        to: usize,
        check: &mut impl FnMut(usize) -> Option<usize>,
    ) -> usize {
        let to = to.min(hay.len());
        while i < to {
            for block in hay[i..to].chunks_exact(BLOCK) {
                if !self.block_is_clear::<HIGH>(block) {
                    break;
                }
                i += BLOCK;
            }
            // The last bytes a word at a time.
            while i + 8 <= to {
                if !self.block_is_clear::<HIGH>(&hay[i..i + 8]) {
                    break;
                }
                i += 8;
            }
            let block_end = to.min(i + BLOCK);
            let j = self.run_table(hay, i, block_end, check);
            if j < block_end {
                return j;
            }
            i = j;
        }
        i
    }

    /// Whether a block of [`BLOCK`] bytes has no member: see [`StopSet::verify_run`].
    #[inline(always)]
    fn block_is_clear<const HIGH: bool>(&self, block: &[u8]) -> bool {
        // Form feed (rare) fails this test and passes the next.
        let mut flag = 0u8;
        for &b in block {
            let control = (b < 0x20) & (b != b'\t') & (b != b'\n');
            let high = if HIGH { b >= 0x7F } else { b == 0x7F };
            flag |= u8::from(control | high);
        }
        if flag == 0 {
            return true;
        }
        let mut class = RUN;
        for &b in block {
            class |= self.class[b as usize];
        }
        class == RUN
    }

    /// The high bit of each byte of `w` (eight input bytes, little-endian) that may be a member:
    /// a byte outside printable ASCII (0x20..=0x7E), or one of the printable members. No
    /// member is missed; a lane above a true candidate may be marked as well (a borrow), so the
    /// lowest marked lane is always a true candidate and the mask is zero exactly when none of
    /// the eight is. This is the word-at-a-time test "8 bytes all in printable ASCII minus a
    /// few" of the [`Engine::Swar`] engine.
    ///
    /// ```
    /// use thicket_input::scan::StopSet;
    /// static ATTR: StopSet = StopSet::new(b"\"&\r\0\t\n\x0C");
    /// let word = u64::from_le_bytes(*b"abc\"defg");
    /// assert_eq!(ATTR.candidates(word).trailing_zeros() / 8, 3);
    /// assert_eq!(ATTR.candidates(u64::from_le_bytes(*b"abcdefgh")), 0);
    /// ```
    #[inline(always)]
    pub fn candidates(&self, w: u64) -> u64 {
        // Below 0x20 (borrows only from a lane below 0x20), at or above 0x7F (carries only from
        // a lane 0xFF), or equal to a printable member (borrows only from an equal lane).
        let mut hits = (w.wrapping_sub(LO * 0x20) & !w) | w | w.wrapping_add(LO);
        let mut k = 0;
        while k < self.printable_count as usize {
            let x = w ^ (LO * u64::from(self.printable[k]));
            hits |= x.wrapping_sub(LO) & !x;
            k += 1;
        }
        hits & HI
    }

    /// The lanes of `w` that may be members, each lane compared with each member (for classes
    /// of at most [`MAX_EXACT`]): the lowest marked lane is a member; a lane above one may be
    /// marked as well, by a borrow.
    #[inline(always)]
    fn exact_hits(&self, w: u64) -> u64 {
        let mut hits = 0;
        let mut k = 0;
        while k < MAX_EXACT {
            let x = w ^ self.exact[k];
            hits |= x.wrapping_sub(LO) & !x;
            k += 1;
        }
        hits & HI
    }

    #[inline(always)]
    fn run_swar(
        &self,
        hay: &[u8],
        mut i: usize,
        check: &mut impl FnMut(usize) -> Option<usize>,
    ) -> usize {
        // The first bytes one by one: names and values are often shorter than a word.
        let probe_end = hay.len().min(i.saturating_add(self.swar_probe as usize));
        while i < probe_end {
            match self.class[hay[i] as usize] {
                RUN => i += 1,
                CHECK => match check(i) {
                    Some(next) => i = next,
                    None => return i,
                },
                _ => return i,
            }
        }
        match self.words(hay, i, usize::MAX, check) {
            Ok(j) => j,
            Err(i) => self.run_table(hay, i, hay.len(), check),
        }
    }

    /// Eight bytes at a time from `i` while `i < limit`: `Ok` with the first stop (or refused
    /// check, or where a check moved past the end), `Err` with where the words stopped without
    /// one (at `limit` or later, or with fewer than eight bytes left).
    #[inline(always)]
    fn words(
        &self,
        hay: &[u8],
        i: usize,
        limit: usize,
        check: &mut impl FnMut(usize) -> Option<usize>,
    ) -> Result<usize, usize> {
        // One loop per kind of lane test, so neither pays for the other.
        if self.exact_count > 0 {
            self.words_with::<true>(hay, i, limit, check)
        } else {
            self.words_with::<false>(hay, i, limit, check)
        }
    }

    /// [`StopSet::words`] with the exact lane test (`EXACT`) or [`StopSet::candidates`].
    #[inline(always)]
    fn words_with<const EXACT: bool>(
        &self,
        hay: &[u8],
        mut i: usize,
        limit: usize,
        check: &mut impl FnMut(usize) -> Option<usize>,
    ) -> Result<usize, usize> {
        'words: while i < limit {
            let Some(chunk) = hay.get(i..i + 8) else {
                return if i >= hay.len() { Ok(i) } else { Err(i) };
            };
            let mut w = [0u8; 8];
            w.copy_from_slice(chunk);
            let w = u64::from_le_bytes(w);
            let mut mask = if EXACT {
                self.exact_hits(w)
            } else {
                self.candidates(w)
            };
            while mask != 0 {
                let j = i + (mask.trailing_zeros() / 8) as usize;
                match self.class[hay[j] as usize] {
                    RUN => {}
                    CHECK => match check(j) {
                        Some(next) => {
                            i = next;
                            continue 'words;
                        }
                        None => return Ok(j),
                    },
                    _ => return Ok(j),
                }
                mask &= mask - 1;
            }
            i += 8;
        }
        Err(i)
    }
}

impl StopSet {
    /// [`StopSet::run`] with the probe and the engine inlined into the caller (the table and
    /// SWAR engines whole, the memchr engine's word test for the first [`SHORT`] bytes; longer
    /// memchr runs are called as `run` calls them). Same answer as `run`, for the few hottest call sites of a dialect on
    /// a `static` set: there the compiler knows the set, so the choice of engine, the needles
    /// and the word test's printable members become constants (straight-line code instead of a
    /// loop over the members) and a run that ends within the word test makes no call. Each
    /// call site costs code: use `run` elsewhere.
    ///
    /// ```
    /// use thicket_input::scan::StopSet;
    /// static VALUE: StopSet = StopSet::new(b"\"&\r\0");
    /// let value = b"a value long enough for the word test\" b";
    /// assert_eq!(VALUE.run_inline(value, 0, |_| None), VALUE.run(value, 0, |_| None));
    /// ```
    #[inline(always)]
    pub fn run_inline(
        &self,
        hay: &[u8],
        from: usize,
        mut check: impl FnMut(usize) -> Option<usize>,
    ) -> usize {
        let mut from = from;
        if self.probe > 0 {
            let probe_end = hay.len().min(from.saturating_add(self.probe as usize));
            from = self.run_table(hay, from, probe_end, &mut check);
            if from < probe_end || from >= hay.len() {
                return from;
            }
        }
        match self.engine {
            Engine::Memchr => match self.words(hay, from, from.saturating_add(SHORT), &mut check) {
                Ok(j) => j,
                Err(i) if hay.len() - i.min(hay.len()) < 8 => {
                    self.run_table(hay, i, hay.len(), &mut check)
                }
                Err(i) => self.run_memchr_long(hay, i, &mut check),
            },
            Engine::Table => self.run_table(hay, from, hay.len(), &mut check),
            Engine::Swar => self.run_swar(hay, from, &mut check),
        }
    }

    /// [`StopSet::find`] through [`StopSet::run_inline`]: the same answer, inlined.
    #[inline(always)]
    pub fn find_inline(&self, hay: &[u8], from: usize) -> usize {
        self.run_inline(hay, from, |_| None)
    }
}

/// True when all eight bytes of `w` are printable ASCII (0x20..=0x7E): the word test of HTML's
/// and MicroXML's text checks, with no printable byte excluded.
///
/// ```
/// use thicket_input::scan::is_printable_word;
/// assert!(is_printable_word(u64::from_le_bytes(*b"<a href=")));
/// assert!(!is_printable_word(u64::from_le_bytes(*b"line\n  x")));
/// ```
#[inline(always)]
pub const fn is_printable_word(w: u64) -> bool {
    ((w.wrapping_sub(LO * 0x20) & !w) | w | w.wrapping_add(LO)) & HI == 0
}

/// The eight bytes of `bytes` at `i` as a little-endian word, if there are eight.
#[inline(always)]
pub fn load_word(bytes: &[u8], i: usize) -> Option<u64> {
    let chunk = bytes.get(i..i + 8)?;
    let mut w = [0u8; 8];
    w.copy_from_slice(chunk);
    Some(u64::from_le_bytes(w))
}

/// A resumable search for a multi-byte delimiter (`-->`, `?>`, `]]>`) in a growing buffer:
/// called again after more input arrived, it searches only the new bytes (and the last
/// `needle.len() - 1` before them), so a long comment fed in tiny chunks stays linear.
///
/// ```
/// use thicket_input::cursor::{Cursor, NeedMore};
/// use thicket_input::scan::Finder;
/// use thicket_input::NewlineRules;
/// let mut input = Cursor::new(NewlineRules::CrLf);
/// let mut end = Finder::new(b"-->");
/// input.feed("<!-- a -");
/// assert_eq!(end.find(&input, 4), Err(NeedMore));
/// input.feed("-> b");
/// assert_eq!(end.find(&input, 4), Ok(Some(7)));
/// ```
#[derive(Clone, Debug)]
pub struct Finder {
    needle: &'static [u8],
    /// The absolute offset the last search started from.
    from: usize,
    /// Absolute end of the input searched so far, for a search from `from`.
    searched: usize,
    /// A match found at or after `from`.
    found: Option<usize>,
}

impl Finder {
    /// A finder for `needle` (not empty).
    pub const fn new(needle: &'static [u8]) -> Finder {
        Finder {
            needle,
            from: usize::MAX,
            searched: 0,
            found: None,
        }
    }

    /// The needle.
    pub const fn needle(&self) -> &'static [u8] {
        self.needle
    }

    /// The absolute offset of the first match at or after absolute offset `from` in the
    /// cursor's buffer: `Ok(Some)`, `Ok(None)` when the input is finished without one, or
    /// [`NeedMore`](crate::cursor::NeedMore). `from` must not be before the buffer start.
    pub fn find(
        &mut self,
        input: &crate::cursor::Cursor<'_>,
        from: usize,
    ) -> Result<Option<usize>, crate::cursor::NeedMore> {
        let base = input.base();
        let bytes = input.bytes();
        let end = base + bytes.len();
        let from = from.max(base);
        let start = if self.from <= from && self.from != usize::MAX {
            if let Some(f) = self.found
                && f >= from
            {
                return Ok(Some(f));
            }
            if self.found.is_some() {
                // The match is before `from`: search from `from`.
                from
            } else {
                self.searched
                    .saturating_sub(self.needle.len().saturating_sub(1))
                    .max(from)
            }
        } else {
            from
        };
        self.from = from;
        self.found = bytes
            .get(start.min(end) - base..)
            .and_then(|hay| memchr::memmem::find(hay, self.needle))
            .map(|i| start + i);
        self.searched = end;
        match self.found {
            Some(f) => Ok(Some(f)),
            None if input.is_finished() => Ok(None),
            None => Err(crate::cursor::NeedMore),
        }
    }

    /// Forgets what was searched (for a new construct).
    pub fn reset(&mut self) {
        self.from = usize::MAX;
        self.found = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn naive(set: &StopSet, hay: &[u8], from: usize) -> usize {
        (from..hay.len())
            .find(|&i| set.contains(hay[i]))
            .unwrap_or(hay.len().max(from))
    }

    fn sets() -> Vec<StopSet> {
        vec![
            StopSet::new(b"<&\r\0"),
            StopSet::new(b"<&\r\0").check(&[0xC2, 0xEF, 0xF0, 0xF1, 0xF2, 0xF3, 0xF4]),
            StopSet::new(b"<\r"),
            StopSet::new(b"\0\r"),
            StopSet::new(b""),
            StopSet::new(b"\"&\0\r").stop_range(0x01, 0x08),
            StopSet::new(b"\t\n\x0C />\0\r"),
            StopSet::new(b"\t\n\x0C />\0\r\"'<=").stop_range(b'A', b'Z'),
            StopSet::new(b"<&>\r"),
            StopSet::new(b"\n\r").check(&[0xC2, 0xE2]),
            StopSet::new(b"\"&<>\r"),
            StopSet::new(b"<&").check(b">\r"),
            StopSet::new(b"\0"),
            StopSet::new(b"\0\x7F").check(&[0xC2]),
            StopSet::new(b"abc\xEF\xC2"),
        ]
    }

    #[test]
    fn engines_are_chosen_by_the_class() {
        assert_eq!(StopSet::new(b"<&\r\0").engine(), Engine::Memchr);
        assert_eq!(StopSet::new(b"\t\n />\r").engine(), Engine::Swar);
        assert_eq!(
            StopSet::new(b"\t\n\x0C />\0\r\"'<=").engine(),
            Engine::Table
        );
        let s = StopSet::new(b"<&\r\0");
        assert_eq!(&s.needles[..s.needle_count as usize], b"&<\r");
        assert!(s.verify); // for the NULL
        let s = StopSet::new(b"<&\r");
        assert!(!s.verify);
        // Members left over from the needles: a second memchr when few, the block test else.
        let s = StopSet::new(b"\"&<>\r");
        assert_eq!(s.engine(), Engine::Memchr);
        assert_eq!(&s.extras[..s.extra_count as usize], b"\r>");
        let s = StopSet::new(b"<&\r\0");
        assert_eq!((s.extra_count, s.exact_count), (1, 4));
        let s = StopSet::new(b"<&\r\0").check(&[0xC2, 0xEF, 0xF0]);
        assert_eq!(
            (s.engine(), s.extra_count, s.exact_count),
            (Engine::Memchr, 0, 0)
        );
    }

    #[test]
    fn every_engine_agrees_with_a_plain_loop() {
        let mut hays: Vec<Vec<u8>> = vec![
            b"".to_vec(),
            b"plain".to_vec(),
            b"a long run of plain text without any stop byte at all, longer than a block".to_vec(),
            "caf\u{e9} \u{ff0c}\u{fdd0} <b> & \r\n \0 \u{85}\u{2028}"
                .as_bytes()
                .to_vec(),
            b"\t\t\n    <a href=\"x\" b='y'>".to_vec(),
        ];
        let mut long = "x".repeat(100).into_bytes();
        long.extend_from_slice("\u{ff0c}".repeat(20).as_bytes());
        long.extend_from_slice(b"<");
        hays.push(long);
        for set in sets() {
            for (engine, probe, swar_probe) in [
                (Engine::Memchr, 0, 16),
                (Engine::Swar, 0, 16),
                (Engine::Swar, 0, 0),
                (Engine::Swar, 0, 3),
                (Engine::Table, 0, 16),
                (Engine::Memchr, 3, 16),
                (Engine::Memchr, 16, 16),
            ] {
                let forced = set
                    .clone()
                    .with_engine(engine)
                    .probe(probe)
                    .swar_probe(swar_probe);
                for hay in &hays {
                    for from in 0..=hay.len() {
                        assert_eq!(
                            forced.find(hay, from),
                            naive(&set, hay, from),
                            "{engine:?} {:?} from {from}",
                            String::from_utf8_lossy(hay)
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn built_from_several_lists() {
        let mut table = [false; 256];
        table[0xC2] = true;
        table[0x01] = true;
        let set = StopSet::new(b"<").stop(b"\t ").check_table(&table);
        for b in 0..=255u8 {
            assert_eq!(set.is_stop(b), matches!(b, b'<' | b'\t' | b' '), "{b}");
            assert_eq!(set.is_check(b), matches!(b, 0x01 | 0xC2), "{b}");
        }
        assert_eq!(set.engine(), Engine::Memchr);
        assert_eq!(
            StopSet::new(b"\0").stop(b"\t\n\x0C\r />\"'<=").engine(),
            Engine::Table
        );
    }

    #[test]
    fn a_check_table_adds_check_bytes() {
        let mut table = [false; 256];
        table[0x0C] = true;
        table[0xEF] = true;
        let set = StopSet::new(b"<").check_table(&table);
        assert!(set.is_check(0x0C) && set.is_check(0xEF) && set.is_stop(b'<'));
        assert!(!set.contains(b'a'));
        assert_eq!(set.find("ab\u{C}<".as_bytes(), 0), 2);
    }

    #[test]
    fn run_goes_on_after_accepted_checks() {
        let set = StopSet::new(b"<\r").check(&[0xEF]);
        let text = "ab\u{ff0c}cd\u{ff0c}".repeat(40) + "<";
        for engine in [Engine::Memchr, Engine::Swar, Engine::Table] {
            let set = set.clone().with_engine(engine);
            let mut checks = 0;
            let end = set.run(text.as_bytes(), 0, |i| {
                checks += 1;
                Some(i + 3)
            });
            assert_eq!((end, checks), (text.len() - 1, 80), "{engine:?}");
        }
    }

    #[test]
    fn word_tests() {
        assert!(is_printable_word(u64::from_le_bytes(*b" ~~~~~~~")));
        for bad in [0x1F, 0x7F, 0x80, 0xFF, 0x00] {
            for lane in 0..8 {
                let mut w = *b"abcdefgh";
                w[lane] = bad;
                assert!(!is_printable_word(u64::from_le_bytes(w)));
                let set = StopSet::new(b"\"").with_engine(Engine::Swar);
                let mask = set.candidates(u64::from_le_bytes(w));
                assert_eq!(mask.trailing_zeros() / 8, lane as u32);
            }
        }
        assert_eq!(load_word(b"1234567", 0), None);
        assert_eq!(
            load_word(b"12345678", 0),
            Some(u64::from_le_bytes(*b"12345678"))
        );
    }
}
