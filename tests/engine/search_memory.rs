//! What a search leaves in its `SearchMemory` for the next search of the game, and what a
//! new game forgets.

use rookery::chess::Position;
use rookery::engine::Limits;
use rookery::engine::search::memory::SearchMemory;
use rookery::engine::search::{SearchOptions, Signals, Silent, search_with_memory};
use rookery::engine::tt::ChessTable;
use shakmaty::Move;

/// The largest history any legal move of `pos` has in `memory`'s first thread.
fn most_history(memory: &mut SearchMemory, pos: &Position) -> i32 {
    let thread = &memory.for_search(1)[0];
    pos.legal_moves()
        .iter()
        .map(|&mv: &Move| thread.heuristics.history(pos.turn(), mv).abs())
        .max()
        .unwrap_or(0)
}

#[test]
fn a_search_leaves_its_histories_for_the_next_until_cleared() {
    let pos = Position::startpos();
    let mut memory = SearchMemory::new();
    assert_eq!(most_history(&mut memory, &pos), 0);
    let limits = Limits {
        depth: Some(6),
        ..Limits::default()
    };
    let options = SearchOptions {
        network: None,
        ..SearchOptions::default()
    };
    let table = ChessTable::new(1).unwrap();
    let signals = Signals::default();
    search_with_memory(
        &pos,
        &limits,
        &options,
        &table,
        &signals,
        &Silent,
        &mut memory,
    );
    assert!(most_history(&mut memory, &pos) > 0, "the search learned");
    // Killers are forgotten at the next search, histories kept.
    let thread = &mut memory.for_search(1)[0];
    thread.heuristics.killers[3] = [pos.legal_moves().first().copied(), None];
    assert!(
        memory
            .for_search(2)
            .iter()
            .all(|t| t.heuristics.killers[3][0].is_none())
    );
    assert!(most_history(&mut memory, &pos) > 0);
    memory.clear();
    assert_eq!(
        most_history(&mut memory, &pos),
        0,
        "a new game starts empty"
    );
}
