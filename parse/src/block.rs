//! A reader of its own for the YAML kubectl, Helm and people write for Kubernetes: block mappings and
//! sequences (indentless ones too), plain, single- and double-quoted scalars on one line, literal block
//! scalars (`|`, `|-`), flow collections on one line (`{a: 1, b: [x, "y"]}`, entries cut by `, `),
//! full-line comments and documents cut by `---`. It gives the events yaml-rust2's parser gives, at the
//! places it gives them (its marks are particular: a block mapping starts at its first key's `:`, an
//! indentless sequence after its first `- `, a missing value at the next token, an empty entry's after the
//! next entry's `- `), in about a fifth of yaml-rust2's time (the 20,000-pod snapshot's YAML: 0.69 s
//! against 3.4-3.7 s). Its scalars are borrowed from the text where they can be ([`Ev`]): the tree
//! builder copies only what it keeps.
//!
//! It reads nothing it is not sure of. Anything else (anchors, aliases, tags, flow collections over several
//! lines or with an empty entry, a pair in a sequence, a key without a value, a plain scalar holding `:` or
//! `#`; multi-line scalars, folded or indented block scalars, trailing comments, tabs, CRs, `...`,
//! directives, and every error) stops it ([`Stop::Other`]): the events it gave are dropped and yaml-rust2
//! reads the text, so its errors are the ones reported (see `yaml::build`). The tests hold it to
//! yaml-rust2's events and places on every text it reads whole.

use std::borrow::Cow;

use yaml_rust2::parser::Event;
use yaml_rust2::scanner::TScalarStyle;

use super::Pos;
use crate::yaml::YamlStop;

/// Nesting past which the text is left to yaml-rust2 (and the tree builder's depth limit).
const MAX_NEST: usize = 100;

/// Simple keys longer than this are left to yaml-rust2 (it refuses keys over 1,024 characters).
const MAX_KEY: usize = 1000;

/// Why a walk stopped.
pub(crate) enum Stop {
    /// Something this reader does not read: yaml-rust2 reads the text.
    Other,
    /// What the receiver of the events said.
    Yaml(YamlStop),
}

/// An event as the reader hands it out: a scalar's text is borrowed from the text where it can be (the
/// tree builder copies what it keeps, and most scalars are keys it shares or values it skips).
pub(crate) enum Ev<'t> {
    /// A scalar (never anchored or tagged here).
    Scalar(Cow<'t, str>, TScalarStyle),
    /// Any other event.
    Other(Event),
}

impl Ev<'_> {
    /// As yaml-rust2 gives it.
    #[cfg(test)]
    pub(crate) fn into_event(self) -> Event {
        match self {
            Ev::Scalar(s, style) => Event::Scalar(s.into_owned(), style, 0, None),
            Ev::Other(e) => e,
        }
    }
}

type Sink<'s> = &'s mut dyn FnMut(Ev<'_>, Pos) -> Result<(), YamlStop>;

/// The events of `text`, each with its place, handed to `sink` as they are read; [`Stop::Other`] as soon
/// as the text holds something this reader does not read (the events so far are then to be dropped).
pub(crate) fn read(text: &str, sink: Sink<'_>) -> Result<(), Stop> {
    // Tabs, CRs and the characters YAML does not allow or reads as line breaks (yaml-rust2 refuses some,
    // and counts lines by others) are left to yaml-rust2.
    if crate::lines::has_control(text.as_bytes()) {
        return Err(Stop::Other);
    }
    let odd =
        |c: char| matches!(c, '\u{80}'..='\u{9f}' | '\u{2028}' | '\u{2029}' | '\u{feff}' | '\u{fffe}' | '\u{ffff}');
    let ascii = text.is_ascii();
    if !ascii && text.chars().any(odd) {
        return Err(Stop::Other);
    }
    // A last line of spaces alone, without a line break, moves where yaml-rust2 places the end.
    let last = text.rsplit('\n').next().unwrap_or_default();
    if !last.is_empty() && last.bytes().all(|b| b == b' ') {
        return Err(Stop::Other);
    }
    Walk::new(text, sink, ascii).stream()
}

/// A line's text (without its line break) and its place.
#[derive(Clone, Copy)]
struct Line<'t> {
    text: &'t str,
    /// 1-based.
    number: u32,
    /// Leading spaces.
    indent: usize,
    /// Is the whole text ASCII (a column is then a byte offset)?
    ascii: bool,
}

