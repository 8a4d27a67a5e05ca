//! The text accumulator: a string under construction that stays a range of the input for as
//! long as what is appended is the input itself, unchanged and contiguous.
//!
//! A tokenizer appends what it reads to a [`TextAcc`]: input ranges (absolute offsets) with
//! [`push_range`](TextAcc::push_range), or changed text (a decoded reference, a folded line
//! break, a lowercased letter) with [`push_str`](TextAcc::push_str) /
//! [`push_char`](TextAcc::push_char). While only contiguous input arrives the accumulator is a
//! pair of offsets, and the finished string is borrowed from the cursor's buffer
//! ([`into_cow`](TextAcc::into_cow)) or, for a whole input, from the input itself with the
//! input's lifetime ([`into_cow_input`](TextAcc::into_cow_input)); the first change copies the
//! range out once and appends from then on, so building a string is linear however it is cut.
//! When the cursor compacts, an accumulator passed to [`Cursor::compact`] whose range starts
//! before the kept tail is copied out ([`TextAcc::detach`]); a range in the kept tail needs no
//! change, as offsets are absolute.

use std::borrow::Cow;

use crate::cursor::Cursor;

/// A string under construction: empty, a range of the input, a static string, or owned text.
/// See the module docs.
///
/// ```
/// use thicket_input::cursor::Cursor;
/// use thicket_input::{NewlineRules, TextAcc};
/// let input = Cursor::whole("a&amp;b c", NewlineRules::CrLf);
/// let mut t = TextAcc::new();
/// t.push_range(0, 1, &input);
/// assert_eq!(t.range(), Some((0, 1)));
/// t.push_str("&", &input); // the reference's text: from here on it is owned
/// t.push_range(6, 7, &input);
/// assert_eq!(t.as_str(&input), "a&b");
/// let mut u = TextAcc::new();
/// u.push_range(6, 9, &input);
/// let borrowed: std::borrow::Cow<'static, str> = u.into_cow_input(&input);
/// assert!(matches!(borrowed, std::borrow::Cow::Borrowed("b c")));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TextAcc(Repr);

#[derive(Clone, Debug, Default, PartialEq, Eq)]
enum Repr {
    #[default]
    Empty,
    /// Absolute byte offsets `start..end` into the input.
    Range(usize, usize),
    /// A string that is not in the input (a reference's replacement text).
    Static(&'static str),
    Owned(String),
}

impl TextAcc {
    /// An empty accumulator.
    #[inline]
    pub const fn new() -> TextAcc {
        TextAcc(Repr::Empty)
    }

    /// Appends the input between absolute offsets `start` and `end`: stays a range when it
    /// continues the range held (or nothing is held).
    #[inline(always)]
    pub fn push_range(&mut self, start: usize, end: usize, input: &Cursor<'_>) {
        match &mut self.0 {
            Repr::Empty => self.set(Repr::Range(start, end)),
            Repr::Range(_, e) if *e == start => *e = end,
            _ => self.push_range_slow(start, end, input),
        }
    }

    /// Replaces a representation that owns nothing (empty, a range, a static string) with
    /// `repr`: nothing to drop, so no call to the drop glue on the hot paths.
    #[inline(always)]
    fn set(&mut self, repr: Repr) {
        debug_assert!(!self.is_owned());
        std::mem::forget(std::mem::replace(&mut self.0, repr));
    }

    /// [`TextAcc::push_range`] once the text is no longer one range.
    #[inline(never)]
    fn push_range_slow(&mut self, start: usize, end: usize, input: &Cursor<'_>) {
        if start == end {
            return;
        }
        let piece = input.slice(start, end);
        match &mut self.0 {
            Repr::Owned(s) => s.push_str(piece),
            Repr::Empty => self.0 = Repr::Range(start, end),
            _ => {
                let extra = piece.len();
                self.own(input, extra).push_str(piece);
            }
        }
    }

