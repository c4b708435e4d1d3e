//! A JSON reader that keeps positions, fed in chunks split anywhere (inside a UTF-8 character, a string, a
//! number or a literal). Strict RFC 8259, with a depth limit; never panics.
//!
//! It is a push parser: [`JsonStream::push`] reads as far as the bytes so far allow and keeps only the
//! unfinished token; [`JsonStream::finish`] ends the input. Two things keep memory bounded by what the
//! checks keep rather than by the input:
//! - **items streamed**: the elements of a top-level object's `items` array (a `kubectl get -o json` List)
//!   are handed out one by one ([`JsonStream::take_items`]) as soon as each is complete, and never held in
//!   the tree;
//! - **unread fields skipped** ([`Keep::Read`]): values nothing reads are checked for validity (every
//!   error is still found, at the same place) but never built: `metadata.managedFields[]` entries except
//!   their `apiVersion`, a container's fields except `name` and `resources`, and a status's `images` and
//!   container statuses. See [`super::unread`]. Such an object or array is skipped by one scan of its
//!   bytes ([`skip_container`]) when it ends within the bytes so far and is valid; otherwise (an error to
//!   place, or more bytes to wait for) it is read token by token.
//!
//! Reading the same bytes whole or in any chunks gives the same tree and the same error.

use std::borrow::Cow;

use super::{exact, share_key, unread, Interner, Node, ParseError, Pos, ScalarKind, Str, Text, Value, MAX_DEPTH};

/// Read a whole JSON text into a tree (every field kept).
pub fn parse_json(file: &str, text: &str) -> Result<Node, ParseError> {
    let mut p = JsonStream::new(file, Keep::All, false);
    p.push(text.as_bytes())?;
    p.finish()
}

/// Which fields to build.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Keep {
    /// Every value.
    All,
    /// Only what the checks read: see [`super::unread`].
    Read,
}

enum Frame {
    Map { pos: Pos, entries: Vec<(Str, Node)>, key: Option<Str>, skip: bool },
    Seq { pos: Pos, items: Vec<Node>, skip: bool, stream: bool },
}

impl Frame {
    fn skip(&self) -> bool {
        match self {
            Frame::Map { skip, .. } | Frame::Seq { skip, .. } => *skip,
        }
    }
    fn key(&self) -> Option<&str> {
        match self {
            Frame::Map { key, .. } => key.as_deref(),
            Frame::Seq { .. } => None,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// A value (the root, after `:`, after `,` in an array).
    Value,
    /// After `[`: a value or `]`.
    FirstItem,
    /// After `{`: a key or `}`.
    FirstKey,
    /// After `,` in an object.
    Key,
    /// After a key.
    Colon,
    /// After a value in a container: `,` or its end.
    After,
    /// The root value is complete.
    Done,
}

/// What a token read needs: done, or more bytes.
enum Step {
    Done,
    More,
}

pub struct JsonStream {
    file: String,
    keep: Keep,
    /// Hand out the items of a top-level `items` array instead of keeping them.
    stream_items: bool,
    buf: Vec<u8>,
    /// The next byte to read in `buf`.
    i: usize,
    /// How much of `buf` is known to be UTF-8 (the rest is an unfinished character, or starts at `bad`).
    checked: usize,
    /// A byte of `buf` that is not UTF-8: reading stops there.
    bad: Option<usize>,
    /// Bytes dropped from the front of `buf` so far.
    dropped: u64,
    line: u32,
    /// Characters from the start of the line to `i`.
    col: u32,
    after_cr: bool,
    ended: bool,
    stack: Vec<Frame>,
    state: State,
    root: Option<Node>,
    items: Vec<Node>,
    streamed: Option<usize>,
    list_head: Option<(Option<String>, Option<String>)>,
    /// How many times the root gave an `items` key (read as Go's encoding/json reads a key given twice:
    /// the last one wins, so a second `items` takes back what the first handed out).
    items_keys: u32,
    /// When a string is unfinished at the end of the bytes, where its scan stopped (so that a very long
    /// string arriving in many chunks is scanned once, not once a chunk).
    string_hint: Option<usize>,
    /// The keys read so far, one copy each (see [`share_key`]).
    keys: Interner,
    /// Emptied buffers of closed collections, reused by the next ones open (see [`exact`]).
    spare_maps: Vec<Vec<(Str, Node)>>,
    spare_seqs: Vec<Vec<Node>>,
    /// Skip the containers nothing reads by a scan of their bytes ([`skip_container`]); off only in the
    /// tests that compare it with reading them token by token.
    scan_skipped: bool,
}

/// A string read: where its text lies in the buffer when it had no escapes, or its decoded text.
enum Got {
    Span(usize, usize),
    Decoded(String),
}

impl Got {
    fn text(self, buf: &[u8]) -> Text {
        match self {
            Got::Span(a, b) => Text::new(&utf8(buf.get(a..b).unwrap_or_default())),
            Got::Decoded(s) => Text::from(s),
        }
    }

    fn key(self, buf: &[u8], keys: &mut Interner) -> Str {
        match self {
            Got::Span(a, b) => share_key(keys, &utf8(buf.get(a..b).unwrap_or_default())),
            Got::Decoded(s) => share_key(keys, &s),
        }
    }
}

/// Bytes known to be UTF-8 (the reader checks each chunk as it comes) as text, borrowed. Checked again all
/// the same, and read lossily should they not be: `from_utf8_lossy`'s own check is slower.
fn utf8(bytes: &[u8]) -> Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(s) => Cow::Borrowed(s),
        Err(_) => String::from_utf8_lossy(bytes),
    }
}

