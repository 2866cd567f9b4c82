//! Every number of every tool at 0, 1, the largest it accepts, one past that, 2^32 and
//! 2^64 - 1 (2^64 where 2^64 - 1 is the largest): each is either accepted, and the run keeps
//! within bounded memory (it ends with status 0, or is still running under
//! [`MAX_RESIDENT_KIB`] when [`GRACE`] is up), or refused before any work (status 2, one
//! line on stderr, nothing on stdout), as the case says. A number that wraps, panics, aborts
//! on an allocation or is taken beyond its bound fails here.
//!
//! Each run is cheap: the other numbers are set so that an accepted run is short, and a
//! long one (a deep search, billions of games) is stopped once [`GRACE`] shows it accepted.

use crate::common;
use crate::learn::random_games_data;
use common::scratch_dir;

use std::fs::File;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use rookery::engine::eval::nnue::Architecture;
use rookery::engine::eval::nnue::architecture::SCALE_RANGE;

use Verdict::{Accepted, Refused};

const TWO_32: &str = "4294967296";
const U64_MAX: &str = "18446744073709551615";
const TWO_64: &str = "18446744073709551616";

/// How long a run may go on before it counts as accepted: refusals come before any work.
const GRACE: Duration = Duration::from_millis(1500);

/// The most resident memory a run may reach (256 datagen threads with their tables take
/// about 1.2 GiB).
const MAX_RESIDENT_KIB: u64 = 2 << 20;

/// The address space of a run that asks for the largest table: the table cannot be had
/// within it, and must be refused as memory the system cannot give (on a machine with that
/// much memory it would otherwise be taken).
const TABLE_ADDRESS_SPACE_KIB: u64 = 4 << 20;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    Accepted,
    Refused,
}

/// One command line and what it must meet.
struct Case {
    args: Vec<String>,
    expect: Verdict,
    /// An address-space limit in KiB (`ulimit -v`) for the run.
    address_space_kib: Option<u64>,
}

/// The cases of `template` with each value in place of its `{}`, each with its verdict.
fn sweep(template: &str, values: &[(&str, Verdict)]) -> Vec<Case> {
    values
        .iter()
        .map(|&(value, expect)| Case {
            args: words(template, value),
            expect,
            address_space_kib: None,
        })
        .collect()
}

/// The cases of `BASE --OPTION VALUE --out NEW` for each `(value, verdict)`, each run with
/// an output of its own; an option's last value counts, so the one swept overrides BASE's.
fn sweep_with_out(
    base: &str,
    option: &str,
    values: &[(&str, Verdict)],
    new_out: &mut dyn FnMut() -> String,
) -> Vec<Case> {
    let mut cases = sweep(&format!("{base} --{option} {{}}"), values);
    for case in &mut cases {
        case.args.extend(["--out".to_string(), new_out()]);
    }
    cases
}

/// The words of `text` with `value` in place of each `{}`.
fn words(text: &str, value: &str) -> Vec<String> {
    text.split_whitespace()
        .map(|word| word.replace("{}", value))
        .collect()
}

/// Resident memory of process `pid` in KiB (`VmRSS`), 0 once it is gone.
fn resident_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|status| {
            let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
            line.split_whitespace().nth(1)?.parse().ok()
        })
        .unwrap_or(0)
}

