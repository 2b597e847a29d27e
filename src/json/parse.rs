//! Strict RFC 8259 parsing, as `crate::json::from_str`: no trailing commas, no control
//! characters or lone surrogate escapes in strings, no numbers beyond the float range, and
//! nesting limited to 127 levels so hostile input cannot exhaust the stack.

use std::fmt;

use super::map::Map;
use super::number::{is_out_of_range, number_syntax_len, Number};
use super::value::Value;

/// Arrays and objects nested deeper than this are refused (serde_json's limit).
const MAX_DEPTH: usize = 127;

/// Why a text is not JSON, and where (1-based line and column, counted in bytes as serde_json
/// does).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    reason: &'static str,
    line: usize,
    column: usize,
}

impl Error {
    pub fn reason(&self) -> &'static str {
        self.reason
    }
}

/// serde_json's wording: `expected value at line 1 column 1`.
impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} at line {} column {}",
            self.reason, self.line, self.column
        )
    }
}

impl std::error::Error for Error {}

/// The JSON value `text` holds (surrounding whitespace allowed, nothing else after it).
pub fn from_str(text: &str) -> Result<Value, Error> {
    parse(text, MAX_DEPTH)
}

/// Text this module wrote from values already in memory: read back at any depth (the values
/// were that deep already; only foreign text needs the limit).
pub(super) fn from_own_text(text: &str) -> Result<Value, Error> {
    parse(text, usize::MAX)
}

fn parse(text: &str, max_depth: usize) -> Result<Value, Error> {
    let mut parser = Parser {
        text,
        bytes: text.as_bytes(),
        pos: 0,
        depth: 0,
        max_depth,
    };
    parser.skip_whitespace();
    let value = parser.value()?;
    parser.skip_whitespace();
    if parser.pos < parser.bytes.len() {
        return Err(parser.error("trailing characters"));
    }
    Ok(value)
}