/// Where the plain run of a string starting at `from` stops: the first quote, backslash or control
/// character, or the end of `bytes`. Eight bytes at a time (SWAR): strings are most of a snapshot's bytes,
/// and those no check reads are only scanned.
fn string_stop(bytes: &[u8], from: usize) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // A byte of `x` that is zero sets its high bit in the result (exact for the first such byte, which is all
    // that is read).
    let zero = |x: u64| x.wrapping_sub(ONES) & !x & HIGH;
    let mut j = from;
    let rest = bytes.get(from..).unwrap_or_default();
    for word in rest.chunks_exact(8) {
        let mut w = [0u8; 8];
        w.copy_from_slice(word);
        let x = u64::from_le_bytes(w);
        // Quote, backslash, or below 0x20 (the high bit of `x - 0x20` set where the byte was lower, minus
        // bytes that had the high bit set themselves).
        let hit = zero(x ^ (ONES * u64::from(b'"')))
            | zero(x ^ (ONES * u64::from(b'\\')))
            | (x.wrapping_sub(ONES * 0x20) & !x & HIGH);
        if hit != 0 {
            return j + (hit.trailing_zeros() / 8) as usize;
        }
        j += 8;
    }
    j + bytes.get(j..).unwrap_or_default().iter().take_while(|&&b| b != b'"' && b != b'\\' && b >= 0x20).count()
}

/// How many spaces `bytes` starts with, eight at a time.
fn spaces(bytes: &[u8]) -> usize {
    let mut n = 0;
    for word in bytes.chunks_exact(8) {
        let mut w = [0u8; 8];
        w.copy_from_slice(word);
        let other = u64::from_le_bytes(w) ^ 0x2020_2020_2020_2020;
        if other != 0 {
            return n + (other.trailing_zeros() / 8) as usize;
        }
        n += 8;
    }
    n + bytes.get(n..).unwrap_or_default().iter().take_while(|&&b| b == b' ').count()
}

/// A value nothing reads (see [`Keep::Read`]), skipped by a scan of its bytes rather than token by token:
/// where it ends, and the line breaks in it. What the reader accepts, it accepts: strict JSON, depth within
/// [`MAX_DEPTH`].
struct Skipped {
    /// The byte after the value.
    end: usize,
    /// Line breaks in it (a CRLF is one).
    lines: u32,
    /// The byte after its last line break, when it had one.
    line_start: Option<usize>,
}

/// Skip the container (`{` or `[`) at `from`, read at stack depth `depth`. `None` when it does not end
/// within `bytes`, nests deeper than the scan keeps (64) or than [`MAX_DEPTH`], or is not valid JSON: the
/// reader then reads it token by token, and finds the error, at the same place, or waits for more bytes.
fn skip_container(bytes: &[u8], from: usize, depth: usize) -> Option<Skipped> {
    // Open containers, innermost in the lowest bit: 1 for an object.
    let mut open: u64 = 0;
    let mut opened = 0usize;
    let limit = MAX_DEPTH.checked_sub(depth)?.min(63);
    let mut at = Skipped { end: from, lines: 0, line_start: None };
    let mut j = from;
    // Whitespace at `j`, counting line breaks as the reader does (LF, CRLF, a lone CR).
    let ws = |j: &mut usize, at: &mut Skipped| {
        while let Some(&b) = bytes.get(*j) {
            match b {
                b' ' => *j += spaces(bytes.get(*j..).unwrap_or_default()),
                b'\t' => *j += 1,
                b'\n' => {
                    if *j == 0 || bytes.get(*j - 1) != Some(&b'\r') {
                        at.lines += 1;
                    }
                    *j += 1;
                    at.line_start = Some(*j);
                }
                b'\r' => {
                    at.lines += 1;
                    *j += 1;
                    at.line_start = Some(*j);
                }
                _ => return,
            }
        }
    };
    // A key and its colon (at the key's opening quote).
    let key = |j: &mut usize, at: &mut Skipped| -> Option<()> {
        (bytes.get(*j) == Some(&b'"')).then_some(())?;
        *j = skip_string(bytes, *j)?;
        ws(j, at);
        (bytes.get(*j) == Some(&b':')).then_some(())?;
        *j += 1;
        Some(())
    };
    loop {
        // A value at `j`, inside `opened` containers.
        ws(&mut j, &mut at);
        if opened > limit {
            return None;
        }
        match *bytes.get(j)? {
            c @ (b'{' | b'[') => {
                open = open << 1 | u64::from(c == b'{');
                opened += 1;
                j += 1;
                ws(&mut j, &mut at);
                match *bytes.get(j)? {
                    b'}' if c == b'{' => j += 1,
                    b']' if c == b'[' => j += 1,
                    _ if c == b'{' => {
                        key(&mut j, &mut at)?;
                        continue;
                    }
                    _ => continue,
                }
                open >>= 1;
                opened -= 1;
            }
            b'"' => j = skip_string(bytes, j)?,
            b't' => j = skip_word(bytes, j, b"true")?,
            b'f' => j = skip_word(bytes, j, b"false")?,
            b'n' => j = skip_word(bytes, j, b"null")?,
            b'-' | b'0'..=b'9' => j = skip_number(bytes, j)?,
            _ => return None,
        }
        // After a value: the next of its container, or the container's end.
        loop {
            if opened == 0 {
                at.end = j;
                return Some(at);
            }
            ws(&mut j, &mut at);
            let in_map = open & 1 == 1;
            match (*bytes.get(j)?, in_map) {
                (b',', true) => {
                    j += 1;
                    ws(&mut j, &mut at);
                    key(&mut j, &mut at)?;
                    break;
                }
                (b',', false) => {
                    j += 1;
                    break;
                }
                (b'}', true) | (b']', false) => {
                    j += 1;
                    open >>= 1;
                    opened -= 1;
                }
                _ => return None,
            }
        }
    }
}

