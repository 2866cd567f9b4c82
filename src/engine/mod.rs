//! The chess engine, free of any protocol: [`Engine`] is the facade a front end drives
//! (the UCI loop in [`crate::uci`], tests, tools). Below it, one file per concept.
//!
//! - [`facade`]: [`Engine`], the position, table, threads and options; `go`, `stop`,
//!   `ponderhit`, `wait`.
//! - [`options`]: the one table of options: names, kinds, defaults, ranges, effects.
//! - [`limits`]: what a search is asked for; [`timeman`]: the time budget it makes.
//! - [`board`]: the searched position with the evaluator state; make and unmake.
//! - [`search`]: iterative deepening, aspiration, root, inner nodes, quiescence; its
//!   parameters in [`params`].
//! - [`movepick`], [`history`], [`see`]: move ordering and what it learns;
//!   [`correction`]: what the search learns about the static evaluation.
//! - [`score`]: the score vocabulary: bounds, mate and tablebase scores, table conversions.
//! - [`tt`], [`packed`]: the chess table entry and its 16-bit move.
//! - [`eval`]: the evaluator seam and the hand-written evaluation.
//! - [`book`]: Polyglot opening books; [`tb`]: Syzygy endgame tablebases.
//! - [`strength`]: `UCI_LimitStrength`, `UCI_Elo` and `Skill Level`, weakened play for
//!   people.
//! - [`wdl`]: what a score means for the game: the fitted win/draw/loss model and the
//!   normalised centipawns UCI reports.
//! - [`bench`]: the fixed node-count signature.
//! - [`build_info`]: the compiler, target and instruction-set features of this build.

pub mod bench;
pub mod board;
pub mod book;
pub mod build_info;
pub mod correction;
pub mod eval;
pub mod facade;
pub mod history;
pub mod limits;
pub mod movepick;
pub mod options;
pub mod packed;
pub mod params;
pub mod score;
pub mod search;
pub mod see;
pub mod strength;
pub mod tb;
pub mod timeman;
pub mod tt;
pub mod wdl;

pub use facade::{Busy, Engine, NAME, NotStarted};
pub use limits::Limits;
pub use options::{EVAL_FILE_OPTION, OPTIONS, OptionError, OptionKind, Settings};