impl Line<'_> {
    fn content(&self) -> &str {
        self.text.get(self.indent..).unwrap_or_default()
    }
    fn is_blank(&self) -> bool {
        self.indent == self.text.len()
    }
    fn is_comment(&self) -> bool {
        self.content().starts_with('#')
    }
    fn is_document_start(&self) -> bool {
        self.text == "---" || self.text.starts_with("--- ")
    }
    fn is_document_end(&self) -> bool {
        self.text == "..." || self.text.starts_with("... ")
    }
    /// The place of byte `at` of the line (columns count characters, 1-based).
    fn pos(&self, at: usize) -> Pos {
        let before = self.text.get(..at).unwrap_or_default();
        let col = if self.ascii || before.is_ascii() { before.len() } else { before.chars().count() };
        Pos { line: self.number, col: u32::try_from(col).unwrap_or(u32::MAX).saturating_add(1) }
    }
}

/// Does a sequence entry start at byte `at` of the line (`-` then a space or the line's end)?
fn dash_at(text: &str, at: usize) -> bool {
    let rest = text.get(at..).unwrap_or_default();
    rest == "-" || rest.starts_with("- ")
}

/// Where an entry's content starts, for an entry whose `-` is at byte `d`: after the `-` and its spaces.
fn entry_content(text: &str, d: usize) -> usize {
    d + 1 + text.get(d + 1..).unwrap_or_default().bytes().take_while(|b| *b == b' ').count()
}

/// A scalar read from a line: its text and style, where it starts, and the byte after it.
struct Scalar<'t> {
    text: Cow<'t, str>,
    style: TScalarStyle,
    start: usize,
    end: usize,
}

struct Walk<'t, 's> {
    text: &'t str,
    /// Where the next line starts.
    next: usize,
    number: u32,
    /// The line read and not yet used (see [`Walk::peek`]).
    held: Option<Line<'t>>,
    sink: Sink<'s>,
    depth: usize,
    ascii: bool,
}

impl<'t, 's> Walk<'t, 's> {
    fn new(text: &'t str, sink: Sink<'s>, ascii: bool) -> Self {
        Walk { text, next: 0, number: 0, held: None, sink, depth: 0, ascii }
    }

    fn emit(&mut self, event: Event, at: Pos) -> Result<(), Stop> {
        (self.sink)(Ev::Other(event), at).map_err(Stop::Yaml)
    }

    /// A scalar, its text borrowed from the text where it can be.
    fn emit_scalar(&mut self, text: Cow<'_, str>, style: TScalarStyle, at: Pos) -> Result<(), Stop> {
        (self.sink)(Ev::Scalar(text, style), at).map_err(Stop::Yaml)
    }

    fn scalar(&mut self, s: Scalar<'_>, line: &Line<'_>) -> Result<(), Stop> {
        self.emit_scalar(s.text, s.style, line.pos(s.start))
    }

