//! What the search learns about moves while it runs: killer moves per ply, counter moves
//! to the opponent's last move, history scores of quiet moves by side and squares,
//! continuation histories by the moves one and two plies back, and a capture history by
//! the capturing piece, its destination and its victim.

use shakmaty::{Color, Move, Piece, Square};

use super::params::{history_bonus_max, history_bonus_per_depth, history_max};
use super::score::MAX_PLY;

/// (piece, destination) pairs: 12 pieces by 64 squares.
const PIECE_TO: usize = 12 * 64;

/// A move as continuation histories see it: the piece it puts down and where.
pub type PieceTo = (Piece, Square);

/// The moves that led to a node, as continuation histories key them: the opponent's last
/// move (one ply back) and the side to move's own last move (two plies back). `None` at
/// the root's edge or after a null move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Lineage(pub [Option<PieceTo>; 2]);

/// The history tables of one node's side to move and lineage, scoring its quiet moves.
pub struct QuietScorer<'a> {
    history: &'a [[i32; 64]; 64],
    /// The continuation rows of the moves one and two plies back.
    continuations: [Option<&'a [i16]>; 2],
}

impl QuietScorer<'_> {
    /// The quiet move `mv`'s score, `this` its piece and destination.
    #[inline]
    pub fn score(&self, mv: Move, this: PieceTo) -> i32 {
        let (from, to) = squares(mv);
        self.history[from][to] + continuation_sum(&self.continuations, this)
    }

    /// [`QuietScorer::score`] of a quiet move from `from` to `to` (for castling, the king's
    /// and the rook's squares), its fields read by the caller.
    #[inline]
    pub fn score_squares(&self, from: Square, to: Square, this: PieceTo) -> i32 {
        self.history[from as usize][to as usize] + continuation_sum(&self.continuations, this)
    }
}

/// The entries of a quiet move that puts down `this` in continuation `rows`, summed.
#[inline]
fn continuation_sum(rows: &[Option<&[i16]>; 2], this: PieceTo) -> i32 {
    let this = piece_to_index(this);
    rows.iter().flatten().map(|row| i32::from(row[this])).sum()
}

/// Learned ordering knowledge of one search thread.
pub struct Heuristics {
    /// Two quiet moves per ply that recently caused a cutoff.
    pub killers: [[Option<Move>; 2]; MAX_PLY + 1],
    /// Quiet move success by side, from and to square.
    history: Box<[[[i32; 64]; 64]; 2]>,
    /// The quiet reply that refuted each (piece, destination) of the previous move.
    counters: Box<[[Option<Move>; 64]; 12]>,
    /// Quiet move success by an earlier move's (piece, destination), then this move's:
    /// `continuation[earlier * PIECE_TO + this]`. One table serves one and two plies back.
    continuation: Box<[i16]>,
    /// Capture (and promotion) success by piece, destination and captured role (0 for
    /// none, a promotion without capture).
    captures: Box<[[[i16; 6]; 64]; 12]>,
}

impl Default for Heuristics {
    fn default() -> Heuristics {
        Heuristics {
            killers: [[None; 2]; MAX_PLY + 1],
            history: Box::new([[[0; 64]; 64]; 2]),
            counters: Box::new([[None; 64]; 12]),
            continuation: vec![0; PIECE_TO * PIECE_TO].into_boxed_slice(),
            captures: Box::new([[[0; 6]; 64]; 12]),
        }
    }
}

/// The squares a move's history is kept under.
fn squares(mv: Move) -> (usize, usize) {
    match mv {
        Move::Castle { king, rook } => (king as usize, rook as usize),
        _ => (mv.from().map_or(0, |s| s as usize), mv.to() as usize),
    }
}

fn piece_index(piece: Piece) -> usize {
    2 * (piece.role as usize - 1) + usize::from(piece.color.is_white())
}

/// A tactical move's capture-history slot: piece, destination, victim role (0: none).
fn capture_slot(side: Color, mv: Move) -> (usize, usize, usize) {
    let piece = piece_index(mv.role().of(side));
    let victim = mv.capture().map_or(0, |role| role as usize);
    (piece, mv.to() as usize, victim.min(5))
}

fn piece_to_index((piece, to): PieceTo) -> usize {
    piece_index(piece) * 64 + to as usize
}

/// The bonus (and malus) of one cutoff at `depth`: linear in depth, up to
/// `history_bonus_max`.
pub fn cutoff_bonus(depth: i32) -> i32 {
    (history_bonus_per_depth() * depth).min(history_bonus_max())
}

/// Moves a history entry towards +-`history_max()`, more slowly the closer it is.
fn nudge(entry: i32, bonus: i32) -> i32 {
    entry + bonus - entry * bonus.abs() / history_max()
}

impl Heuristics {
    /// Forgets the killers (kept by ply from the root: another root's plies differ).
    pub fn clear_killers(&mut self) {
        self.killers = [[None; 2]; MAX_PLY + 1];
    }

    /// Capture history of a tactical move by `side`.
    pub fn capture_history(&self, side: Color, mv: Move) -> i32 {
        let (piece, to, victim) = capture_slot(side, mv);
        i32::from(self.captures[piece][to][victim])
    }

