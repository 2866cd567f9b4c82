//! The one interface a game offers the hashing tools: its name, how `rookery hash` reads
//! one of its positions, and how `rookery hashstats` walks its positions and measures its
//! keys on them.

use rookery::hashing::{DualKey, Key};

use crate::cli::args::{Args, UsageError};
use crate::cli::key_report::Report;

/// The keys `rookery hash` prints for one position, one `name: value` line each, in this
/// order.
pub struct PositionKeys {
    /// Main and check key (`key`, `check`).
    pub key: DualKey,
    /// The least main key over the game's symmetries (`canonical`).
    pub canonical: Key,
    /// Index of the symmetry that gives `canonical` (`symmetry`).
    pub symmetry: usize,
    /// Further lines the game adds, name and value.
    pub extra: Vec<(&'static str, String)>,
}

/// A game the hashing tools know. The tools find it by [`HashedGame::name`] in
/// [`GAMES`](super::GAMES) and never name a game themselves.
pub trait HashedGame: Sync {
    /// The game's name on the command line (`rookery hash NAME`, `rookery hashstats NAME`).
    fn name(&self) -> &'static str;

    /// What follows the name in `rookery hash`'s usage; `None` when `hash` reads no position
    /// of this game.
    fn hash_usage(&self) -> Option<&'static str>;

    /// The keys of the position that `words` (those after the game's name) give.
    fn keys(&self, words: &[String]) -> Result<PositionKeys, UsageError>;

    /// What follows the name in `rookery hashstats`'s usage.
    fn hashstats_usage(&self) -> &'static str;

    /// The `hashstats` options of this game that take a value, beyond those of every game
    /// (`--games`, `--plies`, `--seed`, `--mib`).
    fn hashstats_values(&self) -> &'static [&'static str] {
        &[]
    }

    /// The `hashstats` switches of this game, beyond `--json`.
    fn hashstats_switches(&self) -> &'static [&'static str] {
        &[]
    }

    /// Walks the game's positions as `args` ask and measures its keys on them.
    fn measure(&self, args: &Args) -> Result<Report, UsageError>;
}
