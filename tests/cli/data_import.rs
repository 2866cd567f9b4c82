//! `rookery data import` on a PGN the test writes as fastchess and cutechess do (scores in
//! the comments, a mate score, book moves, a FEN start, a variation, a NAG, an unfinished
//! game): the scores land on the plies of the mover, mates and book moves skipped; `rookery
//! data` accepts the directory with the counts the games give, and `train` learns from it.
//! Refusals: a non-empty `--out`, a corrupt PGN (naming the file and the game), nothing
//! written and the input untouched.

use crate::common;

use common::cli::{refused, rookery, stdout};
use rookery::learn::data::game_file;
use rookery::learn::data::record::GameResult;

/// Three finished games (4, 4 and 3 training plies: 11 of 16) and one unfinished.
const PGN: &str = r#"[Event "Fastchess Tournament"]
[Site "?"]
[Round "1"]
[White "rookery-dev"]
[Black "rookery-base"]
[Result "1-0"]
[TimeControl "5+0.05"]

1. e4 {book} e5 {book} 2. Bc4 {+0.35/14 0.318s} Nc6 {-0.20/13 0.2s} 3. Qh5
{+0.80/12 0.2s} Nf6 {-3.10/11 0.1s} 4. Qxf7# {+M1/1 0.01s, White mates} 1-0

[Event "?"]
[White "a"]
[Black "b"]
[Result "1/2-1/2"]
[FEN "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"]
[SetUp "1"]

1. Kd2 {+1.50/20 0.1s} Kd7 {-1.40/20 0.1s} 2. Ke3 {+M9/30 0.1s} Ke7 {-M9/30 0.1s}
3. Kd4 {+2.00/20 0.1s} (3. Ke4 {+1.90/20} Kf6) Kd6 $2 {-2.10/22 0.1s} 1/2-1/2

[Event "?"]
[Result "0-1"]
[FEN "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"]
[SetUp "1"]

1... c5 {-0.30/10 0.1s} 2. Nf3 {+0.30/10 0.1s} d6 {-0.25/10 0.1s} 0-1

[Event "?"]
[Result "*"]

1. d4 {+0.10/1 0s} *
"#;

#[test]
fn a_pgn_becomes_data_that_data_accepts_and_train_learns_from() {
    let dir = common::scratch_dir("import-pgn");
    let pgn = dir.join("games.pgn");
    std::fs::write(&pgn, PGN).unwrap();
    let out = dir.join("imported");
    let (p, o) = (pgn.to_str().unwrap(), out.to_str().unwrap());
    let run = rookery(&["data", "import", p, "--out", o]);
    assert_eq!(run.status.code(), Some(0), "{:?}", run);
    let said = stdout(&run);
    assert!(
        said.contains("3 games imported, 11 training positions"),
        "{said}"
    );
    assert!(said.contains("1 unfinished"), "{said}");

    // The plies as the PGN gives them: the mover's score, skipped without one or at a mate.
    let bytes = std::fs::read(out.join("imported.games")).unwrap();
    let games: Vec<_> = game_file::read(&bytes)
        .unwrap()
        .map(|g| g.unwrap().game)
        .collect();
    let plies = |i: usize| -> Vec<(i16, bool)> {
        games[i].plies.iter().map(|p| (p.score, p.skip)).collect()
    };
    assert_eq!(
        plies(0),
        [
            (0, true),
            (0, true),
            (35, false),
            (-20, false),
            (80, false),
            (-310, false),
            (31999, true)
        ]
    );
    let second = plies(1);
    assert_eq!(second[..2], [(150, false), (-140, false)]);
    assert!(second[2].1 && second[2].0 > 30000 && second[3].1 && second[3].0 < -30000);
    assert_eq!(second[4..], [(200, false), (-210, false)]);
    assert_eq!(plies(2), [(-30, false), (30, false), (-25, false)]);
    let results: Vec<GameResult> = games.iter().map(|g| g.result).collect();
    assert_eq!(
        results,
        [GameResult::WhiteWon, GameResult::Draw, GameResult::BlackWon]
    );

    let checked = rookery(&["data", o]);
    assert_eq!(checked.status.code(), Some(0));
    let checked = stdout(&checked);
    assert!(
        checked.contains("11 training positions of 16 plies, 3 games (W/D/L 1/1/1)"),
        "{checked}"
    );

    let net = dir.join("net.nnue");
    let trained = rookery(&[
        "train",
        o,
        "--out",
        net.to_str().unwrap(),
        "--epochs",
        "1",
        "--batch",
        "4",
        "--val",
        "0",
    ]);
    let stderr = String::from_utf8_lossy(&trained.stderr);
    assert_eq!(trained.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("train: 3 games, 3 distinct"), "{stderr}");
    assert!(net.metadata().unwrap().len() > 0);

    // Into the same directory again: refused, the data left as it was.
    let line = refused(&["data", "import", p, "--out", o]);
    assert!(line.contains("not an empty directory"), "{line}");
    assert_eq!(std::fs::read(out.join("imported.games")).unwrap(), bytes);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_corrupt_pgn_is_refused_naming_the_file_and_the_game() {
    let dir = common::scratch_dir("import-corrupt");
    let good = dir.join("good.pgn");
    std::fs::write(&good, PGN).unwrap();
    let out = dir.join("out");
    let (g, o) = (good.to_str().unwrap(), out.to_str().unwrap());
    for (name, text, says) in [
        (
            "illegal.pgn",
            PGN.replace("Kd6 $2", "Kd3 $2"),
            "game 2: ply 6: 'Kd3'",
        ),
        (
            "cut.pgn",
            PGN[..PGN.find("0.1s} 0-1").unwrap()].to_string(),
            "game 3",
        ),
        (
            "tag.pgn",
            PGN.replace("[Round \"1\"]", "[Round 1]"),
            "game 1",
        ),
    ] {
        let bad = dir.join(name);
        std::fs::write(&bad, &text).unwrap();
        let line = refused(&["data", "import", g, bad.to_str().unwrap(), "--out", o]);
        assert!(line.contains(name) && line.contains(says), "{says}: {line}");
        assert!(!out.exists(), "{name}: something was written");
        assert_eq!(std::fs::read_to_string(&bad).unwrap(), text);
    }
    let line = refused(&["data", "import", g, "--out", g]);
    assert!(line.contains("not an empty directory"), "{line}");
    assert_eq!(std::fs::read_to_string(&good).unwrap(), PGN);
    let line = refused(&["data", "import", "/no/such.pgn", "--out", o]);
    assert!(line.contains("/no/such.pgn"), "{line}");
    std::fs::remove_dir_all(&dir).unwrap();
}
