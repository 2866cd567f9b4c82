//! Syzygy tablebases (the 3-4 piece set in `tests/syzygy/`): the root's moves against the
//! tables' own best move, won endings mated inside the fifty-move rule, drawn endings held,
//! and the UCI options.

use crate::common;

use std::path::PathBuf;
use std::sync::Arc;

use common::uci_client::{Engine, WAIT, check_answer, info_value};
use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use rookery::chess::Position;
use rookery::engine::Limits;
use rookery::engine::search::{SearchOptions, Signals, Silent, search};
use rookery::engine::tb::{Outcome, Tablebases};
use rookery::engine::tt::ChessTable;
use shakmaty::{Chess, Position as _};
use shakmaty_syzygy::{AmbiguousWdl, Tablebase};

fn syzygy_dir() -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/syzygy")
        .display()
        .to_string()
}

fn tables() -> Tablebases {
    Tablebases::open(&syzygy_dir()).expect("the test tables load")
}

/// Random legal positions with the given white and black pieces (besides the kings), white
/// to move, no castling, no en passant.
fn random_positions(white: &str, black: &str, count: usize, seed: u64) -> Vec<Position> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut found = Vec::new();
    while found.len() < count {
        let mut board = [' '; 64];
        let mut place = |piece: char, rng: &mut ChaCha8Rng| loop {
            let sq = rng.random_range(0..64);
            let rank = sq / 8;
            if board[sq] == ' ' && !(piece.eq_ignore_ascii_case(&'p') && (rank == 0 || rank == 7)) {
                board[sq] = piece;
                return;
            }
        };
        place('K', &mut rng);
        place('k', &mut rng);
        for piece in white.chars() {
            place(piece, &mut rng);
        }
        for piece in black.chars() {
            place(piece.to_ascii_lowercase(), &mut rng);
        }
        let ranks: Vec<String> = (0..8)
            .rev()
            .map(|rank| {
                let mut text = String::new();
                let mut empty = 0;
                for file in 0..8 {
                    match board[rank * 8 + file] {
                        ' ' => empty += 1,
                        piece => {
                            if empty > 0 {
                                text.push_str(&empty.to_string());
                                empty = 0;
                            }
                            text.push(piece);
                        }
                    }
                }
                if empty > 0 {
                    text.push_str(&empty.to_string());
                }
                text
            })
            .collect();
        let fen = format!("{} w - - 0 1", ranks.join("/"));
        if let Ok(pos) = Position::from_fen(&fen, false)
            && !pos.legal_moves().is_empty()
        {
            found.push(pos);
        }
    }
    found
}

/// The last `info depth` line of a search's output.
fn last_info(lines: &[String]) -> &str {
    lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .expect("an info depth line")
}

