//! Move ordering: the table move, then winning captures by victim, attacker and capture
//! history, killers,
//! the counter move, quiet moves by history and continuation history, and losing captures
//! last.
//!
//! The main search's picker works in stages and scores a stage's moves only when the
//! search asks for its first move: at a node the table move refutes, nothing is scored.

use arrayvec::ArrayVec;
use shakmaty::{Bitboard, Chess, Color, Move, MoveList, Position, Role, Square};

use super::history::{Heuristics, Lineage, QuietScorer};
use super::params::capture_history_divisor;
use super::score::MAX_PLY;
use super::see::{see_ge, see_value};
use crate::chess::quiet_legality::is_legal_quiet;
use crate::chess::quiet_moves::each_quiet_move;
use crate::chess::tactical::each_tactical_move;

/// True for moves that change material: captures and promotions.
pub fn is_tactical(mv: Move) -> bool {
    mv.is_capture() || mv.is_promotion()
}

/// Captures and promotions: most valuable victim first, least valuable attacker next. The
/// victim is the one the move names (a legal move names the piece on its target), so the
/// board is not read.
fn mvv_lva(mv: Move) -> i32 {
    let (attacker, victim, promotion) = match mv {
        Move::Normal {
            role,
            capture,
            promotion,
            ..
        } => (role, capture, promotion),
        Move::EnPassant { .. } => (Role::Pawn, Some(Role::Pawn), None),
        _ => (mv.role(), None, None),
    };
    let value = |role: Option<Role>| role.map_or(0, see_value);
    16 * (value(victim) + value(promotion)) - see_value(attacker) / 16
}

/// Which stage of the ordering handed a move out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// The transposition table's move.
    TableMove,
    /// A capture or promotion that does not lose material in the exchange.
    WinningTactical,
    /// A killer or the counter move: a quiet move that refuted a related line.
    Refutation,
    /// Any other quiet move, with the history score it was ranked by.
    Quiet(i32),
    /// A capture or promotion that loses material in the exchange.
    LosingTactical,
}

/// A move handed out by a picker, with the stage that ordered it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Picked {
    /// The move.
    pub mv: Move,
    /// Where in the ordering it came from.
    pub source: Source,
}

impl Picked {
    /// A capture or promotion that loses material in the exchange (ordered last).
    pub fn losing_capture(&self) -> bool {
        self.source == Source::LosingTactical
    }

    /// The history score the picker ranked a quiet move by (`None` for moves it ranked
    /// otherwise: the table move, killers, the counter move, tactical moves).
    pub fn history(&self) -> Option<i32> {
        match self.source {
            Source::Quiet(score) => Some(score),
            _ => None,
        }
    }
}

/// Moves with ordering scores, handed out best first (selection sort: usually only the
/// first few moves are ever looked at).
///
/// Each move's score is kept in a key with the move's place in the list below it: the
/// greatest key holds the greatest score, on a tie the one placed last (the move the sort
/// has always taken), and says where that move is, so that finding it is a plain maximum
/// over the keys, which the compiler vectorises.
#[derive(Default)]
struct Scored {
    moves: ArrayVec<Move, 256>,
    /// `score << PLACE_BITS | place` for each move, `place` its index in `moves`.
    keys: ArrayVec<i32, 256>,
    next: usize,
}

/// Bits of a key that hold the move's place: enough for 256 moves.
const PLACE_BITS: u32 = 8;
/// The place bits of a key.
const PLACE_MASK: i32 = (1 << PLACE_BITS) - 1;

impl Scored {
    /// Adds `mv` with `score`, which must fit in the key's other 24 bits (every history
    /// and capture score does, by far).
    #[inline]
    fn push(&mut self, mv: Move, score: i32) {
        debug_assert!(score.unsigned_abs() < 1 << (31 - PLACE_BITS));
        let place = self.moves.len() as i32;
        self.keys.push((score << PLACE_BITS) | place);
        self.moves.push(mv);
    }

