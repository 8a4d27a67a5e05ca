//! The text states: data, RCDATA, RAWTEXT, script data and PLAINTEXT (12.2.5.1-5), the end tag
//! states of RCDATA, RAWTEXT and script data (9-17), and the script data escape states (18-31).
//! Text is emitted as it is read, so it is returned as soon as the standard makes it certain.

use thicket_input::scan::StopSet;
use thicket_names::html as names;

use super::tag::TagBuild;
use super::{Step, TEXT_PROBE, Tokenizer, stops};
use crate::error::ErrorCode;
use crate::state::State;

/// The data and RCDATA states' runs end at `<` and `&`. Only the first [`DATA_PROBE`] bytes
/// are probed one by one.
pub(super) static DATA: StopSet = stops(b"<&").probe(DATA_PROBE);
/// How many bytes of a data run are probed one by one before the word test: the data state and
/// the direct path scan it inlined ([`Tokenizer::scan_inline`]), where the word test costs
/// less than probing byte by byte, except on the first bytes, which end the many runs that are
/// empty or a newline between two tags (callgrind over the corpus: 2 beat 0, 1, 3, 4, 6, 8, 12
/// and 16).
const DATA_PROBE: u8 = 2;
/// RAWTEXT and script data: only `<` ends a run.
static RAWTEXT: StopSet = stops(b"<").probe(TEXT_PROBE);
/// PLAINTEXT: nothing but NULL and CR.
static PLAINTEXT: StopSet = stops(b"").probe(TEXT_PROBE);
/// The script data escaped states: `<` and `-`.
pub(super) static ESCAPED: StopSet = stops(b"<-").probe(TEXT_PROBE);

impl<'a> Tokenizer<'a> {
    /// Emits the run of text from the position to the first byte of `set`, and moves past it.
    #[inline(always)]
    fn take_text_run(&mut self, set: &StopSet) {
        let end = self.scan(set);
        self.take_run_to(end);
    }

    /// Emits the input from the position to `end` unchanged as text, and moves past it.
    #[inline(always)]
    pub(super) fn take_run_to(&mut self, end: usize) {
        if end > self.pos() {
            self.emit_raw(self.pos(), end);
            self.input.set_offset(end);
        }
    }

    /// 12.2.5.1 Data state.
    pub(super) fn data_state(&mut self) -> Step {
        // The most frequent run of the states: its scan is inlined.
        let end = self.scan_inline(&DATA);
        self.take_run_to(end);
        match self.cur()? {
            Some('&') => {
                self.return_state = State::Data;
                self.charref_start = self.pos();
                self.consume();
                self.state = State::CharacterReference;
            }
            Some('<') => {
                self.token_start = self.pos();
                self.consume();
                self.state = State::TagOpen;
                // Hot transitions call the next state directly (always forward, so the depth is
                // bounded): data, tag open, tag name, attribute name, value, after value.
                return self.tag_open_state();
            }
            Some('\0') => {
                self.error(ErrorCode::UnexpectedNullCharacter);
                self.emit_current();
            }
            None => return self.emit_eof(),
            Some(_) => self.emit_current(),
        }
        Ok(())
    }

    /// 12.2.5.2 RCDATA state.
    pub(super) fn rcdata_state(&mut self) -> Step {
        self.take_text_run(&DATA);
        match self.cur()? {
            Some('&') => {
                self.return_state = State::Rcdata;
                self.charref_start = self.pos();
                self.consume();
                self.state = State::CharacterReference;
            }
            Some('<') => {
                self.token_start = self.pos();
                self.consume();
                self.state = State::RcdataLessThanSign;
            }
            Some('\0') => {
                self.error(ErrorCode::UnexpectedNullCharacter);
                self.emit_replacement();
            }
            None => return self.emit_eof(),
            Some(_) => self.emit_current(),
        }
        Ok(())
    }

    /// RAWTEXT and script data differ only in the state `<` leads to.
    fn rawtext_like(&mut self, less_than: State) -> Step {
        self.take_text_run(&RAWTEXT);
        match self.cur()? {
            Some('<') => {
                self.token_start = self.pos();
                self.consume();
                self.state = less_than;
            }
            Some('\0') => {
                self.error(ErrorCode::UnexpectedNullCharacter);
                self.emit_replacement();
            }
            None => return self.emit_eof(),
            Some(_) => self.emit_current(),
        }
        Ok(())
    }

    /// 12.2.5.3 RAWTEXT state.
    pub(super) fn rawtext_state(&mut self) -> Step {
        self.rawtext_like(State::RawtextLessThanSign)
    }