/// The byte after the string whose opening quote is at `from`, when it ends within `bytes` and its
/// escapes are valid.
fn skip_string(bytes: &[u8], from: usize) -> Option<usize> {
    let mut j = from + 1;
    loop {
        j = string_stop(bytes, j);
        match *bytes.get(j)? {
            b'"' => return Some(j + 1),
            b'\\' => match *bytes.get(j + 1)? {
                b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => j += 2,
                b'u' => {
                    bytes.get(j + 2..j + 6)?.iter().all(u8::is_ascii_hexdigit).then_some(())?;
                    j += 6;
                }
                _ => return None,
            },
            // A control character.
            _ => return None,
        }
    }
}

fn skip_word(bytes: &[u8], from: usize, word: &[u8]) -> Option<usize> {
    bytes.get(from..)?.starts_with(word).then_some(from + word.len())
}

/// A number as the reader takes it (`-`, digits, `.` and digits, an exponent), when something follows it
/// within `bytes`.
fn skip_number(bytes: &[u8], from: usize) -> Option<usize> {
    let digits = |from: usize| -> Option<usize> {
        let n = bytes.get(from..)?.iter().take_while(|b| b.is_ascii_digit()).count();
        (n > 0 && from + n < bytes.len()).then_some(from + n)
    };
    let mut j = digits(from + usize::from(bytes.get(from) == Some(&b'-')))?;
    if bytes.get(j) == Some(&b'.') {
        j = digits(j + 1)?;
    }
    if matches!(bytes.get(j), Some(b'e' | b'E')) {
        j = digits(j + 1 + usize::from(matches!(bytes.get(j + 1), Some(b'+' | b'-'))))?;
    }
    Some(j)
}

fn chars(bytes: &[u8]) -> u32 {
    // Count the bytes that start a UTF-8 character (the text is valid UTF-8 up to `checked`).
    let n = bytes.iter().filter(|b| (**b as i8) >= -0x40).count();
    u32::try_from(n).unwrap_or(u32::MAX)
}

impl JsonStream {
    pub fn new(file: &str, keep: Keep, stream_items: bool) -> JsonStream {
        JsonStream {
            file: file.to_owned(),
            keep,
            stream_items,
            buf: Vec::new(),
            i: 0,
            checked: 0,
            bad: None,
            dropped: 0,
            line: 1,
            col: 0,
            after_cr: false,
            ended: false,
            stack: Vec::new(),
            state: State::Value,
            root: None,
            items: Vec::new(),
            streamed: None,
            list_head: None,
            items_keys: 0,
            string_hint: None,
            keys: Interner::new(),
            spare_maps: Vec::new(),
            spare_seqs: Vec::new(),
            scan_skipped: true,
        }
    }

    /// Bytes read so far (the unfinished token included).
    pub fn bytes_read(&self) -> u64 {
        self.dropped.saturating_add(self.buf.len() as u64)
    }

    /// The items of the top-level `items` array completed since the last call, in order.
    pub fn take_items(&mut self) -> Vec<Node> {
        std::mem::take(&mut self.items)
    }

    /// How many `items` keys the root has given so far: when this grows past 1, the items handed out
    /// before belong to an `items` that a later one replaces (the last key wins), and are to be taken back.
    pub fn items_keys(&self) -> u32 {
        self.items_keys
    }

    /// How many items were handed out, once the `items` array has ended (`None` when the root had no
    /// `items` array, or has not closed it yet).
    pub fn streamed(&self) -> Option<usize> {
        self.streamed
    }

    /// The root's `kind` and `apiVersion` as they were when its `items` array began (each `None` when
    /// written after it, as kubectl does with `kind`); `None` before an `items` array began.
    pub fn list_head(&self) -> Option<&(Option<String>, Option<String>)> {
        self.list_head.as_ref()
    }

    fn root_scalar(&self, key: &str) -> Option<String> {
        match self.stack.first() {
            Some(Frame::Map { entries, .. }) => {
                entries.iter().rev().find(|(k, _)| k == key).and_then(|(_, v)| v.as_str()).map(str::to_owned)
            }
            _ => None,
        }
    }

    /// Add bytes and read as far as they allow.
    pub fn push(&mut self, chunk: &[u8]) -> Result<(), ParseError> {
        if self.i > 0 && self.i >= self.buf.len() / 2 {
            // Drop what is read (an unfinished token stays); amortised linear.
            self.buf.drain(..self.i);
            self.dropped = self.dropped.saturating_add(self.i as u64);
            self.checked -= self.i;
            self.bad = self.bad.map(|b| b - self.i);
            self.string_hint = self.string_hint.map(|h| h.saturating_sub(self.i));
            self.i = 0;
        }
        self.buf.extend_from_slice(chunk);
        if self.bad.is_none() {
            match std::str::from_utf8(self.buf.get(self.checked..).unwrap_or_default()) {
                Ok(_) => self.checked = self.buf.len(),
                Err(e) => {
                    self.checked += e.valid_up_to();
                    if e.error_len().is_some() {
                        self.bad = Some(self.checked);
                    }
                }
            }
        }
        if self.string_hint.is_some() && !chunk.iter().any(|b| *b == b'"' || *b == b'\\') && self.bad.is_none() {
            // Still inside the same long string: nothing new to read yet.
            return Ok(());
        }
        self.run()
    }

    /// End the input: the root value, with `items` left empty when they were handed out.
    pub fn finish(mut self) -> Result<Node, ParseError> {
        self.ended = true;
        if self.bad.is_none() && self.checked < self.buf.len() {
            // An unfinished UTF-8 character at the very end.
            self.bad = Some(self.checked);
        }
        self.string_hint = None;
        self.run()?;
        self.root.take().ok_or_else(|| self.error_at(self.i, "unexpected end of input"))
    }