    /// Rewards the tactical move that failed high (if one did) and punishes the tactical
    /// moves tried before the cutoff.
    pub fn reward_captures(&mut self, side: Color, depth: i32, best: Option<Move>, tried: &[Move]) {
        let bonus = cutoff_bonus(depth);
        if let Some(mv) = best {
            self.nudge_capture(side, mv, bonus);
        }
        for &mv in tried.iter().filter(|&&mv| Some(mv) != best) {
            self.nudge_capture(side, mv, -bonus);
        }
    }

    fn nudge_capture(&mut self, side: Color, mv: Move, bonus: i32) {
        let (piece, to, victim) = capture_slot(side, mv);
        let entry = &mut self.captures[piece][to][victim];
        *entry = nudge(i32::from(*entry), bonus) as i16;
    }

    /// History score of a quiet move by `side`.
    pub fn history(&self, side: Color, mv: Move) -> i32 {
        let (from, to) = squares(mv);
        self.history[usize::from(side.is_white())][from][to]
    }

    /// Continuation history of a quiet move `this` after `lineage`, summed over the plies.
    pub fn continuation(&self, lineage: Lineage, this: PieceTo) -> i32 {
        continuation_sum(&self.continuation_rows(lineage), this)
    }

    /// The continuation rows of the moves one and two plies back in `lineage`.
    fn continuation_rows(&self, lineage: Lineage) -> [Option<&[i16]>; 2] {
        lineage.0.map(|earlier| {
            earlier.map(|earlier| {
                let start = piece_to_index(earlier) * PIECE_TO;
                &self.continuation[start..start + PIECE_TO]
            })
        })
    }

    /// Everything the histories know of a quiet move: the ordering key of quiet moves and
    /// what late move reductions read.
    pub fn quiet_score(&self, side: Color, mv: Move, this: PieceTo, lineage: Lineage) -> i32 {
        self.quiet_scorer(side, lineage).score(mv, this)
    }

