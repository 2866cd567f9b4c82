//! Rules through UCI on the real binary: Chess960 castling searched and printed in
//! king-takes-rook notation (and in standard notation from the standard arrangement, but
//! never where standard notation cannot write it), draw
//! scores for the fifty-move rule and insufficient material (but mate on the hundredth
//! half-move is mate), MultiPV beyond the number of legal moves, the `go nodes` bound, and
//! scores reported in normalised centipawns with the fitted win/draw/loss model.

use crate::common;

use common::lines::Lines;
use common::uci_client::{Engine, WAIT, check_answer, info_value, scores};
use rookery::chess::Position;
use rookery::engine::Limits;
use rookery::engine::search::{SearchOptions, Signals, search};
use rookery::engine::tt::ChessTable;
use rookery::engine::wdl::{material, normalised, win_draw_loss};
use shakmaty::{Move, Position as _};

/// The Chess960 suite's positions (one per start position, a few moves in).
fn chess960_fens() -> Vec<String> {
    common::suite("chess960.epd")
        .into_iter()
        .map(|case| case.fen)
        .collect()
}

#[test]
fn chess960_castling_is_searched_and_printed_king_takes_rook() {
    let mut e = Engine::start();
    e.send("setoption name UCI_Chess960 value true");
    let mut tried = 0;
    for fen in chess960_fens().iter().step_by(7) {
        let pos = Position::from_fen(fen, true).unwrap();
        let castles: Vec<Move> = pos
            .legal_moves()
            .into_iter()
            .filter(|mv| mv.is_castle())
            .collect();
        for mv in castles {
            let text = pos.uci(mv);
            // King takes rook: the destination holds the king's own rook.
            let Move::Castle { king, rook } = mv else {
                unreachable!()
            };
            assert_eq!(text, format!("{king}{rook}"), "{fen}");
            e.send(&format!("position fen {fen}"));
            let lines = e.go(&format!("depth 4 searchmoves {text}"));
            let (best, _) = check_answer(&pos, &lines);
            assert_eq!(best, text, "{fen}: {lines:#?}");
            // And the same move given back in a move list is read in the same notation.
            e.send(&format!("position fen {fen} moves {text}"));
            let mut after = pos.clone();
            after.push_uci(&text).unwrap();
            let lines = e.go("depth 3");
            check_answer(&after, &lines);
            tried += 1;
        }
        if tried >= 24 {
            break;
        }
    }
    assert!(tried >= 24, "only {tried} castling moves in the sample");
}

#[test]
fn standard_arrangement_castles_in_both_notations() {
    let fen = "r3k2r/pppq1ppp/2npbn2/2b1p3/2B1P3/2NPBN2/PPPQ1PPP/R3K2R w KQkq - 4 8";
    for (chess960, short, long) in [(false, "e1g1", "e1c1"), (true, "e1h1", "e1a1")] {
        let mut e = Engine::start();
        e.send(&format!("setoption name UCI_Chess960 value {chess960}"));
        let pos = Position::from_fen(fen, chess960).unwrap();
        for castle in [short, long] {
            e.send(&format!("position fen {fen}"));
            let lines = e.go(&format!("depth 5 searchmoves {castle}"));
            assert_eq!(check_answer(&pos, &lines).0, castle);
        }
        // Black's castling inside the variation after white's: every PV move parses in
        // this notation (check_answer), and black castles in the reply's search.
        e.send(&format!("position fen {fen} moves {short}"));
        let mut after = pos.clone();
        after.push_uci(short).unwrap();
        let black_short = if chess960 { "e8h8" } else { "e8g8" };
        let lines = e.go(&format!("depth 5 searchmoves {black_short}"));
        assert_eq!(check_answer(&after, &lines).0, black_short);
    }
}

#[test]
fn switching_chess960_off_keeps_king_takes_rook_where_standard_notation_cannot_say_it() {
    // The king on b1 castles long with the rook on a1: standard notation would write the
    // king's step to c1, which reads back as a king move.
    let fen = "7k/8/8/8/8/8/8/RK6 w A - 0 1";
    let pos = Position::from_fen(fen, true).unwrap();
    let mut e = Engine::start();
    e.send("setoption name UCI_Chess960 value true");
    e.send(&format!("position fen {fen}"));
    e.send("setoption name UCI_Chess960 value false");
    let lines = e.go("depth 3 searchmoves b1a1");
    assert_eq!(check_answer(&pos, &lines).0, "b1a1", "{lines:#?}");
}