    /// 12.2.5.4 Script data state.
    pub(super) fn script_data_state(&mut self) -> Step {
        self.rawtext_like(State::ScriptDataLessThanSign)
    }

    /// 12.2.5.5 PLAINTEXT state.
    pub(super) fn plaintext_state(&mut self) -> Step {
        self.take_text_run(&PLAINTEXT);
        match self.cur()? {
            Some('\0') => {
                self.error(ErrorCode::UnexpectedNullCharacter);
                self.emit_replacement();
            }
            None => return self.emit_eof(),
            Some(_) => self.emit_current(),
        }
        Ok(())
    }

    // ---------------------------------------------------------------------------------------
    // 12.2.5.9 - 12.2.5.17: end tags in RCDATA, RAWTEXT and script data.

    /// The "less-than sign" states of RCDATA and RAWTEXT.
    fn text_less_than_sign(&mut self, end_tag_open: State, text: State) -> Step {
        match self.cur()? {
            Some('/') => {
                self.temp.clear();
                self.consume();
                self.state = end_tag_open;
            }
            Some(_) | None => {
                self.emit_raw(self.token_start, self.token_start + 1);
                self.state = text;
            }
        }
        Ok(())
    }

    /// The "end tag open" states: a letter starts an end tag, anything else is text.
    fn text_end_tag_open(&mut self, end_tag_name: State, text: State) -> Step {
        match self.cur()? {
            Some(c) if names::is_ascii_alpha_char(c) => {
                self.new_tag(true);
                if !self.whole_appropriate_end_tag() {
                    self.state = end_tag_name;
                }
            }
            Some(_) | None => {
                self.emit_raw(self.token_start, self.pos());
                self.state = text;
            }
        }
        Ok(())
    }

    /// The direct path of the end tag name states (with the direct paths on): the appropriate
    /// end tag written as the last start tag's name in lowercase then `>` (`</script>`), whole
    /// in the buffer, is built and emitted at once, as the states would after a letter at a
    /// time (its letters are appended as they are, and nothing on the way is an error).
    /// Returns whether it was; otherwise nothing has changed.
    fn whole_appropriate_end_tag(&mut self) -> bool {
        if matches!(self.direct, super::Direct::Off) {
            return false;
        }
        let last = self.last_start_tag.as_str(&self.input).as_bytes();
        let rest = self.input.rest_bytes();
        let n = last.len();
        if n == 0
            || rest.get(n) != Some(&b'>')
            || rest[..n] != *last
            || !last.iter().all(u8::is_ascii_lowercase)
        {
            return false;
        }
        let at = self.pos();
        self.tag.name.push_range(at, at + n, &self.input);
        let end = at + n + 1;
        self.input.set_offset(end);
        if end > self.checked {
            self.checked = end;
        }
        self.state = State::Data;
        self.emit_tag();
        true
    }

    /// The "end tag name" states: only an appropriate end tag ends the text.
    fn text_end_tag_name(&mut self, text: State) -> Step {
        match self.cur()? {
            Some(c) if names::is_ascii_whitespace_char(c) && self.appropriate_end_tag() => {
                self.consume();
                self.state = State::BeforeAttributeName;
            }
            Some('/') if self.appropriate_end_tag() => {
                self.consume();
                self.state = State::SelfClosingStartTag;
            }
            Some('>') if self.appropriate_end_tag() => {
                self.consume();
                self.state = State::Data;
                self.emit_tag();
            }
            Some(c) if names::is_ascii_alpha_char(c) => self.append_tag_name(c),
            Some(_) | None => {
                self.tag = TagBuild::default();
                self.emit_raw(self.token_start, self.pos());
                self.state = text;
            }
        }
        Ok(())
    }

    /// 12.2.5.9 RCDATA less-than sign state.
    pub(super) fn rcdata_less_than_sign_state(&mut self) -> Step {
        self.text_less_than_sign(State::RcdataEndTagOpen, State::Rcdata)
    }

    /// 12.2.5.10 RCDATA end tag open state.
    pub(super) fn rcdata_end_tag_open_state(&mut self) -> Step {
        self.text_end_tag_open(State::RcdataEndTagName, State::Rcdata)
    }

    /// 12.2.5.11 RCDATA end tag name state.
    pub(super) fn rcdata_end_tag_name_state(&mut self) -> Step {
        self.text_end_tag_name(State::Rcdata)
    }

