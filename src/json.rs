//! JSON written by hand: a flat object on one line (strings, unsigned numbers and `null` are
//! all the datagen manifest needs), and the string literal that other writers (`rookery
//! hashstats --json`) build on; and such a flat object read back ([`parse_flat_object`]).
//!
//! ```
//! use rookery::json::JsonObject;
//! let line = JsonObject::new()
//!     .string("event", "start")
//!     .number("nodes", 5000)
//!     .optional_string("book", None)
//!     .string("path", "a \"b\"\\c\n")
//!     .finish();
//! assert_eq!(
//!     line,
//!     r#"{"event":"start","nodes":5000,"book":null,"path":"a \"b\"\\c\n"}"#
//! );
//! ```

use std::fmt::Write as _;

/// A JSON object being written, its members in the order they are added.
#[derive(Clone, Debug, Default)]
pub struct JsonObject {
    members: String,
}

impl JsonObject {
    /// An object without members.
    pub fn new() -> JsonObject {
        JsonObject::default()
    }

    fn key(&mut self, key: &str) {
        if !self.members.is_empty() {
            self.members.push(',');
        }
        push_string(&mut self.members, key);
        self.members.push(':');
    }

    /// Adds a string member.
    pub fn string(mut self, key: &str, value: &str) -> JsonObject {
        self.key(key);
        push_string(&mut self.members, value);
        self
    }

    /// Adds a number member.
    pub fn number(mut self, key: &str, value: u64) -> JsonObject {
        self.key(key);
        let _ = write!(self.members, "{value}");
        self
    }

    /// Adds a string member, `null` when there is none.
    pub fn optional_string(self, key: &str, value: Option<&str>) -> JsonObject {
        match value {
            Some(value) => self.string(key, value),
            None => self.null(key),
        }
    }

    /// Adds a number member, `null` when there is none.
    pub fn optional_number(self, key: &str, value: Option<u64>) -> JsonObject {
        match value {
            Some(value) => self.number(key, value),
            None => self.null(key),
        }
    }

    /// Adds a `null` member.
    pub fn null(mut self, key: &str) -> JsonObject {
        self.key(key);
        self.members.push_str("null");
        self
    }

    /// The object as one line of text, without a line break.
    pub fn finish(self) -> String {
        format!("{{{}}}", self.members)
    }
}

/// `text` as a JSON string literal: quoted, with quotes, backslashes and control
/// characters escaped.
///
/// ```
/// assert_eq!(rookery::json::quoted("a \"b\"\n"), r#""a \"b\"\n""#);
/// ```
pub fn quoted(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    push_string(&mut out, text);
    out
}

/// Appends `text` as a JSON string: quoted, with quotes, backslashes and control
/// characters escaped.
fn push_string(out: &mut String, text: &str) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if u32::from(c) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// A member's value in a flat JSON object.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JsonValue {
    /// A string, unescaped.
    String(String),
    /// An unsigned integer.
    Number(u64),
    /// `null`.
    Null,
}

/// The members of a flat JSON object (string, unsigned integer and `null` values), in
/// order; `None` for any other text.
///
/// ```
/// use rookery::json::{JsonValue, parse_flat_object};
/// let members = parse_flat_object(r#"{"a":"x\"y","n":5,"z":null}"#).unwrap();
/// assert_eq!(members[0], ("a".to_string(), JsonValue::String("x\"y".to_string())));
/// assert_eq!(members[1].1, JsonValue::Number(5));
/// assert_eq!(members[2].1, JsonValue::Null);
/// assert!(parse_flat_object(r#"{"a":[1]}"#).is_none());
/// ```
pub fn parse_flat_object(text: &str) -> Option<Vec<(String, JsonValue)>> {
    let mut chars = text.trim().chars().peekable();
    let mut members = Vec::new();
    expect(&mut chars, '{')?;
    if skip_space(&mut chars) == Some('}') {
        chars.next();
    } else {
        loop {
            skip_space(&mut chars);
            let key = read_string(&mut chars)?;
            expect(&mut chars, ':')?;
            let value = read_value(&mut chars)?;
            members.push((key, value));
            match skip_space(&mut chars) {
                Some(',') => chars.next(),
                Some('}') => {
                    chars.next();
                    break;
                }
                _ => return None,
            };
        }
    }
    chars.next().is_none().then_some(members)
}

type Chars<'a> = std::iter::Peekable<std::str::Chars<'a>>;

/// Skips white space; the next character.
fn skip_space(chars: &mut Chars) -> Option<char> {
    while chars.next_if(|c| c.is_ascii_whitespace()).is_some() {}
    chars.peek().copied()
}

/// Consumes `c` after any white space.
fn expect(chars: &mut Chars, c: char) -> Option<()> {
    (skip_space(chars) == Some(c))
        .then(|| chars.next())
        .map(|_| ())
}

/// A member's value, after any white space.
fn read_value(chars: &mut Chars) -> Option<JsonValue> {
    match skip_space(chars)? {
        '"' => read_string(chars).map(JsonValue::String),
        'n' => {
            let word: String = (0..4).filter_map(|_| chars.next()).collect();
            (word == "null").then_some(JsonValue::Null)
        }
        c if c.is_ascii_digit() => {
            let mut digits = String::new();
            while let Some(d) = chars.next_if(char::is_ascii_digit) {
                digits.push(d);
            }
            digits.parse().ok().map(JsonValue::Number)
        }
        _ => None,
    }
}

/// A string literal, unescaped.
fn read_string(chars: &mut Chars) -> Option<String> {
    if chars.next()? != '"' {
        return None;
    }
    let mut out = String::new();
    loop {
        match chars.next()? {
            '"' => return Some(out),
            '\\' => out.push(match chars.next()? {
                'n' => '\n',
                'r' => '\r',
                't' => '\t',
                'u' => {
                    let hex: String = (0..4).filter_map(|_| chars.next()).collect();
                    char::from_u32(u32::from_str_radix(&hex, 16).ok()?)?
                }
                c @ ('"' | '\\' | '/') => c,
                _ => return None,
            }),
            c if u32::from(c) < 0x20 => return None,
            c => out.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_escaped_and_the_line_stays_one_line() {
        let line = JsonObject::new()
            .string("k\u{1}", "tab\there\u{7f}é")
            .optional_number("n", Some(3))
            .optional_number("m", None)
            .finish();
        assert_eq!(
            line,
            "{\"k\\u0001\":\"tab\\there\u{7f}é\",\"n\":3,\"m\":null}"
        );
        assert!(!line.contains('\n'));
        assert_eq!(JsonObject::new().finish(), "{}");
    }

    #[test]
    fn written_objects_read_back() {
        let line = JsonObject::new()
            .string("k\u{1}", "tab\there \"q\" \\ é")
            .number("n", u64::MAX)
            .null("z")
            .finish();
        let members = parse_flat_object(&line).unwrap();
        assert_eq!(
            members,
            [
                (
                    "k\u{1}".into(),
                    JsonValue::String("tab\there \"q\" \\ é".into())
                ),
                ("n".into(), JsonValue::Number(u64::MAX)),
                ("z".into(), JsonValue::Null),
            ]
        );
        assert_eq!(parse_flat_object(" { } "), Some(Vec::new()));
        for bad in [
            "",
            "{",
            r#"{"a":1,}"#,
            r#"{"a":-1}"#,
            r#"{"a":1} x"#,
            r#"{"a":nul}"#,
            "[]",
        ] {
            assert_eq!(parse_flat_object(bad), None, "{bad}");
        }
    }
}
