//! The score vocabulary every engine module shares: the bounds of a search score, mate and
//! tablebase scores, the deepest ply and iteration, and how scores are stored in the table.
//!
//! From the top down: [`INFINITE`] is above every score; mates lie in
//! `MATE_BOUND..=MATE`, tablebase wins in `TB_BOUND..=TB_WIN`, and every static
//! evaluation within `±MAX_EVAL`, so a mate the search sees beats a tablebase win, which
//! beats any evaluation.
//!
//! ```
//! use rookery::engine::score::{MATE, MATE_BOUND, MAX_EVAL, TB_BOUND, TB_WIN};
//! assert!(MATE > MATE_BOUND && MATE_BOUND > TB_WIN && TB_WIN > TB_BOUND && TB_BOUND > MAX_EVAL);
//! ```

/// Above every real score.
pub const INFINITE: i32 = 32_001;
/// The score of being mated now; mate in n plies scores `MATE - n`.
pub const MATE: i32 = 32_000;
/// Scores beyond this are mate scores.
pub const MATE_BOUND: i32 = MATE - 1000;
/// Deepest ply a search line reaches (the size of every per-ply stack).
pub const MAX_PLY: usize = 128;
/// Deepest iteration.
pub const MAX_DEPTH: i32 = 100;
/// The score of a tablebase win at the root: below every mate, above every evaluation.
pub const TB_WIN: i32 = MATE_BOUND - 1000;
/// Scores beyond this are tablebase wins or mates.
pub const TB_BOUND: i32 = TB_WIN - MAX_PLY as i32;
/// The largest static evaluation: below every tablebase and mate score.
pub const MAX_EVAL: i32 = TB_BOUND - 1;
/// A table entry's static evaluation when none was stored.
pub const NO_EVAL: i16 = i16::MIN;

/// A score as the table stores it: mate and tablebase distances counted from the node
/// `ply` plies below the root instead of from the root, so that the entry holds wherever
/// the node recurs.
pub fn score_to_tt(score: i32, ply: usize) -> i16 {
    let ply = ply as i32;
    (if score >= TB_BOUND {
        score + ply
    } else if score <= -TB_BOUND {
        score - ply
    } else {
        score
    }) as i16
}

/// A stored score read back at a node `ply` plies below the root (the inverse of
/// [`score_to_tt`]). A tablebase win found far below a node that recurs deep in the tree
/// stays a tablebase win, however many plies that makes: never an evaluation.
pub fn score_from_tt(score: i16, ply: usize) -> i32 {
    let (score, ply) = (i32::from(score), ply as i32);
    if score >= MATE_BOUND {
        score - ply
    } else if score >= TB_BOUND {
        (score - ply).max(TB_BOUND)
    } else if score <= -MATE_BOUND {
        score + ply
    } else if score <= -TB_BOUND {
        (score + ply).min(-TB_BOUND)
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_survive_the_table_round_trip() {
        for (score, ply) in [(MATE - 5, 3), (-MATE + 8, 6), (123, 9), (-40, 0)] {
            let stored = score_to_tt(score, ply);
            assert_eq!(score_from_tt(stored, ply), score);
        }
        // Mate in 5 from the root found 3 plies deep is mate in 2 from that node.
        assert_eq!(i32::from(score_to_tt(MATE - 5, 3)), MATE - 2);
    }

    #[test]
    fn tablebase_scores_are_stored_from_their_node() {
        // A win probed 7 plies below the root, stored at ply 3, is a win 4 plies below
        // that node; read back 5 plies below the root it is a win 9 plies away.
        for sign in [1, -1] {
            let stored = score_to_tt(sign * (TB_WIN - 7), 3);
            assert_eq!(i32::from(stored), sign * (TB_WIN - 4));
            assert_eq!(score_from_tt(stored, 5), sign * (TB_WIN - 9));
            assert_eq!(score_from_tt(stored, 3), sign * (TB_WIN - 7));
        }
        // The deepest win read back at the deepest ply stays a tablebase score.
        let deepest = score_to_tt(TB_BOUND, MAX_PLY);
        assert_eq!(score_from_tt(deepest, MAX_PLY), TB_BOUND);
        assert_eq!(
            score_from_tt(score_to_tt(TB_BOUND - 1, 40), 40),
            TB_BOUND - 1
        );
        assert_eq!(score_from_tt(score_to_tt(TB_BOUND + 2, 0), 90), TB_BOUND);
        assert_eq!(score_from_tt(score_to_tt(-TB_BOUND - 2, 0), 90), -TB_BOUND);
    }
}