    /// 12.2.5.12 RAWTEXT less-than sign state.
    pub(super) fn rawtext_less_than_sign_state(&mut self) -> Step {
        self.text_less_than_sign(State::RawtextEndTagOpen, State::Rawtext)
    }

    /// 12.2.5.13 RAWTEXT end tag open state.
    pub(super) fn rawtext_end_tag_open_state(&mut self) -> Step {
        self.text_end_tag_open(State::RawtextEndTagName, State::Rawtext)
    }

    /// 12.2.5.14 RAWTEXT end tag name state.
    pub(super) fn rawtext_end_tag_name_state(&mut self) -> Step {
        self.text_end_tag_name(State::Rawtext)
    }

    /// 12.2.5.15 Script data less-than sign state.
    pub(super) fn script_data_less_than_sign_state(&mut self) -> Step {
        match self.cur()? {
            Some('/') => {
                self.temp.clear();
                self.consume();
                self.state = State::ScriptDataEndTagOpen;
            }
            Some('!') => {
                self.consume();
                self.emit_raw(self.token_start, self.pos());
                self.state = State::ScriptDataEscapeStart;
            }
            Some(_) | None => {
                self.emit_raw(self.token_start, self.token_start + 1);
                self.state = State::ScriptData;
            }
        }
        Ok(())
    }

    /// 12.2.5.16 Script data end tag open state.
    pub(super) fn script_data_end_tag_open_state(&mut self) -> Step {
        self.text_end_tag_open(State::ScriptDataEndTagName, State::ScriptData)
    }

    /// 12.2.5.17 Script data end tag name state.
    pub(super) fn script_data_end_tag_name_state(&mut self) -> Step {
        self.text_end_tag_name(State::ScriptData)
    }

    // ---------------------------------------------------------------------------------------
    // 12.2.5.18 - 12.2.5.31: script data escapes.

    /// 12.2.5.18 Script data escape start state.
    pub(super) fn script_data_escape_start_state(&mut self) -> Step {
        match self.cur()? {
            Some('-') => {
                self.emit_current();
                self.state = State::ScriptDataEscapeStartDash;
            }
            Some(_) | None => self.state = State::ScriptData,
        }
        Ok(())
    }

    /// 12.2.5.19 Script data escape start dash state.
    pub(super) fn script_data_escape_start_dash_state(&mut self) -> Step {
        match self.cur()? {
            Some('-') => {
                self.emit_current();
                self.state = State::ScriptDataEscapedDashDash;
            }
            Some(_) | None => self.state = State::ScriptData,
        }
        Ok(())
    }

    /// The escaped and double-escaped states share their shape; `double` picks the targets.
    fn escaped_text(&mut self, double: bool) -> Step {
        let (dash, less_than) = if double {
            (
                State::ScriptDataDoubleEscapedDash,
                State::ScriptDataDoubleEscapedLessThanSign,
            )
        } else {
            (
                State::ScriptDataEscapedDash,
                State::ScriptDataEscapedLessThanSign,
            )
        };
        match self.cur()? {
            Some('-') => {
                self.emit_current();
                self.state = dash;
            }
            Some('<') => {
                self.token_start = self.pos();
                if double {
                    self.emit_current();
                } else {
                    self.consume();
                }
                self.state = less_than;
            }
            Some('\0') => {
                self.error(ErrorCode::UnexpectedNullCharacter);
                self.emit_replacement();
            }
            None => {
                self.error(ErrorCode::EofInScriptHtmlCommentLikeText);
                return self.emit_eof();
            }
            Some(_) => {
                let end = self.scan(&ESCAPED);
                if end > self.pos() {
                    self.emit_raw(self.pos(), end);
                    self.input.set_offset(end);
                } else {
                    self.emit_current();
                }
            }
        }
        Ok(())
    }

    /// The escaped and double-escaped dash and dash dash states.
    fn escaped_dash(&mut self, double: bool, dash_dash: bool) -> Step {
        let (escaped, less_than, next_dash) = if double {
            (
                State::ScriptDataDoubleEscaped,
                State::ScriptDataDoubleEscapedLessThanSign,
                State::ScriptDataDoubleEscapedDashDash,
            )
        } else {
            (
                State::ScriptDataEscaped,
                State::ScriptDataEscapedLessThanSign,
                State::ScriptDataEscapedDashDash,
            )
        };
        match self.cur()? {
            Some('-') => {
                self.emit_current();
                self.state = next_dash;
            }
            Some('<') => {
                self.token_start = self.pos();
                if double {
                    self.emit_current();
                } else {
                    self.consume();
                }
                self.state = less_than;
            }
            Some('>') if dash_dash => {
                self.emit_current();
                self.state = State::ScriptData;
            }
            Some('\0') => {
                self.error(ErrorCode::UnexpectedNullCharacter);
                self.emit_replacement();
                self.state = escaped;
            }
            None => {
                self.error(ErrorCode::EofInScriptHtmlCommentLikeText);
                return self.emit_eof();
            }
            Some(_) => {
                self.emit_current();
                self.state = escaped;
            }
        }
        Ok(())
    }

