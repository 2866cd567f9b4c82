//! Syzygy endgame tablebases through `shakmaty-syzygy`: the root's moves narrowed to those
//! that keep the tables' result, and win/draw/loss probes inside the search.
//!
//! Scores: a tablebase win is worth [`TB_WIN`] less the ply, below every mate score and
//! above every evaluation, so the search still prefers a mate it can see.
//!
//! Every table is probed once when it is loaded: a damaged file is refused then, instead of
//! failing every probe of a game in silence.

use std::path::Path;

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use shakmaty::{
    Board, CastlingMode, Chess, Color, FromSetup, Move, Position as _, Rank, Role, Setup, Square,
};
use shakmaty_syzygy::{AmbiguousWdl, Metric, ProbeError, SyzygyError, Tablebase, Wdl};

use super::score::TB_WIN;

/// The fifty-move counter, in plies, at which the game is drawn unless that move mated.
const FIFTY_MOVES: u32 = 100;

/// Loaded tables: the directories given, their largest piece count.
#[derive(Debug)]
pub struct Tablebases {
    tables: Tablebase<Chess>,
    max_pieces: usize,
    wdl_files: usize,
    dtz_files: usize,
}

/// A tablebase result for the side to move, with the fifty-move rule applied or not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Outcome {
    /// Lost.
    Loss = -2,
    /// Lost, but saved by the fifty-move rule when it applies.
    BlessedLoss = -1,
    /// Drawn.
    Draw = 0,
    /// Won, but not inside the fifty-move rule.
    CursedWin = 1,
    /// Won.
    Win = 2,
}

impl Outcome {
    fn of(wdl: Wdl) -> Outcome {
        match wdl {
            Wdl::Loss => Outcome::Loss,
            Wdl::BlessedLoss => Outcome::BlessedLoss,
            Wdl::Draw => Outcome::Draw,
            Wdl::CursedWin => Outcome::CursedWin,
            Wdl::Win => Outcome::Win,
        }
    }

    /// What the outcome counts as: cursed wins and blessed losses are draws under the
    /// fifty-move rule, and wins and losses without it.
    pub fn under(self, fifty_move_rule: bool) -> Outcome {
        match (self, fifty_move_rule) {
            (Outcome::CursedWin | Outcome::BlessedLoss, true) => Outcome::Draw,
            (Outcome::CursedWin, false) => Outcome::Win,
            (Outcome::BlessedLoss, false) => Outcome::Loss,
            (other, _) => other,
        }
    }

    /// The outcome of a position whose fifty-move counter has already run out: a win or a
    /// loss there is one beyond the rule (no move is left to reach the next capture or pawn
    /// move in), a cursed win or a blessed loss.
    fn past_the_counter(self) -> Outcome {
        match self {
            Outcome::Win => Outcome::CursedWin,
            Outcome::Loss => Outcome::BlessedLoss,
            other => other,
        }
    }

    /// The search score of this outcome `ply` plies from the root.
    pub fn score(self, ply: usize) -> i32 {
        match self {
            Outcome::Win => TB_WIN - ply as i32,
            Outcome::Loss => -TB_WIN + ply as i32,
            _ => 0,
        }
    }
}

impl Tablebases {
    /// Loads the tables in `paths` (directories separated as [`split_paths`] reads
    /// `SyzygyPath` on this system). Refused when a directory cannot be read, none holds a
    /// table, or a table fails its probe.
    pub fn open(paths: &str) -> Result<Tablebases, String> {
        let mut tables = Tablebase::new();
        let (mut wdl_files, mut dtz_files) = (0, 0);
        let mut names = Vec::new();
        for dir in split_paths(paths, cfg!(windows)) {
            if !Path::new(dir).is_dir() {
                return Err(format!("'{dir}' is not a directory"));
            }
            let entries =
                std::fs::read_dir(dir).map_err(|e| format!("cannot read '{dir}': {e}"))?;
            for entry in entries {
                let path = entry
                    .map_err(|e| format!("cannot read '{dir}': {e}"))?
                    .path();
                match tables.add_file(&path) {
                    Ok(()) if path.extension().is_some_and(|e| e == "rtbz") => dtz_files += 1,
                    Ok(()) => wdl_files += 1,
                    // Not a table's name: not ours to look at.
                    Err(e) if e.kind() == std::io::ErrorKind::InvalidInput => {}
                    Err(e) => return Err(format!("'{}': {e}", path.display())),
                }
            }
            names.extend(
                table_names(Path::new(dir))
                    .into_iter()
                    .map(|name| (dir, name)),
            );
        }
        if wdl_files + dtz_files == 0 {
            return Err(format!("no tablebase files in '{paths}'"));
        }
        for (dir, name) in names {
            probe_once(&tables, Path::new(dir), &name)?;
        }
        let max_pieces = tables.max_pieces();
        Ok(Tablebases {
            tables,
            max_pieces,
            wdl_files,
            dtz_files,
        })
    }

    /// How many win/draw/loss (`.rtbw`) files were loaded.
    pub fn wdl_files(&self) -> usize {
        self.wdl_files
    }

