//! PGN as tournament managers (fastchess, cutechess) write it, read into games of tags,
//! moves in SAN with the comment after each, and the result token. Variations (`( ... )`),
//! NAGs (`$1`), move numbers, `!`/`?` marks, `;` comments and `%` lines are read past.

use std::fmt;

/// One game of a PGN file, as written.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnGame {
    /// The tag pairs, in order: `[Name "value"]`.
    pub tags: Vec<(String, String)>,
    /// The main line's moves in SAN, each with the text of the comment after it.
    pub moves: Vec<(String, Option<String>)>,
    /// The result token that ends the movetext, when there is one.
    pub result: Option<String>,
}

impl PgnGame {
    /// The value of tag `name`.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Where a PGN file is not PGN: the game (counted from 1) and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnError {
    /// The game, counted from 1.
    pub game: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "game {}: {}", self.game, self.message)
    }
}

impl std::error::Error for PgnError {}

const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

/// The games of a PGN text, in order (a byte-order mark in front read past).
pub fn parse(text: &str) -> Result<Vec<PgnGame>, PgnError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut games = Vec::new();
    let mut game = PgnGame::default();
    let mut in_moves = false;
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    let error = |games: &Vec<PgnGame>, message: String| PgnError {
        game: games.len() + 1,
        message,
    };
    let mut line_start = true;
    while i < chars.len() {
        let c = chars[i];
        if c == '\n' {
            line_start = true;
            i += 1;
            continue;
        }
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        let at_line_start = std::mem::take(&mut line_start);
        match c {
            '%' if at_line_start => i = skip_line(&chars, i),
            '[' => {
                if in_moves {
                    return Err(error(&games, "a tag inside the moves".into()));
                }
                let end = find(&chars, i, ']')
                    .ok_or_else(|| error(&games, "a tag without its ']'".into()))?;
                let tag: String = chars[i + 1..end].iter().collect();
                game.tags
                    .push(read_tag(&tag).map_err(|m| error(&games, m))?);
                i = end + 1;
            }
            '{' => {
                let end = find(&chars, i, '}')
                    .ok_or_else(|| error(&games, "a comment without its '}'".into()))?;
                let comment: String = chars[i + 1..end].iter().collect();
                if let Some((_, slot)) = game.moves.last_mut() {
                    slot.get_or_insert_with(String::new)
                        .push_str(comment.trim());
                }
                i = end + 1;
            }
            ';' => i = skip_line(&chars, i),
            '(' => {
                i = skip_variation(&chars, i)
                    .ok_or_else(|| error(&games, "a variation without its ')'".into()))?
            }
            ')' => return Err(error(&games, "a ')' without its '('".into())),
            _ => {
                let start = i;
                while i < chars.len() && !chars[i].is_whitespace() && !"{}()[];".contains(chars[i])
                {
                    i += 1;
                }
                let token: String = chars[start..i].iter().collect();
                in_moves = true;
                if RESULTS.contains(&token.as_str()) {
                    game.result = Some(token);
                    games.push(std::mem::take(&mut game));
                    in_moves = false;
                } else if let Some(san) = move_of(&token) {
                    game.moves.push((san.to_string(), None));
                }
            }
        }
    }
    if in_moves || !game.tags.is_empty() {
        return Err(error(&games, "the moves end without a result".into()));
    }
    Ok(games)
}

/// The SAN of a movetext token: move numbers, NAGs and `!`/`?` marks left out; `None`
/// when nothing of a move is left.
fn move_of(token: &str) -> Option<&str> {
    if token.starts_with('$') {
        return None;
    }
    let san = token.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
    let san = san.trim_end_matches(['!', '?']);
    (!san.is_empty()).then_some(san)
}

/// A tag's name and value from the text between `[` and `]`.
fn read_tag(text: &str) -> Result<(String, String), String> {
    let text = text.trim();
    let (name, rest) = text
        .split_once(char::is_whitespace)
        .ok_or_else(|| format!("a tag without a value: [{text}]"))?;
    let value = rest
        .trim()
        .strip_prefix('"')
        .and_then(|v| v.strip_suffix('"'))
        .ok_or_else(|| format!("a tag whose value is not quoted: [{text}]"))?;
    Ok((name.to_string(), value.replace("\\\"", "\"")))
}

/// The index of the first `close` after `open_at`, a quoted string in a tag read past.
fn find(chars: &[char], open_at: usize, close: char) -> Option<usize> {
    let mut quoted = false;
    let mut i = open_at + 1;
    while i < chars.len() {
        match chars[i] {
            '\\' if quoted => i += 1,
            '"' if close == ']' => quoted = !quoted,
            c if c == close && !quoted => return Some(i),
            _ => {}
        }
        i += 1;
    }
    None
}

/// The index after the line that `i` is on.
fn skip_line(chars: &[char], i: usize) -> usize {
    chars[i..]
        .iter()
        .position(|&c| c == '\n')
        .map_or(chars.len(), |n| i + n)
}

/// The index after the variation opened at `i`, nested ones and comments included.
fn skip_variation(chars: &[char], mut i: usize) -> Option<usize> {
    let mut depth = 0;
    while i < chars.len() {
        match chars[i] {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            '{' => i = find(chars, i, '}')?,
            _ => {}
        }
        i += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_moves_comments_and_results() {
        let text = "[Event \"x\"]\n[White \"a \\\"b\\\"\"]\n\n1. e4 {book} e5 {+0.35/14 0.318s} \
                    2. Nf3!? $1 (2. f4 {x} (2. d4)) Nc6 ; rest\n% escaped\n3. Bb5 1-0\n\n\
                    [Event \"y\"]\n\n1... e5 {-M3/8 0.1s} *\n";
        let games = parse(text).unwrap();
        assert_eq!(parse(&format!("\u{feff}{text}")), Ok(games.clone()));
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].tag("White"), Some("a \"b\""));
        let sans: Vec<&str> = games[0].moves.iter().map(|(m, _)| m.as_str()).collect();
        assert_eq!(sans, ["e4", "e5", "Nf3", "Nc6", "Bb5"]);
        assert_eq!(games[0].moves[0].1.as_deref(), Some("book"));
        assert_eq!(games[0].moves[1].1.as_deref(), Some("+0.35/14 0.318s"));
        assert_eq!(games[0].result.as_deref(), Some("1-0"));
        assert_eq!(games[1].moves[0].1.as_deref(), Some("-M3/8 0.1s"));
        assert_eq!(games[1].result.as_deref(), Some("*"));
    }

    #[test]
    fn broken_pgn_names_the_game() {
        for (text, game) in [
            ("[A \"1\"] 1. e4 1-0 [B \"2\"] 1. d4 {x", 2),
            ("[A \"1\"] 1. e4 (1. d4", 1),
            ("[A \"1\"] 1. e4 1-0 [B 2] 1. d4 1-0", 2),
            ("[A \"1\"] 1. e4", 1),
        ] {
            assert_eq!(parse(text).unwrap_err().game, game, "{text}");
        }
    }
}