#[test]
fn fifty_move_and_insufficient_material_draws_score_zero() {
    let mut e = Engine::start();
    for fen in [
        // Rook up, but every move is the hundredth half-move without capture or pawn move.
        "8/8/8/4k3/8/8/8/R3K3 w - - 99 120",
        // King and bishop against king, king and knight against king.
        "8/8/4k3/8/8/3BK3/8/8 w - - 0 1",
        "8/8/4k3/8/8/3NK3/8/8 b - - 0 1",
    ] {
        e.send(&format!("position fen {fen}"));
        let lines = e.go("depth 6");
        check_answer(&Position::from_fen(fen, false).unwrap(), &lines);
        let last = scores(&lines).pop().unwrap();
        assert_eq!(last, "cp 0", "{fen}: {lines:#?}");
    }
    // With the rook up and the clock at 50, there is time to keep playing: not a draw.
    let fen = "8/8/8/4k3/8/8/8/R3K3 w - - 50 120";
    e.send(&format!("position fen {fen}"));
    let lines = e.go("depth 6");
    let last = scores(&lines).pop().unwrap();
    let cp: i32 = last
        .strip_prefix("cp ")
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("a centipawn score, not {last}"));
    // 100 cp is an even chance to win (normalised centipawns): a rook up is more than that,
    // though the search's evaluation shrinks with the material gone and the fifty-move clock
    // run half out.
    assert!(cp > 100, "white is a rook up: {last}: {lines:#?}");
}

#[test]
fn mate_on_the_hundredth_half_move_is_mate() {
    // Qg7 mates; it is also the hundredth half-move, and mate comes first.
    let fen = "7k/8/5K2/8/8/8/8/6Q1 w - - 99 120";
    let mut e = Engine::start();
    e.send(&format!("position fen {fen}"));
    let lines = e.go("depth 5");
    let pos = Position::from_fen(fen, false).unwrap();
    let (best, _) = check_answer(&pos, &lines);
    let mut after = pos.clone();
    after.push_uci(&best).unwrap();
    assert!(after.chess().is_checkmate(), "{best}: {lines:#?}");
    assert_eq!(scores(&lines).pop().unwrap(), "mate 1", "{lines:#?}");
}

#[test]
fn multipv_above_the_legal_moves_reports_each_move_once() {
    // Six legal moves: four king moves, two pawn pushes.
    let fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
    let pos = Position::from_fen(fen, false).unwrap();
    let legal = pos.legal_moves().len();
    assert!(legal < 10, "{legal}");
    let mut e = Engine::start();
    e.send("setoption name MultiPV value 10");
    e.send(&format!("position fen {fen}"));
    let lines = e.go("depth 5");
    check_answer(&pos, &lines);
    let last: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth 5 ") && !l.contains("bound"))
        .collect();
    assert_eq!(last.len(), legal, "{lines:#?}");
    let mut first_moves: Vec<&str> = last
        .iter()
        .map(|l| l.split(" pv ").nth(1).unwrap().split(' ').next().unwrap())
        .collect();
    first_moves.sort();
    first_moves.dedup();
    assert_eq!(first_moves.len(), legal, "{last:#?}");
}

#[test]
fn go_nodes_stops_within_a_node_check_of_the_bound() {
    let mut e = Engine::start();
    e.send("position startpos");
    for bound in [5_000u64, 20_000, 100_000] {
        let lines = e.go(&format!("nodes {bound}"));
        check_answer(&Position::startpos(), &lines);
        let last = lines
            .iter()
            .rev()
            .find(|l| l.starts_with("info depth"))
            .unwrap();
        let nodes = info_value(last, "nodes").unwrap() as u64;
        // The main thread checks the bound every 1024 nodes.
        assert!(
            (bound..=bound + 1024).contains(&nodes),
            "nodes {bound}: stopped at {nodes}"
        );
    }
}

