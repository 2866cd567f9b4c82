//! The games the hashing tools know, each behind [`HashedGame`]: `rookery hash` and
//! `rookery hashstats` find a game here by name and list the games' usage from here.
//! Adding a game is one file here with its [`HashedGame`] and one entry in [`GAMES`].

mod chess;
mod game;
mod gomoku;
mod hive;

pub use game::{HashedGame, PositionKeys};

/// Every game the hashing tools know, in the order their usage lists them.
pub static GAMES: &[&dyn HashedGame] = &[&chess::ChessGame, &gomoku::GomokuGame, &hive::HiveGame];

/// The game called `name`.
pub fn find(name: &str) -> Option<&'static dyn HashedGame> {
    GAMES.iter().copied().find(|game| game.name() == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_is_found_by_its_own_name_and_no_other() {
        for (i, game) in GAMES.iter().enumerate() {
            let found = find(game.name()).expect("a listed game is found");
            assert_eq!(found.name(), game.name());
            assert!(GAMES[..i].iter().all(|g| g.name() != game.name()));
        }
        assert!(find("checkers").is_none());
    }
}