    /// How many distance-to-zero (`.rtbz`) files were loaded.
    pub fn dtz_files(&self) -> usize {
        self.dtz_files
    }

    /// The most pieces of any loaded table.
    pub fn max_pieces(&self) -> usize {
        self.max_pieces
    }

    /// Whether `pos` can be probed: few enough pieces and no castling rights.
    pub fn covers(&self, pos: &Chess, limit: usize) -> bool {
        let pieces = pos.board().occupied().count();
        pieces <= self.max_pieces.min(limit) && pos.castles().castling_rights().is_empty()
    }

    /// The result of `pos` for the side to move, as if it had just been reached by a capture
    /// or pawn move (the fifty-move counter at zero). `None` when no table answers.
    pub fn wdl_after_zeroing(&self, pos: &Chess) -> Option<Outcome> {
        self.tables
            .probe_wdl_after_zeroing(pos)
            .ok()
            .map(Outcome::of)
    }

    /// The root's moves that keep the tables' result, best ranked first, with that result.
    /// With the distance-to-zero tables, a won position keeps the moves that reach the next
    /// capture, pawn move or mate soonest (so the win is converted inside the fifty-move
    /// rule), a drawn one every drawing move, a lost one the moves that put the opponent's
    /// next zeroing move furthest off. Without them (win/draw/loss tables only) it keeps
    /// the moves of the best result, as Stockfish does, and the search finds the way.
    /// `None` when a win/draw/loss table is missing.
    pub fn root_moves(&self, pos: &Chess, fifty_move_rule: bool) -> Option<RootMoves> {
        self.root_moves_by_dtz(pos, fifty_move_rule)
            .or_else(|| self.root_moves_by_wdl(pos, fifty_move_rule))
    }

    /// [`Tablebases::root_moves`] ranked by the distance to the next zeroing move; `None`
    /// when a table is missing.
    fn root_moves_by_dtz(&self, pos: &Chess, fifty_move_rule: bool) -> Option<RootMoves> {
        let mut ranked = Vec::new();
        for mv in pos.legal_moves() {
            let mut after = pos.clone();
            after.play_unchecked(mv);
            // The child's result for its side to move, with the counter as it will be, and
            // how far the next zeroing move is (a capture or pawn move zeroes it itself).
            let (theirs, distance) = if after.is_checkmate() {
                (Outcome::Loss, 0)
            } else if mv.is_zeroing() {
                let wdl = self.tables.probe_wdl_after_zeroing(&after).ok()?;
                (Outcome::of(wdl), 0)
            } else {
                let dtz = self.tables.probe_dtz(&after).ok()?;
                let wdl = AmbiguousWdl::from_dtz_and_halfmoves(dtz, after.halfmoves());
                let wdl = wdl.unambiguous().unwrap_or(wdl.after_zeroing());
                (Outcome::of(wdl), dtz.ignore_rounding().0.abs())
            };
            let outcome = negate(theirs);
            ranked.push((mv, outcome.under(fifty_move_rule), distance));
        }
        let best = ranked.iter().map(|&(_, o, _)| o).max()?;
        ranked.retain(|&(_, o, _)| o == best);
        // Wins: the shortest way to the next zeroing move; losses: the longest.
        let pick = match best {
            Outcome::Win => ranked.iter().map(|&(_, _, d)| d).min(),
            Outcome::Loss => ranked.iter().map(|&(_, _, d)| d).max(),
            _ => None,
        };
        if let Some(pick) = pick {
            ranked.retain(|&(_, _, d)| d == pick);
        }
        Some(RootMoves {
            moves: ranked.into_iter().map(|(mv, _, _)| mv).collect(),
            outcome: best,
            by_distance: true,
        })
    }

    /// [`Tablebases::root_moves`] from the win/draw/loss tables alone: the moves of the
    /// best result under the fifty-move rule setting, those whose result is best without it
    /// first (a win before a cursed win among the draws). A move that runs the fifty-move
    /// counter out without mating turns the child's win or loss into one beyond the rule
    /// (the tables' result is for a fresh counter; their distances are not at hand). `None`
    /// when a table is missing.
    fn root_moves_by_wdl(&self, pos: &Chess, fifty_move_rule: bool) -> Option<RootMoves> {
        let mut ranked = Vec::new();
        for mv in pos.legal_moves() {
            let mut after = pos.clone();
            after.play_unchecked(mv);
            let theirs = if after.is_checkmate() {
                Outcome::Loss
            } else {
                let theirs = Outcome::of(self.tables.probe_wdl_after_zeroing(&after).ok()?);
                if after.halfmoves() >= FIFTY_MOVES {
                    theirs.past_the_counter()
                } else {
                    theirs
                }
            };
            ranked.push((mv, negate(theirs)));
        }
        let best = ranked
            .iter()
            .map(|&(_, o)| o.under(fifty_move_rule))
            .max()?;
        ranked.retain(|&(_, o)| o.under(fifty_move_rule) == best);
        ranked.sort_by_key(|&(_, o)| std::cmp::Reverse(o));
        Some(RootMoves {
            moves: ranked.into_iter().map(|(mv, _)| mv).collect(),
            outcome: best,
            by_distance: false,
        })
    }
}