    /// The next line, raw.
    fn raw(&mut self) -> Option<Line<'t>> {
        if let Some(l) = self.held.take() {
            return Some(l);
        }
        let rest = self.text.get(self.next..)?;
        if rest.is_empty() {
            return None;
        }
        let len = rest.find('\n').unwrap_or(rest.len());
        let text = rest.get(..len).unwrap_or_default();
        self.next += (len + 1).min(rest.len());
        self.number = self.number.saturating_add(1);
        let indent = text.bytes().take_while(|b| *b == b' ').count();
        Some(Line { text, number: self.number, indent, ascii: self.ascii })
    }

    /// The next line that holds something (blank lines and full-line comments passed), left to be read.
    fn peek(&mut self) -> Option<Line<'t>> {
        while let Some(l) = self.raw() {
            if !(l.is_blank() || l.is_comment()) {
                self.held = Some(l);
                return Some(l);
            }
        }
        None
    }

    /// Where the next token is (a missing value's place): the next line that holds something, or the
    /// line after the last (yaml-rust2 places the end there, with or without a final line break).
    fn next_token(&mut self) -> Pos {
        match self.peek() {
            Some(l) => l.pos(l.indent),
            // Every line read: a last one without a line break counts as one.
            None => Pos { line: self.number.saturating_add(1), col: 1 },
        }
    }

    fn stream(&mut self) -> Result<(), Stop> {
        let start = Pos { line: 1, col: 1 };
        self.emit(Event::StreamStart, start)?;
        while let Some(l) = self.peek() {
            if l.is_document_end() || l.text.starts_with('%') {
                return Err(Stop::Other);
            }
            if l.is_document_start() {
                self.held = None;
                if l.text.get(3..).is_some_and(|r| !r.trim_start_matches(' ').is_empty()) {
                    return Err(Stop::Other);
                }
            }
            self.emit(Event::DocumentStart, l.pos(0))?;
            match self.peek() {
                Some(c) if !c.is_document_start() => {
                    if c.indent != 0 || c.is_document_end() || c.text.starts_with('%') {
                        return Err(Stop::Other);
                    }
                    self.below(c)?;
                    // The document ends at the text's end or at the next `---`.
                    if self.peek().is_some_and(|n| !n.is_document_start()) {
                        return Err(Stop::Other);
                    }
                }
                // Nothing in it: a missing value, as yaml-rust2 gives it (the builder leaves it out).
                _ => {
                    let at = self.next_token();
                    self.missing(at)?;
                }
            }
            let end = self.next_token();
            self.emit(Event::DocumentEnd, end)?;
        }
        let end = self.next_token();
        self.emit(Event::StreamEnd, end)
    }

    /// A missing value (an empty plain scalar, as yaml-rust2 gives it) at `at`.
    fn missing(&mut self, at: Pos) -> Result<(), Stop> {
        self.emit_scalar(Cow::Borrowed(""), TScalarStyle::Plain, at)
    }

    /// A collection on the lines below, starting at line `l` (held by [`Walk::peek`]): a sequence when
    /// the line is an entry, else a mapping.
    fn below(&mut self, l: Line<'t>) -> Result<(), Stop> {
        if dash_at(l.text, l.indent) {
            self.sequence(l.indent, false)
        } else {
            self.mapping(l, l.indent)
        }
    }

    fn enter(&mut self) -> Result<(), Stop> {
        self.depth += 1;
        if self.depth > MAX_NEST {
            return Err(Stop::Other);
        }
        Ok(())
    }

    /// A block mapping whose keys are at column `n`; its first key starts at byte `n` of `first` (a line
    /// of its own, or after a sequence entry's `- `).
    fn mapping(&mut self, first: Line<'t>, n: usize) -> Result<(), Stop> {
        self.enter()?;
        self.held = None;
        let mut line = first;
        let mut started = false;
        loop {
            let Some((key, colon)) = key_at(line.text, n) else { return Err(Stop::Other) };
            if !started {
                self.emit(Event::MappingStart(0, None), line.pos(colon))?;
                started = true;
            }
            self.scalar(key, &line)?;
            let rest = colon + 1;
            let value = rest + line.text.get(rest..).unwrap_or_default().bytes().take_while(|b| *b == b' ').count();
            if value < line.text.len() {
                self.inline_value(&line, value, n)?;
            } else {
                match self.peek() {
                    Some(l) if l.indent > n && !l.is_document_start() => self.below(l)?,
                    Some(l) if l.indent == n && dash_at(l.text, n) => self.sequence(n, true)?,
                    _ => {
                        let at = self.next_token();
                        self.missing(at)?;
                    }
                }
            }
            match self.peek() {
                Some(l) if l.indent == n && !l.is_document_start() && !l.is_document_end() => {
                    if dash_at(l.text, n) {
                        // An entry at the keys' own column, after an entry of the mapping: an error,
                        // left to yaml-rust2.
                        return Err(Stop::Other);
                    }
                    self.held = None;
                    line = l;
                }
                Some(l) if l.indent > n && !l.is_document_start() => return Err(Stop::Other),
                _ => break,
            }
        }
        let end = self.next_token();
        self.emit(Event::MappingEnd, end)?;
        self.depth -= 1;
        Ok(())
    }

    /// A block sequence whose `-` are at column `d` (`indentless`: at its parent key's column).
    fn sequence(&mut self, d: usize, indentless: bool) -> Result<(), Stop> {
        self.enter()?;
        let mut first = true;
        while let Some(line) = self.peek() {
            if line.indent != d || !dash_at(line.text, d) || line.is_document_start() {
                break;
            }
            self.held = None;
            let c = entry_content(line.text, d);
            if first {
                let at = if indentless { line.pos(c) } else { line.pos(d) };
                self.emit(Event::SequenceStart(0, None), at)?;
                first = false;
            }
            if c >= line.text.len() {
                // The item on the lines below, or nothing.
                match self.peek() {
                    Some(l) if l.indent > d && !l.is_document_start() => self.below(l)?,
                    // Before the next entry, yaml-rust2 places it after that entry's `- `.
                    Some(l) if l.indent == d && dash_at(l.text, d) => self.missing(l.pos(entry_content(l.text, d)))?,
                    _ => {
                        let at = self.next_token();
                        self.missing(at)?;
                    }
                }
            } else if dash_at(line.text, c) {
                // `- - x`: a sequence in the item, its entries at column `c`.
                self.held = Some(Line { indent: c, ..line });
                self.sequence(c, false)?;
            } else if key_at(line.text, c).is_some() {
                self.mapping(line, c)?;
            } else {
                self.inline_value(&line, c, d)?;
            }
            match self.peek() {
                Some(l) if l.indent == d && dash_at(l.text, d) && !l.is_document_start() => {}
                Some(l) if l.indent > d && !l.is_document_start() => return Err(Stop::Other),
                Some(l) if l.indent == d && !indentless && !l.is_document_start() => return Err(Stop::Other),
                _ => break,
            }
        }
        if first {
            return Err(Stop::Other);
        }
        let end = self.next_token();
        self.emit(Event::SequenceEnd, end)?;
        self.depth -= 1;
        Ok(())
    }

    /// A value that starts at byte `at` of `line` (after a key's `: ` or an entry's `- `), in a collection
    /// at column `n`: it is the rest of the line, or a literal block scalar on the lines below.
    fn inline_value(&mut self, line: &Line<'t>, at: usize, n: usize) -> Result<(), Stop> {
        let rest = line.text.get(at..).unwrap_or_default().trim_end_matches(' ');
        match rest {
            _ if rest.starts_with(['{', '[']) => {
                let end = self.flow(line, at)?;
                if !line.text.get(end..).unwrap_or_default().bytes().all(|b| b == b' ') {
                    return Err(Stop::Other);
                }
            }
            "|" | "|-" => return self.literal(n, rest == "|-"),
            _ => {
                let s = value_at(line.text, at).ok_or(Stop::Other)?;
                if !line.text.get(s.end..).unwrap_or_default().bytes().all(|b| b == b' ') {
                    return Err(Stop::Other);
                }
                self.scalar(s, line)?;
            }
        }
        // Nothing of it on the next lines (a plain scalar going on, or an error).
        if self.peek().is_some_and(|l| l.indent > n && !l.is_document_start()) {
            return Err(Stop::Other);
        }
        Ok(())
    }

    /// A flow collection whose `{` or `[` is at byte `at` of `line`, ending on the line: its events, and
    /// the byte after its closing bracket. Only what reads alike in every YAML reader: entries cut by `, `,
    /// a mapping's keys followed by `: `, scalars plain (without `:` or `#`) or quoted, collections nested;
    /// anything else (an empty entry, a trailing comma, a key without a value, a pair in a sequence, a
    /// collection going on to the next line) is left to yaml-rust2.
    fn flow(&mut self, line: &Line<'t>, at: usize) -> Result<usize, Stop> {
        self.enter()?;
        let text = line.text;
        let byte = |i: usize| text.as_bytes().get(i).copied();
        let spaces = |i: usize| i + text.get(i..).unwrap_or_default().bytes().take_while(|b| *b == b' ').count();
        let map = byte(at) == Some(b'{');
        let (start, end, close) = if map {
            (Event::MappingStart(0, None), Event::MappingEnd, b'}')
        } else {
            (Event::SequenceStart(0, None), Event::SequenceEnd, b']')
        };
        self.emit(start, line.pos(at))?;
        let mut i = spaces(at + 1);
        if byte(i) != Some(close) {
            loop {
                if map {
                    let key = flow_scalar(text, i, true).ok_or(Stop::Other)?;
                    let after = key.end;
                    if !text.get(after..).is_some_and(|r| r.starts_with(": ")) {
                        return Err(Stop::Other);
                    }
                    self.scalar(key, line)?;
                    i = spaces(after + 1);
                }
                i = match byte(i) {
                    Some(b'{' | b'[') => self.flow(line, i)?,
                    _ => {
                        let value = flow_scalar(text, i, false).ok_or(Stop::Other)?;
                        let after = value.end;
                        self.scalar(value, line)?;
                        after
                    }
                };
                i = spaces(i);
                match byte(i) {
                    Some(b',') if byte(i + 1) == Some(b' ') => {
                        i = spaces(i + 1);
                        if matches!(byte(i), None | Some(b',' | b']' | b'}')) {
                            return Err(Stop::Other);
                        }
                    }
                    Some(c) if c == close => break,
                    _ => return Err(Stop::Other),
                }
            }
        }
        self.emit(end, line.pos(i))?;
        self.depth -= 1;
        Ok(i + 1)
    }

    /// A literal block scalar in a collection at column `n`: its lines below, indented as its first one
    /// (more than `n`); `strip`: without its final line break.
    fn literal(&mut self, n: usize, strip: bool) -> Result<(), Stop> {
        let Some(first) = self.raw() else { return Err(Stop::Other) };
        if first.is_blank() || first.indent <= n {
            return Err(Stop::Other);
        }
        let indent = first.indent;
        let at = first.pos(indent);
        let mut text = String::new();
        let mut breaks = 0usize;
        let mut line = Some(first);
        while let Some(l) = line {
            if l.text.is_empty() {
                breaks += 1;
            } else if l.is_blank() || l.indent < indent {
                // Spaces alone, or the end of the scalar (kept for the next reader).
                if l.is_blank() {
                    return Err(Stop::Other);
                }
                self.held = Some(l);
                break;
            } else {
                if self.next == self.text.len() && !self.text.ends_with('\n') {
                    // The last line, without a line break.
                    return Err(Stop::Other);
                }
                for _ in 0..breaks {
                    text.push('\n');
                }
                breaks = 0;
                if !text.is_empty() {
                    text.push('\n');
                }
                text.push_str(l.text.get(indent..).unwrap_or_default());
            }
            line = self.raw();
        }
        if !strip {
            text.push('\n');
        }
        self.emit_scalar(Cow::Owned(text), TScalarStyle::Literal, at)?;
        if self.peek().is_some_and(|l| l.indent > n && !l.is_document_start()) {
            return Err(Stop::Other);
        }
        Ok(())
    }
}

