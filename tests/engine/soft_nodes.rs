//! The soft node limit of self-play searches: the iteration under way when it is passed
//! finishes, and no other starts; the hard limit (`nodes`) still stops a search outright.

use rookery::chess::Position;
use rookery::engine::Limits;
use rookery::engine::bench::POSITIONS;
use rookery::engine::search::{SearchOptions, SearchResult, Signals, Silent, search};
use rookery::engine::tt::ChessTable;

/// A one-thread search of `fen` on a cleared table: a function of the position and limits.
fn searched(fen: &str, limits: &Limits, table: &ChessTable) -> SearchResult {
    let pos = Position::from_fen(fen, false).unwrap();
    let options = SearchOptions {
        threads: 1,
        ..SearchOptions::default()
    };
    table.clear();
    search(&pos, limits, &options, table, &Signals::default(), &Silent)
}

fn to_depth(fen: &str, depth: u32, table: &ChessTable) -> SearchResult {
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    searched(fen, &limits, table)
}

/// Nodes between two looks at a small node budget, and a few more for the unwinding.
const POLL_SLACK: u64 = 64;

#[test]
fn a_soft_limit_finishes_the_iteration_that_passes_it() {
    let table = ChessTable::new(16).unwrap();
    let soft = 3000;
    for fen in &POSITIONS[..12] {
        // Room for the iteration that passes the soft limit, however many times its previous
        // iteration's nodes it takes (11 times in one of these positions with gen20: 2,522,
        // then 27,980): twice the nodes of the first depth that passes it.
        let passing = (1..)
            .map(|depth| to_depth(fen, depth, &table).nodes)
            .find(|&nodes| nodes >= soft)
            .unwrap();
        let limits = Limits {
            soft_nodes: Some(soft),
            nodes: Some(2 * passing),
            ..Limits::default()
        };
        let result = searched(fen, &limits, &table);
        assert!(result.nodes >= soft, "{fen}: {} nodes", result.nodes);
        // Exactly the search to the depth it reached: that iteration was completed...
        let complete = to_depth(fen, result.depth as u32, &table);
        assert_eq!(
            (result.nodes, result.best),
            (complete.nodes, complete.best),
            "{fen}: depth {}",
            result.depth
        );
        // ... and the one before had not spent the budget.
        let before = to_depth(fen, result.depth as u32 - 1, &table);
        assert!(before.nodes < soft, "{fen}: {} nodes before", before.nodes);
    }
}

#[test]
fn the_hard_limit_stops_a_soft_limited_search_inside_an_iteration() {
    let table = ChessTable::new(16).unwrap();
    let mut checked = 0;
    for fen in &POSITIONS[..12] {
        // Depth 5 done under the soft limit, depth 6 cut off halfway by the hard one.
        let depth5 = to_depth(fen, 5, &table).nodes;
        let depth6 = to_depth(fen, 6, &table).nodes;
        let hard = (depth5 + depth6) / 2;
        if hard < depth5 + 2 * POLL_SLACK {
            continue;
        }
        checked += 1;
        let limits = Limits {
            soft_nodes: Some(depth5 + 1),
            nodes: Some(hard),
            ..Limits::default()
        };
        let result = searched(fen, &limits, &table);
        assert!(
            (hard..=hard + POLL_SLACK).contains(&result.nodes),
            "{fen}: {} nodes, hard limit {hard}",
            result.nodes
        );
        assert_eq!(result.depth, 5, "{fen}");
    }
    assert!(checked >= 6, "{checked} positions checked");
}

#[test]
fn a_soft_limit_met_exactly_at_an_iteration_end_stops_there() {
    // The check after an iteration must read the exact count: a count up to a poll
    // interval old would start one more iteration.
    let table = ChessTable::new(16).unwrap();
    for fen in &POSITIONS[..12] {
        let depth6 = to_depth(fen, 6, &table).nodes;
        let limits = Limits {
            soft_nodes: Some(depth6),
            nodes: Some(8 * depth6),
            ..Limits::default()
        };
        let result = searched(fen, &limits, &table);
        assert_eq!((result.depth, result.nodes), (6, depth6), "{fen}");
    }
}