    /// Appends `c`, found at absolute offset `at` and covering `len` input bytes; `verbatim`
    /// says the input there is exactly `c` (see [`Peeked::folded`](crate::cursor::Peeked)).
    #[inline]
    pub fn push(&mut self, c: char, at: usize, len: usize, verbatim: bool, input: &Cursor<'_>) {
        if verbatim {
            self.push_range(at, at + len, input);
        } else {
            self.push_char(c, input);
        }
    }

    /// Appends text that is not the input at this place.
    #[inline]
    pub fn push_str(&mut self, s: &str, input: &Cursor<'_>) {
        match &mut self.0 {
            Repr::Owned(o) => o.push_str(s),
            _ => self.own(input, s.len()).push_str(s),
        }
    }

    /// Appends a static string that is not the input at this place: kept without a copy when
    /// nothing else is held (a token that is one character reference).
    #[inline]
    pub fn push_static(&mut self, s: &'static str, input: &Cursor<'_>) {
        match &mut self.0 {
            Repr::Empty => self.set(Repr::Static(s)),
            _ => self.push_str(s, input),
        }
    }

    /// Appends one character that is not the input at this place.
    #[inline]
    pub fn push_char(&mut self, c: char, input: &Cursor<'_>) {
        match &mut self.0 {
            Repr::Owned(o) => o.push(c),
            _ => self.own(input, c.len_utf8()).push(c),
        }
    }

    /// Makes the text owned now, with room for `additional` more bytes (a string about to be
    /// built from many pieces is then allocated once).
    pub fn reserve(&mut self, additional: usize, input: &Cursor<'_>) {
        match &mut self.0 {
            Repr::Owned(o) => o.reserve(additional),
            _ => {
                self.own(input, additional);
            }
        }
    }

    /// The text as an owned `String` inside the accumulator, with room for `extra` bytes.
    fn own(&mut self, input: &Cursor<'_>, extra: usize) -> &mut String {
        if !matches!(self.0, Repr::Owned(_)) {
            let current = self.as_str(input);
            let mut o = String::with_capacity(current.len() + extra.max(16));
            o.push_str(current);
            self.0 = Repr::Owned(o);
        }
        match &mut self.0 {
            Repr::Owned(o) => o,
            _ => unreachable!("made owned above"),
        }
    }

    /// True when nothing (or only empty text) has been appended.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The length in bytes of the text so far.
    #[inline]
    pub fn len(&self) -> usize {
        match &self.0 {
            Repr::Empty => 0,
            Repr::Range(s, e) => e - s,
            Repr::Static(s) => s.len(),
            Repr::Owned(o) => o.len(),
        }
    }

    /// The absolute range of the input the text is, while it is one.
    #[inline]
    pub fn range(&self) -> Option<(usize, usize)> {
        match self.0 {
            Repr::Range(s, e) => Some((s, e)),
            _ => None,
        }
    }

    /// True once the text is owned (no longer a range or a static string).
    #[inline]
    pub fn is_owned(&self) -> bool {
        matches!(self.0, Repr::Owned(_))
    }