/// A key at byte `at` of `text` and the byte of its `:` (followed by a space or the line's end).
fn key_at(text: &str, at: usize) -> Option<(Scalar<'_>, usize)> {
    let rest = text.get(at..)?;
    let key = match rest.as_bytes().first()? {
        b'"' | b'\'' => quoted(text, at)?,
        _ => {
            let colon = key_colon(rest)?;
            let word = rest.get(..colon)?;
            if !plain_start(word) || word.ends_with(' ') {
                return None;
            }
            Scalar { text: Cow::Borrowed(word), style: TScalarStyle::Plain, start: at, end: at + colon }
        }
    };
    if key.end - key.start > MAX_KEY {
        return None;
    }
    let colon = key.end;
    let after = text.get(colon..)?;
    (after == ":" || after.starts_with(": ")).then_some((key, colon))
}

/// A value scalar (plain or quoted) at byte `at` of `text`, on this line alone.
fn value_at(text: &str, at: usize) -> Option<Scalar<'_>> {
    let rest = text.get(at..)?;
    match rest.as_bytes().first()? {
        b'"' | b'\'' => quoted(text, at),
        _ => {
            let word = rest.trim_end_matches(' ');
            let (colon, comment) = marks(word);
            (plain_start(word) && colon.is_none() && comment.is_none()).then(|| Scalar {
                text: Cow::Borrowed(word),
                style: TScalarStyle::Plain,
                start: at,
                end: at + word.len(),
            })
        }
    }
}

