//! Every file the tools open, to read or to write, made into what it should not be: a link
//! to a device (`/dev/zero`, `/dev/urandom`, `/dev/null`), a named pipe, a directory, and
//! (for a file the tool reads) a file of 4 GiB, longer than any limit (sparse: it costs no
//! disk). Each run is refused with one line on stderr naming the file, exit status 1 or 2,
//! within a few seconds, under a 1 GiB address-space limit. A long opening book or EPD
//! suite is read under the same limit.
#![cfg(target_os = "linux")]

use crate::common;

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// The address-space limit every run has, in KiB (`ulimit -v`).
const ADDRESS_SPACE_KIB: u64 = 1 << 20;
/// The longest a refusal may take.
const REFUSAL_TIME: Duration = Duration::from_secs(5);
/// The sparse file's length: beyond every limit the tools set, and beyond the memory the
/// limit leaves for a data file read whole.
const HUGE_BYTES: u64 = 4 << 30;

/// What a run printed and how it ended, or `None` when it had to be killed.
struct Run {
    status: Option<ExitStatus>,
    stderr: String,
}

/// Runs `rookery ARGS` under the address-space limit, killed after `within`. Its output
/// goes to files in `dir`, so nothing waits on a full pipe.
fn limited(dir: &Path, args: &[&str], within: Duration) -> Run {
    let (out_path, err_path) = (dir.join("run.stdout"), dir.join("run.stderr"));
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v {ADDRESS_SPACE_KIB} && exec \"$0\" \"$@\""
        ))
        .arg(env!("CARGO_BIN_EXE_rookery"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(File::create(&out_path).unwrap())
        .stderr(File::create(&err_path).unwrap())
        .spawn()
        .expect("the binary runs");
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if started.elapsed() > within {
            child.kill().unwrap();
            child.wait().unwrap();
            break None;
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    Run {
        status,
        stderr: std::fs::read_to_string(&err_path).unwrap(),
    }
}

/// What a file can be made into.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Zero,
    Random,
    Null,
    Pipe,
    Directory,
    Huge,
}

const KINDS: [Kind; 6] = [
    Kind::Zero,
    Kind::Random,
    Kind::Null,
    Kind::Pipe,
    Kind::Directory,
    Kind::Huge,
];

/// Makes `path` into `kind`, replacing what was there.
fn make(path: &Path, kind: Kind) {
    if path.is_dir() {
        std::fs::remove_dir_all(path).unwrap();
    } else if path.symlink_metadata().is_ok() {
        std::fs::remove_file(path).unwrap();
    }
    match kind {
        Kind::Zero => std::os::unix::fs::symlink("/dev/zero", path).unwrap(),
        Kind::Random => std::os::unix::fs::symlink("/dev/urandom", path).unwrap(),
        Kind::Null => std::os::unix::fs::symlink("/dev/null", path).unwrap(),
        Kind::Pipe => {
            let made = Command::new("mkfifo").arg(path).status().unwrap();
            assert!(made.success(), "mkfifo {}", path.display());
        }
        Kind::Directory => std::fs::create_dir(path).unwrap(),
        Kind::Huge => File::create(path).unwrap().set_len(HUGE_BYTES).unwrap(),
    }
}

/// One file a tool opens: the command line that opens it, with `{}` for the file's path
/// when the file is named on it.
struct Slot {
    /// The file.
    file: PathBuf,
    /// The command line.
    args: Vec<String>,
    /// Whether the tool reads the file (an oversized one is then tried too); a file the tool
    /// only replaces may be of any length.
    read: bool,
    /// The copy of the data directory the file is in, made afresh for each try.
    copy: Option<&'static str>,
}

/// The scratch directory with good inputs: a game file, a net, an EPD, and a data
/// directory made by datagen.
struct Scratch {
    dir: PathBuf,
}

impl Scratch {
    fn new() -> Scratch {
        let dir = common::scratch_dir("paths-sweep");
        let scratch = Scratch { dir };
        let made = limited(
            &scratch.dir,
            &[
                "datagen",
                "--out",
                &scratch.path("data"),
                "--games",
                "2",
                "--nodes",
                "100",
                "--hce",
            ],
            Duration::from_secs(120),
        );
        assert_eq!(
            made.status.and_then(|s| s.code()),
            Some(0),
            "{}",
            made.stderr
        );
        std::fs::write(
            scratch.dir.join("good.epd"),
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - ;D1 20\n",
        )
        .unwrap();
        let net = common::random_net(Default::default(), 1);
        std::fs::write(scratch.dir.join("good.nnue"), net.to_bytes()).unwrap();
        scratch
    }

    fn path(&self, name: &str) -> String {
        self.dir.join(name).display().to_string()
    }

    /// A fresh directory `name` holding a copy of the good data directory's files.
    fn data_copy(&self, name: &str) -> PathBuf {
        let copy = self.dir.join(name);
        let _ = std::fs::remove_dir_all(&copy);
        std::fs::create_dir(&copy).unwrap();
        for entry in std::fs::read_dir(self.dir.join("data")).unwrap() {
            let entry = entry.unwrap();
            std::fs::copy(entry.path(), copy.join(entry.file_name())).unwrap();
        }
        copy
    }

    /// Every file the tools open, each in a place of its own.
    fn slots(&self) -> Vec<Slot> {
        let words = |list: &[&str]| list.iter().map(|w| w.to_string()).collect::<Vec<_>>();
        let named = |name: &str, args: &[&str]| Slot {
            file: self.dir.join(name),
            args: words(args),
            read: true,
            copy: None,
        };
        let good_data = self.path("data/selfplay.games");
        let out = self.path("out");
        let net = self.path("net.nnue");
        let mut slots = vec![
            named("book.bin", &["book", "{}"]),
            named("suite.epd", &["perft", "--epd", "{}"]),
            named("suite.epd", &["hashcheck", "--epd", "{}", "--depth", "1"]),
            named("suite.epd", &["hashstats", "chess", "--epd", "{}"]),
            named("openings.epd", &["datagen", "--out", &out, "--book", "{}"]),
            named("eval.nnue", &["datagen", "--out", &out, "--net", "{}"]),
            named("data.games", &["data", "{}"]),
            named("data.games", &["train", "{}", "--out", &net]),
            named(
                "init.nnue",
                &["train", &good_data, "--out", &net, "--init", "{}"],
            ),
        ];
        // Files inside a data directory: the game file, the older file of records and
        // the manifest, for datagen appending to them and `data` and `train` reading them.
        for (dir, name) in [
            ("gen-games", "selfplay.games"),
            ("gen-records", "selfplay.bin"),
            ("gen-manifest", "manifest.jsonl"),
        ] {
            let copy = self.data_copy(dir);
            let args = [
                "datagen",
                "--out",
                copy.to_str().unwrap(),
                "--games",
                "3",
                "--nodes",
                "20",
                "--hce",
            ];
            slots.push(Slot {
                file: copy.join(name),
                args: words(&args),
                read: true,
                copy: Some(dir),
            });
        }
        for (dir, name, tool) in [
            ("data-manifest", "manifest.jsonl", "data"),
            ("data-games", "more.games", "data"),
            ("train-games", "more.games", "train"),
        ] {
            let copy = self.data_copy(dir);
            let mut args = vec![tool, copy.to_str().unwrap()];
            if tool == "train" {
                args.extend(["--out", &net]);
            }
            slots.push(Slot {
                file: copy.join(name),
                args: words(&args),
                read: true,
                copy: Some(dir),
            });
        }
        // The files train writes: the net, the checkpoint (read on a resume), the
        // temporaries and the lock.
        let train = |extra: &[&str]| {
            let mut args = words(&["train", &good_data, "--out", &net, "--epochs", "1"]);
            args.extend(words(extra));
            args
        };
        slots.push(Slot {
            file: self.dir.join("net.nnue.ckpt"),
            args: train(&["--resume"]),
            read: true,
            copy: None,
        });
        slots.push(Slot {
            file: self.dir.join("net.nnue.ckpt"),
            args: train(&[]),
            read: false,
            copy: None,
        });
        for name in ["net.nnue.tmp", "net.nnue.ckpt.tmp", "net.nnue.lock"] {
            slots.push(Slot {
                file: self.dir.join(name),
                args: train(&[]),
                read: false,
                copy: None,
            });
        }
        slots.push(Slot {
            file: self.dir.join("written.nnue"),
            args: words(&["train", &good_data, "--out", "{}", "--epochs", "1"]),
            read: false,
            copy: None,
        });
        slots
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

#[test]
fn every_file_a_tool_opens_is_refused_as_a_device_pipe_directory_or_huge_file() {
    let scratch = Scratch::new();
    let out = scratch.dir.join("out");
    let net = scratch.dir.join("net.nnue");
    // What train writes beside its net: none is left from one try to the next.
    let train_files = [
        "net.nnue",
        "net.nnue.ckpt",
        "net.nnue.tmp",
        "net.nnue.ckpt.tmp",
        "net.nnue.lock",
    ];
    let mut failures = Vec::new();
    let mut runs = 0;
    for slot in scratch.slots() {
        for kind in KINDS {
            if kind == Kind::Huge && !slot.read {
                continue;
            }
            // Each try starts from the same files: a run that should have been refused and
            // was not changes nothing for the next.
            let _ = std::fs::remove_dir_all(&out);
            for name in train_files {
                let _ = std::fs::remove_file(scratch.dir.join(name));
            }
            if let Some(copy) = slot.copy {
                scratch.data_copy(copy);
            }
            make(&slot.file, kind);
            let file = slot.file.display().to_string();
            let args: Vec<String> = slot.args.iter().map(|a| a.replace("{}", &file)).collect();
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let run = limited(&scratch.dir, &args, REFUSAL_TIME);
            runs += 1;
            let name = slot.file.file_name().unwrap().to_str().unwrap();
            let problem = match run.status.map(|s| s.code()) {
                None => Some("hung: killed after 5 s".to_string()),
                Some(code) if !matches!(code, Some(1 | 2)) => Some(format!("exit {code:?}")),
                Some(_) if run.stderr.lines().count() != 1 => {
                    Some("not one line on stderr".to_string())
                }
                Some(_) if !run.stderr.contains(name) => Some("the file is not named".into()),
                Some(_) if out.exists() || net.exists() => Some("an output was made".into()),
                Some(_) => None,
            };
            if let Some(problem) = problem {
                failures.push(format!(
                    "{args:?} with {name} as {kind:?}: {problem}: {}",
                    run.stderr.trim_end()
                ));
            }
        }
        if slot.file.is_dir() {
            std::fs::remove_dir_all(&slot.file).unwrap();
        } else {
            std::fs::remove_file(&slot.file).unwrap();
        }
    }
    assert!(runs > 100, "{runs} runs");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_long_book_or_suite_is_read_under_the_memory_limit() {
    let dir = common::scratch_dir("paths-long-book");
    // 60,000 openings, about 3.6 MB: each was once a searchable position with a stack of
    // 84 KiB, 5 GB in all. (`hashstats chess --epd` reads its suite as hashcheck does; its
    // own statistics take half a minute, too long to run here.)
    let lines = [
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - ;D1 20",
        "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - ;D1 20",
        "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - ;D1 20",
    ];
    let text: String = (0..60_000).map(|i| format!("{}\n", lines[i % 3])).collect();
    let book = dir.join("long.epd");
    std::fs::write(&book, text).unwrap();
    let b = book.to_str().unwrap();
    let out = dir.join("out");
    let mut failures = Vec::new();
    for args in [
        &[
            "datagen",
            "--out",
            out.to_str().unwrap(),
            "--book",
            b,
            "--games",
            "1",
            "--nodes",
            "50",
            "--hce",
        ][..],
        &["hashcheck", "--epd", b, "--depth", "0", "--games", "1"],
    ] {
        let run = limited(&dir, args, Duration::from_secs(120));
        if run.status.and_then(|s| s.code()) != Some(0) {
            failures.push(format!(
                "{args:?}: {:?} {}",
                run.status,
                run.stderr.trim_end()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    std::fs::remove_dir_all(&dir).unwrap();
}
