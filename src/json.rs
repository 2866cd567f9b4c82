//! JSON written by hand: a flat object on one line (strings, unsigned numbers and `null` are
//! all the datagen manifest needs), and the string literal that other writers (`rookery
//! hashstats --json`) build on.
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
}