    /// The best move not handed out yet, with its score. The move in the first place not
    /// handed out takes its place, as a swap of the two would leave it.
    #[inline]
    fn pick(&mut self) -> Option<(Move, i32)> {
        if self.next == self.keys.len() {
            return None;
        }
        let rest = &self.keys[self.next..];
        // A fold over the values: `Iterator::max` keeps a reference to the greatest and
        // compiles to a scan with a branch a key.
        let best_key = rest.iter().fold(i32::MIN, |best, &key| best.max(key));
        let best = (best_key & PLACE_MASK) as usize;
        let mv = self.moves[best];
        self.moves[best] = self.moves[self.next];
        self.keys[best] = (self.keys[self.next] & !PLACE_MASK) | best as i32;
        self.next += 1;
        Some((mv, best_key >> PLACE_BITS))
    }

    fn clear(&mut self) {
        self.moves.clear();
        self.keys.clear();
        self.next = 0;
    }
}

/// Where a main-search picker stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    TableMove,
    ScoreTactical,
    GoodTactical,
    /// Killer 0, killer 1, the counter move.
    Refutation(usize),
    ScoreQuiets,
    Quiets,
    BadTactical,
    Done,
}

/// The main search's staged move picker over a node's legal moves. It generates nothing
/// for the table move, only the captures and promotions for the tactical stage (every
/// legal move when in check or when en passant is legal), and the legal quiet moves only
/// when their turn comes. It borrows the history tables only while it is asked for a
/// move, so the search may update them in between.
pub struct MovePicker<'m> {
    /// The node's legal moves, once generated (the node's own list, borrowed: 2 KB not
    /// copied in). While it is `None`, killers are checked for legality one by one.
    moves: &'m mut Option<MoveList>,
    in_check: bool,
    side: Color,
    lineage: Lineage,
    tt_move: Option<Move>,
    /// Killer 0, killer 1 and the counter move, as the tables gave them (checked for
    /// legality when their stage comes).
    refutations: [Option<Move>; 3],
    stage: Stage,
    /// Set by [`MovePicker::skip_quiets`]: no more quiet moves are handed out.
    quiets_skipped: bool,
    /// Winning tactical moves, then the quiet moves.
    scored: Scored,
    losing: Scored,
}