#[test]
fn root_moves_hold_the_tables_result_and_contain_their_best_move() {
    let ours = tables();
    let mut reference = Tablebase::<Chess>::new();
    reference.add_directory(syzygy_dir()).unwrap();
    let mut checked = 0;
    let mut lost = 0;
    for (white, black, seed) in [
        ("R", "", 1),
        ("Q", "R", 2),
        ("P", "", 3),
        ("R", "R", 4),
        ("B", "N", 5),
        // The lone king and the side short of material to move: lost roots.
        ("", "R", 6),
        ("N", "Q", 7),
    ] {
        for pos in random_positions(white, black, 40, seed) {
            let chess = pos.chess();
            let root = ours.root_moves(chess, true).expect("covered");
            assert!(root.by_distance);
            let (moves, outcome) = (root.moves, root.outcome);
            let root = ours.wdl_after_zeroing(chess).unwrap().under(true);
            assert_eq!(outcome, root, "{}", pos.fen());
            assert!(!moves.is_empty());
            // The library's own choice is among ours...
            let (best, _) = reference.best_move(chess).unwrap().unwrap();
            assert!(
                moves.contains(&best),
                "{}: {best:?} not in {moves:?}",
                pos.fen()
            );
            // ...and every move kept keeps the result.
            for &mv in &moves {
                let mut after = chess.clone();
                after.play_unchecked(mv);
                if after.is_checkmate() {
                    continue;
                }
                let theirs = ours.wdl_after_zeroing(&after).unwrap().under(true);
                let keeps = match root {
                    Outcome::Win => theirs == Outcome::Loss,
                    Outcome::Draw => theirs == Outcome::Draw,
                    _ => theirs == Outcome::Win,
                };
                assert!(keeps, "{}: {mv:?} gives {theirs:?}", pos.fen());
            }
            // A lost root keeps the moves that put the next capture or pawn move (the
            // winner's way forward) furthest off, as the reference's distances say.
            if root == Outcome::Loss {
                let distance = |mv: &shakmaty::Move| {
                    let mut after = chess.clone();
                    after.play_unchecked(*mv);
                    plies_to_zeroing(&reference, mv, &after)
                };
                let longest = chess.legal_moves().iter().map(distance).max().unwrap();
                for mv in &moves {
                    assert_eq!(distance(mv), longest, "{}: {mv:?}", pos.fen());
                }
                lost += 1;
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 280);
    assert!(lost >= 20, "only {lost} lost roots");
}

/// Plays `pos` out with the engine on both sides, a few thousand nodes a move, tables
/// loaded; returns the final position and the plies played.
fn play_out(mut pos: Position, tb: &Arc<Tablebases>, plies: usize) -> (Position, usize) {
    let table = ChessTable::new(4).unwrap();
    let options = SearchOptions {
        tablebases: Some(Arc::clone(tb)),
        ..SearchOptions::default()
    };
    let limits = Limits {
        nodes: Some(3000),
        ..Limits::default()
    };
    for ply in 0..plies {
        if pos.legal_moves().is_empty() || pos.chess().halfmoves() >= 100 {
            return (pos, ply);
        }
        let result = search(
            &pos,
            &limits,
            &options,
            &table,
            &Signals::default(),
            &Silent,
        );
        pos.push(result.best.expect("a move"));
    }
    (pos, plies)
}

#[test]
fn won_rook_and_queen_endings_are_mated_inside_the_fifty_move_rule() {
    let tb = Arc::new(tables());
    let mut won = 0;
    for (piece, seed) in [("R", 11), ("Q", 12)] {
        for start in random_positions(piece, "", 10, seed) {
            if tb.wdl_after_zeroing(start.chess()) != Some(Outcome::Win) {
                continue;
            }
            won += 1;
            let fen = start.fen();
            let (end, plies) = play_out(start, &tb, 200);
            assert!(
                end.chess().is_checkmate(),
                "{fen}: no mate after {plies} plies, at {} (halfmove clock {})",
                end.fen(),
                end.chess().halfmoves()
            );
        }
    }
    assert!(won >= 16, "only {won} won starts");
}

#[test]
fn drawn_pawn_and_rook_endings_are_held() {
    let tb = Arc::new(tables());
    let mut held = 0;
    for (white, black, seed) in [("P", "", 21), ("R", "R", 22)] {
        for start in random_positions(white, black, 12, seed) {
            if tb.wdl_after_zeroing(start.chess()) != Some(Outcome::Draw) {
                continue;
            }
            let mut pos = start.clone();
            for _ in 0..40 {
                let (next, plies) = play_out(pos.clone(), &tb, 1);
                if plies == 0 {
                    break;
                }
                pos = next;
                let now = tb.wdl_after_zeroing(pos.chess()).map(|o| o.under(true));
                assert!(
                    now == Some(Outcome::Draw),
                    "{}: became {now:?} at {}",
                    start.fen(),
                    pos.fen()
                );
            }
            held += 1;
        }
    }
    assert!(held >= 8, "only {held} drawn starts");
}

#[test]
fn win_draw_loss_tables_alone_settle_the_root() {
    // Only the `.rtbw` files: no distance to zero, yet a won or lost root is the tables'
    // result, its moves those that keep it.
    let dir = crate::common::scratch_dir("wdl-only");
    let mut copied = 0;
    for entry in std::fs::read_dir(syzygy_dir()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "rtbw") {
            std::fs::copy(&path, dir.join(path.file_name().unwrap())).unwrap();
            copied += 1;
        }
    }
    let dir_text = dir.display().to_string();
    let ours = Tablebases::open(&dir_text).expect("the WDL tables load");
    let mut reference = Tablebase::<Chess>::new();
    reference.add_directory(syzygy_dir()).unwrap();
    let mut by_wdl = 0;
    for (white, black, seed) in [("Q", "", 11), ("R", "", 12), ("", "R", 13), ("P", "", 14)] {
        for pos in random_positions(white, black, 20, seed) {
            let chess = pos.chess();
            let root = ours.root_moves(chess, true).expect("covered");
            // The library answers a distance without its table when every move zeroes or
            // mates; otherwise the win/draw/loss tables alone rank the moves.
            by_wdl += usize::from(!root.by_distance);
            let expected = ours.wdl_after_zeroing(chess).unwrap().under(true);
            assert_eq!(root.outcome, expected, "{}", pos.fen());
            // Exactly the moves whose result (the tables' own) is the root's.
            let keeps = |mv: &shakmaty::Move| {
                let mut after = chess.clone();
                after.play_unchecked(*mv);
                let theirs = if after.is_checkmate() {
                    Outcome::Loss
                } else {
                    outcome_of(reference.probe_wdl_after_zeroing(&after).unwrap())
                };
                negate_outcome(theirs).under(true) == expected
            };
            let mut expected_moves: Vec<_> =
                chess.legal_moves().into_iter().filter(keeps).collect();
            let mut moves = root.moves.clone();
            let key = |mv: &shakmaty::Move| mv.to_uci(shakmaty::CastlingMode::Standard).to_string();
            expected_moves.sort_by_key(key);
            moves.sort_by_key(key);
            if root.by_distance {
                assert!(moves.iter().all(|mv| expected_moves.contains(mv)));
            } else {
                assert_eq!(moves, expected_moves, "{}", pos.fen());
            }
        }
    }
    assert!(
        by_wdl >= 60,
        "only {by_wdl} of 80 roots ranked by WDL alone"
    );
    // Over UCI: the path's contents, then KQ against K, won with White to move and lost
    // with Black to move, reported as tablebase results with the probe counted.
    let mut e = Engine::start();
    e.send(&format!("setoption name SyzygyPath value {dir_text}"));
    e.send("isready");
    assert_eq!(
        e.until(WAIT, |l| l == "readyok"),
        [
            format!("info string Found {copied} WDL and 0 DTZ tablebase files (up to 4-man)."),
            "readyok".to_string()
        ]
    );
    for (fen, won) in [
        ("8/8/8/3k4/8/8/8/1QK5 w - - 0 1", true),
        ("8/8/8/3k4/8/8/8/1QK5 b - - 0 1", false),
    ] {
        e.send(&format!("position fen {fen}"));
        let lines = e.go("depth 6");
        let (best, _) = check_answer(&Position::from_fen(fen, false).unwrap(), &lines);
        let last = last_info(&lines);
        assert!(info_value(last, "tbhits").unwrap() >= 1, "{last}");
        let cp = info_value(last, "cp").unwrap_or_else(|| panic!("no cp score: {last}"));
        if won {
            assert!(cp > 10_000, "{last}");
            assert_eq!(verdict_after(fen, &best), Outcome::Win, "{best}");
        } else {
            assert!(cp < -10_000, "{last}");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The library's result as ours.
fn outcome_of(wdl: shakmaty_syzygy::Wdl) -> Outcome {
    match wdl {
        shakmaty_syzygy::Wdl::Loss => Outcome::Loss,
        shakmaty_syzygy::Wdl::BlessedLoss => Outcome::BlessedLoss,
        shakmaty_syzygy::Wdl::Draw => Outcome::Draw,
        shakmaty_syzygy::Wdl::CursedWin => Outcome::CursedWin,
        shakmaty_syzygy::Wdl::Win => Outcome::Win,
    }
}

/// The same result from the other side.
fn negate_outcome(outcome: Outcome) -> Outcome {
    match outcome {
        Outcome::Loss => Outcome::Win,
        Outcome::BlessedLoss => Outcome::CursedWin,
        Outcome::Draw => Outcome::Draw,
        Outcome::CursedWin => Outcome::BlessedLoss,
        Outcome::Win => Outcome::Loss,
    }
}

#[test]
fn a_damaged_table_is_refused_when_loaded() {
    let dir = crate::common::scratch_dir("damaged-tb");
    for name in ["KRvK.rtbw", "KRvK.rtbz"] {
        std::fs::copy(PathBuf::from(syzygy_dir()).join(name), dir.join(name)).unwrap();
    }
    let dir_text = dir.display().to_string();
    assert!(Tablebases::open(&dir_text).is_ok(), "the copies load");
    // The same size, a damaged header.
    let wdl = dir.join("KRvK.rtbw");
    let mut bytes = std::fs::read(&wdl).unwrap();
    bytes[0] ^= 0xff;
    std::fs::write(&wdl, bytes).unwrap();
    let refusal = Tablebases::open(&dir_text).unwrap_err();
    assert!(refusal.contains("KRvK is damaged"), "{refusal}");
    // Over UCI: an info string, and no tablebases.
    let mut e = Engine::start();
    e.send(&format!("setoption name SyzygyPath value {dir_text}"));
    e.send("isready");
    let lines = e.until(WAIT, |l| l == "readyok");
    assert!(
        lines[0].contains("KRvK is damaged") && lines[0].ends_with("no tablebases are used"),
        "{lines:#?}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn syzygy_options_over_uci() {
    let mut e = Engine::start();
    e.send("setoption name SyzygyPath value /nonexistent/tables");
    e.send("isready");
    let lines = e.until(WAIT, |l| l == "readyok");
    assert!(
        lines[0].starts_with("info string SyzygyPath: ")
            && lines[0].ends_with("no tablebases are used"),
        "{lines:#?}"
    );
    // As Stockfish: what the path holds, in one line.
    e.send(&format!("setoption name SyzygyPath value {}", syzygy_dir()));
    e.send("isready");
    assert_eq!(
        e.until(WAIT, |l| l == "readyok"),
        [
            "info string Found 35 WDL and 35 DTZ tablebase files (up to 4-man).",
            "readyok"
        ]
    );
    // KQ against KR, the queen side to move: the root is settled by the tables.
    let fen = "8/8/8/3k4/8/8/2r5/1QK5 w - - 0 1";
    e.send(&format!("position fen {fen}"));
    let lines = e.go("depth 6");
    check_answer(&Position::from_fen(fen, false).unwrap(), &lines);
    let last = last_info(&lines);
    assert!(info_value(last, "tbhits").unwrap() >= 1, "{last}");
    // Five pieces: the 3-4 piece set does not cover it, so nothing is probed at the root;
    // its captures lead into the tables.
    let fen = "8/8/8/3k4/8/2n5/2r5/1QK5 w - - 0 1";
    e.send("ucinewgame");
    e.send(&format!("position fen {fen}"));
    let lines = e.go("depth 6");
    check_answer(&Position::from_fen(fen, false).unwrap(), &lines);
    let tb_hits = |lines: &[String]| info_value(last_info(lines), "tbhits").unwrap();
    assert!(tb_hits(&lines) >= 1, "{lines:#?}");
    // The probing options reach the search: no probe with more depth asked for than the
    // search has, none with a piece limit of 0.
    for (option, value) in [("SyzygyProbeDepth", "100"), ("SyzygyProbeLimit", "0")] {
        e.send("ucinewgame");
        e.send(&format!("setoption name {option} value {value}"));
        e.send(&format!("position fen {fen}"));
        let lines = e.go("depth 6");
        assert_eq!(tb_hits(&lines), 0, "{option} {value}: {lines:#?}");
        e.send(&format!(
            "setoption name {option} value {}",
            if option == "SyzygyProbeDepth" { 1 } else { 7 }
        ));
    }
}

#[test]
fn syzygy_fifty_move_rule_over_uci_decides_a_win_the_clock_has_run_down() {
    // KR against K, 31 plies from the next zeroing move (the tables' DTZ): from a fresh
    // clock a win; with 80 plies already on the clock the rook cannot mate in time.
    let fresh = "8/8/5R2/8/4k3/8/8/7K w - - 0 1";
    let late = "8/8/5R2/8/4k3/8/8/7K w - - 80 1";
    let mut e = Engine::start();
    e.send(&format!("setoption name SyzygyPath value {}", syzygy_dir()));
    let score = |e: &mut Engine, fen: &str| {
        e.send("ucinewgame");
        e.send(&format!("position fen {fen}"));
        let lines = e.go("depth 6");
        check_answer(&Position::from_fen(fen, false).unwrap(), &lines);
        let last = last_info(&lines);
        assert!(info_value(last, "tbhits").unwrap() >= 1, "{last}");
        info_value(last, "cp").unwrap_or_else(|| panic!("no cp score: {last}"))
    };
    // The default (Syzygy50MoveRule true): the late position is a draw.
    assert!(score(&mut e, fresh) > 10_000);
    assert_eq!(score(&mut e, late), 0);
    // Without the rule both are wins.
    e.send("setoption name Syzygy50MoveRule value false");
    assert!(score(&mut e, fresh) > 10_000);
    assert!(score(&mut e, late) > 10_000);
}

#[test]
fn a_damaged_table_is_one_line_naming_the_file_with_backtraces_on() {
    let dir = crate::common::scratch_dir("cut-tb");
    for name in ["KQvK.rtbw", "KQvK.rtbz", "KRvK.rtbz"] {
        std::fs::copy(PathBuf::from(syzygy_dir()).join(name), dir.join(name)).unwrap();
    }
    // Cut to its 16 bytes of header: a size the library accepts, contents it cannot read.
    let wdl = dir.join("KRvK.rtbw");
    let bytes = std::fs::read(PathBuf::from(syzygy_dir()).join("KRvK.rtbw")).unwrap();
    std::fs::write(&wdl, &bytes[..16]).unwrap();
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_rookery"));
    command.env("RUST_BACKTRACE", "1");
    let mut e = Engine::start_with(command);
    e.send(&format!(
        "setoption name SyzygyPath value {}",
        dir.display()
    ));
    e.send("isready");
    let lines = e.until(WAIT, |l| l == "readyok");
    assert_eq!(lines.len(), 2, "one line, then readyok: {lines:#?}");
    let refusal = &lines[0];
    assert!(
        refusal.starts_with("info string SyzygyPath: table KRvK is damaged: ")
            && refusal.contains(&wdl.display().to_string())
            && refusal.contains("corrupt")
            && !refusal.contains("backtrace")
            && refusal.ends_with("no tablebases are used"),
        "{refusal}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// How many plies after `mv` (which led to `after`) the next capture or pawn move comes, by
/// the reference library's DTZ: 0 when `mv` itself zeroes the clock or mates.
fn plies_to_zeroing(reference: &Tablebase<Chess>, mv: &shakmaty::Move, after: &Chess) -> i32 {
    if mv.is_zeroing() || after.is_checkmate() {
        0
    } else {
        reference
            .probe_dtz(after)
            .unwrap()
            .ignore_rounding()
            .0
            .abs()
    }
}

/// The tables' verdict on the position after `mv` (in UCI notation) is played from `fen`,
/// for the side that played it, as the reference library reads them.
fn verdict_after(fen: &str, mv: &str) -> Outcome {
    let mut reference = Tablebase::<Chess>::new();
    reference.add_directory(syzygy_dir()).unwrap();
    let mut pos = Position::from_fen(fen, false).unwrap();
    pos.push_uci(mv).unwrap();
    match reference.probe_wdl_after_zeroing(pos.chess()).unwrap() {
        shakmaty_syzygy::Wdl::Loss => Outcome::Win,
        shakmaty_syzygy::Wdl::BlessedLoss => Outcome::CursedWin,
        shakmaty_syzygy::Wdl::Draw => Outcome::Draw,
        shakmaty_syzygy::Wdl::CursedWin => Outcome::BlessedLoss,
        shakmaty_syzygy::Wdl::Win => Outcome::Loss,
    }
}

#[test]
fn a_tablebase_win_below_the_root_is_reported_at_every_depth() {
    // Five pieces: the root is outside the 3-4 piece set, and Qxc2 wins into KQ against
    // KN. Every iteration that reaches a probe (from depth 2: quiescence does not probe),
    // the second with an open window included, must report the win (30000 less the plies
    // to the probe) and its side of `wdl`, not the evaluation's guess.
    let fen = "8/8/8/3k4/8/2n5/2r5/1QK5 w - - 0 1";
    let mut e = Engine::start();
    e.send(&format!("setoption name SyzygyPath value {}", syzygy_dir()));
    e.send("setoption name UCI_ShowWDL value true");
    e.send(&format!("position fen {fen}"));
    let lines = e.go("depth 10");
    let (best, _) = check_answer(&Position::from_fen(fen, false).unwrap(), &lines);
    assert_eq!(
        verdict_after(fen, &best),
        Outcome::Win,
        "{best}: {lines:#?}"
    );
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth") && l.contains(" pv "))
        .collect();
    assert_eq!(infos.len(), 10, "{lines:#?}");
    for line in &infos[1..] {
        let cp = info_value(line, "cp").unwrap_or_else(|| panic!("no cp score: {line}"));
        assert!(
            (29_872..=29_999).contains(&cp),
            "not a tablebase win: {line}"
        );
        assert!(line.contains(" wdl 1000 0 0 "), "{line}");
        assert!(info_value(line, "tbhits").unwrap() >= 1, "{line}");
    }
}

#[test]
fn a_tablebase_loss_below_the_root_is_reported_at_every_depth() {
    // Five pieces, White in check: Nxh5 is the only move, and it leaves knight against
    // queen, which the tables call lost. Every iteration from depth 2 must report the loss
    // (or a mate against), not the evaluation's guess.
    let fen = "8/q7/8/7r/8/6N1/5k2/7K w - - 0 1";
    let mut e = Engine::start();
    e.send(&format!("setoption name SyzygyPath value {}", syzygy_dir()));
    e.send(&format!("position fen {fen}"));
    let lines = e.go("depth 7");
    let (best, _) = check_answer(&Position::from_fen(fen, false).unwrap(), &lines);
    assert_eq!(
        verdict_after(fen, &best),
        Outcome::Loss,
        "{best}: {lines:#?}"
    );
    let infos = lines.iter().filter(|l| l.starts_with("info depth"));
    for line in infos.skip(1) {
        let lost = info_value(line, "cp").is_some_and(|cp| (-29_999..=-29_872).contains(&cp))
            || info_value(line, "mate").is_some_and(|n| n < 0);
        assert!(lost, "not a tablebase loss: {line}");
    }
}

#[test]
fn syzygy_path_joins_directories_and_wdl_shows_both_sides_and_draws() {
    // KQvK in one directory, KRvK and KRvKR in another, named together.
    let base = crate::common::scratch_dir("tb-split");
    let (queens, rooks) = (base.join("queens"), base.join("rooks"));
    for (dir, names) in [(&queens, &["KQvK"][..]), (&rooks, &["KRvK", "KRvKR"][..])] {
        std::fs::create_dir_all(dir).unwrap();
        for name in names {
            for ext in ["rtbw", "rtbz"] {
                let file = format!("{name}.{ext}");
                std::fs::copy(PathBuf::from(syzygy_dir()).join(&file), dir.join(&file)).unwrap();
            }
        }
    }
    let mut e = Engine::start();
    e.send(&format!(
        "setoption name SyzygyPath value {}:{}",
        queens.display(),
        rooks.display()
    ));
    e.send("setoption name UCI_ShowWDL value true");
    e.ready();
    // Each root needs a table from one of the two directories: the verdict at the root
    // (tbhits at least 1), with its certain `wdl` for the winner and for the loser; the
    // drawn rook ending is a draw (`cp 0`, the model's even chances either way).
    for (fen, cp, wdl) in [
        ("8/8/8/4k3/8/8/8/Q3K3 b - - 0 1", -30_000, Some("0 0 1000")),
        ("8/8/8/4k3/8/8/8/3QK3 w - - 0 1", 30_000, Some("1000 0 0")),
        ("8/8/8/4k3/8/8/8/R3K3 b - - 0 1", -30_000, Some("0 0 1000")),
        ("8/8/2r5/4k3/8/8/8/R3K3 w - - 0 1", 0, None),
    ] {
        e.send("ucinewgame");
        e.send(&format!("position fen {fen}"));
        let lines = e.go("depth 5");
        check_answer(&Position::from_fen(fen, false).unwrap(), &lines);
        let last = last_info(&lines);
        assert!(info_value(last, "tbhits").unwrap() >= 1, "{fen}: {last}");
        assert_eq!(info_value(last, "cp"), Some(cp), "{fen}: {last}");
        let shown = last
            .split(" wdl ")
            .nth(1)
            .unwrap_or_else(|| panic!("{last}"));
        let shown: Vec<i64> = shown
            .split(' ')
            .take(3)
            .map(|n| n.parse().unwrap())
            .collect();
        match wdl {
            Some(expected) => assert_eq!(
                shown
                    .iter()
                    .map(|n| n.to_string())
                    .collect::<Vec<_>>()
                    .join(" "),
                expected,
                "{fen}: {last}"
            ),
            None => assert!(shown[0] == shown[2] && shown[1] >= 500, "{fen}: {last}"),
        }
    }
    std::fs::remove_dir_all(&base).unwrap();
}

#[test]
fn cursed_and_blessed_roots_keep_what_the_fifty_move_rule_makes_of_them() {
    // KR against K with 80 plies on the clock: the rook's side cannot convert inside the
    // rule (a cursed win), the king's side is saved by it (a blessed loss). Under the rule
    // both are draws; without it the win keeps the moves nearest the next zeroing move
    // and the loss those furthest from it, by the reference's distances.
    let ours = tables();
    let mut reference = Tablebase::<Chess>::new();
    reference.add_directory(syzygy_dir()).unwrap();
    for (fen, expected, without_rule) in [
        (
            "8/8/5R2/8/4k3/8/8/7K w - - 80 1",
            AmbiguousWdl::CursedWin,
            Outcome::Win,
        ),
        (
            "8/8/5R2/8/4k3/8/8/7K b - - 80 1",
            AmbiguousWdl::BlessedLoss,
            Outcome::Loss,
        ),
    ] {
        let pos = Position::from_fen(fen, false).unwrap();
        let chess = pos.chess();
        assert_eq!(reference.probe_wdl(chess).unwrap(), expected, "{fen}");
        let with_rule = ours.root_moves(chess, true).unwrap().outcome;
        assert_eq!(with_rule, Outcome::Draw, "{fen}");
        let root = ours.root_moves(chess, false).unwrap();
        let (moves, outcome) = (root.moves, root.outcome);
        assert_eq!(outcome, without_rule, "{fen}");
        // The child's result for the side that moved, its clock ignored, and how far the
        // next zeroing move is.
        let after = |mv: &shakmaty::Move| {
            let mut after = chess.clone();
            after.play_unchecked(*mv);
            let wdl = reference.probe_wdl_after_zeroing(&after).unwrap();
            let distance = plies_to_zeroing(&reference, mv, &after);
            (-wdl.signum(), distance)
        };
        let keeping: Vec<i32> = chess
            .legal_moves()
            .iter()
            .map(after)
            .filter(|&(sign, _)| sign == after(&moves[0]).0)
            .map(|(_, d)| d)
            .collect();
        let (nearest, furthest) = (
            *keeping.iter().min().unwrap(),
            *keeping.iter().max().unwrap(),
        );
        for mv in &moves {
            let (sign, distance) = after(mv);
            match without_rule {
                Outcome::Win => assert!(sign > 0 && distance == nearest, "{fen}: {mv:?}"),
                _ => assert!(sign < 0 && distance == furthest, "{fen}: {mv:?}"),
            }
        }
    }
}

/// The `wdl` triple of an `info` line, as text.
fn shown_wdl(line: &str) -> String {
    let after = line
        .split(" wdl ")
        .nth(1)
        .unwrap_or_else(|| panic!("no wdl: {line}"));
    after.split(' ').take(3).collect::<Vec<_>>().join(" ")
}

#[test]
fn win_draw_loss_tables_alone_see_the_fifty_move_counter_run_out_at_the_root() {
    // KQ against K with 99 plies on the clock: every move but a mate reaches the hundredth
    // half-move, a draw under the fifty-move rule. The distance tables say so; the
    // win/draw/loss tables alone (links to the `.rtbw` files) must say the same.
    let wdl_only = crate::common::scratch_dir("wdl-only-late");
    for entry in std::fs::read_dir(syzygy_dir()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "rtbw") {
            std::os::unix::fs::symlink(&path, wdl_only.join(path.file_name().unwrap())).unwrap();
        }
    }
    let wdl_only = wdl_only.display().to_string();
    let no_mate = "8/8/8/3k4/8/8/8/1QK5 w - - 99 80";
    // The same clock where Qg8 mates: the mate comes first, and is the only move kept.
    let mate = "k7/8/1K6/8/8/8/8/6Q1 w - - 99 80";
    let ours = Tablebases::open(&wdl_only).expect("the WDL tables load");
    for (fen, rule, outcome, moves) in [
        (no_mate, true, Outcome::Draw, None),
        // Without the rule the win stands, as the distance tables have it.
        (no_mate, false, Outcome::Win, None),
        (mate, true, Outcome::Win, Some(vec!["g1g8"])),
    ] {
        let chess = Position::from_fen(fen, false).unwrap().chess().clone();
        let root = ours.root_moves(&chess, rule).expect("covered");
        assert!(!root.by_distance, "{fen}");
        assert_eq!(root.outcome, outcome, "{fen}, rule {rule}");
        let with_distance = tables().root_moves(&chess, rule).unwrap().outcome;
        assert_eq!(root.outcome, with_distance, "{fen}, rule {rule}");
        if let Some(moves) = moves {
            let kept: Vec<String> = root
                .moves
                .iter()
                .map(|mv| mv.to_uci(shakmaty::CastlingMode::Standard).to_string())
                .collect();
            assert_eq!(kept, moves, "{fen}");
        }
    }
    // Over UCI, with either directory: a draw, `cp 0`, not the tables' win.
    for dir in [wdl_only.clone(), syzygy_dir()] {
        let mut e = Engine::start();
        e.send(&format!("setoption name SyzygyPath value {dir}"));
        e.send("setoption name UCI_ShowWDL value true");
        e.send(&format!("position fen {no_mate}"));
        let lines = e.go("depth 6");
        check_answer(&Position::from_fen(no_mate, false).unwrap(), &lines);
        let last = last_info(&lines);
        assert_eq!(info_value(last, "cp"), Some(0), "{dir}: {last}");
        assert_ne!(shown_wdl(last), "1000 0 0", "{dir}: {last}");
        assert!(info_value(last, "tbhits").unwrap() >= 1, "{dir}: {last}");
    }
    std::fs::remove_dir_all(&wdl_only).unwrap();
}

#[test]
fn syzygy_path_is_split_on_semicolons_on_windows_and_colons_elsewhere() {
    use rookery::engine::tb::split_paths;
    // Windows: a drive letter's colon stays in its path.
    for (value, expected) in [
        (r"C:\tb;D:\more tb", &[r"C:\tb", r"D:\more tb"][..]),
        (r"C:\tb", &[r"C:\tb"]),
        (
            r"Z:\tables;;\\server\share\tb;",
            &[r"Z:\tables", r"\\server\share\tb"],
        ),
        ("", &[]),
    ] {
        assert_eq!(split_paths(value, true), expected, "{value}");
    }
    // Elsewhere: colons, and a semicolon is part of a name.
    for (value, expected) in [
        ("/tb:/more tb", &["/tb", "/more tb"][..]),
        ("/tb;x::/y", &["/tb;x", "/y"]),
    ] {
        assert_eq!(split_paths(value, false), expected, "{value}");
    }
}