    /// Is the end of what can be read the end of the input (no more bytes, none bad)?
    fn at_eof(&self) -> bool {
        self.ended && self.bad.is_none() && self.checked == self.buf.len()
    }

    fn pos(&self) -> Pos {
        Pos { line: self.line, col: self.col.saturating_add(1) }
    }

    /// An error at byte `at` of `buf` (on the current line, at or after `i`).
    fn error_at(&self, at: usize, message: &str) -> ParseError {
        let extra = chars(self.buf.get(self.i..at).unwrap_or_default());
        ParseError {
            file: self.file.clone(),
            line: Some(self.line),
            col: Some(self.col.saturating_add(extra).saturating_add(1)),
            message: message.to_owned(),
        }
    }

    fn error(&self, message: &str) -> ParseError {
        self.error_at(self.i, message)
    }

    /// Move past `n` bytes of a token (no line breaks in them).
    fn advance(&mut self, n: usize) {
        let end = (self.i + n).min(self.buf.len());
        self.col = self.col.saturating_add(chars(self.buf.get(self.i..end).unwrap_or_default()));
        self.i = end;
        self.after_cr = false;
    }

    fn skip_ws(&mut self) {
        // On a local slice and locals: pretty-printed JSON is a third blanks, most of them runs of spaces
        // after a line break.
        let bytes = self.buf.get(self.i..self.checked).unwrap_or_default();
        let (mut line, mut col, mut after_cr) = (self.line, self.col, self.after_cr);
        let mut k = 0;
        while let Some(&b) = bytes.get(k) {
            match b {
                b' ' => {
                    // A run of spaces (an indent) at once.
                    let run = spaces(bytes.get(k..).unwrap_or_default());
                    col = col.saturating_add(u32::try_from(run).unwrap_or(u32::MAX));
                    after_cr = false;
                    k += run;
                    continue;
                }
                b'\t' => {
                    col = col.saturating_add(1);
                    after_cr = false;
                }
                // A line ends at LF, CRLF, or a lone CR (old Mac files), as YAML counts lines.
                b'\n' => {
                    if !after_cr {
                        line = line.saturating_add(1);
                    }
                    after_cr = false;
                    col = 0;
                }
                b'\r' => {
                    line = line.saturating_add(1);
                    col = 0;
                    after_cr = true;
                }
                _ => break,
            }
            k += 1;
        }
        self.i += k;
        (self.line, self.col, self.after_cr) = (line, col, after_cr);
    }

    fn run(&mut self) -> Result<(), ParseError> {
        loop {
            self.skip_ws();
            let b = if self.i < self.checked { self.buf.get(self.i).copied() } else { None };
            if b.is_none() && !self.at_eof() {
                // Out of bytes: wait for more, unless reading stopped at a byte that is not UTF-8 (all before
                // it read without an error: the bad byte is the error, as `check()` names it).
                if let Some(bad) = self.bad {
                    return Err(self.error_at(bad, "not UTF-8 text"));
                }
                return Ok(());
            }
            let step = match self.state {
                State::Done => match b {
                    None => return Ok(()),
                    Some(_) => return Err(self.error("unexpected text after the JSON value")),
                },
                State::Value => self.value(b)?,
                State::FirstItem if b == Some(b']') => {
                    self.advance(1);
                    self.close()?;
                    Step::Done
                }
                State::FirstItem => self.value(b)?,
                State::FirstKey if b == Some(b'}') => {
                    self.advance(1);
                    self.close()?;
                    Step::Done
                }
                State::FirstKey | State::Key => {
                    if b != Some(b'"') {
                        return Err(self.error("expected a string key"));
                    }
                    let store = !self.stack.last().is_some_and(Frame::skip);
                    match self.string(store)? {
                        None => Step::More,
                        Some(key) => {
                            let key = key.map_or_else(Str::default, |g| g.key(&self.buf, &mut self.keys));
                            if self.stream_items && self.stack.len() == 1 && key == "items" {
                                self.items_keys = self.items_keys.saturating_add(1);
                                if self.items_keys > 1 {
                                    // The last `items` wins: the earlier one's items not yet taken go.
                                    self.items.clear();
                                    self.streamed = None;
                                    self.list_head = None;
                                }
                            }
                            if let Some(Frame::Map { key: k, .. }) = self.stack.last_mut() {
                                *k = Some(key);
                            }
                            self.state = State::Colon;
                            Step::Done
                        }
                    }
                }
                State::Colon => {
                    if b != Some(b':') {
                        return Err(self.error("expected ':' after the key"));
                    }
                    self.advance(1);
                    self.state = State::Value;
                    Step::Done
                }
                State::After => {
                    let in_map = matches!(self.stack.last(), Some(Frame::Map { .. }));
                    match (b, in_map) {
                        (Some(b','), true) => {
                            self.advance(1);
                            self.state = State::Key;
                        }
                        (Some(b','), false) => {
                            self.advance(1);
                            self.state = State::Value;
                        }
                        (Some(b'}'), true) | (Some(b']'), false) => {
                            self.advance(1);
                            self.close()?;
                        }
                        (_, true) => return Err(self.error("expected ',' or '}'")),
                        (_, false) => return Err(self.error("expected ',' or ']'")),
                    }
                    Step::Done
                }
            };
            if let Step::More = step {
                if let Some(bad) = self.bad {
                    return Err(self.error_at(bad, "not UTF-8 text"));
                }
                return Ok(());
            }
        }
    }

    /// Does the value about to start go unbuilt?
    fn skipping(&self) -> bool {
        self.stack.last().is_some_and(Frame::skip) || (self.keep == Keep::Read && unread(&self.stack))
    }