/// The back rank of Chess960 start position `n` (0-959) by Scharnagl's numbering, white's
/// pieces as letters from file a to h: bishops on opposite colours, the queen, the knights
/// by the fixed table of their ten placements, then rook, king, rook on the squares left.
fn chess960_back_rank(n: usize) -> [char; 8] {
    const KNIGHTS: [(usize, usize); 10] = [
        (0, 1),
        (0, 2),
        (0, 3),
        (0, 4),
        (1, 2),
        (1, 3),
        (1, 4),
        (2, 3),
        (2, 4),
        (3, 4),
    ];
    let mut rank = [' '; 8];
    let (n, light) = (n / 4, n % 4);
    rank[2 * light + 1] = 'B';
    let (n, dark) = (n / 4, n % 4);
    rank[2 * dark] = 'B';
    let free = |rank: &[char; 8]| -> Vec<usize> { (0..8).filter(|&f| rank[f] == ' ').collect() };
    let (n, queen) = (n / 6, n % 6);
    rank[free(&rank)[queen]] = 'Q';
    let (a, b) = KNIGHTS[n];
    let empty = free(&rank);
    rank[empty[a]] = 'N';
    rank[empty[b]] = 'N';
    for (square, piece) in free(&rank).into_iter().zip(['R', 'K', 'R']) {
        rank[square] = piece;
    }
    rank
}

/// Start position `n` as a Shredder-FEN (castling rights named by the rooks' files).
fn chess960_start(n: usize) -> String {
    let rank = chess960_back_rank(n);
    let white: String = rank.iter().collect();
    let rooks: Vec<char> = (0..8)
        .filter(|&f| rank[f] == 'R')
        .map(|f| (b'a' + f as u8) as char)
        .collect();
    let rights: String = rooks
        .iter()
        .rev()
        .map(|f| f.to_ascii_uppercase())
        .chain(rooks.iter().rev().copied())
        .collect();
    format!(
        "{}/pppppppp/8/8/8/8/PPPPPPPP/{white} w {rights} - 0 1",
        white.to_ascii_lowercase()
    )
}

#[test]
fn scharnagl_numbering_gives_the_standard_position_at_518() {
    assert_eq!(
        chess960_back_rank(518).iter().collect::<String>(),
        "RNBQKBNR"
    );
    assert_eq!(chess960_back_rank(0).iter().collect::<String>(), "BBQNNRKR");
    assert_eq!(
        chess960_back_rank(959).iter().collect::<String>(),
        "RKRNNQBB"
    );
}

#[test]
fn games_from_chess960_start_positions_castle_in_king_takes_rook_notation() {
    let mut e = Engine::start();
    e.send("setoption name UCI_Chess960 value true");
    let mut castles_seen = 0;
    for n in (0..960).step_by(97).chain([518]) {
        let fen = chess960_start(n);
        let mut pos = Position::from_fen(&fen, true).unwrap();
        let mut moves: Vec<String> = Vec::new();
        for _ in 0..24 {
            e.send(&format!("position fen {fen} moves {}", moves.join(" ")));
            let lines = e.go("depth 5");
            // Legal PVs and bestmove in Chess960 notation: a castling move written
            // king-to-destination would not parse here.
            let (best, _) = check_answer(&pos, &lines);
            if best == "(none)" {
                break;
            }
            for line in lines.iter().filter(|l| l.contains(" pv ")) {
                let mut p = pos.clone();
                for mv in line.split(" pv ").nth(1).unwrap().split_whitespace() {
                    let played = p.push_uci(mv).unwrap();
                    castles_seen += usize::from(played.is_castle());
                }
            }
            pos.push_uci(&best).unwrap();
            moves.push(best);
        }
    }
    assert!(
        castles_seen > 0,
        "no castling in any variation of the sample"
    );
}

/// The `Fen:` line of `d` after the command `position`.
fn displayed_fen(e: &mut Engine, position: &str) -> String {
    e.send(position);
    e.send("d");
    let lines = e.until(WAIT, |l| l.starts_with("Checkers"));
    lines
        .iter()
        .find_map(|l| l.strip_prefix("Fen: "))
        .unwrap_or_else(|| panic!("no Fen line: {lines:#?}"))
        .to_string()
}