/// A scalar in a flow collection at byte `at` of `text`: quoted, or plain up to the next `,`, bracket or
/// `: ` (a `key`) without its trailing spaces. `None` for an empty one, a plain one that holds `:` or `#`
/// or starts with an indicator.
fn flow_scalar(text: &str, at: usize, key: bool) -> Option<Scalar<'_>> {
    let rest = text.get(at..)?;
    if rest.starts_with(['"', '\'']) {
        return quoted(text, at);
    }
    let len = rest.find([',', '[', ']', '{', '}', ':', '#']).unwrap_or(rest.len());
    let word = rest.get(..len)?.trim_end_matches(' ');
    // A key's plain text ends at its `:`; a value's never holds one.
    let stop = rest.as_bytes().get(len).copied();
    let ends_right = if key { stop == Some(b':') && word.len() == len } else { !matches!(stop, Some(b':' | b'#')) };
    // yaml-rust2 refuses a `-` before a flow indicator, even inside a plain scalar.
    (ends_right && plain_start(word) && !word.ends_with('-')).then(|| Scalar {
        text: Cow::Borrowed(word),
        style: TScalarStyle::Plain,
        start: at,
        end: at + word.len(),
    })
}

/// In a plain key's line: the first `:` that ends a key (a space or the end after it), unless a comment
/// (` #`) comes before it. The line is read only up to it (the value after it is read by [`value_at`]).
fn key_colon(rest: &str) -> Option<usize> {
    let b = rest.as_bytes();
    for (i, c) in b.iter().enumerate() {
        match c {
            b':' if matches!(b.get(i + 1), None | Some(b' ')) => return Some(i),
            b'#' if i > 0 && b.get(i - 1) == Some(&b' ') => return None,
            _ => {}
        }
    }
    None
}

