//! The hand-written evaluation: tapered middlegame/endgame terms, from the side to move's view.
//!
//! Terms: material, piece-square values, mobility, pawn structure (passed, isolated,
//! doubled), king safety (attacks on the king zone, pawn shield), bishop pair, rooks on open
//! files, tempo. The piece-square values come from simple formulas (centralisation, pawn
//! advancement, a sheltered king), written out so they can be read and tuned.

use std::sync::LazyLock;

use shakmaty::{Bitboard, Board, Chess, Color, File, Piece, Position, Rank, Role, Square, attacks};

/// A middlegame/endgame score pair.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Score {
    /// Middlegame part.
    pub mg: i32,
    /// Endgame part.
    pub eg: i32,
}

const fn s(mg: i32, eg: i32) -> Score {
    Score { mg, eg }
}

impl std::ops::Add for Score {
    type Output = Score;
    fn add(self, o: Score) -> Score {
        s(self.mg + o.mg, self.eg + o.eg)
    }
}

impl std::ops::AddAssign for Score {
    fn add_assign(&mut self, o: Score) {
        self.mg += o.mg;
        self.eg += o.eg;
    }
}

impl std::ops::Sub for Score {
    type Output = Score;
    fn sub(self, o: Score) -> Score {
        s(self.mg - o.mg, self.eg - o.eg)
    }
}

impl std::ops::Mul<i32> for Score {
    type Output = Score;
    fn mul(self, k: i32) -> Score {
        s(self.mg * k, self.eg * k)
    }
}

/// Piece values, indexed by role (0 unused).
pub const MATERIAL: [Score; 7] = [
    s(0, 0),
    s(90, 120),
    s(330, 310),
    s(350, 330),
    s(480, 550),
    s(1000, 1020),
    s(0, 0),
];

/// Game phase weight of each role; 24 is a full board.
const PHASE: [i32; 7] = [0, 0, 1, 1, 2, 4, 0];
const MAX_PHASE: i32 = 24;

const TEMPO: Score = s(15, 5);
const BISHOP_PAIR: Score = s(30, 55);
const ROOK_OPEN_FILE: Score = s(28, 8);
const ROOK_SEMI_OPEN_FILE: Score = s(12, 6);
const ISOLATED_PAWN: Score = s(-10, -14);
const DOUBLED_PAWN: Score = s(-8, -22);
/// Passed pawn bonus by relative rank.
const PASSED_PAWN: [Score; 8] = [
    s(0, 0),
    s(2, 8),
    s(5, 12),
    s(12, 25),
    s(28, 50),
    s(50, 90),
    s(80, 140),
    s(0, 0),
];
/// Mobility per reachable square beyond a typical count, by role.
const MOBILITY: [(i32, Score); 7] = [
    (0, s(0, 0)),
    (0, s(0, 0)),
    (4, s(5, 5)),
    (6, s(5, 5)),
    (7, s(3, 5)),
    (14, s(2, 4)),
    (0, s(0, 0)),
];
/// King-zone attack weight by attacking role.
const KING_ATTACK_WEIGHT: [i32; 7] = [0, 0, 2, 2, 3, 5, 0];
const SHIELD_PAWN_NEAR: Score = s(14, 0);
const SHIELD_PAWN_FAR: Score = s(7, 0);

/// Piece-square values from white's side, `[role][square]`.
static PSQT: LazyLock<[[Score; 64]; 7]> = LazyLock::new(|| {
    let mut table = [[Score::default(); 64]; 7];
    for square in Square::ALL {
        let (f, r) = (square.file() as i32, square.rank() as i32);
        // 0 on the rim, 3 in the centre, on each axis.
        let fc = 3 - (3 - f).max(f - 4);
        let rc = 3 - (3 - r).max(r - 4);
        let centre = fc + rc; // 0..6
        let i = square as usize;
        table[Role::Pawn as usize][i] = match r {
            0 | 7 => s(0, 0),
            _ => {
                let file_bonus = [-4, -2, 3, 10, 10, 3, -2, -4][f as usize];
                let central = if (2..=4).contains(&r) { file_bonus } else { 0 };
                s(
                    [0, 0, 2, 6, 12, 20, 35, 0][r as usize] + central,
                    [0, 0, 4, 10, 20, 35, 60, 0][r as usize],
                )
            }
        };
        table[Role::Knight as usize][i] = s(7 * centre - 21, 5 * centre - 15);
        table[Role::Bishop as usize][i] = s(3 * centre - 9, 3 * centre - 9);
        table[Role::Rook as usize][i] = s(
            if r == 6 { 15 } else { 0 } + if (3..=4).contains(&f) { 5 } else { 0 },
            if r == 6 { 10 } else { 0 },
        );
        table[Role::Queen as usize][i] = s(2 * centre - 6, 4 * centre - 12);
        table[Role::King as usize][i] = s(
            match r {
                0 => [15, 25, 10, -5, 0, -5, 25, 15][f as usize],
                1 => [0, 5, -10, -20, -20, -10, 5, 0][f as usize],
                _ => -25 * r,
            },
            8 * centre - 24,
        );
    }
    table
});