    fn value(&mut self, b: Option<u8>) -> Result<Step, ParseError> {
        if self.stack.len() > MAX_DEPTH {
            return Err(self.error("nested too deeply"));
        }
        let pos = self.pos();
        let skip = self.skipping();
        if skip && self.scan_skipped && matches!(b, Some(b'{' | b'[')) {
            if let Some(s) = skip_container(self.buf.get(..self.checked).unwrap_or_default(), self.i, self.stack.len())
            {
                let (from, to) = (s.line_start.unwrap_or(self.i), s.end);
                let chars = chars(self.buf.get(from..to).unwrap_or_default());
                self.col = if s.line_start.is_some() { chars } else { self.col.saturating_add(chars) };
                self.line = self.line.saturating_add(s.lines);
                self.after_cr = false;
                self.i = to;
                self.complete(None)?;
                return Ok(Step::Done);
            }
        }
        match b {
            Some(b'{') => {
                self.advance(1);
                let entries = self.spare_maps.pop().unwrap_or_default();
                self.stack.push(Frame::Map { pos, entries, key: None, skip });
                self.state = State::FirstKey;
                Ok(Step::Done)
            }
            Some(b'[') => {
                self.advance(1);
                let stream = self.stream_items
                    && !skip
                    && self.stack.len() == 1
                    && self.stack.first().and_then(Frame::key) == Some("items");
                if stream {
                    self.list_head = Some((self.root_scalar("kind"), self.root_scalar("apiVersion")));
                }
                let items = self.spare_seqs.pop().unwrap_or_default();
                self.stack.push(Frame::Seq { pos, items, skip, stream });
                self.state = State::FirstItem;
                Ok(Step::Done)
            }
            Some(b'"') => match self.string(!skip)? {
                None => Ok(Step::More),
                Some(s) => {
                    let node = s.map(|g| Node::new(pos, Value::Scalar(g.text(&self.buf), ScalarKind::Str)));
                    self.complete(node)?;
                    Ok(Step::Done)
                }
            },
            Some(b't') => self.literal("true", pos, skip),
            Some(b'f') => self.literal("false", pos, skip),
            Some(b'n') => self.literal("null", pos, skip),
            Some(b'-' | b'0'..=b'9') => self.number(pos, skip),
            Some(_) => Err(self.error("expected a JSON value")),
            None => Err(self.error("unexpected end of input")),
        }
    }

    /// A value is complete (`None`: skipped): into its container, or the root.
    fn complete(&mut self, node: Option<Node>) -> Result<(), ParseError> {
        match self.stack.last_mut() {
            None => {
                self.root = node;
                self.state = State::Done;
            }
            Some(Frame::Map { entries, key, .. }) => {
                let k = key.take();
                if let (Some(k), Some(n)) = (k, node) {
                    entries.push((k, n));
                }
                self.state = State::After;
            }
            Some(Frame::Seq { items, stream, .. }) => {
                if let Some(n) = node {
                    if *stream {
                        self.items.push(n);
                        self.streamed = Some(self.streamed.unwrap_or(0) + 1);
                    } else {
                        items.push(n);
                    }
                }
                self.state = State::After;
            }
        }
        Ok(())
    }

    /// The container on top ends.
    fn close(&mut self) -> Result<(), ParseError> {
        let node = match self.stack.pop() {
            Some(Frame::Map { pos, entries, skip, .. }) => {
                let entries = exact(entries, &mut self.spare_maps);
                (!skip).then(|| Node::new(pos, Value::Map(entries)))
            }
            Some(Frame::Seq { pos, items, skip, stream }) => {
                if stream {
                    self.streamed = Some(self.streamed.unwrap_or(0));
                }
                let items = exact(items, &mut self.spare_seqs);
                (!skip).then(|| Node::new(pos, Value::Seq(items)))
            }
            None => None,
        };
        self.complete(node)
    }

    fn literal(&mut self, word: &str, pos: Pos, skip: bool) -> Result<Step, ParseError> {
        let have = self.buf.get(self.i..self.checked).unwrap_or_default();
        let w = word.as_bytes();
        if have.len() < w.len() && w.starts_with(have) && !self.at_eof() {
            return Ok(Step::More);
        }
        if !have.starts_with(w) {
            return Err(self.error("expected a JSON value"));
        }
        self.advance(w.len());
        let node = (!skip).then(|| {
            if word == "null" {
                Node::new(pos, Value::Null)
            } else {
                Node::new(pos, Value::Scalar(Text::new(word), ScalarKind::Plain))
            }
        });
        self.complete(node)?;
        Ok(Step::Done)
    }

    fn number(&mut self, pos: Pos, skip: bool) -> Result<Step, ParseError> {
        let bytes = self.buf.get(self.i..self.checked).unwrap_or_default();
        // The digits from `from`: where they end (`None`: at the end of the bytes, more may come), or the
        // error when there are none.
        let digits = |from: usize, message: &str| -> Result<Option<usize>, ParseError> {
            let end = from + bytes.get(from..).unwrap_or_default().iter().take_while(|b| b.is_ascii_digit()).count();
            if end >= bytes.len() && !self.at_eof() {
                Ok(None)
            } else if end == from {
                Err(self.error_at(self.i + end, message))
            } else {
                Ok(Some(end))
            }
        };
        let sign = usize::from(bytes.first() == Some(&b'-'));
        let Some(mut j) = digits(sign, "expected digits")? else { return Ok(Step::More) };
        if bytes.get(j) == Some(&b'.') {
            let Some(end) = digits(j + 1, "expected digits after '.'")? else { return Ok(Step::More) };
            j = end;
        }
        if matches!(bytes.get(j), Some(b'e' | b'E')) {
            let sign = usize::from(matches!(bytes.get(j + 1), Some(b'+' | b'-')));
            let Some(end) = digits(j + 1 + sign, "expected digits in the exponent")? else { return Ok(Step::More) };
            j = end;
        }
        let raw = (!skip).then(|| Text::new(&utf8(bytes.get(..j).unwrap_or_default())));
        self.advance(j);
        self.complete(raw.map(|r| Node::new(pos, Value::Scalar(r, ScalarKind::Plain))))?;
        Ok(Step::Done)
    }