#[test]
fn d_prints_shredder_fen_under_chess960_and_x_fen_otherwise() {
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let inner_rook = "b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9";
    let some_rights_gone = "startpos moves a2a4 h7h5 a1a3 h8h6";
    let mut e = Engine::start();
    assert_eq!(displayed_fen(&mut e, "position startpos"), start);
    assert_eq!(
        displayed_fen(&mut e, &format!("position fen {}", chess960_start(0))),
        "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1"
    );
    assert_eq!(
        displayed_fen(&mut e, &format!("position fen {inner_rook}")),
        "b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w KQ - 1 9"
    );
    assert_eq!(
        displayed_fen(&mut e, &format!("position {some_rights_gone}")),
        "rnbqkbn1/ppppppp1/7r/7p/P7/R7/1PPPPPPP/1NBQKBNR w Kq - 2 3"
    );

    e.send("setoption name UCI_Chess960 value true");
    // The Scharnagl start positions, written here with the rooks' files as rights.
    for n in (0..960).step_by(37).chain([0, 518]) {
        let fen = chess960_start(n);
        assert_eq!(displayed_fen(&mut e, &format!("position fen {fen}")), fen);
    }
    assert_eq!(
        displayed_fen(&mut e, "position startpos"),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"
    );
    assert_eq!(
        displayed_fen(&mut e, &format!("position fen {inner_rook}")),
        inner_rook
    );
    assert_eq!(
        displayed_fen(&mut e, &format!("position {some_rights_gone}")),
        "rnbqkbn1/ppppppp1/7r/7p/P7/R7/1PPPPPPP/1NBQKBNR w Ha - 2 3"
    );
    assert_eq!(
        displayed_fen(&mut e, "position fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1"),
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1"
    );
}

#[test]
fn uci_show_wdl_adds_win_draw_loss_in_permille() {
    let mut e = Engine::start();
    e.send("position startpos");
    let lines = e.go("depth 3");
    assert!(lines.iter().all(|l| !l.contains(" wdl ")), "off by default");
    e.send("setoption name UCI_ShowWDL value true");
    for (fen, certain) in [
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            false,
        ),
        ("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", true),
    ] {
        e.send(&format!("position fen {fen}"));
        let lines = e.go("depth 4");
        check_answer(&Position::from_fen(fen, false).unwrap(), &lines);
        for line in lines.iter().filter(|l| l.starts_with("info depth")) {
            let wdl = wdl_of(line);
            assert_eq!(wdl.iter().sum::<u16>(), 1000, "{line}");
            if certain && line.contains("score mate") {
                assert_eq!(wdl, [1000, 0, 0], "{line}");
            }
        }
    }
}

/// The `W D L` after ` wdl ` in an `info` line.
fn wdl_of(line: &str) -> [u16; 3] {
    let words: Vec<u16> = line
        .split(" wdl ")
        .nth(1)
        .unwrap_or_else(|| panic!("no wdl: {line}"))
        .split_whitespace()
        .take(3)
        .map(|n| n.parse().unwrap())
        .collect();
    words.try_into().unwrap()
}

#[test]
fn reported_centipawns_are_the_search_scores_normalised() {
    // The binary's first search is the library's search of the same position on a fresh
    // table of the default 16 MiB: the same lines, whose internal scores the library shows.
    let mut normalisations = 0;
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
        // White a knight up in the middlegame, and a rook up with the king alone.
        "r1bqkb1r/pppp1ppp/5n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 0 4",
        "8/8/8/4k3/8/8/8/R3K3 w - - 50 120",
    ] {
        let pos = Position::from_fen(fen, false).unwrap();
        let limits = Limits {
            depth: Some(7),
            ..Limits::default()
        };
        let library = Lines::default();
        let table = ChessTable::new(16).unwrap();
        let options = SearchOptions::default();
        search(
            &pos,
            &limits,
            &options,
            &table,
            &Signals::default(),
            &library,
        );
        let library = library.into_lines();

        let mut e = Engine::start();
        e.send("setoption name UCI_ShowWDL value true");
        e.send(&format!("position fen {fen}"));
        let lines = e.go("depth 7");
        check_answer(&pos, &lines);
        let infos: Vec<&String> = lines
            .iter()
            .filter(|l| l.starts_with("info depth") && l.contains(" score "))
            .collect();
        assert_eq!(infos.len(), library.len(), "{fen}: {lines:#?}");
        for (line, searched) in infos.iter().zip(&library) {
            assert_eq!(
                info_value(line, "nodes"),
                Some(searched.nodes as i64),
                "{line}"
            );
            assert_eq!(searched.material, material(pos.chess().board()));
            let cp = normalised(searched.score, searched.material);
            assert_eq!(scores(&[line.to_string()]), [format!("cp {cp}")], "{line}");
            let wdl = win_draw_loss(searched.score, searched.material);
            assert_eq!(wdl_of(line), wdl, "{line}");
            assert_eq!(wdl.iter().sum::<u16>(), 1000, "{line}");
            normalisations += usize::from(cp != searched.score);
        }
    }
    // The reported scores are not the internal ones.
    assert!(normalisations >= 10, "{normalisations}");
}