impl<'m> MovePicker<'m> {
    /// A picker over the legal moves of a node at `ply` (`in_check` when its side to move
    /// is), reached by `lineage`: `moves` when they were generated already, else generated
    /// there when needed. `tt_move` must be legal.
    #[inline]
    pub fn new(
        pos: &Chess,
        in_check: bool,
        moves: &'m mut Option<MoveList>,
        tt_move: Option<Move>,
        heuristics: &Heuristics,
        ply: usize,
        lineage: Lineage,
    ) -> MovePicker<'m> {
        let killers = heuristics.killers[ply.min(MAX_PLY)];
        MovePicker {
            moves,
            in_check,
            side: pos.turn(),
            lineage,
            tt_move,
            refutations: [killers[0], killers[1], heuristics.counter(lineage.0[0])],
            stage: Stage::TableMove,
            quiets_skipped: false,
            scored: Scored::default(),
            losing: Scored::default(),
        }
    }

    /// The next move to search, or `None` when every legal move has been handed out.
    /// `pos` must be the node's position.
    #[inline]
    pub fn next(&mut self, pos: &Chess, heuristics: &Heuristics) -> Option<Picked> {
        // Most calls hand out a quiet move already scored: that path is kept apart from the
        // stages' setup, which would otherwise be paid on every call.
        if self.stage == Stage::Quiets
            && let Some((mv, score)) = self.scored.pick()
        {
            return Some(Picked {
                mv,
                source: Source::Quiet(score),
            });
        }
        self.advance(pos, heuristics)
    }

    /// [`MovePicker::next`] past the quiet moves' common case: the stages that generate
    /// and score moves, and those that hand out the table move, tactical moves and
    /// refutations.
    #[inline(never)]
    fn advance(&mut self, pos: &Chess, heuristics: &Heuristics) -> Option<Picked> {
        loop {
            match self.stage {
                Stage::TableMove => {
                    self.stage = Stage::ScoreTactical;
                    if let Some(mv) = self.tt_move {
                        return Some(Picked {
                            mv,
                            source: Source::TableMove,
                        });
                    }
                }
                Stage::ScoreTactical => {
                    self.score_tactical(pos, heuristics);
                    self.stage = Stage::GoodTactical;
                }
                Stage::GoodTactical => {
                    if let Some((mv, _)) = self.scored.pick() {
                        return Some(Picked {
                            mv,
                            source: Source::WinningTactical,
                        });
                    }
                    self.stage = if self.quiets_skipped {
                        Stage::BadTactical
                    } else {
                        Stage::Refutation(0)
                    };
                }
                Stage::Refutation(i) => {
                    self.stage = if i + 1 < self.refutations.len() {
                        Stage::Refutation(i + 1)
                    } else {
                        Stage::ScoreQuiets
                    };
                    if let Some(mv) = self.refutations[i]
                        && self.is_fresh_refutation(pos, i, mv)
                    {
                        return Some(Picked {
                            mv,
                            source: Source::Refutation,
                        });
                    }
                }
                Stage::ScoreQuiets => {
                    self.score_quiets(pos, heuristics);
                    self.stage = Stage::Quiets;
                }
                Stage::Quiets => {
                    if let Some((mv, score)) = self.scored.pick() {
                        return Some(Picked {
                            mv,
                            source: Source::Quiet(score),
                        });
                    }
                    self.stage = Stage::BadTactical;
                }
                Stage::BadTactical => {
                    if let Some((mv, _)) = self.losing.pick() {
                        return Some(Picked {
                            mv,
                            source: Source::LosingTactical,
                        });
                    }
                    self.stage = Stage::Done;
                }
                Stage::Done => return None,
            }
        }
    }

    /// Generates the tactical moves (every legal move when in check or when en passant is
    /// legal) unless the node's moves are known, and scores them into the winning and the
    /// losing ones. Kept out of [`MovePicker::advance`]: its move list and the tables it
    /// reads would otherwise be set up on every call there.
    #[inline(never)]
    fn score_tactical(&mut self, pos: &Chess, heuristics: &Heuristics) {
        let (tt_move, side) = (self.tt_move, self.side);
        let (scored, losing) = (&mut self.scored, &mut self.losing);
        let mut score = |mv: Move| {
            if !is_tactical(mv) || Some(mv) == tt_move {
                return;
            }
            let score =
                mvv_lva(mv) + heuristics.capture_history(side, mv) / capture_history_divisor();
            if see_ge(pos, mv, 0) {
                scored.push(mv, score);
            } else {
                losing.push(mv, score);
            }
        };
        // Generated tactical moves are scored as they come, without a list.
        match self.moves {
            Some(moves) => moves.iter().for_each(|&mv| score(mv)),
            None if each_tactical_move(pos, self.in_check, &mut score) => {}
            None => self
                .moves
                .insert(pos.legal_moves())
                .iter()
                .for_each(|&mv| score(mv)),
        }
    }

    /// Generates the legal quiet moves unless the node's moves are known, and scores those
    /// not handed out already by history. Kept out of [`MovePicker::advance`] as
    /// [`MovePicker::score_tactical`] is.
    #[inline(never)]
    fn score_quiets(&mut self, pos: &Chess, heuristics: &Heuristics) {
        self.scored.clear();
        let scorer = heuristics.quiet_scorer(self.side, self.lineage);
        // The target squares of the table move and the refutations: a move to another
        // square is none of them, known without comparing it with each (comparing two moves
        // matches on their kinds and fields).
        let handed_to = std::iter::once(self.tt_move)
            .chain(self.refutations)
            .flatten()
            .fold(Bitboard::EMPTY, |targets, mv| targets.with(mv.to()));
        let ranking = QuietRanking {
            scorer,
            handed_to,
            tt_move: self.tt_move,
            refutations: self.refutations,
            side: self.side,
        };
        let scored = &mut self.scored;
        match self.moves {
            Some(moves) => {
                for &mv in moves.iter() {
                    // The move's fields, read once: each accessor matches on the move's kind.
                    match mv {
                        Move::Normal {
                            role,
                            from,
                            capture: None,
                            to,
                            promotion: None,
                        } => ranking.rank(scored, mv, role, from, to),
                        Move::Castle { king, rook } => {
                            ranking.rank(scored, mv, Role::King, king, rook);
                        }
                        _ => {}
                    }
                }
            }
            // Not in check when nothing was generated yet (the tactical stage generates
            // every move there): then the quiet moves alone, in the order the full list
            // holds them, so that ties among their scores fall the same way; scored as
            // they are generated, their fields as the generator knows them (inlined at each
            // place the generator hands out moves: called, it cost a call a move).
            None => each_quiet_move(
                pos,
                #[inline(always)]
                |mv, role, from, to| ranking.rank(scored, mv, role, from, to),
            ),
        }
    }

    /// Hands out no more quiet moves (neither refutations nor the others): the search
    /// prunes every one of them from here on. The losing tactical moves still follow.
    pub fn skip_quiets(&mut self) {
        self.quiets_skipped = true;
        if matches!(
            self.stage,
            Stage::Refutation(_) | Stage::ScoreQuiets | Stage::Quiets
        ) {
            self.stage = Stage::BadTactical;
        }
    }

    /// Whether refutation `i` is a legal quiet move not handed out already (as the table
    /// move or an earlier refutation).
    fn is_fresh_refutation(&self, pos: &Chess, i: usize, mv: Move) -> bool {
        !is_tactical(mv)
            && Some(mv) != self.tt_move
            && !self.refutations[..i].contains(&Some(mv))
            && match self.moves.as_ref() {
                Some(moves) => moves.contains(&mv),
                None => is_legal_quiet(pos, mv),
            }
    }
}