/// Where the terms of an evaluation go: nowhere for search, a table for the `eval` command.
pub trait Tracer {
    /// Records one term for one colour.
    fn term(&mut self, name: &'static str, color: Color, score: Score);
    /// Records the game phase used to taper the terms.
    fn phase(&mut self, _phase: i32) {}
}

/// Discards every term (search's tracer, free after inlining).
pub struct NoTrace;

impl Tracer for NoTrace {
    #[inline(always)]
    fn term(&mut self, _: &'static str, _: Color, _: Score) {}
}

/// Collects the terms by name for both colours.
#[derive(Default, Debug)]
pub struct Trace {
    /// `(name, white, black)` in evaluation order.
    pub terms: Vec<(&'static str, Score, Score)>,
    /// Game phase, 0 (bare kings) to 24 (full board).
    pub phase: i32,
}

impl Tracer for Trace {
    fn phase(&mut self, phase: i32) {
        self.phase = phase;
    }

    fn term(&mut self, name: &'static str, color: Color, score: Score) {
        let row = match self.terms.iter_mut().find(|t| t.0 == name) {
            Some(row) => row,
            None => {
                self.terms.push((name, Score::default(), Score::default()));
                self.terms.last_mut().expect("just pushed")
            }
        };
        match color {
            Color::White => row.1 += score,
            Color::Black => row.2 += score,
        }
    }
}

/// The static evaluation in centipawns from the side to move's point of view.
pub fn evaluate(pos: &Chess) -> i32 {
    evaluate_with(pos, &mut NoTrace)
}

/// [`evaluate`], reporting every term to `tracer`.
pub fn evaluate_with<T: Tracer>(pos: &Chess, tracer: &mut T) -> i32 {
    let board = pos.board();
    let mut total = Score::default();
    let mut phase = 0;
    for color in Color::ALL {
        let side = evaluate_side(board, color, tracer);
        total += if color.is_white() {
            side
        } else {
            s(-side.mg, -side.eg)
        };
        for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
            phase += PHASE[role as usize] * (board.by_piece(role.of(color))).count() as i32;
        }
    }
    let tempo = if pos.turn().is_white() {
        TEMPO
    } else {
        s(-TEMPO.mg, -TEMPO.eg)
    };
    tracer.term("Tempo", pos.turn(), TEMPO);
    total += tempo;
    let phase = phase.min(MAX_PHASE);
    tracer.phase(phase);
    let white_view = (total.mg * phase + total.eg * (MAX_PHASE - phase)) / MAX_PHASE;
    if pos.turn().is_white() {
        white_view
    } else {
        -white_view
    }
}

/// The evaluation with every term and the phase, for the `eval` command.
pub fn trace(pos: &Chess) -> (i32, Trace) {
    let mut trace = Trace::default();
    let score = evaluate_with(pos, &mut trace);
    (score, trace)
}

/// Squares attacked by the pawns of `color`.
fn pawn_attacks(board: &Board, color: Color) -> Bitboard {
    board
        .by_piece(color.pawn())
        .into_iter()
        .fold(Bitboard::EMPTY, |acc, sq| {
            acc | attacks::pawn_attacks(color, sq)
        })
}

/// Adjacent files of `file`.
fn adjacent_files(file: File) -> Bitboard {
    let mut bb = Bitboard::EMPTY;
    if let Some(left) = file.offset(-1) {
        bb |= Bitboard::from_file(left);
    }
    if let Some(right) = file.offset(1) {
        bb |= Bitboard::from_file(right);
    }
    bb
}

/// Squares ahead of `square` (from `color`'s view) on its file and the adjacent ones.
fn front_span(square: Square, color: Color) -> Bitboard {
    let files = Bitboard::from_file(square.file()) | adjacent_files(square.file());
    let rank = square.rank() as u32;
    let ahead = match color {
        Color::White if rank < 7 => Bitboard(!0 << (8 * (rank + 1))),
        Color::Black => Bitboard((1 << (8 * rank)) - 1),
        Color::White => Bitboard::EMPTY,
    };
    files & ahead
}

fn evaluate_side<T: Tracer>(board: &Board, us: Color, tracer: &mut T) -> Score {
    let them = us.other();
    let occupied = board.occupied();
    let ours = board.by_color(us);
    let our_pawns = board.by_piece(us.pawn());
    let their_pawns = board.by_piece(them.pawn());
    let their_pawn_attacks = pawn_attacks(board, them);
    let their_king = board.king_of(them);
    let their_king_zone = their_king.map_or(Bitboard::EMPTY, |k| attacks::king_attacks(k).with(k));

    let mut material = Score::default();
    let mut psqt = Score::default();
    let mut mobility = Score::default();
    let mut pieces = Score::default();
    let (mut attack_units, mut attackers) = (0, 0);

    for square in ours {
        let Some(Piece { role, .. }) = board.piece_at(square) else {
            continue;
        };
        material += MATERIAL[role as usize];
        let relative = if us.is_white() {
            square
        } else {
            square.flip_vertical()
        };
        psqt += PSQT[role as usize][relative as usize];

        let reach = match role {
            Role::Knight => attacks::knight_attacks(square),
            Role::Bishop => attacks::bishop_attacks(square, occupied),
            Role::Rook => attacks::rook_attacks(square, occupied),
            Role::Queen => attacks::queen_attacks(square, occupied),
            _ => Bitboard::EMPTY,
        };
        if reach.any() {
            let (typical, per_square) = MOBILITY[role as usize];
            let count = (reach & !ours & !their_pawn_attacks).count() as i32;
            mobility += per_square * (count - typical);
            let zone_hits = (reach & their_king_zone).count() as i32;
            if zone_hits > 0 {
                attackers += 1;
                attack_units += KING_ATTACK_WEIGHT[role as usize] * zone_hits;
            }
        }
        if role == Role::Rook {
            let file = Bitboard::from_file(square.file());
            if (file & our_pawns).is_empty() {
                pieces += if (file & their_pawns).is_empty() {
                    ROOK_OPEN_FILE
                } else {
                    ROOK_SEMI_OPEN_FILE
                };
            }
        }
    }
    if board.by_piece(us.bishop()).count() >= 2 {
        pieces += BISHOP_PAIR;
    }

    let mut pawns = Score::default();
    for square in our_pawns {
        let file = Bitboard::from_file(square.file());
        if (adjacent_files(square.file()) & our_pawns).is_empty() {
            pawns += ISOLATED_PAWN;
        }
        if (front_span(square, us) & file & our_pawns).any() {
            pawns += DOUBLED_PAWN;
        }
        if (front_span(square, us) & their_pawns).is_empty()
            && (front_span(square, us) & file & our_pawns).is_empty()
        {
            pawns += PASSED_PAWN[us.relative_rank(square.rank()) as usize];
        }
    }

    // Our attack on their king: quadratic in the weight of the attack, from two attackers on.
    let mut king = Score::default();
    if attackers >= 2 {
        king += s((attack_units * attack_units / 4).min(500), 0);
    }
    // Our own king's pawn shield, while it sits on its first two ranks.
    if let Some(k) = board
        .king_of(us)
        .filter(|k| us.relative_rank(k.rank()) <= Rank::Second)
    {
        let files = Bitboard::from_file(k.file()) | adjacent_files(k.file());
        let near = us.relative_rank(k.rank()) as u32 + 1;
        for pawn in our_pawns & files {
            match us.relative_rank(pawn.rank()) as u32 {
                r if r == near => king += SHIELD_PAWN_NEAR,
                r if r == near + 1 => king += SHIELD_PAWN_FAR,
                _ => {}
            }
        }
    }

    tracer.term("Material", us, material);
    tracer.term("Piece squares", us, psqt);
    tracer.term("Mobility", us, mobility);
    tracer.term("Pawns", us, pawns);
    tracer.term("King safety", us, king);
    tracer.term("Pieces", us, pieces);
    material + psqt + mobility + pawns + king + pieces
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{CastlingMode, fen::Fen};

    fn chess(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap()
    }

    fn mirror(fen: &str) -> Chess {
        let pos = chess(fen);
        let setup = pos.to_setup(shakmaty::EnPassantMode::Legal).into_mirrored();
        <Chess as shakmaty::FromSetup>::from_setup(setup, CastlingMode::Standard).unwrap()
    }

    #[test]
    fn evaluation_is_colour_symmetric() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        ] {
            assert_eq!(evaluate(&chess(fen)), evaluate(&mirror(fen)), "{fen}");
        }
    }

    #[test]
    fn start_position_is_about_even_and_material_counts() {
        let start = evaluate(&Chess::default());
        assert!((0..=40).contains(&start), "{start}");
        let queen_up = evaluate(&chess(
            "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        ));
        assert!(queen_up > 800, "{queen_up}");
    }

    #[test]
    fn trace_terms_sum_to_the_score() {
        let pos = chess("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
        let (score, trace) = trace(&pos);
        let total = trace
            .terms
            .iter()
            .fold(Score::default(), |acc, t| acc + t.1 - t.2);
        let tapered = (total.mg * trace.phase + total.eg * (MAX_PHASE - trace.phase)) / MAX_PHASE;
        assert_eq!(score, tapered);
        assert_eq!(score, evaluate(&pos));
    }
}