/// In a plain scalar's line: the first `:` that ends a key (a space or the end after it), and the first
/// ` #` (a comment), each as a byte offset.
fn marks(rest: &str) -> (Option<usize>, Option<usize>) {
    let b = rest.as_bytes();
    let (mut colon, mut comment) = (None, None);
    for (i, c) in b.iter().enumerate() {
        match c {
            b':' if colon.is_none() && matches!(b.get(i + 1), None | Some(b' ')) => colon = Some(i),
            b'#' if comment.is_none() && i > 0 && b.get(i - 1) == Some(&b' ') => comment = Some(i),
            _ => continue,
        }
        if colon.is_some() && comment.is_some() {
            break;
        }
    }
    (colon, comment)
}

/// Does `word` start as a plain scalar this reader reads (not empty, not with an indicator)?
fn plain_start(word: &str) -> bool {
    let Some(&first) = word.as_bytes().first() else { return false };
    let second = word.as_bytes().get(1).copied();
    let indicator = matches!(
        first,
        b'[' | b']'
            | b'{'
            | b'}'
            | b','
            | b'#'
            | b'&'
            | b'*'
            | b'!'
            | b'|'
            | b'>'
            | b'\''
            | b'"'
            | b'%'
            | b'@'
            | b'`'
            | b'?'
            | b':'
    ) || (first == b'-' && matches!(second, None | Some(b' ')));
    !indicator
}