/// What ranking a node's quiet moves reads: the histories, and the moves handed out before
/// the quiet stage (with their targets, which rule out most moves without a comparison).
struct QuietRanking<'a> {
    scorer: QuietScorer<'a>,
    handed_to: Bitboard,
    tt_move: Option<Move>,
    refutations: [Option<Move>; 3],
    side: Color,
}

impl QuietRanking<'_> {
    /// Adds the quiet move `mv` of a `role` from `from` to `to` (for castling, the king's
    /// and the rook's squares) to `scored` by its histories, unless it was handed out.
    #[inline(always)]
    fn rank(&self, scored: &mut Scored, mv: Move, role: Role, from: Square, to: Square) {
        if self.handed_to.contains(to)
            && (Some(mv) == self.tt_move || self.refutations.contains(&Some(mv)))
        {
            return;
        }
        let score = self
            .scorer
            .score_squares(from, to, (role.of(self.side), to));
        scored.push(mv, score);
    }
}

/// Orders the captures and promotions of a quiescence node (all moves when in check), by
/// victim and attacker.
///
/// Made empty and then filled in place ([`TacticalPicker::fill`]): a filled picker (3 KB)
/// returned by value was copied at every quiescence node.
#[derive(Default)]
pub struct TacticalPicker {
    scored: Scored,
}

impl TacticalPicker {
    /// Adds the tactical moves among `moves` (all of them when `in_check`).
    #[inline]
    pub fn fill(&mut self, moves: &MoveList, in_check: bool) {
        for &mv in moves.iter() {
            if is_tactical(mv) {
                self.add(mv);
            } else if in_check {
                self.scored.push(mv, 0);
            }
        }
    }

    /// Adds the tactical move `mv`.
    #[inline]
    pub fn add(&mut self, mv: Move) {
        self.scored.push(mv, mvv_lva(mv));
    }
}

impl Iterator for TacticalPicker {
    type Item = Move;