    /// 12.2.5.20 Script data escaped state.
    pub(super) fn script_data_escaped_state(&mut self) -> Step {
        self.escaped_text(false)
    }

    /// 12.2.5.21 Script data escaped dash state.
    pub(super) fn script_data_escaped_dash_state(&mut self) -> Step {
        self.escaped_dash(false, false)
    }

    /// 12.2.5.22 Script data escaped dash dash state.
    pub(super) fn script_data_escaped_dash_dash_state(&mut self) -> Step {
        self.escaped_dash(false, true)
    }

    /// 12.2.5.23 Script data escaped less-than sign state.
    pub(super) fn script_data_escaped_less_than_sign_state(&mut self) -> Step {
        match self.cur()? {
            Some('/') => {
                self.temp.clear();
                self.consume();
                self.state = State::ScriptDataEscapedEndTagOpen;
            }
            Some(c) if names::is_ascii_alpha_char(c) => {
                self.temp.clear();
                self.emit_raw(self.token_start, self.pos());
                self.state = State::ScriptDataDoubleEscapeStart;
            }
            Some(_) | None => {
                self.emit_raw(self.token_start, self.pos());
                self.state = State::ScriptDataEscaped;
            }
        }
        Ok(())
    }

    /// 12.2.5.24 Script data escaped end tag open state.
    pub(super) fn script_data_escaped_end_tag_open_state(&mut self) -> Step {
        self.text_end_tag_open(State::ScriptDataEscapedEndTagName, State::ScriptDataEscaped)
    }

    /// 12.2.5.25 Script data escaped end tag name state.
    pub(super) fn script_data_escaped_end_tag_name_state(&mut self) -> Step {
        self.text_end_tag_name(State::ScriptDataEscaped)
    }

    /// The double escape start and end states: a `script` name between `<` (or `</`) and a
    /// delimiter toggles between escaped and double escaped.
    fn double_escape_toggle(&mut self, on_match: State, otherwise: State) -> Step {
        match self.cur()? {
            Some(c) if names::is_ascii_whitespace_char(c) || c == '/' || c == '>' => {
                self.state = if self.temp == "script" {
                    on_match
                } else {
                    otherwise
                };
                self.emit_current();
            }
            Some(c) if names::is_ascii_alpha_char(c) => {
                if self.temp.len() <= 6 {
                    self.temp.push(c.to_ascii_lowercase());
                }
                self.emit_current();
            }
            Some(_) | None => self.state = otherwise,
        }
        Ok(())
    }

    /// 12.2.5.26 Script data double escape start state.
    pub(super) fn script_data_double_escape_start_state(&mut self) -> Step {
        self.double_escape_toggle(State::ScriptDataDoubleEscaped, State::ScriptDataEscaped)
    }

    /// 12.2.5.27 Script data double escaped state.
    pub(super) fn script_data_double_escaped_state(&mut self) -> Step {
        self.escaped_text(true)
    }

    /// 12.2.5.28 Script data double escaped dash state.
    pub(super) fn script_data_double_escaped_dash_state(&mut self) -> Step {
        self.escaped_dash(true, false)
    }

    /// 12.2.5.29 Script data double escaped dash dash state.
    pub(super) fn script_data_double_escaped_dash_dash_state(&mut self) -> Step {
        self.escaped_dash(true, true)
    }

    /// 12.2.5.30 Script data double escaped less-than sign state.
    pub(super) fn script_data_double_escaped_less_than_sign_state(&mut self) -> Step {
        match self.cur()? {
            Some('/') => {
                self.temp.clear();
                self.emit_current();
                self.state = State::ScriptDataDoubleEscapeEnd;
            }
            Some(_) | None => self.state = State::ScriptDataDoubleEscaped,
        }
        Ok(())
    }

    /// 12.2.5.31 Script data double escape end state.
    pub(super) fn script_data_double_escape_end_state(&mut self) -> Step {
        self.double_escape_toggle(State::ScriptDataEscaped, State::ScriptDataDoubleEscaped)
    }
}