    /// A string at `i` (the opening quote): `None` when it is unfinished, `Some(None)` when read but not
    /// kept.
    #[allow(clippy::option_option)]
    fn string(&mut self, store: bool) -> Result<Option<Option<Got>>, ParseError> {
        let end = self.checked;
        let bytes = self.buf.get(..end).unwrap_or_default();
        // A string without escapes, the usual case: find its end, check it, copy it once.
        let j = string_stop(bytes, self.string_hint.take().filter(|h| *h > self.i).unwrap_or(self.i + 1));
        match bytes.get(j) {
            None => {
                if self.at_eof() {
                    return Err(self.error_at(j, "unterminated string"));
                }
                self.string_hint = Some(j);
                return Ok(None);
            }
            Some(b'"') => {
                let s = store.then_some(Got::Span(self.i + 1, j));
                self.advance(j + 1 - self.i);
                return Ok(Some(s));
            }
            Some(_) => {}
        }
        // With escapes: read it from the start, decoding.
        let mut out: Vec<u8> = Vec::new();
        let mut j = self.i + 1;
        loop {
            let s = j;
            j = string_stop(bytes, j);
            if store {
                out.extend_from_slice(bytes.get(s..j).unwrap_or_default());
            }
            match bytes.get(j) {
                Some(b'"') => {
                    let s = store.then(|| Got::Decoded(utf8(&out).into_owned()));
                    self.advance(j + 1 - self.i);
                    return Ok(Some(s));
                }
                Some(b'\\') => {
                    j += 1;
                    let Some(&esc) = bytes.get(j) else {
                        return self.unfinished(j, "unterminated string");
                    };
                    j += 1;
                    let c = match esc {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => {
                            let hi = match self.hex4(bytes, j)? {
                                Some(v) => v,
                                None => return self.unfinished(j, "short \\u escape"),
                            };
                            j += 4;
                            let c = if (0xD800..0xDC00).contains(&hi) {
                                match bytes.get(j..j + 2) {
                                    Some(b"\\u") => match self.hex4(bytes, j + 2)? {
                                        None => return self.unfinished(j + 2, "short \\u escape"),
                                        // A pair only with a low surrogate; else the high one alone is
                                        // U+FFFD and the escape after it is read on its own (Go's
                                        // encoding/json, `unquote`: kubectl's reader).
                                        Some(lo) if (0xDC00..0xE000).contains(&lo) => {
                                            j += 6;
                                            char::from_u32(0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00))
                                        }
                                        Some(_) => None,
                                    },
                                    // Whether a `\u` follows is not known yet.
                                    _ if bytes.len() < j + 2 && !self.at_eof() => return Ok(None),
                                    _ => None,
                                }
                            } else {
                                char::from_u32(hi)
                            };
                            c.unwrap_or('\u{fffd}')
                        }
                        _ => return Err(self.error_at(j, "bad escape in string")),
                    };
                    if store {
                        let mut tmp = [0u8; 4];
                        out.extend_from_slice(c.encode_utf8(&mut tmp).as_bytes());
                    }
                }
                Some(_) => return Err(self.error_at(j, "control character in string")),
                None => return self.unfinished(j, "unterminated string"),
            }
        }
    }

    /// A string that ends with the bytes so far: an error at the end of the input, else wait for more.
    #[allow(clippy::option_option)]
    fn unfinished(&self, at: usize, message: &str) -> Result<Option<Option<Got>>, ParseError> {
        if self.at_eof() {
            Err(self.error_at(at, message))
        } else {
            Ok(None)
        }
    }

    /// Four hex digits at `j`: `None` while fewer than four bytes are there (and more may come).
    fn hex4(&self, bytes: &[u8], j: usize) -> Result<Option<u32>, ParseError> {
        let Some(h) = bytes.get(j..j + 4) else {
            if self.at_eof() {
                return Err(self.error_at(j, "short \\u escape"));
            }
            return Ok(None);
        };
        let mut v = 0u32;
        for b in h {
            let d = char::from(*b).to_digit(16).ok_or_else(|| self.error_at(j, "bad \\u escape"))?;
            v = v * 16 + d;
        }
        Ok(Some(v))
    }
}

