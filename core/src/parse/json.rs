//! A small JSON reader that keeps positions. Strict RFC 8259, with a depth limit; never panics.

use std::cell::Cell;

use super::{Node, ParseError, Pos, ScalarKind, Value, MAX_DEPTH};

pub fn parse_json(file: &str, text: &str) -> Result<Node, ParseError> {
    let mut p =
        Parser { file, bytes: text.as_bytes(), text, i: 0, line: 1, line_start: 0, col_cache: Cell::new((0, 0)) };
    p.skip_ws();
    let node = p.value(0)?;
    p.skip_ws();
    if p.i < p.bytes.len() {
        return Err(p.error("unexpected text after the JSON value"));
    }
    Ok(node)
}

struct Parser<'a> {
    file: &'a str,
    text: &'a str,
    bytes: &'a [u8],
    i: usize,
    line: u32,
    line_start: usize,
    /// The last column computed: (byte offset, characters from `line_start` to it). Columns are counted
    /// from there onward, so that a one-line (minified) document is read in linear time, not quadratic.
    col_cache: Cell<(usize, usize)>,
}

impl Parser<'_> {
    fn pos(&self) -> Pos {
        // Columns count characters, not bytes, from the start of the line, or from the last column computed
        // on this line.
        let (at, chars) = self.col_cache.get();
        let (from, base) = if at >= self.line_start && at <= self.i { (at, chars) } else { (self.line_start, 0) };
        let col = base + self.text.get(from..self.i).map_or(0, |s| s.chars().count());
        self.col_cache.set((self.i, col));
        Pos { line: self.line, col: u32::try_from(col).unwrap_or(u32::MAX).saturating_add(1) }
    }

    fn error(&self, message: &str) -> ParseError {
        let pos = self.pos();
        ParseError { file: self.file.to_owned(), line: Some(pos.line), col: Some(pos.col), message: message.to_owned() }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.i).copied()
    }

    fn skip_ws(&mut self) {
        while let Some(b) = self.peek() {
            match b {
                // A line ends at LF, CRLF, or a lone CR (old Mac files), as YAML counts lines.
                b'\n' => {
                    self.i += 1;
                    self.line += 1;
                    self.line_start = self.i;
                }
                b'\r' if self.bytes.get(self.i + 1) != Some(&b'\n') => {
                    self.i += 1;
                    self.line += 1;
                    self.line_start = self.i;
                }
                b' ' | b'\t' | b'\r' => self.i += 1,
                _ => break,
            }
        }
    }

    fn eat(&mut self, b: u8, what: &str) -> Result<(), ParseError> {
        if self.peek() == Some(b) {
            self.i += 1;
            Ok(())
        } else {
            Err(self.error(&format!("expected {what}")))
        }
    }

    fn value(&mut self, depth: usize) -> Result<Node, ParseError> {
        if depth > MAX_DEPTH {
            return Err(self.error("nested too deeply"));
        }
        let pos = self.pos();
        match self.peek() {
            Some(b'{') => {
                self.i += 1;
                let mut entries = Vec::new();
                self.skip_ws();
                if self.peek() == Some(b'}') {
                    self.i += 1;
                    return Ok(Node::new(pos, Value::Map(entries)));
                }
                loop {
                    self.skip_ws();
                    if self.peek() != Some(b'"') {
                        return Err(self.error("expected a string key"));
                    }
                    let key = self.string()?;
                    self.skip_ws();
                    self.eat(b':', "':' after the key")?;
                    self.skip_ws();
                    let v = self.value(depth + 1)?;
                    entries.push((key, v));
                    self.skip_ws();
                    match self.peek() {
                        Some(b',') => self.i += 1,
                        Some(b'}') => {
                            self.i += 1;
                            return Ok(Node::new(pos, Value::Map(entries)));
                        }
                        _ => return Err(self.error("expected ',' or '}'")),
                    }
                }
            }
            Some(b'[') => {
                self.i += 1;
                let mut items = Vec::new();
                self.skip_ws();
                if self.peek() == Some(b']') {
                    self.i += 1;
                    return Ok(Node::new(pos, Value::Seq(items)));
                }
                loop {
                    self.skip_ws();
                    items.push(self.value(depth + 1)?);
                    self.skip_ws();
                    match self.peek() {
                        Some(b',') => self.i += 1,
                        Some(b']') => {
                            self.i += 1;
                            return Ok(Node::new(pos, Value::Seq(items)));
                        }
                        _ => return Err(self.error("expected ',' or ']'")),
                    }
                }
            }
            Some(b'"') => {
                let s = self.string()?;
                Ok(Node::new(pos, Value::Scalar(s, ScalarKind::Str)))
            }
            Some(b't') => self.literal("true", pos),
            Some(b'f') => self.literal("false", pos),
            Some(b'n') => {
                self.literal("null", pos)?;
                Ok(Node::new(pos, Value::Null))
            }
            Some(b'-' | b'0'..=b'9') => self.number(pos),
            Some(_) => Err(self.error("expected a JSON value")),
            None => Err(self.error("unexpected end of input")),
        }
    }

    fn literal(&mut self, word: &str, pos: Pos) -> Result<Node, ParseError> {
        if self.bytes.get(self.i..self.i + word.len()) == Some(word.as_bytes()) {
            self.i += word.len();
            Ok(Node::new(pos, Value::Scalar(word.to_owned(), ScalarKind::Plain)))
        } else {
            Err(self.error("expected a JSON value"))
        }
    }

    fn number(&mut self, pos: Pos) -> Result<Node, ParseError> {
        let start = self.i;
        if self.peek() == Some(b'-') {
            self.i += 1;
        }
        let digits = |p: &mut Self| {
            let s = p.i;
            while matches!(p.peek(), Some(b'0'..=b'9')) {
                p.i += 1;
            }
            p.i > s
        };
        if !digits(self) {
            return Err(self.error("expected digits"));
        }
        if self.peek() == Some(b'.') {
            self.i += 1;
            if !digits(self) {
                return Err(self.error("expected digits after '.'"));
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.i += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.i += 1;
            }
            if !digits(self) {
                return Err(self.error("expected digits in the exponent"));
            }
        }
        let raw = self.text.get(start..self.i).unwrap_or_default().to_owned();
        Ok(Node::new(pos, Value::Scalar(raw, ScalarKind::Plain)))
    }

    fn hex4(&mut self) -> Result<u32, ParseError> {
        let s = self.text.get(self.i..self.i + 4).ok_or_else(|| self.error("short \\u escape"))?;
        let v = u32::from_str_radix(s, 16).map_err(|_| self.error("bad \\u escape"))?;
        self.i += 4;
        Ok(v)
    }

    fn string(&mut self) -> Result<String, ParseError> {
        // at the opening quote
        self.i += 1;
        let mut out = String::new();
        loop {
            let start = self.i;
            while let Some(b) = self.peek() {
                if b == b'"' || b == b'\\' || b < 0x20 {
                    break;
                }
                self.i += 1;
            }
            out.push_str(self.text.get(start..self.i).unwrap_or_default());
            match self.peek() {
                Some(b'"') => {
                    self.i += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.i += 1;
                    let esc = self.peek().ok_or_else(|| self.error("unterminated string"))?;
                    self.i += 1;
                    match esc {
                        b'"' => out.push('"'),
                        b'\\' => out.push('\\'),
                        b'/' => out.push('/'),
                        b'b' => out.push('\u{8}'),
                        b'f' => out.push('\u{c}'),
                        b'n' => out.push('\n'),
                        b'r' => out.push('\r'),
                        b't' => out.push('\t'),
                        b'u' => {
                            let hi = self.hex4()?;
                            let c = if (0xD800..0xDC00).contains(&hi) {
                                if self.bytes.get(self.i..self.i + 2) == Some(b"\\u") {
                                    self.i += 2;
                                    let lo = self.hex4()?;
                                    if (0xDC00..0xE000).contains(&lo) {
                                        char::from_u32(0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00))
                                    } else {
                                        None
                                    }
                                } else {
                                    None
                                }
                            } else {
                                char::from_u32(hi)
                            };
                            out.push(c.unwrap_or('\u{fffd}'));
                        }
                        _ => return Err(self.error("bad escape in string")),
                    }
                }
                Some(_) => return Err(self.error("control character in string")),
                None => return Err(self.error("unterminated string")),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    }

    #[test]
    fn escapes_and_unicode() {
        let n = parse_json("x", r#"["a\"b\u00e9\ud83d\ude00", "é"]"#).unwrap();
        assert_eq!(n.as_seq()[0].as_str(), Some("a\"bé😀"));
        assert_eq!(n.as_seq()[1].as_str(), Some("é"));
    }

    #[test]
    fn hostile_input_is_an_error_not_a_panic() {
        for bad in
            ["", "{", "[1,", "\"abc", "\"\\u12", "[\"\\ud800\\u", "-", "1.", "1e", "tru", "{\"a\"", &"[".repeat(10_000)]
        {
            assert!(parse_json("x", bad).is_err(), "{bad:?}");
        }
    }
}
