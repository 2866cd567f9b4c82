//! What `go` asks of a search: clocks, increments, and depth, node, mate and time limits;
//! and the soft node limit of self-play searches.

use std::time::Duration;

use shakmaty::{ByColor, Color, Move};

/// The limits of one search. Clocks and increments are kept per colour.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Time left on each side's clock (`wtime`, `btime`).
    pub time: ByColor<Option<Duration>>,
    /// Each side's increment per move (`winc`, `binc`).
    pub inc: ByColor<Duration>,
    /// Moves until the next time control (`movestogo`).
    pub moves_to_go: Option<u32>,
    /// Deepest iteration (`depth`).
    pub depth: Option<u32>,
    /// Node budget over all threads (`nodes`).
    pub nodes: Option<u64>,
    /// Soft node budget over all threads: once it is spent, the iteration under way
    /// finishes and no other starts (`nodes` still stops the search outright). Not a `go`
    /// parameter: the self-play searches of `rookery datagen` use it.
    pub soft_nodes: Option<u64>,
    /// Find a mate in this many moves (`mate`).
    pub mate: Option<u32>,
    /// Exact time for this move (`movetime`).
    pub movetime: Option<Duration>,
    /// Search until `stop` (`infinite`).
    pub infinite: bool,
    /// Search on the opponent's time until `ponderhit` or `stop` (`ponder`).
    pub ponder: bool,
    /// Only these root moves (`searchmoves`); empty means all.
    pub search_moves: Vec<Move>,
}

impl Limits {
    /// True when a clock or `movetime` bounds the search.
    pub fn is_timed(&self) -> bool {
        self.movetime.is_some() || self.time.white.is_some() || self.time.black.is_some()
    }

    /// True when the search ends by itself once any `ponderhit` has come: a clock,
    /// `movetime`, `depth` or a node budget bounds it, and it is not `infinite`. (`mate`
    /// alone does not: a search for a mate that is not there goes on.)
    pub fn bounded(&self) -> bool {
        !self.infinite
            && (self.is_timed()
                || self.depth.is_some()
                || self.nodes.is_some()
                || self.soft_nodes.is_some())
    }

    /// The clock of `side`, if given.
    pub fn clock(&self, side: Color) -> Option<Duration> {
        *self.time.get(side)
    }

    /// The clock `side` plays on: its own, or none left when only the other side's was
    /// given (a timed `go` is never unbounded; Stockfish reads a missing clock as 0), or
    /// `None` when no clock was given.
    pub fn clock_to_play_on(&self, side: Color) -> Option<Duration> {
        let any = self.time.white.is_some() || self.time.black.is_some();
        self.clock(side).or_else(|| any.then_some(Duration::ZERO))
    }

    /// The increment of `side`.
    pub fn increment(&self, side: Color) -> Duration {
        *self.inc.get(side)
    }
}