/// A quoted scalar starting at byte `at` of `text` (its quote), ending on the same line.
fn quoted(text: &str, at: usize) -> Option<Scalar<'_>> {
    let bytes = text.as_bytes();
    let quote = *bytes.get(at)?;
    let style = if quote == b'"' { TScalarStyle::DoubleQuoted } else { TScalarStyle::SingleQuoted };
    let special = |c: char| c == char::from(quote) || (quote == b'"' && c == '\\');
    // Without escapes (the usual case): the text between the quotes, borrowed.
    let body = text.get(at + 1..)?;
    let stop = body.find(special)?;
    if body.as_bytes().get(stop) == Some(&quote) && (quote == b'"' || body.as_bytes().get(stop + 1) != Some(&b'\'')) {
        return Some(Scalar { text: Cow::Borrowed(body.get(..stop)?), style, start: at, end: at + 1 + stop + 1 });
    }
    let mut out = String::new();
    let mut j = at + 1;
    loop {
        let run = text.get(j..)?;
        let stop = run.find(special)?;
        out.push_str(run.get(..stop)?);
        j += stop;
        if quote == b'\'' {
            if bytes.get(j + 1) == Some(&b'\'') {
                out.push('\'');
                j += 2;
                continue;
            }
            return Some(Scalar { text: Cow::Owned(out), style, start: at, end: j + 1 });
        }
        if bytes.get(j) == Some(&b'"') {
            return Some(Scalar { text: Cow::Owned(out), style, start: at, end: j + 1 });
        }
        let esc = *bytes.get(j + 1)?;
        let hex = |n: usize| -> Option<char> {
            let digits = text.get(j + 2..j + 2 + n)?;
            if !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
                return None;
            }
            char::from_u32(u32::from_str_radix(digits, 16).ok()?)
        };
        let (c, len) = match esc {
            b'"' => ('"', 2),
            b'\\' => ('\\', 2),
            b'/' => ('/', 2),
            b'n' => ('\n', 2),
            b't' => ('\t', 2),
            b'r' => ('\r', 2),
            b'b' => ('\u{8}', 2),
            b'f' => ('\u{c}', 2),
            b'0' => ('\0', 2),
            b'x' => (hex(2)?, 4),
            b'u' => (hex(4)?, 6),
            b'U' => (hex(8)?, 10),
            _ => return None,
        };
        out.push(c);
        j += len;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::yaml::pos;
    use yaml_rust2::parser::Parser;

    /// An event as the tree builder reads it: its place matters for the values it starts.
    fn placed(event: Event, at: Pos) -> (Event, Option<Pos>) {
        let starts = matches!(event, Event::Scalar(..) | Event::SequenceStart(..) | Event::MappingStart(..));
        (event, starts.then_some(at))
    }

    fn accepts(text: &str) -> bool {
        read(text, &mut |_, _| Ok(())).is_ok()
    }

    fn ours(text: &str) -> Vec<(Event, Option<Pos>)> {
        let mut out = Vec::new();
        let read = read(text, &mut |e, at| {
            out.push(placed(e.into_event(), at));
            Ok(())
        });
        assert!(read.is_ok(), "{text:?}: read stopped after accepts");
        out
    }

    /// yaml-rust2's events, or its error.
    fn theirs(text: &str) -> Result<Vec<(Event, Option<Pos>)>, String> {
        let mut parser = Parser::new_from_str(text);
        let mut out = Vec::new();
        loop {
            let (e, m) = parser.next_token().map_err(|e| e.to_string())?;
            let end = matches!(e, Event::StreamEnd);
            out.push(placed(e, pos(&m)));
            if end {
                return Ok(out);
            }
        }
    }

    /// When the reader takes a text, it gives yaml-rust2's events at yaml-rust2's places (and yaml-rust2
    /// reads the text without an error). Returns whether it took it.
    fn agrees(text: &str) -> bool {
        if !accepts(text) {
            return false;
        }
        let (ours, theirs) = (ours(text), theirs(text));
        let Ok(theirs) = theirs else { panic!("{text:?}: taken, yet yaml-rust2 says {theirs:?}") };
        if let Some(i) = (0..ours.len().max(theirs.len())).find(|i| ours.get(*i) != theirs.get(*i)) {
            let around =
                |v: &[(Event, Option<Pos>)]| v.get(i.saturating_sub(2)..(i + 2).min(v.len())).map(<[_]>::to_vec);
            panic!("{text:?}: event {i} differs:\nours   {:?}\ntheirs {:?}", around(&ours), around(&theirs));
        }
        true
    }

    const KUBECTL: &str = "apiVersion: v1\nitems:\n- apiVersion: v1\n  kind: Pod\n  metadata:\n    annotations:\n      a: \"0\"\n      b: 'x''y'\n      kubectl.kubernetes.io/last-applied-configuration: |\n        {\"apiVersion\":\"v1\"}\n    labels: {}\n    name: é-1\n    managedFields:\n    - apiVersion: v1\n      fieldsV1:\n        \"f:spec\":\n          .: {}\n  spec:\n    containers:\n    -   name: c\n        args: []\n        env:\n        -\n          name: X\n        - - \"\\u00e9\\t\\\"\"\n          - y\n    empty:\n    nodeSelector:\n  status:\n    phase: Running\n    t: |-\n      line\n\n        more\n\n\n    u: http://x:80/a\nkind: List\n";

    /// Flow collections on one line, as people write them in manifests.
    const FLOW: &str = "a: {b: [1, \"x\", 'y'], c: {}, \"d e\": [ ], f g: -1}\nl:\n- {k: v, n: [1, {m: ~}]}\n- [x y, {y: z}]\nmeta: {name: é, labels: {app: web, tier: \"\"}}\n";

    #[test]
    fn kubectl_and_helm_yaml_read_as_yaml_rust2_reads_it() {
        let texts = [
            KUBECTL,
            "# Source: chart/templates/a.yaml\n---\napiVersion: v1\nkind: ConfigMap\ndata:\n  k: v\n---\n# Source: b.yaml\n---\n- a\n- b: 1\n  c:\n",
            "k:",
            "a: 1\nk:\n# c",
            "a:\n-   x\n-\n\nb: |\n  t\n\n  u\n\n\nc: |-\n  v\n\n",
            "ä: [] \nb: {}  \n\"c d\": 'e'\n\"f:x\": \"a\\x41\\U0001F600\"\n",
            "",
            "# only\n",
            "---\n---\n",
            "l3:\n- - y\n  - z\n- k2: v2\n  k3:\n  - 1\ne:\n",
            FLOW,
        ];
        for text in texts {
            assert!(agrees(text), "not taken: {text:?}");
        }
    }

    #[test]
    fn what_it_does_not_read_is_left_to_yaml_rust2() {
        for text in [
            "a: &x 1\nb: *x\n",
            "a: !!str 1\n",
            "a: [1,2]\n",
            "a: {b: 1\n  , c: 2}\n",
            "a: {b, c: 1}\n",
            "a: [b: 1]\n",
            "a: [1, 2, ]\n",
            "a: {b: }\n",
            "a: {\"b\":1}\n",
            "a: [http://x]\n",
            "a: [1] # note\n",
            "{a: 1}\n",
            "a: b\n  c\n",
            "a: \"b\n  c\"\n",
            "a: >\n  folded\n",
            "a: |2\n   x\n",
            "a: 1 # note\n",
            "a:\tb\n",
            "a: 1\r\n",
            "%YAML 1.2\n---\na: 1\n",
            "a: 1\n...\n",
            "--- a\n",
            "? a\n: b\n",
            "plain\n",
            "a: b: c\n",
            "a: 1\n  b: 2\n",
            "- a\nb: 1\n",
        ] {
            assert!(!accepts(text), "{text:?}");
        }
    }

    /// The project's own fixtures (most are written in flow style, which is left to yaml-rust2).
    #[test]
    fn the_fixtures_it_takes_read_as_yaml_rust2_reads_them() {
        let mut dirs = vec![std::path::PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/fixtures"))];
        let (mut files, mut taken) = (0, 0);
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    dirs.push(path);
                } else if path.extension().is_some_and(|e| e == "yaml" || e == "yml") {
                    files += 1;
                    taken += usize::from(agrees(&std::fs::read_to_string(&path).unwrap()));
                }
            }
        }
        assert!(files > 1000 && taken > 0, "{taken} of {files}");
    }

    /// A text it stops in: read whole, what it built is dropped and yaml-rust2 reads it; streamed, once
    /// an item was handed out, the reading is to start again whole.
    #[test]
    fn a_text_it_stops_in_is_read_by_yaml_rust2() {
        use crate::yaml::{parse_yaml_documents, stream_yaml_documents, YamlOut, YamlStop};
        use crate::Keep;
        let text = "kind: List\nitems:\n- a: 1\n- b: [1,2]\n";
        let docs = parse_yaml_documents("t", text).unwrap();
        let items = docs[0].get("items").as_seq();
        assert_eq!(items[1].get("b").as_seq().len(), 2);
        let mut handed = 0;
        let streamed = stream_yaml_documents("t", text, &mut { 1 << 20 }, Keep::Read, &mut |o| {
            handed += usize::from(matches!(o, YamlOut::Item(..)));
            Ok(())
        });
        assert!(matches!(streamed, Err(YamlStop::Retry)));
        assert_eq!(handed, 1);
        // Stopped before anything was handed out: yaml-rust2 streams it.
        let text = "kind: List\nitems:\n- b: [1,2]\n- a: 1\n";
        let mut items = Vec::new();
        stream_yaml_documents("t", text, &mut { 1 << 20 }, Keep::Read, &mut |o| {
            if let YamlOut::Item(n, _) = o {
                items.push(n);
            }
            Ok(())
        })
        .ok()
        .unwrap();
        assert_eq!(items.len(), 2);
        assert_eq!(items[0].get("b").as_seq().len(), 2);
    }

    /// Every byte of a kubectl text replaced by each of a set that opens, closes or breaks something,
    /// every line dropped and every cut: whatever the reader takes, it reads as yaml-rust2 does.
    #[test]
    fn changed_texts_it_takes_read_as_yaml_rust2_reads_them() {
        // A flow text changed is more often one the reader leaves (a comma or bracket broken).
        for (base, share) in [(KUBECTL, 3), (FLOW, 5)] {
            changed_texts_read_as_yaml_rust2_reads_them(base, share);
        }
    }

    /// Each change of `text`, checked; more than one in `share` of them must be taken.
    fn changed_texts_read_as_yaml_rust2_reads_them(text: &str, share: usize) {
        let base = text.as_bytes();
        let mut taken = 0;
        let mut texts: Vec<Vec<u8>> = Vec::new();
        for at in 0..base.len() {
            for b in *b" \n-:#'\"|{}[],&*!?>%@`\\.x0" {
                let mut t = base.to_vec();
                t[at] = b;
                texts.push(t.clone());
                t.insert(at, b);
                texts.push(t);
            }
            texts.push(base[..at].to_vec());
        }
        let lines: Vec<&str> = text.split_inclusive('\n').collect();
        for skip in 0..lines.len() {
            let mut t = String::new();
            for (i, l) in lines.iter().enumerate() {
                if i != skip {
                    t.push_str(l);
                }
            }
            texts.push(t.into_bytes());
        }
        for t in &texts {
            if let Ok(text) = std::str::from_utf8(t) {
                taken += usize::from(agrees(text));
            }
        }
        // Most are still YAML the reader takes: the comparison is not an empty one.
        assert!(taken > texts.len() / share, "{taken} of {}", texts.len());
    }
}