impl super::PathFrame for Frame {
    fn key(&self) -> Option<&str> {
        Frame::key(self)
    }
    fn is_seq(&self) -> bool {
        matches!(self, Frame::Seq { .. })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spaces_counts_the_leading_run() {
        for n in 0..20 {
            for after in [&b""[..], b"x", b"\t ", b"\n"] {
                let mut b = vec![b' '; n];
                b.extend_from_slice(after);
                assert_eq!(spaces(&b), n, "{n} then {after:?}");
            }
        }
    }

    #[test]
    fn string_stop_finds_the_first_quote_backslash_or_control_character() {
        let naive = |b: &[u8], from: usize| {
            from + b[from..].iter().take_while(|&&c| c != b'"' && c != b'\\' && c >= 0x20).count()
        };
        // Every stop byte at every place of a 20-byte run, after every start, with bytes on both sides of
        // each limit (0x1f/0x20, 0x7f/0x80, 0xff) around it.
        for stop in [b'"', b'\\', 0x00, 0x1f, b'\n'] {
            for at in 0..20 {
                for fill in [b'a', 0x20, 0x21, 0x5b, 0x5d, 0x7f, 0x80, 0xc3, 0xff] {
                    let mut b = vec![fill; 20];
                    b[at] = stop;
                    for from in 0..=at {
                        assert_eq!(
                            string_stop(&b, from),
                            naive(&b, from),
                            "{stop:#x} at {at} in {fill:#x} from {from}"
                        );
                    }
                }
            }
        }
        assert_eq!(string_stop(b"abcdefghijklmnop", 3), 16);
        assert_eq!(string_stop(b"", 0), 0);
    }

    #[test]
    fn reads_positions_and_values() {
        let n = parse_json("a.json", "{\n  \"items\": [\n    {\"kind\": \"Pod\", \"n\": -1.5e3},\n    null\n  ]\n}")
            .unwrap();
        let items = n.get("items").as_seq();
        assert_eq!(items.len(), 2);
        assert_eq!(items[0].pos, Pos { line: 3, col: 5 });
        assert_eq!(items[0].get("kind").as_str(), Some("Pod"));
        assert_eq!(items[0].get("n").as_str(), Some("-1.5e3"));
        assert!(items[1].is_null());
    }

    #[test]
    fn errors_name_line_and_column() {
        let e = parse_json("bad.json", "{\n  \"a\": 1,\n  \"b\" 2\n}").unwrap_err();
        assert_eq!((e.line, e.col), (Some(3), Some(7)));
        assert!(e.to_string().starts_with("bad.json:3:7: "));
        // Lines end at a lone CR too.
        let e = parse_json("cr.json", "{\r  \"a\": 1,\r  \"b\": tru\r}").unwrap_err();
        assert_eq!(e.line, Some(3), "{e}");
        let e = parse_json("crlf.json", "{\r\n  \"a\": 1,\r\n  \"b\": tru\r\n}").unwrap_err();
        assert_eq!(e.line, Some(3), "{e}");
        let e = parse_json("x", "[\"é\", 1.x]").unwrap_err();
        assert_eq!((e.col, e.message.as_str()), (Some(9), "expected digits after '.'"));
        let e = parse_json("x", "{\"é\": \"a\\q\"}").unwrap_err();
        assert_eq!((e.col, e.message.as_str()), (Some(11), "bad escape in string"));
    }

    #[test]
    fn escapes_and_unicode() {
        let n = parse_json("x", r#"["a\"b\u00e9\ud83d\ude00", "é"]"#).unwrap();
        assert_eq!(n.as_seq()[0].as_str(), Some("a\"bé😀"));
        assert_eq!(n.as_seq()[1].as_str(), Some("é"));
    }

    /// Surrogate escapes as Go's encoding/json (kubectl's reader) decodes them: a pair is one character; a high
    /// surrogate not followed by a low one is U+FFFD and what follows is read on its own; a lone low one is
    /// U+FFFD.
    #[test]
    fn lone_surrogates_read_as_go_reads_them() {
        let n =
            parse_json("x", r#"["\ud83d\ude00", "\ud800\u0041", "\ud800x", "\udc00", "\ud800\ud800\udc00"]"#).unwrap();
        let got: Vec<&str> = n.as_seq().iter().filter_map(|v| v.as_str()).collect();
        assert_eq!(got, ["😀", "\u{fffd}A", "\u{fffd}x", "\u{fffd}", "\u{fffd}\u{10000}"]);
    }

    #[test]
    fn hostile_input_is_an_error_not_a_panic() {
        for bad in [
            "",
            "{",
            "[1,",
            "\"abc",
            "\"\\u12",
            "[\"\\ud800\\u",
            "-",
            "1.",
            "1e",
            "tru",
            "{\"a\"",
            "[1,]",
            "{} x",
            "\"a\u{1}\"",
            &"[".repeat(10_000),
        ] {
            assert!(parse_json("x", bad).is_err(), "{bad:?}");
        }
    }

    /// Every split of every text gives what the whole text gives: the tree, or the error.
    #[test]
    fn any_split_reads_the_same() {
        let texts: Vec<&[u8]> = vec![
            b"{\"kind\": \"List\", \"items\": [{\"a\": \"\xc3\xa9t\xc3\xa9\\u00e9\\ud83d\\ude00\", \"n\": -12.5e+3}, true, null, false, [1, 2]], \"z\": {}}\r\n",
            b"[\"\\ud800x\", 1.25, \"\\\"\\\\\\/\\b\\f\\n\\r\\t\"]",
            b"{\"a\": [1, 2,]}",
            b"{\"a\": \"x\xffy\"}",
            b"{\"a\": 1} \xc3",
            b"{\"a\": 10e}",
            b"\r\n\r{\"a\":\r\n nul}",
        ];
        for text in texts {
            let whole = {
                let mut p = JsonStream::new("t", Keep::All, false);
                p.push(text).and_then(|()| p.finish())
            };
            for cut in 0..=text.len() {
                for step in [1, 2, 3, text.len().max(1)] {
                    let mut p = JsonStream::new("t", Keep::All, false);
                    let (a, b) = text.split_at(cut);
                    let mut r = p.push(a);
                    for c in b.chunks(step) {
                        if r.is_err() {
                            break;
                        }
                        r = p.push(c);
                    }
                    let got = r.and_then(|()| p.finish());
                    assert_eq!(got, whole, "{:?} cut at {cut}, then {step}", String::from_utf8_lossy(text));
                }
            }
        }
    }

    /// Read `text` in chunks of `step` with the containers nothing reads scanned (or not): the items handed
    /// out and the root, or the error.
    fn read_skipping(text: &[u8], step: usize, scan: bool) -> Result<(Vec<Node>, Node), ParseError> {
        let mut p = JsonStream::new("t", Keep::Read, true);
        p.scan_skipped = scan;
        let mut items = Vec::new();
        for c in text.chunks(step.max(1)) {
            p.push(c)?;
            items.extend(p.take_items());
        }
        let root = p.finish()?;
        Ok((items, root))
    }

    /// Skipping a container by a scan of its bytes reads what reading it token by token reads: the same
    /// tree, positions and error (message, line and column), whatever the text and however it is split.
    #[test]
    fn scanned_skips_read_as_token_by_token() {
        let deep = |n: usize, inner: &str| format!("{}{inner}{}", "[".repeat(n), "]".repeat(n));
        let pod = |env: &str| {
            format!(
                "{{\"kind\": \"List\", \"items\": [\n {{\"kind\": \"Pod\", \"metadata\": {{\"name\": \"a\", \
                 \"managedFields\": [{{\"apiVersion\": \"v1\", \"fieldsV1\": {{\"f:x\": {{}}, \"f:y\": {{\".\": {{}}}}}}}}]}},\r\n  \
                 \"spec\": {{\"containers\": [{{\"name\": \"c\", \"env\": {env}, \"resources\": {{}}}}]}},\r  \
                 \"status\": {{\"images\": [{{\"names\": [\"x\", \"\u{e9}\"], \"sizeBytes\": 12}}], \"phase\": \"Running\"}}}}\n]}}\n"
            )
        };
        let mut texts: Vec<Vec<u8>> = [
            pod("[{\"name\": \"X\", \"value\": \"a\\\"b\\u00e9\\ud83d\\ude00\\n\"}, {\"name\": \"Y\"}]"),
            pod("[\n\t[], {}, [[]], {\"a\": [1, -2.5e+3, 0.0, 1E9]}, true, false, null\r\n]"),
            pod("{\"a\": {\"b\": {\"c\": [\"\\/\\b\\f\\r\\t\\\\\"]}}}"),
            // Nested as deep as the reader allows and one more (a value, an empty list), and deeper than the
            // scan keeps.
            pod(&deep(MAX_DEPTH - 6, "1")),
            pod(&deep(MAX_DEPTH - 5, "1")),
            pod(&deep(MAX_DEPTH - 5, "")),
            pod(&deep(MAX_DEPTH - 4, "")),
            pod(&deep(70, "\"x\"")),
        ]
        .into_iter()
        .map(String::into_bytes)
        .collect();
        // Every byte of the first two, and of a short one, replaced by each byte that ends, opens, breaks
        // or miscounts something.
        let short = pod("[{\"n\": \"v\"}, [1]]").into_bytes();
        let mut mutated = Vec::new();
        for text in [&texts[0], &texts[1], &short] {
            for at in 0..text.len() {
                for b in *b"\"\\{}[],: \n\rx0-e.u\x01\xc3\xff" {
                    let mut t = text.clone();
                    t[at] = b;
                    mutated.push(t);
                }
                mutated.push(text[..at].to_vec());
            }
        }
        texts.extend(mutated);
        for text in &texts {
            let whole = read_skipping(text, text.len(), false);
            for step in [text.len(), 1, 7, 64] {
                assert_eq!(
                    read_skipping(text, step, true),
                    whole,
                    "{:?} in chunks of {step}",
                    String::from_utf8_lossy(text)
                );
            }
        }
        // The deep ones (the env's value is read at depth 6): a value at depth 200 reads, at 201 does not,
        // and one deeper than the scan keeps is read all the same.
        let deepest = |t: &Vec<u8>| read_skipping(t, 1 << 20, true).map_err(|e| e.message);
        assert!(deepest(&texts[3]).is_ok());
        assert_eq!(deepest(&texts[4]).unwrap_err(), "nested too deeply");
        assert!(deepest(&texts[5]).is_ok());
        assert_eq!(deepest(&texts[6]).unwrap_err(), "nested too deeply");
        assert!(deepest(&texts[7]).is_ok());
    }

    #[test]
    fn items_are_handed_out_and_unread_fields_skipped() {
        let text = br#"{"apiVersion": "v1", "items": [
 {"kind": "Pod", "metadata": {"name": "a", "managedFields": [{"apiVersion": "v1", "fieldsV1": {"f:x": {}}}]},
  "spec": {"containers": [{"name": "c", "env": [{"name": "X", "value": "\u00e9"}], "resources": {"requests": {"cpu": "1"}}}]},
  "status": {"images": [{"names": ["x"]}], "phase": "Running"}},
 {"kind": "Pod", "metadata": {"name": "b"}}
], "kind": "List"}"#;
        let mut p = JsonStream::new("t", Keep::Read, true);
        p.push(&text[..40]).unwrap();
        let mut items = p.take_items();
        p.push(&text[40..]).unwrap();
        items.extend(p.take_items());
        assert_eq!(p.streamed(), Some(2));
        let root = p.finish().unwrap();
        assert_eq!(root.get("kind").as_str(), Some("List"));
        assert!(root.get("items").as_seq().is_empty());
        assert_eq!(items.len(), 2);
        let a = &items[0];
        assert_eq!(a.pos, Pos { line: 2, col: 2 });
        assert_eq!(a.at(&["metadata", "managedFields"]).as_seq()[0].get("apiVersion").as_str(), Some("v1"));
        assert!(a.at(&["metadata", "managedFields"]).as_seq()[0].get("fieldsV1").is_null());
        let c = &a.at(&["spec", "containers"]).as_seq()[0];
        assert_eq!(c.get("name").as_str(), Some("c"));
        assert!(c.get("env").is_null());
        assert_eq!(c.at(&["resources", "requests", "cpu"]).as_str(), Some("1"));
        assert!(a.at(&["status", "images"]).is_null());
        assert_eq!(a.at(&["status", "phase"]).as_str(), Some("Running"));
        // A skipped value is still checked.
        let mut p = JsonStream::new("t", Keep::Read, true);
        let e = p
            .push(br#"{"items": [{"spec": {"containers": [{"env": [tru]}]}}]}"#)
            .and_then(|()| p.finish())
            .unwrap_err();
        assert_eq!((e.col, e.message.as_str()), (Some(46), "expected a JSON value"));
    }
}
