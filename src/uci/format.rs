//! Engine facts as UCI text: `id` and `option` lines, `info`, `bestmove`, the `d` and
//! `eval` tables, the `compiler` lines, and what a loaded net or tablebase path holds.

use shakmaty::{CastlingMode, Color, File, Position as _, Rank, Square};

use crate::chess::Position;
use crate::engine::build_info::{ARCH, DEBUG_ASSERTIONS, OS, RUSTC_VERSION, TARGET_FEATURES};
use crate::engine::eval::hce::{Score, Trace};
use crate::engine::eval::nnue::{Kernel, Network};
use crate::engine::score::{MATE, MATE_BOUND};
use crate::engine::search::{CurrentMove, Line, SearchResult};
use crate::engine::tb::Tablebases;
use crate::engine::tt::Bound;
use crate::engine::wdl::{normalised, win_draw_loss};
use crate::engine::{NAME, OPTIONS, OptionKind, Settings, params};

/// Sent in `id author`.
const AUTHOR: &str = "the Rookery developers";

/// The `info string` text once `SyzygyPath` has loaded tables, as Stockfish words it.
pub fn tablebases_found(tables: &Tablebases) -> String {
    format!(
        "Found {} WDL and {} DTZ tablebase files (up to {}-man).",
        tables.wdl_files(),
        tables.dtz_files(),
        tables.max_pieces()
    )
}

/// The `info string` text once `EvalFile` has loaded a net: the file (or the built-in net),
/// the net's checksum and its architecture.
pub fn net_in_use(settings: &Settings, net: &Network) -> String {
    let (checksum, arch) = (net.checksum(), net.architecture());
    if settings.uses_built_in_net() {
        format!("EvalFile: the built-in net, checksum {checksum:016x} ({arch})")
    } else {
        let file = &settings.eval_file;
        format!("EvalFile: net '{file}' loaded, checksum {checksum:016x} ({arch})")
    }
}

/// The line the engine greets a person at a terminal with: who it is, and where its
/// commands are listed.
pub fn greeting() -> String {
    format!(
        "{} by the Rookery developers: a UCI chess engine; type 'help' for its commands",
        crate::engine::NAME
    )
}

/// The answer to `uci`: `id` lines, one `option` line per engine option, `uciok`.
pub fn handshake() -> Vec<String> {
    let mut lines = vec![format!("id name {NAME}"), format!("id author {AUTHOR}")];
    for option in OPTIONS {
        let name = option.name;
        lines.push(match option.kind {
            OptionKind::Check { default } => {
                format!("option name {name} type check default {default}")
            }
            OptionKind::Spin { default, min, max } => {
                format!("option name {name} type spin default {default} min {min} max {max}")
            }
            OptionKind::Button => format!("option name {name} type button"),
            OptionKind::String { default } => format!(
                "option name {name} type string default {}",
                if default.is_empty() {
                    "<empty>"
                } else {
                    default
                }
            ),
        });
    }
    // A `tune` build lists every tunable as a spin option at its current value.
    if params::TUNE_BUILD {
        for tunable in params::TUNABLES {
            let (name, min, max) = (tunable.name, tunable.min, tunable.max);
            let default = params::current(tunable);
            lines.push(format!(
                "option name {name} type spin default {default} min {min} max {max}"
            ));
        }
    }
    lines.push("uciok".to_string());
    lines
}

/// A search score, in internal units at a root of `material`, as UCI `mate N` (moves,
/// negative when being mated) or `cp N`: an evaluation in normalised centipawns (100 is a
/// 50% chance to win), a tablebase verdict as it is.
pub fn score(score: i32, material: i32) -> String {
    if score.abs() >= MATE_BOUND {
        let moves = (MATE - score.abs() + 1) / 2;
        format!("mate {}", if score > 0 { moves } else { -moves })
    } else {
        format!("cp {}", normalised(score, material))
    }
}

/// One `info` line for a reported variation: its score normalised at the root's material,
/// with `wdl W D L` from the fitted model when `show_wdl`.
pub fn info(line: &Line, mode: CastlingMode, show_wdl: bool) -> String {
    let ms = line.time.as_millis().max(1) as u64;
    let nps = line.nodes * 1000 / ms;
    let bound = match line.bound {
        Some(Bound::Lower) => " lowerbound",
        Some(Bound::Upper) => " upperbound",
        _ => "",
    };
    let pv: Vec<String> = line
        .pv
        .iter()
        .map(|mv| mv.to_uci(mode).to_string())
        .collect();
    let pv = if pv.is_empty() {
        String::new()
    } else {
        format!(" pv {}", pv.join(" "))
    };
    let wdl = if show_wdl {
        let [w, d, l] = win_draw_loss(line.score, line.material);
        format!(" wdl {w} {d} {l}")
    } else {
        String::new()
    };
    format!(
        "info depth {} seldepth {} multipv {} score {}{wdl}{bound} nodes {} nps {nps} hashfull {} tbhits {} time {}{pv}",
        line.depth,
        line.seldepth,
        line.multipv,
        score(line.score, line.material),
        line.nodes,
        line.hashfull,
        line.tb_hits,
        line.time.as_millis(),
    )
}

/// The `info` line naming the root move the search starts:
/// `info depth D currmove MOVE currmovenumber N`.
pub fn current_move(current: &CurrentMove, mode: CastlingMode) -> String {
    format!(
        "info depth {} currmove {} currmovenumber {}",
        current.depth,
        current.mv.to_uci(mode),
        current.number
    )
}

