//! `rookery net`: a net's checksum and shape, its mean |evaluation| over a suite, and a copy
//! with its scores scaled, checked through the engine's own `eval` of each net.

use std::path::Path;

use crate::common::cli::{refused, rookery, stdout};
use crate::common::scratch_dir;

const GEN3: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/gen3.nnue");
const BUILT_IN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/nets/default.nnue");

/// Positions with a clear advantage one way or the other, so that a scale shows.
const FENS: [&str; 4] = [
    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "4r1k1/pp3ppp/8/3q4/8/1P3Q2/P4PPP/4R1K1 b - - 0 25",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
];

/// The NNUE evaluation (units for the side to move) the engine gives `fen` with `net` loaded.
fn engine_eval(net: &Path, fen: &str) -> i32 {
    let setoption = format!("setoption name EvalFile value {}", net.display());
    let position = format!("position fen {fen}");
    let out = rookery(&[&setoption, &position, "eval"]);
    assert!(out.status.success(), "{}", stdout(&out));
    let text = stdout(&out);
    crate::common::nnue_evaluation(text.lines())
        .unwrap_or_else(|| panic!("no NNUE evaluation in {text}"))
}

fn write_suite(dir: &Path) -> String {
    let path = dir.join("suite.epd");
    std::fs::write(&path, FENS.join("\n") + "\n").unwrap();
    path.display().to_string()
}

