//! A string under construction that stays a borrowed range of the input for as long as what is
//! appended is the input itself, unchanged and contiguous.

use std::borrow::Cow;

/// A string being built: empty, a range of absolute input offsets, or owned text.
#[derive(Clone, Debug, Default)]
pub(crate) enum SBuf {
    #[default]
    Empty,
    /// Absolute byte offsets `start..end` into the input.
    Range(usize, usize),
    Owned(String),
}

impl SBuf {
    /// Appends the input `start..end` (absolute offsets; `buf` starts at absolute `base`).
    #[inline(always)]
    pub(crate) fn push_raw(&mut self, buf: &str, base: usize, start: usize, end: usize) {
        match self {
            SBuf::Empty => *self = SBuf::Range(start, end),
            SBuf::Range(_, e) if *e == start => *e = end,
            _ => self.push_raw_slow(buf, base, start, end),
        }
    }

    /// [`SBuf::push_raw`] when the text stops being one range of the input.
    #[inline(never)]
    fn push_raw_slow(&mut self, buf: &str, base: usize, start: usize, end: usize) {
        match self {
            SBuf::Range(s, e) => {
                let mut o = String::with_capacity((*e - *s) + (end - start) + 16);
                o.push_str(&buf[*s - base..*e - base]);
                o.push_str(&buf[start - base..end - base]);
                *self = SBuf::Owned(o);
            }
            SBuf::Owned(o) => o.push_str(&buf[start - base..end - base]),
            SBuf::Empty => *self = SBuf::Range(start, end),
        }
    }

    /// Appends text that is not the input at this place (a replacement, a lowercased letter...).
    #[inline]
    pub(crate) fn push_str(&mut self, buf: &str, base: usize, s: &str) {
        self.own(buf, base).push_str(s);
    }

    /// Appends one changed character.
    #[inline]
    pub(crate) fn push_char(&mut self, buf: &str, base: usize, c: char) {
        self.own(buf, base).push(c);
    }

    /// Makes the text owned (if it is not yet) with room for `additional` more bytes, so that
    /// a string about to be built from many pieces is allocated once.
    pub(crate) fn reserve(&mut self, buf: &str, base: usize, additional: usize) {
        match self {
            SBuf::Owned(o) => o.reserve(additional),
            _ => {
                let cur = self.as_str(buf, base);
                let mut o = String::with_capacity(cur.len() + additional);
                o.push_str(cur);
                *self = SBuf::Owned(o);
            }
        }
    }

    fn own(&mut self, buf: &str, base: usize) -> &mut String {
        match self {
            SBuf::Owned(o) => o,
            SBuf::Empty => {
                *self = SBuf::Owned(String::new());
                self.own(buf, base)
            }
            SBuf::Range(s, e) => {
                let mut o = String::with_capacity((*e - *s) + 16);
                o.push_str(&buf[*s - base..*e - base]);
                *self = SBuf::Owned(o);
                self.own(buf, base)
            }
        }
    }

    /// True when nothing has been appended (or only empty strings).
    pub(crate) fn is_empty(&self) -> bool {
        match self {
            SBuf::Empty => true,
            SBuf::Range(s, e) => s == e,
            SBuf::Owned(o) => o.is_empty(),
        }
    }

    /// The length in bytes of the text so far.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        match self {
            SBuf::Empty => 0,
            SBuf::Range(s, e) => e - s,
            SBuf::Owned(o) => o.len(),
        }
    }

    /// The text so far.
    pub(crate) fn as_str<'a>(&'a self, buf: &'a str, base: usize) -> &'a str {
        match self {
            SBuf::Empty => "",
            SBuf::Range(s, e) => &buf[*s - base..*e - base],
            SBuf::Owned(o) => o,
        }
    }

    /// Makes a range of the input an owned copy, so that the buffer may drop that input.
    pub(crate) fn detach(&mut self, buf: &str, base: usize) {
        if let SBuf::Range(s, e) = *self {
            *self = SBuf::Owned(buf[s - base..e - base].to_owned());
        }
    }

    /// The finished string, borrowed from `buf` where possible.
    #[inline]
    pub(crate) fn into_cow(self, buf: &str, base: usize) -> Cow<'_, str> {
        match self {
            SBuf::Empty => Cow::Borrowed(""),
            SBuf::Range(s, e) => Cow::Borrowed(&buf[s - base..e - base]),
            SBuf::Owned(o) => Cow::Owned(o),
        }
    }
}