    /// [`Heuristics::quiet_score`] for the quiet moves of one node: the node's tables are
    /// looked up once, not once a move.
    #[inline]
    pub fn quiet_scorer(&self, side: Color, lineage: Lineage) -> QuietScorer<'_> {
        QuietScorer {
            history: &self.history[usize::from(side.is_white())],
            continuations: self.continuation_rows(lineage),
        }
    }

    /// The counter move to a previous move that put `piece` on `to`.
    pub fn counter(&self, previous: Option<PieceTo>) -> Option<Move> {
        previous.and_then(|(piece, to)| self.counters[piece_index(piece)][to as usize])
    }

    /// Rewards the quiet move that failed high and punishes the quiet moves tried before it.
    /// `tried` holds each quiet move with the piece it put down and where.
    pub fn reward(
        &mut self,
        side: Color,
        ply: usize,
        depth: i32,
        best: (Move, PieceTo),
        tried: &[(Move, PieceTo)],
        lineage: Lineage,
    ) {
        let bonus = cutoff_bonus(depth);
        self.update(side, best, lineage, bonus);
        for &quiet in tried.iter().filter(|&&(mv, _)| mv != best.0) {
            self.update(side, quiet, lineage, -bonus);
        }
        let killers = &mut self.killers[ply.min(MAX_PLY)];
        if killers[0] != Some(best.0) {
            killers[1] = killers[0];
            killers[0] = Some(best.0);
        }
        if let Some((piece, to)) = lineage.0[0] {
            self.counters[piece_index(piece)][to as usize] = Some(best.0);
        }
    }

    /// Moves the continuation entries of a quiet move that put down `this` after `lineage`
    /// by `bonus`: how a move learns from the node it led to (a bonus when that node failed
    /// low, a malus when it was refuted at once).
    pub fn nudge_continuation(&mut self, lineage: Lineage, this: PieceTo, bonus: i32) {
        let this = piece_to_index(this);
        for &earlier in lineage.0.iter().flatten() {
            let entry = &mut self.continuation[piece_to_index(earlier) * PIECE_TO + this];
            // Within i16: nudge keeps an entry inside +-history_max() (at most 30,000).
            *entry = nudge(i32::from(*entry), bonus) as i16;
        }
    }

    /// Moves a quiet move's history and continuation entries by `bonus`.
    fn update(&mut self, side: Color, (mv, this): (Move, PieceTo), lineage: Lineage, bonus: i32) {
        let (from, to) = squares(mv);
        let entry = &mut self.history[usize::from(side.is_white())][from][to];
        *entry = nudge(*entry, bonus);
        self.nudge_continuation(lineage, this, bonus);
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::params::history_prune_margin;
    use shakmaty::{Role, Square};

    use super::*;

    fn quiet(from: Square, to: Square, role: Role) -> (Move, PieceTo) {
        let mv = Move::Normal {
            role,
            from,
            capture: None,
            to,
            promotion: None,
        };
        (mv, (role.of(Color::White), to))
    }

    #[test]
    fn capture_history_rewards_the_cutting_capture_and_punishes_those_tried_before() {
        let mut h = Heuristics::default();
        let capture = |from, to, victim| Move::Normal {
            role: Role::Knight,
            from,
            capture: Some(victim),
            to,
            promotion: None,
        };
        let cut = capture(Square::F3, Square::E5, Role::Pawn);
        let tried = capture(Square::F3, Square::D4, Role::Pawn);
        let other_victim = capture(Square::F3, Square::E5, Role::Bishop);
        h.reward_captures(Color::White, 6, Some(cut), &[tried, cut]);
        assert!(h.capture_history(Color::White, cut) > 0);
        assert!(h.capture_history(Color::White, tried) < 0);
        // Another victim on the same square, and the other side, are other entries.
        assert_eq!(h.capture_history(Color::White, other_victim), 0);
        assert_eq!(h.capture_history(Color::Black, cut), 0);
        // A quiet cutoff punishes every capture tried.
        h.reward_captures(Color::White, 6, None, &[cut]);
        assert!(h.capture_history(Color::White, cut) < cutoff_bonus(6));
    }

    #[test]
    fn continuation_rewards_only_the_lineage_it_was_learned_under() {
        let mut h = Heuristics::default();
        let reply = (Role::Pawn.of(Color::Black), Square::E5);
        let own = (Role::Pawn.of(Color::White), Square::E4);
        let lineage = Lineage([Some(reply), Some(own)]);
        let best = quiet(Square::G1, Square::F3, Role::Knight);
        let tried = quiet(Square::B1, Square::C3, Role::Knight);
        h.reward(Color::White, 2, 8, best, &[tried, best], lineage);
        let bonus = cutoff_bonus(8);
        assert_eq!(h.continuation(lineage, best.1), 2 * bonus);
        assert_eq!(h.continuation(lineage, tried.1), -2 * bonus);
        assert_eq!(h.continuation(Lineage([Some(reply), None]), best.1), bonus);
        let other = Lineage([Some((Role::Pawn.of(Color::Black), Square::D5)), None]);
        assert_eq!(h.continuation(other, best.1), 0);
        assert_eq!(
            h.quiet_score(Color::White, best.0, best.1, lineage),
            bonus + 2 * bonus
        );
        assert_eq!(h.counter(Some(reply)), Some(best.0));
    }

    #[test]
    fn a_few_shallow_refutations_bring_a_move_within_reach_of_history_pruning() {
        // Histories must learn fast enough at the shallow nodes where history pruning and
        // late move reductions read them: ten refutations at depth 1 in one lineage take a
        // move below the depth-1 pruning threshold.
        let mut h = Heuristics::default();
        let lineage = Lineage([Some((Role::Pawn.of(Color::Black), Square::E5)), None]);
        let best = quiet(Square::G1, Square::F3, Role::Knight);
        let refuted = quiet(Square::A2, Square::A3, Role::Pawn);
        for _ in 0..10 {
            h.reward(Color::White, 4, 1, best, &[refuted, best], lineage);
        }
        let score = h.quiet_score(Color::White, refuted.0, refuted.1, lineage);
        assert!(score < -history_prune_margin(), "{score}");
    }

    #[test]
    fn a_move_learns_from_its_node_in_its_continuations_only() {
        // The opponent's move to a node learns from the node's result through its
        // continuation entries under its own lineage: not its main history, nor another
        // lineage's entries.
        let mut h = Heuristics::default();
        let lineage = Lineage([
            Some((Role::Pawn.of(Color::Black), Square::E5)),
            Some((Role::Pawn.of(Color::White), Square::E4)),
        ]);
        let (mv, this) = quiet(Square::G1, Square::F3, Role::Knight);
        h.nudge_continuation(lineage, this, 500);
        assert_eq!(h.continuation(lineage, this), 2 * 500);
        assert_eq!(h.history(Color::White, mv), 0);
        let other = Lineage([Some((Role::Pawn.of(Color::Black), Square::D5)), None]);
        assert_eq!(h.continuation(other, this), 0);
        h.nudge_continuation(lineage, this, -800);
        assert!(h.continuation(lineage, this) < 0);
    }

    #[test]
    fn entries_stay_within_bounds() {
        let mut h = Heuristics::default();
        let lineage = Lineage([Some((Role::Queen.of(Color::Black), Square::D1)), None]);
        let best = quiet(Square::G1, Square::F3, Role::Knight);
        for _ in 0..10_000 {
            h.reward(Color::White, 1, 40, best, &[], lineage);
        }
        // Saturated just below the bound, not wrapped around (i16 entries).
        let near_top = history_max() - history_bonus_max()..=history_max();
        assert!(near_top.contains(&h.continuation(lineage, best.1)));
        assert!(near_top.contains(&h.history(Color::White, best.0)));
        let refuting = quiet(Square::D2, Square::D4, Role::Pawn);
        for _ in 0..10_000 {
            h.reward(Color::White, 1, 40, refuting, &[best], lineage);
        }
        let near_bottom = -history_max()..=-history_max() + history_bonus_max();
        assert!(near_bottom.contains(&h.continuation(lineage, best.1)));
        assert!(near_bottom.contains(&h.history(Color::White, best.0)));
    }
}