#[test]
fn a_scaled_net_evaluates_each_position_at_the_factor() {
    let dir = scratch_dir("net-scaled");
    let suite = write_suite(&dir);
    for (net, percent, shape, scale) in [
        (GEN3, 50, "768->256x2->1, crelu", 93),
        (BUILT_IN, 80, "768->384x2->1, screlu", 148),
    ] {
        let out_path = dir.join(format!("scaled-{percent}.nnue"));
        let out_name = out_path.display().to_string();
        let run = rookery(&[
            "net",
            net,
            "--epd",
            &suite,
            "--scale",
            &percent.to_string(),
            "--out",
            &out_name,
        ]);
        assert!(run.status.success(), "{run:?}");
        let text = stdout(&run);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 4, "{text}");
        assert!(lines[0].starts_with(&format!("{net}: checksum ")), "{text}");
        assert!(
            lines[0].ends_with(&format!("{shape}, 185 cp per output unit")),
            "{text}"
        );
        let mean = |line: &str| -> f64 {
            let rest = line.split("mean |evaluation| ").nth(1).unwrap();
            rest.split(' ').next().unwrap().parse().unwrap()
        };
        assert!(
            lines[1].ends_with(&format!(" cp over 4 positions of {suite}")),
            "{text}"
        );
        assert!(
            lines[2].ends_with(&format!(
                "{shape}, {scale} cp per output unit, {net}'s scores scaled to {percent}%"
            )),
            "{text}"
        );
        let ratio = mean(lines[3]) / mean(lines[1]);
        assert!((ratio - f64::from(percent) / 100.0).abs() < 0.03, "{text}");

        // The file written is what was reported, and the engine loads it and scores each
        // position at the factor, within the rounding of its one division.
        let again = stdout(&rookery(&["net", &out_name]));
        assert_eq!(
            again.trim_end(),
            lines[2].split(&format!(", {net}'s")).next().unwrap()
        );
        for fen in FENS {
            let before = f64::from(engine_eval(Path::new(net), fen));
            let after = f64::from(engine_eval(&out_path, fen));
            let expected = before * f64::from(percent) / 100.0;
            assert!(
                (after - expected).abs() <= 1.0,
                "{net} at {percent}%, {fen}: {before} became {after}"
            );
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_requests_are_refused_and_write_nothing() {
    let dir = scratch_dir("net-refusals");
    let out = dir.join("out.nnue");
    let out_name = out.display().to_string();
    assert!(refused(&["net", BUILT_IN, "--scale", "80"]).contains("--scale and --out go together"));
    assert!(refused(&["net", BUILT_IN, "--out", &out_name]).contains("go together"));
    assert!(refused(&["net", BUILT_IN, "--scale", "0", "--out", &out_name]).contains("16..=1024"));
    assert!(
        refused(&["net", BUILT_IN, "--scale", "-5", "--out", &out_name]).contains("invalid value")
    );
    assert!(refused(&["net", BUILT_IN, "--scale", "600", "--out", &out_name]).contains("1024"));
    assert!(!out.exists());

    let cut = dir.join("cut.nnue");
    let bytes = std::fs::read(GEN3).unwrap();
    std::fs::write(&cut, &bytes[..bytes.len() - 1]).unwrap();
    let cut_name = cut.display().to_string();
    assert!(refused(&["net", &cut_name, "--scale", "80", "--out", &out_name]).contains(&cut_name));
    assert!(!out.exists());

    // The input itself, or any file already there, is never overwritten.
    let copy = dir.join("gen3.nnue");
    std::fs::write(&copy, &bytes).unwrap();
    let copy_name = copy.display().to_string();
    assert!(
        refused(&["net", &copy_name, "--scale", "80", "--out", &copy_name])
            .contains("already exists")
    );
    assert_eq!(std::fs::read(&copy).unwrap(), bytes);

    assert!(refused(&["net"]).contains("usage: rookery net"));
    assert!(
        refused(&[
            "net",
            GEN3,
            "--epd",
            &dir.join("none.epd").display().to_string()
        ])
        .contains("none.epd")
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_scaled_net_whose_write_fails_leaves_no_file_and_the_run_can_be_repeated() {
    let dir = scratch_dir("net-write-fails");
    let out = dir.join("scaled.nnue");
    let out_name = out.display().to_string();
    let args = ["net", BUILT_IN, "--scale", "80", "--out", &out_name];
    // A file size limit of 64 blocks (32 or 64 KiB: less than the net's 580 KiB) fails the
    // write part way, as a full disk does (the signal the limit sends ignored, so the write
    // returns its error).
    let limited = std::process::Command::new("sh")
        .arg("-c")
        .arg("trap '' XFSZ; ulimit -f 64; exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_rookery"))
        .args(args)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&limited.stderr);
    assert_eq!(limited.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains(&format!("{out_name}: cannot write it")),
        "{stderr}"
    );
    // Nothing is left: no cut net, no temporary file.
    let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert!(left.is_empty(), "{left:?}");
    // The same command, without the limit, writes the whole net.
    let run = rookery(&args);
    assert!(run.status.success(), "{run:?}");
    let reported = stdout(&run).lines().nth(1).unwrap().to_string();
    let read = stdout(&rookery(&["net", &out_name]));
    assert!(reported.starts_with(read.trim_end()), "{reported} / {read}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn epd_lines_with_operations_are_read_as_datagen_reads_its_book() {
    let dir = scratch_dir("net-epd-operations");
    let plain = write_suite(&dir);
    // The same four positions as an EPD file writes them: the four position fields and
    // operations (a `;` inside a quoted string among them), a full FEN with a perft count,
    // a full FEN alone; a comment and a blank line.
    let fields = |fen: &str| fen.split(' ').take(4).collect::<Vec<_>>().join(" ");
    let epd = dir.join("operations.epd");
    let text = format!(
        "# openings\n\
         {} bm e5; id \"king's pawn\";\n\
         {} hmvc 4; fmvn 4; c0 \"Italian; quiet\";\n\
         \n\
         {} ;D1 40\n\
         {}\n",
        fields(FENS[0]),
        fields(FENS[1]),
        FENS[2],
        FENS[3]
    );
    std::fs::write(&epd, text).unwrap();
    let epd_name = epd.display().to_string();
    let mean_line = |suite: &str| {
        let run = rookery(&["net", BUILT_IN, "--epd", suite]);
        assert!(run.status.success(), "{suite}: {run:?}");
        let text = stdout(&run);
        let line = text.lines().nth(1).unwrap_or_else(|| panic!("{text}"));
        line.split(" cp over ").next().unwrap().to_string()
    };
    let expected = mean_line(&plain);
    assert_eq!(mean_line(&epd_name), expected);
    // datagen reads the same file as its book: the four positions.
    let data = dir.join("data");
    let run = rookery(&[
        "datagen",
        "--out",
        data.to_str().unwrap(),
        "--games",
        "1",
        "--nodes",
        "50",
        "--hce",
        "--book",
        &epd_name,
    ]);
    assert!(run.status.success(), "{run:?}");
    let manifest = std::fs::read_to_string(data.join("manifest.jsonl")).unwrap();
    assert!(manifest.contains("\"book_positions\":4"), "{manifest}");
    std::fs::remove_dir_all(&dir).unwrap();
}
