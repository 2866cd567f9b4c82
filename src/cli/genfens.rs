//! `rookery "genfens N seed S book FILE|None"`: the argument mode's command that OpenBench's
//! data workloads send (after any `setoption` arguments, before `quit`): N distinct
//! openings drawn as `rookery datagen` draws its own (see
//! [`rookery::learn::data::genfens`]), one line `info string genfens FEN` each. The balance
//! check searches 2,500 nodes, as datagen's default, with the engine's evaluation as the
//! `setoption`s before left it (`EvalFile`, `Use NNUE`: OpenBench sets the net under test);
//! 8 random plies (one more half the time). OpenBench appends a test's own words
//! (`genfens_args`) after the book: `plies P` and `nodes N` set the random plies and the
//! balance check's nodes; any other word is refused, so that a test set up for another
//! engine fails at once instead of playing other openings than it asked for. A request
//! refused (N missing, 0 or too large, an unknown word, a value out of range, a book that
//! cannot be read) is one `info string` line and exit status 1, as a refused UCI command in
//! the argument mode.

use std::path::PathBuf;
use std::sync::Arc;

use super::Outcome;
use super::output::out;
use rookery::engine::Engine;
use rookery::engine::eval::nnue::Network;
use rookery::learn::data::datagen::DatagenConfig;
use rookery::learn::data::genfens::openings;
use rookery::learn::data::session::Book;
use rookery::uci::{Stdout, Uci};

/// The command's first word.
const COMMAND: &str = "genfens";
/// Soft nodes of the balance check's search, as `rookery datagen`'s default.
const NODES: u64 = 2500;
/// The balance check's nodes that `nodes N` may ask for.
const NODES_RANGE: std::ops::RangeInclusive<u64> = 1..=10_000_000;
/// Random plies after the book position, as `rookery datagen`'s default.
const RANDOM_PLIES: usize = 8;
/// The random plies that `plies P` may ask for.
const PLIES_RANGE: std::ops::RangeInclusive<usize> = 0..=40;

/// What a `genfens` command asks for.
#[derive(Debug, PartialEq, Eq)]
struct Request {
    count: u64,
    seed: u64,
    book: Option<PathBuf>,
    random_plies: usize,
    nodes: u64,
}

/// Whether the argument mode's `words` hold a `genfens` command.
pub fn asked(words: &[String]) -> bool {
    words.iter().any(|w| is_genfens(w))
}

fn is_genfens(word: &str) -> bool {
    word.split_whitespace().next() == Some(COMMAND)
}

/// Runs the argument mode's `words` in order: `genfens` here, every other command through
/// a UCI session; stops at `quit` or at a command refused (exit status 1).
pub fn run(words: &[String]) -> Result<Outcome, super::args::UsageError> {
    let mut session = Uci::new(Engine::new(), Arc::new(Stdout));
    for word in words {
        if word.split_whitespace().next() == Some("quit") {
            break;
        }
        let done = if is_genfens(word) {
            let network = session
                .engine()
                .evaluates_with_network()
                .then(|| session.engine().network().clone());
            match parse(word).and_then(|request| generate(&request, network)) {
                Ok(fens) => {
                    for fen in fens {
                        out!("info string genfens {fen}");
                    }
                    true
                }
                Err(e) => {
                    out!("info string genfens: {e}");
                    false
                }
            }
        } else {
            session.run_argument(word)
        };
        if !done {
            return Ok(Outcome::Failure);
        }
    }
    Ok(Outcome::Success)
}

/// Reads `genfens N [seed S] [book FILE|None] [plies P] [nodes N]` (seed 1, no book and
/// datagen's defaults when left out).
fn parse(line: &str) -> Result<Request, String> {
    let mut words = line.split_whitespace().skip(1);
    let count = words
        .next()
        .ok_or("the number of openings is missing: genfens N seed S book FILE|None")?;
    let count = count
        .parse()
        .map_err(|_| format!("'{count}' is not a number of openings"))?;
    let mut request = Request {
        count,
        seed: 1,
        book: None,
        random_plies: RANDOM_PLIES,
        nodes: NODES,
    };
    while let Some(key) = words.next() {
        // A known word's value is read only once the word is known.
        let mut value = || {
            words
                .next()
                .ok_or_else(|| format!("'{key}' without a value"))
        };
        match key {
            "seed" => {
                let value = value()?;
                request.seed = value
                    .parse()
                    .map_err(|_| format!("'{value}' is not a seed"))?;
            }
            "book" => {
                let value = value()?;
                request.book = (value != "None").then(|| PathBuf::from(value));
            }
            "plies" => request.random_plies = in_range(value()?, PLIES_RANGE, "random plies")?,
            "nodes" => request.nodes = in_range(value()?, NODES_RANGE, "nodes")?,
            _ => return Err(format!("unknown word '{key}'")),
        }
    }
    Ok(request)
}

/// `value` as a number in `range`, or why not (`what` names it).
fn in_range<T>(value: &str, range: std::ops::RangeInclusive<T>, what: &str) -> Result<T, String>
where
    T: std::str::FromStr + PartialOrd + std::fmt::Display,
{
    value
        .parse()
        .ok()
        .filter(|n| range.contains(n))
        .ok_or_else(|| {
            format!(
                "'{value}' is not a number of {what} from {} to {}",
                range.start(),
                range.end()
            )
        })
}

/// The openings a request asks for, the balance check evaluating with `network` (the
/// hand-written evaluation when `None`).
fn generate(request: &Request, network: Option<Arc<Network>>) -> Result<Vec<String>, String> {
    let book = match &request.book {
        Some(path) => Book::read(path).map_err(|e| e.0)?,
        None => Book::start_position(),
    };
    let config = DatagenConfig {
        nodes: request.nodes,
        games: None,
        threads: 1,
        random_plies: request.random_plies,
        seed: request.seed,
        openings: book.positions,
        network,
    };
    openings(&config, request.count, request.seed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_are_read_and_bad_ones_refused() {
        assert_eq!(
            parse("genfens 5 seed 9 book None"),
            Ok(Request {
                count: 5,
                seed: 9,
                book: None,
                random_plies: RANDOM_PLIES,
                nodes: NODES,
            })
        );
        // OpenBench's own words for the test come after the book.
        let extra = parse("genfens 5 seed 9 book None plies 4 nodes 800").unwrap();
        assert_eq!((extra.random_plies, extra.nodes), (4, 800));
        // A word of another engine is refused as unknown, not as missing its value.
        assert_eq!(
            parse("genfens 5 seed 9 book None dfrc"),
            Err("unknown word 'dfrc'".to_string())
        );
        assert_eq!(
            parse("genfens 3 book b.epd").map(|r| r.book),
            Ok(Some(PathBuf::from("b.epd")))
        );
        for bad in [
            "genfens",
            "genfens x",
            "genfens 4 seed",
            "genfens 4 seed -1",
            "genfens 4 depth 3",
            "genfens 4 seed 1 book None plies 41",
            "genfens 4 seed 1 book None nodes 0",
            "genfens 4 seed 1 book None nodes",
            "genfens 4 seed 1 book None dfrc",
            "genfens 4 seed 1 book None dfrc 1",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }
}
