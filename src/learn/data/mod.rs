//! The data wing: what self-play writes for the trainer.
//!
//! - [`game_file`]: the game file: whole games, each a start position and every ply's move and
//!   score, that self-play writes and the trainer replays.
//! - [`record`]: the 32-byte training record, the position the trainer learns from, and the
//!   format self-play wrote before the game file.
//! - [`games`]: where games begin in a file of records, and a hash per game.
//! - [`reader`]: data files of either format, read game by game.
//! - [`writer`]: the game file a datagen run appends whole games to.
//! - [`manifest`]: the record of datagen runs kept beside their data.
//! - [`datagen`]: self-play games.
//! - [`session`]: a datagen run from its settings to the data directory.
//! - [`genfens`]: datagen's openings as FENs, for games played by another program.
//! - [`pgn`]: PGN files read into games of tags, moves and comments.
//! - [`pgn_import`]: a tournament manager's PGN game as the game file keeps it.

pub mod datagen;
pub mod game_file;
pub mod games;
pub mod genfens;
pub mod manifest;
pub mod pgn;
pub mod pgn_import;
pub mod reader;
pub mod record;
pub mod session;
pub mod writer;