    fn next(&mut self) -> Option<Move> {
        self.scored.pick().map(|(mv, _)| mv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Position as Game;
    use shakmaty::Square;

    /// Every move the picker hands out at a node, with the history it reports.
    fn drain(pos: &Chess, picker: &mut MovePicker, heuristics: &Heuristics) -> Vec<Picked> {
        std::iter::from_fn(|| picker.next(pos, heuristics)).collect()
    }

    fn position(fen: &str) -> Chess {
        Game::from_fen(fen, false)
            .expect("test FEN")
            .chess()
            .clone()
    }

    #[test]
    fn every_legal_move_is_handed_out_once_in_stage_order() {
        // Kiwipete: captures that win, captures that lose, quiet moves, castling.
        let pos = position("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
        let moves = pos.legal_moves();
        let quiet: Vec<Move> = moves.iter().copied().filter(|&m| !is_tactical(m)).collect();
        let tt_move = quiet[3];
        let mut heuristics = Heuristics::default();
        heuristics.killers[2] = [Some(quiet[5]), Some(tt_move)];
        // A killer from another position that is not legal here is skipped.
        let foreign = Move::Normal {
            role: Role::Queen,
            from: Square::D1,
            capture: None,
            to: Square::H5,
            promotion: None,
        };
        heuristics.killers[3] = [Some(foreign), Some(quiet[7])];

        for (ply, expected_refutations) in [(2, vec![quiet[5]]), (3, vec![quiet[7]])] {
            let mut generated = None;
            let mut picker = MovePicker::new(
                &pos,
                false,
                &mut generated,
                Some(tt_move),
                &heuristics,
                ply,
                Lineage::default(),
            );
            let picked = drain(&pos, &mut picker, &heuristics);
            let mut handed: Vec<Move> = picked.iter().map(|p| p.mv).collect();
            assert_eq!(handed[0], tt_move);
            let first_quiet = picked[1..]
                .iter()
                .position(|p| !is_tactical(p.mv))
                .expect("quiet moves")
                + 1;
            // Winning captures, then the refutations, then the quiets ranked by history,
            // then the losing captures.
            assert!(
                picked[1..first_quiet]
                    .iter()
                    .all(|p| p.source == Source::WinningTactical)
            );
            assert_eq!(
                handed[first_quiet..first_quiet + expected_refutations.len()],
                expected_refutations[..]
            );
            let losing = picked.iter().filter(|p| p.losing_capture()).count();
            assert!(losing > 0, "Kiwipete has losing captures");
            let tail = &picked[picked.len() - losing..];
            assert!(tail.iter().all(|p| p.losing_capture() && is_tactical(p.mv)));
            let ranked = &picked[first_quiet + expected_refutations.len()..picked.len() - losing];
            assert!(
                ranked
                    .iter()
                    .all(|p| p.history().is_some() && !is_tactical(p.mv))
            );

            handed.sort_by_key(|m| format!("{m:?}"));
            let mut legal: Vec<Move> = moves.iter().copied().collect();
            legal.sort_by_key(|m| format!("{m:?}"));
            assert_eq!(handed, legal, "ply {ply}: each legal move exactly once");
        }
    }

    /// A picker out of check with no table move, at ply 2 (where the test's killers are).
    fn at_ply_2<'m>(
        pos: &Chess,
        generated: &'m mut Option<MoveList>,
        heuristics: &Heuristics,
    ) -> MovePicker<'m> {
        MovePicker::new(
            pos,
            false,
            generated,
            None,
            heuristics,
            2,
            Lineage::default(),
        )
    }

    #[test]
    fn skipping_quiet_moves_leaves_only_the_losing_tactical_moves() {
        let pos = position("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
        let moves = pos.legal_moves();
        let quiet: Vec<Move> = moves.iter().copied().filter(|&m| !is_tactical(m)).collect();
        let mut heuristics = Heuristics::default();
        heuristics.killers[2] = [Some(quiet[5]), Some(quiet[9])];
        let everything = {
            let mut generated = None;
            let mut picker = at_ply_2(&pos, &mut generated, &heuristics);
            drain(&pos, &mut picker, &heuristics)
        };
        let losing: Vec<Picked> = everything
            .iter()
            .copied()
            .filter(|p| p.losing_capture())
            .collect();
        assert!(!losing.is_empty(), "Kiwipete has losing captures");
        // Skipped at the first killer, and at the third quiet move of the ranked stage.
        let first_killer = everything
            .iter()
            .position(|p| p.source == Source::Refutation)
            .expect("a killer");
        let third_ranked = everything
            .iter()
            .position(|p| p.history().is_some())
            .expect("ranked quiet moves")
            + 2;
        for skip_after in [first_killer, third_ranked] {
            let mut generated = None;
            let mut picker = at_ply_2(&pos, &mut generated, &heuristics);
            let head: Vec<Picked> = (0..=skip_after)
                .map(|_| picker.next(&pos, &heuristics).expect("a move"))
                .collect();
            assert_eq!(head[..], everything[..=skip_after]);
            picker.skip_quiets();
            assert_eq!(drain(&pos, &mut picker, &heuristics), losing);
        }

        // Skipped before any quiet move: the winning tactical moves still come first.
        let mut generated = None;
        let mut picker = at_ply_2(&pos, &mut generated, &heuristics);
        picker.skip_quiets();
        let tactical: Vec<Picked> = everything
            .iter()
            .copied()
            .filter(|p| is_tactical(p.mv))
            .collect();
        assert_eq!(drain(&pos, &mut picker, &heuristics), tactical);
    }

    #[test]
    fn quiet_moves_come_by_history_and_report_it() {
        let pos = position("4k3/8/8/8/8/8/PP6/4K2R w K - 0 1");
        let moves = pos.legal_moves();
        let mut heuristics = Heuristics::default();
        let favourite = *moves
            .iter()
            .find(|m| m.role() == Role::Rook && m.to() == Square::H7)
            .expect("Rh7 is legal");
        let side = Color::White;
        let lineage = Lineage::default();
        let this = (favourite.role().of(side), favourite.to());
        heuristics.reward(side, 10, 8, (favourite, this), &[], lineage);
        let mut moves = Some(moves);
        let mut picker = MovePicker::new(&pos, false, &mut moves, None, &heuristics, 1, lineage);
        let picked = drain(&pos, &mut picker, &heuristics);
        // Rewarding made it a killer at ply 10, not at ply 1: here it leads on history.
        assert_eq!(picked[0].mv, favourite);
        let scores: Vec<i32> = picked.iter().map(|p| p.history().expect("quiet")).collect();
        assert!(scores[0] > 0);
        assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
        assert_eq!(
            scores[0],
            heuristics.quiet_score(side, favourite, this, lineage)
        );
    }

    #[test]
    fn scored_moves_come_as_a_selection_sort_by_swaps_hands_them_out() {
        use rand::rngs::ChaCha8Rng;
        use rand::{RngExt, SeedableRng};

        let moves: Vec<Move> =
            position("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
                .legal_moves()
                .into_iter()
                .collect();
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for _ in 0..200 {
            // Few distinct scores, so that most picks break a tie; now and then the widest.
            let scored: Vec<(Move, i32)> = moves
                .iter()
                .map(|&mv| (mv, rng.random_range(-3..=3) * rng.random_range(1..=30_000)))
                .collect();
            let mut picker = Scored::default();
            for &(mv, score) in &scored {
                picker.push(mv, score);
            }
            // The reference: the greatest score, the last such on a tie, swapped to the front.
            let mut reference = scored.clone();
            for next in 0..reference.len() {
                let rest = &mut reference[next..];
                let best = rest
                    .iter()
                    .enumerate()
                    .max_by_key(|(_, (_, s))| *s)
                    .unwrap()
                    .0;
                rest.swap(0, best);
                assert_eq!(picker.pick(), Some(reference[next]));
            }
            assert_eq!(picker.pick(), None);
        }
    }

    #[test]
    fn quiescence_takes_the_biggest_victim_first_and_evades_every_way_in_check() {
        let pos = position("4k3/8/8/3q1r2/4P3/8/8/4K3 w - - 0 1");
        let moves = pos.legal_moves();
        let mut picker = TacticalPicker::default();
        picker.fill(&moves, false);
        let order: Vec<Move> = picker.collect();
        assert_eq!(order.len(), 2);
        assert_eq!(order[0].to(), Square::D5);
        assert_eq!(order[1].to(), Square::F5);

        let check = position("4k3/8/8/8/8/8/3q4/4K3 w - - 0 1");
        let evasions = check.legal_moves();
        let mut picker = TacticalPicker::default();
        picker.fill(&evasions, true);
        let all: Vec<Move> = picker.collect();
        assert_eq!(all.len(), evasions.len());
        assert!(is_tactical(all[0]), "taking the queen comes first");
    }
}
