//! A small reader for `positional... --flag value --switch` command lines.

use std::fmt;
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

/// Positional words and `--name value` options, read against the options a command knows.
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
            if let Some(name) = word.strip_prefix("--") {
                if valued.contains(&name) {
                    let value = words
                        .next()
                        .ok_or_else(|| UsageError(format!("--{name} needs a value")))?;
                    args.options.push((name.to_string(), Some(value.clone())));
                } else if switches.contains(&name) {
                    args.options.push((name.to_string(), None));
                } else {
                    return Err(UsageError(format!("unknown option --{name}")));
                }
            } else {
                args.positional.push(word.clone());
            }
        }
        Ok(args)
    }

    /// Whether a switch was given.
    pub fn switch(&self, name: &str) -> bool {
        self.options.iter().any(|(n, _)| n == name)
    }

    /// The last value given for an option, parsed.
    pub fn value<T: FromStr>(&self, name: &str) -> Result<Option<T>, UsageError> {
        match self.options.iter().rev().find(|(n, _)| n == name) {
            Some((_, Some(text))) => text
                .parse()
                .map(Some)
                .map_err(|_| UsageError(format!("--{name}: invalid value '{text}'"))),
            _ => Ok(None),
        }
    }
}

/// Parses a required positional number.
pub fn number<T: FromStr>(text: &str, what: &str) -> Result<T, UsageError> {
    text.parse()
        .map_err(|_| UsageError(format!("{what}: expected a number, got '{text}'")))
}

/// The value of `--NAME`, `default` without it; zero is refused.
pub fn at_least_one(args: &Args, name: &str, default: usize) -> Result<usize, UsageError> {
    match args.value::<usize>(name)?.unwrap_or(default) {
        0 => Err(UsageError(format!("--{name} must be at least 1, got 0"))),
        n => Ok(n),
    }
}

/// The most threads a tool runs.
pub const MAX_THREADS: usize = 256;

/// The value of `--threads`, 1 without it; refused outside 1 to [`MAX_THREADS`].
pub fn threads(args: &Args) -> Result<usize, UsageError> {
    match at_least_one(args, "threads", 1)? {
        n if n > MAX_THREADS => Err(UsageError(format!("--threads {n}: at most {MAX_THREADS}"))),
        n => Ok(n),
    }
}