/// The `bestmove` line of a finished search.
pub fn bestmove(result: &SearchResult, mode: CastlingMode) -> String {
    match (result.best, result.ponder) {
        (None, _) => "bestmove (none)".to_string(),
        (Some(best), Some(ponder)) => format!(
            "bestmove {} ponder {}",
            best.to_uci(mode),
            ponder.to_uci(mode)
        ),
        (Some(best), None) => format!("bestmove {}", best.to_uci(mode)),
    }
}

/// The `d` command: the board, its FEN (Shredder-FEN under `chess960`, as `UCI_Chess960`
/// asks, else X-FEN), key and checkers.
pub fn board(position: &Position, chess960: bool) -> Vec<String> {
    let board = position.chess().board();
    let mut out = String::from("\n +---+---+---+---+---+---+---+---+\n");
    for rank in (0..8).rev() {
        for file in 0..8 {
            let sq = Square::from_coords(File::new(file), Rank::new(rank));
            let c = board.piece_at(sq).map_or(' ', |p| p.char());
            out.push_str(&format!(" | {c}"));
        }
        out.push_str(&format!(
            " | {}\n +---+---+---+---+---+---+---+---+\n",
            rank + 1
        ));
    }
    out.push_str("   a   b   c   d   e   f   g   h\n");
    let mut lines: Vec<String> = out.lines().map(str::to_string).collect();
    let fen = if chess960 {
        position.shredder_fen()
    } else {
        position.fen()
    };
    lines.push(format!("Fen: {fen}"));
    lines.push(format!("Key: {:016X}", position.key().bits()));
    let checkers: Vec<String> = position
        .chess()
        .checkers()
        .into_iter()
        .map(|sq| sq.to_string())
        .collect();
    lines.push(format!("Checkers: {}", checkers.join(" ")));
    lines
}

/// The `eval` command: every term for both sides, the phase and the total, in internal
/// units.
pub fn eval_table(score: i32, trace: &Trace, turn: Color) -> Vec<String> {
    // The columns: the widest term's name, then three of two 5-wide numbers.
    let w = trace
        .terms
        .iter()
        .map(|(name, ..)| name.len())
        .max()
        .unwrap_or(0)
        .max(4);
    let cell = |mg: &dyn std::fmt::Display, eg: &dyn std::fmt::Display| format!("{mg:>5} {eg:>5}");
    let dashes = |n: usize| "-".repeat(n);
    let mut lines = vec![
        format!(
            " {:^w$} | {:^11} | {:^11} | {:^11}",
            "Term", "White", "Black", "Total"
        ),
        format!(
            " {:w$} | {} | {} | {}",
            "",
            cell(&"MG", &"EG"),
            cell(&"MG", &"EG"),
            cell(&"MG", &"EG")
        ),
        format!(
            " {}-+-{}-+-{}-+-{}",
            dashes(w),
            dashes(11),
            dashes(11),
            dashes(11)
        ),
    ];
    let cell = |s: Score| cell(&s.mg, &s.eg);
    for (name, white, black) in &trace.terms {
        lines.push(format!(
            " {name:>w$} | {} | {} | {}",
            cell(*white),
            cell(*black),
            cell(*white - *black)
        ));
    }
    lines.push(format!("Phase: {} of 24", trace.phase));
    let white_view = if turn == Color::White { score } else { -score };
    lines.push(format!(
        "Hand-written evaluation: {white_view} units (white side), {score} units for the side to move"
    ));
    lines
}

/// The `eval` lines after the hand-written table: the network's score in internal units,
/// then the score the search uses, `searched` (the network's when `by_network`, else the
/// hand-written one, scaled by material and the fifty-move counter) in normalised
/// centipawns at `material`, as the `info` lines report scores, and in internal units.
/// Scores are from the side to move's view.
pub fn network_eval_lines(
    network: i32,
    turn: Color,
    by_network: bool,
    searched: i32,
    material: i32,
) -> [String; 2] {
    let white = |score: i32| if turn == Color::White { score } else { -score };
    let by = if by_network {
        "NNUE"
    } else {
        "hand-written: Use NNUE is off, or UCI_LimitStrength or Skill Level limits the strength"
    };
    let cp = normalised(searched, material);
    [
        format!(
            "NNUE evaluation: {} units (white side), {network} units for the side to move",
            white(network)
        ),
        format!(
            "Final evaluation: {} cp (white side), {cp} cp for the side to move, from {searched} units ({by})",
            white(cp)
        ),
    ]
}

/// The `compiler` command: the engine, the compiler and target it was built for, the
/// instruction-set features the build assumes (`+` on, `-` off), and the output kernel
/// the network runs on this processor.
pub fn compiler(kernel: Kernel) -> Vec<String> {
    let features: Vec<String> = TARGET_FEATURES
        .iter()
        .map(|&(name, on)| format!("{}{name}", if on { '+' } else { '-' }))
        .collect();
    let build = if DEBUG_ASSERTIONS { "debug" } else { "release" };
    vec![
        NAME.to_string(),
        format!("Compiled by: {RUSTC_VERSION} on {OS}"),
        format!("Target architecture: {ARCH}"),
        format!("Target features: {}", features.join(" ")),
        format!("Build: {build}"),
        format!("NNUE kernel: {}", kernel.name()),
    ]
}