/// Runs `case` (its output in `dir`, named by `name`) and judges it: its verdict, or what
/// was wrong with the run.
fn judge(case: &Case, dir: &Path, name: &str) -> Result<Verdict, String> {
    let binary = env!("CARGO_BIN_EXE_rookery");
    let mut command = match case.address_space_kib {
        Some(kib) => {
            let mut sh = Command::new("sh");
            sh.arg("-c")
                .arg(format!("ulimit -v {kib} && exec \"$0\" \"$@\""))
                .arg(binary);
            sh
        }
        None => Command::new(binary),
    };
    let (out_path, err_path) = (
        dir.join(format!("{name}.out")),
        dir.join(format!("{name}.err")),
    );
    let mut child = command
        .args(&case.args)
        // Few malloc arenas: many threads then reserve little address space.
        .env("MALLOC_ARENA_MAX", "2")
        .stdin(Stdio::null())
        .stdout(File::create(&out_path).unwrap())
        .stderr(File::create(&err_path).unwrap())
        .spawn()
        .expect("the binary runs");
    let start = Instant::now();
    let mut peak = 0;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        peak = peak.max(resident_kib(child.id()));
        if peak > MAX_RESIDENT_KIB || start.elapsed() > GRACE {
            let _ = child.kill();
            child.wait().unwrap();
            break None;
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let stdout = std::fs::read(&out_path).unwrap();
    let stderr = String::from_utf8_lossy(&std::fs::read(&err_path).unwrap()).into_owned();
    if peak > MAX_RESIDENT_KIB {
        return Err(format!("took {peak} KiB"));
    }
    match status.map(|s| s.code()) {
        None => Ok(Accepted),
        Some(Some(0)) => Ok(Accepted),
        Some(Some(2)) if stdout.is_empty() && stderr.lines().count() == 1 => Ok(Refused),
        Some(code) => Err(format!(
            "exit {code:?}, {} bytes on stdout, stderr: {}",
            stdout.len(),
            stderr.trim_end()
        )),
    }
}

/// The largest `--games` that `hashstats hive --plies 0` takes, from its refusal of 2^64 - 1
/// (which names it); what went wrong without one.
fn most_hashstats_games(runs: &Path) -> Result<u64, String> {
    let case = Case {
        args: words("hashstats hive --plies 0 --games {}", U64_MAX),
        expect: Refused,
        address_space_kib: None,
    };
    let verdict = judge(&case, runs, "most-games")?;
    let stderr = std::fs::read_to_string(runs.join("most-games.err")).unwrap();
    stderr
        .trim_end()
        .rsplit("at most ")
        .next()
        .and_then(|rest| rest.strip_suffix(" games"))
        .and_then(|n| n.parse().ok())
        .filter(|_| verdict == Refused)
        .ok_or_else(|| format!("{:?}: {verdict:?}, naming no largest count", case.args))
}

/// Every case of every tool; `most_games` is the largest count `hashstats` takes, if it
/// names one.
fn cases(dir: &Path, most_games: Option<u64>) -> Vec<Case> {
    let path = |name: &str| dir.join(name).to_string_lossy().into_owned();
    let data = path("data.bin");
    random_games_data(Path::new(&data), 40, 1);
    let suite = path("suite.epd");
    std::fs::write(
        &suite,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20\n",
    )
    .unwrap();
    let net = common::random_net(Architecture::default(), 1);
    let net_path = path("net.nnue");
    std::fs::write(&net_path, net.to_bytes()).unwrap();
    // The largest percentage that keeps the scaled net's scale within its range.
    let most_percent = (100 * i64::from(*SCALE_RANGE.end()) + 49) / i64::from(net.scale());
    let most_percent = most_percent.to_string();
    let past_percent = (most_percent.parse::<i64>().unwrap() + 1).to_string();
    let mut made = 0;
    let mut new_out = move || {
        made += 1;
        path(&format!("out{made}"))
    };

    let mut all = Vec::new();
    // bench DEPTH: 1 to 30.
    all.extend(sweep(
        "bench {}",
        &[
            ("0", Refused),
            ("1", Accepted),
            ("30", Accepted),
            ("31", Refused),
            (TWO_32, Refused),
            (U64_MAX, Refused),
        ],
    ));
    // perft DEPTH: 0 to 12; --hash MB: 1 to 65536; --max-depth D: 0 to 12 (with a suite of
    // depth-1 counts, so 0 leaves nothing to check).
    let depths = [
        ("0", Accepted),
        ("1", Accepted),
        ("12", Accepted),
        ("13", Refused),
        (TWO_32, Refused),
        (U64_MAX, Refused),
    ];
    all.extend(sweep("perft {}", &depths));
    let tables = [
        ("0", Refused),
        ("1", Accepted),
        ("65537", Refused),
        (TWO_32, Refused),
        (U64_MAX, Refused),
    ];
    all.extend(sweep("perft 1 --hash {}", &tables));
    all.push(Case {
        args: words("perft 1 --hash 65536", ""),
        expect: Refused,
        address_space_kib: Some(TABLE_ADDRESS_SPACE_KIB),
    });
    all.extend(sweep(
        &format!("perft --epd {suite} --max-depth {{}}"),
        &[
            ("0", Refused),
            ("1", Accepted),
            ("12", Accepted),
            ("13", Refused),
            (TWO_32, Refused),
            (U64_MAX, Refused),
        ],
    ));
    // hashcheck --depth D: 0 to 12; --games N: 0 to 2^32 - 1; --plies P: 0 to 10,000;
    // --seed S: any 64-bit number.
    all.extend(sweep("hashcheck --games 0 --depth {}", &depths));
    all.extend(sweep(
        "hashcheck --depth 0 --plies 1 --games {}",
        &[
            ("0", Accepted),
            ("1", Accepted),
            ("4294967295", Accepted),
            (TWO_32, Refused),
            (U64_MAX, Refused),
        ],
    ));
    let plies = [
        ("0", Accepted),
        ("1", Accepted),
        ("10000", Accepted),
        ("10001", Refused),
        (TWO_32, Refused),
        (U64_MAX, Refused),
    ];
    all.extend(sweep("hashcheck --depth 0 --games 1 --plies {}", &plies));
    let seeds = [
        ("0", Accepted),
        ("1", Accepted),
        (TWO_32, Accepted),
        (U64_MAX, Accepted),
        (TWO_64, Refused),
    ];
    all.extend(sweep(
        "hashcheck --depth 0 --games 1 --plies 1 --seed {}",
        &seeds,
    ));
    // hashstats, on Hive's short walks: --games N up to what keeps the samples within their
    // bound; --plies P: 0 to 10,000; --seed S; --mib M: 1 to 65536.
    let (most, past) = most_games.map_or((String::new(), String::new()), |n| {
        (n.to_string(), (n + 1).to_string())
    });
    let mut games = vec![
        ("0", Refused), // no position to measure
        ("1", Accepted),
        (TWO_32, Refused),
        (U64_MAX, Refused),
    ];
    if most_games.is_some() {
        games.extend([(most.as_str(), Accepted), (past.as_str(), Refused)]);
    }
    all.extend(sweep("hashstats hive --plies 0 --mib 1 --games {}", &games));
    all.extend(sweep("hashstats hive --games 1 --mib 1 --plies {}", &plies));
    all.extend(sweep(
        "hashstats hive --games 1 --plies 1 --mib 1 --seed {}",
        &seeds,
    ));
    all.extend(sweep(
        "hashstats hive --games 1 --plies 1 --mib {}",
        &tables,
    ));
    all.push(Case {
        args: words("hashstats hive --games 1 --plies 1 --mib 65536", ""),
        expect: Refused,
        address_space_kib: Some(TABLE_ADDRESS_SPACE_KIB),
    });
    // hashstats chess --depth D: 0 to 5; gomoku --size N: 5 to 32.
    all.extend(sweep(
        "hashstats chess --games 0 --mib 1 --depth {}",
        &[
            ("0", Accepted),
            ("1", Accepted),
            ("5", Accepted),
            ("6", Refused),
            (TWO_32, Refused),
            (U64_MAX, Refused),
        ],
    ));
    let sides = [
        ("0", Refused),
        ("1", Refused),
        ("5", Accepted),
        ("32", Accepted),
        ("33", Refused),
        (TWO_32, Refused),
        (U64_MAX, Refused),
    ];
    all.extend(sweep(
        "hashstats gomoku --games 1 --plies 1 --mib 1 --size {}",
        &sides,
    ));
    // hash gomoku: --size N and each side of --rect WxH, 5 to 32; a move's coordinates
    // within the board.
    all.extend(sweep("hash gomoku --size {}", &sides));
    all.extend(sweep("hash gomoku --rect {}x5", &sides));
    all.extend(sweep("hash gomoku --rect 5x{}", &sides));
    all.extend(sweep(
        "hash gomoku --size 15 {},0",
        &[
            ("0", Accepted),
            ("1", Accepted),
            ("14", Accepted),
            ("15", Refused),
            (TWO_32, Refused),
            (U64_MAX, Refused),
        ],
    ));
    // datagen --nodes N: 1 to a billion; --games G: from 1; --threads T: 1 to 256; --seed
    // S; --random-plies P: 0 to 100. One-node searches make the games short.
    let datagen = "datagen --nodes 1 --games 1";
    let mut more = |base: &str, option: &str, values: &[(&str, Verdict)]| {
        all.extend(sweep_with_out(base, option, values, &mut new_out));
    };
    more(
        datagen,
        "nodes",
        &[
            ("0", Refused),
            ("1", Accepted),
            ("1000000000", Accepted),
            ("1000000001", Refused),
            (TWO_32, Refused),
            (U64_MAX, Refused),
        ],
    );
    more(
        datagen,
        "games",
        &[
            ("0", Refused),
            ("1", Accepted),
            (TWO_32, Accepted),
            (U64_MAX, Accepted),
            (TWO_64, Refused),
        ],
    );
    let threads = [
        ("0", Refused),
        ("1", Accepted),
        ("256", Accepted),
        ("257", Refused),
        (TWO_32, Refused),
        (U64_MAX, Refused),
    ];
    more(datagen, "threads", &threads);
    more(datagen, "seed", &seeds);
    more(
        datagen,
        "random-plies",
        &[
            ("0", Accepted),
            ("1", Accepted),
            ("100", Accepted),
            ("101", Refused),
            (TWO_32, Refused),
            (U64_MAX, Refused),
        ],
    );
    // train, one epoch over 40 random games (four blocks of validation), nothing held out:
    // --epochs E 1 to 10,000; --batch B 1 to 2^20; --lr R above 0 to 1; --wdl W and --val F
    // (0 to 0.5) and --weight-decay D (0 to below 1); --threads T; --seed S; the net's shape.
    let train = format!("train {data} --val 0 --epochs 1");
    more(
        &train,
        "epochs",
        &[
            ("0", Refused),
            ("1", Accepted),
            ("10000", Accepted),
            ("10001", Refused),
            (TWO_32, Refused),
            (U64_MAX, Refused),
        ],
    );
    more(
        &train,
        "batch",
        &[
            ("0", Refused),
            ("1", Accepted),
            ("1048576", Accepted),
            ("1048577", Refused),
            ("1000000000", Refused),
            (TWO_32, Refused),
            (U64_MAX, Refused),
        ],
    );
    more(
        &train,
        "lr",
        &[
            ("0", Refused),
            ("1", Accepted),
            ("2", Refused),
            (TWO_32, Refused),
            (U64_MAX, Refused),
        ],
    );
    let shares = |most: &'static str, past: &'static str| {
        [
            ("0", Accepted),
            (most, Accepted),
            (past, Refused),
            (TWO_32, Refused),
            (U64_MAX, Refused),
        ]
    };
    more(&train, "wdl", &shares("1", "2"));
    more(&train, "val", &shares("0.5", "1"));
    more(&train, "weight-decay", &shares("0.99", "1"));
    more(&train, "threads", &threads);
    more(&train, "seed", &seeds);
    more(
        &train,
        "hidden",
        &[
            ("0", Refused),
            ("1", Refused),
            ("16", Accepted),
            ("1024", Accepted),
            ("1040", Refused),
            (TWO_32, Refused),
            (U64_MAX, Refused),
        ],
    );
    let buckets = [
        ("0", Refused),
        ("1", Accepted),
        ("8", Accepted),
        ("9", Refused),
        (TWO_32, Refused),
        (U64_MAX, Refused),
    ];
    more(&train, "output-buckets", &buckets);
    more(&train, "king-buckets", &buckets);
    // net --scale PCT: what keeps the net's scale within its range.
    more(
        &format!("net {net_path}"),
        "scale",
        &[
            ("0", Refused),
            ("1", Refused),
            (&most_percent, Accepted),
            (&past_percent, Refused),
            (TWO_32, Refused),
            (U64_MAX, Refused),
        ],
    );
    all
}

#[test]
fn every_number_of_every_tool_is_taken_within_bounds_or_refused() {
    let dir = scratch_dir("number-sweep");
    let runs = dir.join("runs");
    std::fs::create_dir(&runs).unwrap();
    let mut wrong = Vec::new();
    let most_games = most_hashstats_games(&runs).map_err(|e| wrong.push(e)).ok();
    let cases = cases(&dir, most_games);
    for (index, case) in cases.iter().enumerate() {
        match judge(case, &runs, &index.to_string()) {
            Ok(verdict) if verdict == case.expect => {}
            Ok(verdict) => wrong.push(format!(
                "{:?}: {verdict:?}, not {:?}",
                case.args, case.expect
            )),
            Err(e) => wrong.push(format!("{:?}: {e}", case.args)),
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {} cases wrong:\n{}",
        wrong.len(),
        cases.len(),
        wrong.join("\n")
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