struct Parser<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
    depth: usize,
    max_depth: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn next(&mut self) -> Option<u8> {
        let b = self.peek();
        self.pos += 1;
        b
    }

    fn skip_whitespace(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.pos += 1;
        }
    }

    /// An error at the current byte (clamped to the end of the text).
    fn error(&self, reason: &'static str) -> Error {
        let pos = self.pos.min(self.bytes.len());
        let before = self.bytes.get(..pos).unwrap_or(self.bytes);
        let line_start = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        Error {
            reason,
            line: 1 + before.iter().filter(|&&b| b == b'\n').count(),
            column: pos - line_start + 1,
        }
    }

    fn value(&mut self) -> Result<Value, Error> {
        match self.peek() {
            None => Err(self.error("EOF while parsing a value")),
            Some(b'n') => self.word("null", Value::Null),
            Some(b't') => self.word("true", Value::Bool(true)),
            Some(b'f') => self.word("false", Value::Bool(false)),
            Some(b'"') => {
                self.pos += 1;
                self.string().map(Value::String)
            }
            Some(b'-' | b'0'..=b'9') => self.number().map(Value::Number),
            Some(b'[') => self.nested(Parser::array),
            Some(b'{') => self.nested(Parser::object),
            Some(_) => Err(self.error("expected value")),
        }
    }

    fn word(&mut self, word: &'static str, value: Value) -> Result<Value, Error> {
        for expected in word.bytes() {
            match self.next() {
                Some(b) if b == expected => {}
                Some(_) => return Err(self.error("expected ident")),
                None => return Err(self.error("EOF while parsing a value")),
            }
        }
        Ok(value)
    }

    fn number(&mut self) -> Result<Number, Error> {
        let rest = self.bytes.get(self.pos..).unwrap_or_default();
        let Some(len) = number_syntax_len(rest) else {
            return Err(self.error("invalid number"));
        };
        // A digit right after a leading zero (`01`) is not a number either.
        if rest.get(len).is_some_and(u8::is_ascii_digit) {
            return Err(self.error("invalid number"));
        }
        let text = self.text.get(self.pos..self.pos + len).unwrap_or_default();
        if is_out_of_range(text) {
            return Err(self.error("number out of range"));
        }
        self.pos += len;
        Ok(Number::from_checked(text))
    }

    /// An array or object, one level deeper.
    fn nested(&mut self, parse: fn(&mut Self) -> Result<Value, Error>) -> Result<Value, Error> {
        if self.depth == self.max_depth {
            return Err(self.error("recursion limit exceeded"));
        }
        self.depth += 1;
        self.pos += 1; // `[` or `{`
        let value = parse(self);
        self.depth -= 1;
        value
    }

    fn array(&mut self) -> Result<Value, Error> {
        let mut items = Vec::new();
        self.skip_whitespace();
        if self.peek() == Some(b']') {
            self.pos += 1;
            return Ok(Value::Array(items));
        }
        loop {
            items.push(self.value()?);
            self.skip_whitespace();
            match self.next() {
                Some(b']') => return Ok(Value::Array(items)),
                Some(b',') => {
                    self.skip_whitespace();
                    if self.peek() == Some(b']') {
                        return Err(self.error("trailing comma"));
                    }
                }
                Some(_) => {
                    self.pos -= 1;
                    return Err(self.error("expected `,` or `]`"));
                }
                None => return Err(self.error("EOF while parsing a list")),
            }
        }
    }

    fn object(&mut self) -> Result<Value, Error> {
        let mut members = Vec::new();
        self.skip_whitespace();
        if self.peek() == Some(b'}') {
            self.pos += 1;
            return Ok(Value::Object(Map::new()));
        }
        loop {
            match self.next() {
                Some(b'"') => {}
                Some(_) => {
                    self.pos -= 1;
                    return Err(self.error("key must be a string"));
                }
                None => return Err(self.error("EOF while parsing an object")),
            }
            let key = self.string()?;
            self.skip_whitespace();
            match self.next() {
                Some(b':') => {}
                Some(_) => {
                    self.pos -= 1;
                    return Err(self.error("expected `:`"));
                }
                None => return Err(self.error("EOF while parsing an object")),
            }
            self.skip_whitespace();
            let value = self.value()?;
            members.push((key, value)); // a repeated key keeps its last value, as serde_json
            self.skip_whitespace();
            match self.next() {
                Some(b'}') => return Ok(Value::Object(Map::from_members(members))),
                Some(b',') => {
                    self.skip_whitespace();
                    if self.peek() == Some(b'}') {
                        return Err(self.error("trailing comma"));
                    }
                }
                Some(_) => {
                    self.pos -= 1;
                    return Err(self.error("expected `,` or `}`"));
                }
                None => return Err(self.error("EOF while parsing an object")),
            }
        }
    }

    /// The rest of a string whose opening quote was read.
    fn string(&mut self) -> Result<String, Error> {
        let mut out = String::new();
        let mut start = self.pos;
        loop {
            match self.peek() {
                None => return Err(self.error("EOF while parsing a string")),
                Some(b'"') => {
                    out.push_str(self.slice(start)?);
                    self.pos += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    out.push_str(self.slice(start)?);
                    self.pos += 1;
                    self.escape(&mut out)?;
                    start = self.pos;
                }
                Some(0..0x20) => {
                    return Err(self
                        .error("control character (\\u0000-\\u001F) found while parsing a string"))
                }
                Some(_) => self.pos += 1,
            }
        }
    }

    /// The text from `start` to the current position (both at ASCII bytes, so on char
    /// boundaries).
    fn slice(&self, start: usize) -> Result<&str, Error> {
        self.text
            .get(start..self.pos)
            .ok_or_else(|| self.error("invalid unicode code point"))
    }

    /// One escape after its backslash.
    fn escape(&mut self, out: &mut String) -> Result<(), Error> {
        let c = match self.next() {
            None => return Err(self.error("EOF while parsing a string")),
            Some(b'"') => '"',
            Some(b'\\') => '\\',
            Some(b'/') => '/',
            Some(b'b') => '\u{8}',
            Some(b'f') => '\u{c}',
            Some(b'n') => '\n',
            Some(b'r') => '\r',
            Some(b't') => '\t',
            Some(b'u') => self.unicode_escape()?,
            Some(_) => return Err(self.error("invalid escape")),
        };
        out.push(c);
        Ok(())
    }

    /// `\uXXXX` after its `\u`, or a surrogate pair `\uD83D\uDE00`; lone surrogates are
    /// refused (a Rust string cannot hold them).
    fn unicode_escape(&mut self) -> Result<char, Error> {
        let first = self.hex4()?;
        let code = match first {
            0xDC00..=0xDFFF => return Err(self.error("lone leading surrogate in hex escape")),
            0xD800..=0xDBFF => {
                if self.next() != Some(b'\\') || self.next() != Some(b'u') {
                    return Err(self.error("unexpected end of hex escape"));
                }
                let second = self.hex4()?;
                if !(0xDC00..=0xDFFF).contains(&second) {
                    return Err(self.error("lone leading surrogate in hex escape"));
                }
                0x10000 + ((first - 0xD800) << 10 | (second - 0xDC00))
            }
            _ => first,
        };
        char::from_u32(code).ok_or_else(|| self.error("invalid unicode code point"))
    }

    fn hex4(&mut self) -> Result<u32, Error> {
        let mut n = 0;
        for _ in 0..4 {
            let digit = match self.next() {
                None => return Err(self.error("EOF while parsing a string")),
                Some(b) => (b as char).to_digit(16),
            };
            n = n * 16 + digit.ok_or_else(|| self.error("invalid escape"))?;
        }
        Ok(n)
    }
}