    /// The text so far.
    #[inline]
    pub fn as_str<'s>(&'s self, input: &'s Cursor<'_>) -> &'s str {
        match &self.0 {
            Repr::Empty => "",
            Repr::Range(s, e) => input.slice(*s, *e),
            Repr::Static(s) => s,
            Repr::Owned(o) => o,
        }
    }

    /// Keeps the first `max` bytes of the text, cut back to a character boundary (a length
    /// limit: what was cut is not kept, however the text is held).
    ///
    /// ```
    /// use thicket_input::cursor::Cursor;
    /// use thicket_input::{NewlineRules, TextAcc};
    /// let input = Cursor::whole("caf\u{e9}s", NewlineRules::CrLf);
    /// let mut t = TextAcc::new();
    /// t.push_range(0, 6, &input);
    /// t.truncate(4, &input); // inside the é: back to its start
    /// assert_eq!((t.as_str(&input), t.range()), ("caf", Some((0, 3))));
    /// ```
    pub fn truncate(&mut self, max: usize, input: &Cursor<'_>) {
        let text = self.as_str(input);
        if text.len() <= max {
            return;
        }
        let mut cut = max;
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        match &mut self.0 {
            Repr::Empty => {}
            Repr::Range(s, e) => *e = *s + cut,
            Repr::Static(s) => *s = &s[..cut],
            Repr::Owned(o) => o.truncate(cut),
        }
    }

    /// Takes the text, leaving the accumulator empty.
    #[inline]
    pub fn take(&mut self) -> TextAcc {
        std::mem::take(self)
    }

    /// Empties the accumulator (keeping an owned string's capacity is not attempted: a token
    /// handed out takes its string).
    #[inline(always)]
    pub fn clear(&mut self) {
        if self.is_owned() {
            self.0 = Repr::Empty;
        } else {
            self.set(Repr::Empty);
        }
    }

    /// Copies a range out of the input, so the text no longer depends on the buffer.
    #[inline]
    pub fn detach(&mut self, input: &Cursor<'_>) {
        if let Repr::Range(s, e) = self.0 {
            self.0 = Repr::Owned(input.slice(s, e).to_owned());
        }
    }

    /// Copies a range that starts before absolute `keep` out of `buf` (whose first byte is at
    /// absolute `base`): the cursor calls this before it drops the text before `keep`.
    pub(crate) fn detach_before(&mut self, keep: usize, buf: &str, base: usize) {
        if let Repr::Range(s, e) = self.0
            && s < keep
        {
            self.0 = Repr::Owned(buf[s - base..e - base].to_owned());
        }
    }

    /// The finished string, borrowed from the cursor's buffer when it is a range.
    #[inline]
    pub fn into_cow<'s>(self, input: &'s Cursor<'_>) -> Cow<'s, str> {
        match self.0 {
            Repr::Empty => Cow::Borrowed(""),
            Repr::Range(s, e) => Cow::Borrowed(input.slice(s, e)),
            Repr::Static(s) => Cow::Borrowed(s),
            Repr::Owned(o) => Cow::Owned(o),
        }
    }

    /// The text, borrowed from `whole` where it is a range of it: for a consumer that fed the
    /// whole of `whole` at once, so the buffer's offsets are `whole`'s.
    #[inline(always)]
    pub fn into_cow_in(self, whole: &str) -> Cow<'_, str> {
        match self.0 {
            Repr::Empty => Cow::Borrowed(""),
            Repr::Range(s, e) => Cow::Borrowed(&whole[s..e]),
            Repr::Static(s) => Cow::Borrowed(s),
            Repr::Owned(o) => Cow::Owned(o),
        }
    }

    /// The finished string with the input's lifetime: borrowed when the cursor borrows a whole
    /// input ([`Cursor::whole`]), copied from a fed buffer otherwise.
    #[inline]
    pub fn into_cow_input<'a>(self, input: &Cursor<'a>) -> Cow<'a, str> {
        match self.0 {
            Repr::Empty => Cow::Borrowed(""),
            Repr::Range(s, e) => match input.input() {
                Some(whole) => Cow::Borrowed(&whole[s..e]),
                None => one_ascii(input.slice(s, e))
                    .map_or_else(|| Cow::Owned(input.slice(s, e).to_owned()), Cow::Borrowed),
            },
            Repr::Static(s) => Cow::Borrowed(s),
            Repr::Owned(o) => Cow::Owned(o),
        }
    }
}

/// Every ASCII character, in order.
const ASCII_BYTES: [u8; 128] = {
    let mut bytes = [0u8; 128];
    let mut i = 0;
    while i < 128 {
        bytes[i] = i as u8;
        i += 1;
    }
    bytes
};

