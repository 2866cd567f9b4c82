//! A small reader for `positional... --flag value --flag=value --switch` command lines, and
//! the numbers in them, each read against the range a tool accepts.

use std::fmt;
use std::ops::RangeInclusive;
use std::str::FromStr;

/// A command line that could not be read; the tools exit with status 2 on it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UsageError(pub String);

impl fmt::Display for UsageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UsageError {}

/// The one-line refusal of a command line `rookery TOOL` cannot read: what is wrong, and
/// where its usage is.
pub fn misuse(tool: &str, what: impl fmt::Display) -> UsageError {
    UsageError(format!("{what} (rookery {tool} --help shows its usage)"))
}

/// Positional words and `--name value` (or `--name=value`) options, read against the
/// options a command knows.
#[derive(Debug, Default)]
pub struct Args {
    /// Words that are not options, in order.
    pub positional: Vec<String>,
    options: Vec<(String, Option<String>)>,
}

impl Args {
    /// Reads `words`; `valued` lists options that take a value, `switches` those that do not.
    pub fn parse(words: &[String], valued: &[&str], switches: &[&str]) -> Result<Args, UsageError> {
        let mut args = Args::default();
        let mut words = words.iter();
        while let Some(word) = words.next() {
            let Some(option) = word.strip_prefix("--") else {
                args.positional.push(word.clone());
                continue;
            };
            let (name, inline) = match option.split_once('=') {
                Some((name, value)) => (name, Some(value.to_string())),
                None => (option, None),
            };
            if valued.contains(&name) {
                let value = match inline {
                    Some(value) => value,
                    None => words
                        .next()
                        .ok_or_else(|| UsageError(format!("--{name} needs a value")))?
                        .clone(),
                };
                args.options.push((name.to_string(), Some(value)));
            } else if switches.contains(&name) {
                if inline.is_some() {
                    return Err(UsageError(format!("--{name} takes no value, got '{word}'")));
                }
                args.options.push((name.to_string(), None));
            } else {
                return Err(UsageError(format!("unknown option --{name}")));
            }
        }
        Ok(args)
    }

    /// Whether a switch was given.
    pub fn switch(&self, name: &str) -> bool {
        self.options.iter().any(|(n, _)| n == name)
    }

    /// The names of the options given, in order (repeats included).
    pub fn given(&self) -> impl Iterator<Item = &str> {
        self.options.iter().map(|(name, _)| name.as_str())
    }

    /// The last value given for an option, parsed.
    pub fn value<T: FromStr>(&self, name: &str) -> Result<Option<T>, UsageError> {
        match self.text(name) {
            Some(text) => text
                .parse()
                .map(Some)
                .map_err(|_| UsageError(format!("--{name}: invalid value '{text}'"))),
            None => Ok(None),
        }
    }

    /// The value of `--NAME` as a number within `range`, `default` without it; a value
    /// outside the range, or not a number, is refused with the range.
    pub fn number<T>(
        &self,
        name: &str,
        range: RangeInclusive<T>,
        default: T,
    ) -> Result<T, UsageError>
    where
        T: FromStr + PartialOrd + fmt::Display,
    {
        Ok(self.optional_number(name, range)?.unwrap_or(default))
    }

    /// The value of `--NAME` as a number within `range`, `None` without it; a value outside
    /// the range, or not a number, is refused with the range.
    pub fn optional_number<T>(
        &self,
        name: &str,
        range: RangeInclusive<T>,
    ) -> Result<Option<T>, UsageError>
    where
        T: FromStr + PartialOrd + fmt::Display,
    {
        self.text(name)
            .map(|text| number(text, &format!("--{name}"), range))
            .transpose()
    }

    /// Refuses positional words: `tool` takes none.
    pub fn no_positional(&self, tool: &str) -> Result<(), UsageError> {
        match self.positional.first() {
            Some(word) => Err(misuse(tool, format!("unexpected '{word}'"))),
            None => Ok(()),
        }
    }

    /// The last text given for a valued option.
    fn text(&self, name: &str) -> Option<&str> {
        self.options
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .and_then(|(_, value)| value.as_deref())
    }
}

/// `text` as a number within `range`; `what` names it in the refusal, which gives the range.
pub fn number<T>(text: &str, what: &str, range: RangeInclusive<T>) -> Result<T, UsageError>
where
    T: FromStr + PartialOrd + fmt::Display,
{
    match text.parse::<T>() {
        Ok(n) if range.contains(&n) => Ok(n),
        _ => Err(UsageError(format!(
            "{what} {text}: expected a number from {} to {}",
            range.start(),
            range.end()
        ))),
    }
}

/// The most threads a tool runs.
pub const MAX_THREADS: usize = 256;

/// The value of `--threads`, 1 without it; refused outside 1 to [`MAX_THREADS`].
pub fn threads(args: &Args) -> Result<usize, UsageError> {
    args.number("threads", 1..=MAX_THREADS, 1)
}

/// The most plies of a random game that `hashcheck` and `hashstats` walk: random games
/// mostly end (mate, stalemate, a full board) within a few hundred, and the bound keeps the
/// move stack of one that does not small.
pub const MAX_RANDOM_GAME_PLIES: u32 = 10_000;

/// The largest table a tool allocates, in MiB: the engine's own `Hash` maximum.
pub const MAX_TABLE_MIB: usize = 65_536;

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<String> {
        line.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn a_value_is_read_after_the_name_or_after_an_equals_sign() {
        for line in ["--games 5 x", "--games=5 x", "x --games=7 --games=5"] {
            let args = Args::parse(&words(line), &["games"], &["json"]).unwrap();
            assert_eq!(args.value::<u32>("games").unwrap(), Some(5), "{line}");
            assert_eq!(args.positional, ["x"], "{line}");
        }
        // A value may itself hold an equals sign or be empty.
        let args = Args::parse(&words("--game=a=b"), &["game"], &[]).unwrap();
        assert_eq!(
            args.value::<String>("game").unwrap().as_deref(),
            Some("a=b")
        );
        let args = Args::parse(&words("--game="), &["game"], &[]).unwrap();
        assert_eq!(args.value::<String>("game").unwrap().as_deref(), Some(""));
    }

    #[test]
    fn switches_take_no_value_and_unknown_options_are_refused() {
        let args = Args::parse(&words("--json"), &["games"], &["json"]).unwrap();
        assert!(args.switch("json"));
        assert!(Args::parse(&words("--json=yes"), &[], &["json"]).is_err());
        assert!(Args::parse(&words("--jsn"), &[], &["json"]).is_err());
        assert!(Args::parse(&words("--games"), &["games"], &[]).is_err());
    }

    #[test]
    fn numbers_are_refused_outside_their_range_with_the_range() {
        let args = Args::parse(&words("--depth 13"), &["depth"], &[]).unwrap();
        let refusal = args.number("depth", 0..=12u32, 4).unwrap_err().0;
        assert_eq!(refusal, "--depth 13: expected a number from 0 to 12");
        assert_eq!(args.number("plies", 0..=12u32, 4), Ok(4));
        for text in ["18446744073709551616", "-1", "x", ""] {
            assert!(number::<u64>(text, "N", 0..=u64::MAX).is_err(), "{text}");
        }
        assert_eq!(
            number::<u64>("18446744073709551615", "N", 0..=u64::MAX),
            Ok(u64::MAX)
        );
        assert!(number::<f32>("NaN", "--lr", 0.0..=1.0).is_err());
    }
}