/// The directories of a `SyzygyPath` value, as Stockfish reads it: separated by `;` on
/// Windows (where `:` follows a drive letter) and by `:` elsewhere; empty ones left out.
///
/// ```
/// use rookery::engine::tb::split_paths;
///
/// assert_eq!(split_paths(r"C:\tb;D:\more tb", true), [r"C:\tb", r"D:\more tb"]);
/// assert_eq!(split_paths("/tb:/more tb", false), ["/tb", "/more tb"]);
/// ```
pub fn split_paths(paths: &str, windows: bool) -> Vec<&str> {
    let separator = if windows { ';' } else { ':' };
    paths.split(separator).filter(|d| !d.is_empty()).collect()
}

/// The root moves the tables keep ([`Tablebases::root_moves`]).
#[derive(Clone, Debug)]
pub struct RootMoves {
    /// The moves that keep the result, best ranked first.
    pub moves: Vec<Move>,
    /// The result they keep, for the side to move.
    pub outcome: Outcome,
    /// Whether the distance-to-zero tables ranked them (else only the win/draw/loss
    /// tables did, and probes inside the search still help a won position make progress).
    pub by_distance: bool,
}

/// The material names (`KBPvK`) of the table files in `dir`.
fn table_names(dir: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut names: Vec<String> = entries
        .filter_map(|entry| {
            let path = entry.ok()?.path();
            let extension = path.extension()?.to_str()?;
            matches!(extension, "rtbw" | "rtbz").then_some(())?;
            Some(path.file_stem()?.to_str()?.to_string())
        })
        .collect();
    names.sort();
    names.dedup();
    names
}

/// Probes one position of the table `name` in `dir`, win/draw/loss and distance to zeroing:
/// a probe that fails on the file (not for a table that is missing) refuses the tables,
/// naming the file and what is wrong with it in one line.
fn probe_once(tables: &Tablebase<Chess>, dir: &Path, name: &str) -> Result<(), String> {
    let Some(pos) = sample_position(name) else {
        return Ok(()); // not a table name: add_file skipped it too
    };
    let damaged = |e: SyzygyError| match e {
        SyzygyError::ProbeFailed { metric, error, .. } => {
            let extension = match metric {
                Metric::Wdl => "rtbw",
                Metric::Dtz => "rtbz",
            };
            let file = dir.join(format!("{name}.{extension}"));
            Err(format!(
                "table {name} is damaged: '{}' {}",
                file.display(),
                probe_error(&error)
            ))
        }
        _ => Ok(()),
    };
    tables.probe_wdl(&pos).map(|_| ()).or_else(damaged)?;
    tables.probe_dtz(&pos).map(|_| ()).or_else(damaged)
}

/// What went wrong in a probe, in words: the library's own text of a corrupted table
/// carries a backtrace over many lines.
fn probe_error(error: &ProbeError) -> String {
    match error {
        ProbeError::Read { error } => format!("cannot be read: {error}"),
        ProbeError::Magic { magic } => format!("is not a Syzygy table (magic bytes {magic:02x?})"),
        ProbeError::CorruptedTable { .. } => "is corrupt (cut short, or its contents)".to_string(),
    }
}

/// A legal position, White to move, with the material a table name gives (`KBPvK`: White
/// king, bishop and pawn against the Black king), placed at seeded random squares.
fn sample_position(name: &str) -> Option<Chess> {
    let (white, black) = name.split_once('v')?;
    let roles = |side: &str| -> Option<Vec<Role>> {
        side.chars()
            .map(|c| Role::from_char(c.to_ascii_lowercase()))
            .collect()
    };
    let sides = [(Color::White, roles(white)?), (Color::Black, roles(black)?)];
    if sides.iter().map(|(_, roles)| roles.len()).sum::<usize>() > 32 {
        return None;
    }
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    for _ in 0..1000 {
        let mut board = Board::empty();
        for (color, roles) in &sides {
            for &role in roles {
                let square = loop {
                    let square = Square::new(rng.random_range(0..64u32));
                    let back_rank = matches!(square.rank(), Rank::First | Rank::Eighth);
                    if board.piece_at(square).is_none() && !(role == Role::Pawn && back_rank) {
                        break square;
                    }
                };
                board.set_piece_at(square, role.of(*color));
            }
        }
        let setup = Setup {
            board,
            ..Setup::empty()
        };
        if let Ok(pos) = Chess::from_setup(setup, CastlingMode::Standard) {
            return Some(pos);
        }
    }
    None
}

/// The same result from the other side.
fn negate(outcome: Outcome) -> Outcome {
    match outcome {
        Outcome::Loss => Outcome::Win,
        Outcome::BlessedLoss => Outcome::CursedWin,
        Outcome::Draw => Outcome::Draw,
        Outcome::CursedWin => Outcome::BlessedLoss,
        Outcome::Win => Outcome::Loss,
    }
}