/// [`ASCII_BYTES`] as a string.
const ASCII: &str = match std::str::from_utf8(&ASCII_BYTES) {
    Ok(s) => s,
    Err(_) => panic!("ASCII is UTF-8"),
};

/// `text` as a static string when it is one ASCII character, so that a one-character token
/// copied from a fed buffer (a stray `<`, say, one per byte of hostile input) costs no
/// allocation.
#[inline]
fn one_ascii(text: &str) -> Option<&'static str> {
    match *text.as_bytes() {
        [b] => ASCII.get(usize::from(b)..usize::from(b) + 1),
        _ => None,
    }
}

/// Owned text (a string a dialect built itself, such as a normalized text): what is appended
/// later goes onto it, so a string reused from an earlier token keeps its capacity.
impl From<String> for TextAcc {
    #[inline]
    fn from(s: String) -> TextAcc {
        TextAcc(Repr::Owned(s))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::NewlineRules;

    #[test]
    fn into_cow_in_borrows_ranges_of_the_whole_input() {
        let whole = "a&amp;bc";
        let mut input = Cursor::new(NewlineRules::CrLf);
        input.feed(whole);
        let mut t = TextAcc::new();
        t.push_range(6, 8, &input);
        assert!(matches!(t.take().into_cow_in(whole), Cow::Borrowed("bc")));
        t.push_range(0, 1, &input);
        t.push_char('&', &input);
        assert!(matches!(t.take().into_cow_in(whole), Cow::Owned(s) if s == "a&"));
        assert!(matches!(
            TextAcc::new().into_cow_in(whole),
            Cow::Borrowed("")
        ));
    }

    #[test]
    fn from_a_string() {
        let input = Cursor::whole("xy", NewlineRules::CrLf);
        let mut t = TextAcc::from(String::with_capacity(64));
        assert!(t.is_empty() && t.is_owned());
        t.push_range(0, 2, &input);
        assert_eq!(t.as_str(&input), "xy");
        assert!(matches!(t.into_cow(&input), Cow::Owned(s) if s.capacity() >= 64));
    }

    #[test]
    fn stays_a_range_while_contiguous() {
        let input = Cursor::whole("abcdef", NewlineRules::CrLf);
        let mut t = TextAcc::new();
        t.push_range(1, 2, &input);
        t.push_range(2, 4, &input);
        t.push(' ', 4, 1, true, &input);
        assert_eq!(t.range(), Some((1, 5)));
        t.push_range(5, 5, &input);
        assert_eq!(t.range(), Some((1, 5)));
        t.push_range(0, 1, &input); // not contiguous
        assert!(t.is_owned());
        assert_eq!(t.as_str(&input), "bcdea");
        assert_eq!(t.len(), 5);
    }

    #[test]
    fn static_then_more() {
        let input = Cursor::whole("xy", NewlineRules::CrLf);
        let mut t = TextAcc::new();
        t.push_static("<", &input);
        assert!(!t.is_owned());
        t.push_range(0, 2, &input);
        assert_eq!(t.clone().into_cow(&input), "<xy");
        t.push('\n', 0, 2, false, &input);
        assert_eq!(t.as_str(&input), "<xy\n");
        assert!(TextAcc::new().is_empty());
    }

    #[test]
    fn fed_buffers_are_copied_for_the_input_lifetime() {
        let mut input = Cursor::new(NewlineRules::CrLf);
        input.feed("abc");
        let mut t = TextAcc::new();
        t.push_range(0, 2, &input);
        assert!(matches!(t.clone().into_cow_input(&input), Cow::Owned(s) if s == "ab"));
        assert!(matches!(t.clone().into_cow(&input), Cow::Borrowed("ab")));
        t.detach(&input);
        assert!(t.is_owned());
        t.reserve(10, &input);
        assert_eq!(t.take().as_str(&input), "ab");
        assert!(t.is_empty());
    }
}
