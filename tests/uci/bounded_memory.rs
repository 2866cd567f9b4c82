//! Every command and option that reads a path, given what is not the file it expects: a
//! device that never ends (`/dev/zero`, `/dev/urandom`), a directory, and a file of 4 GiB
//! (sparse: it costs no disk). Each is refused with a one-line message saying why, before it
//! is read: the tools exit with status 1 or 2, the engine answers `isready` and still
//! searches. Everything runs under a 1 GiB address-space limit, and the engine's resident
//! memory stays far below it. `Hash` resizes under the same limit.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::uci_client::{Engine, WAIT, check_answer};
use rookery::chess::Position;

/// The address-space limit everything runs under, in KiB (`ulimit -v`).
const ADDRESS_SPACE_KIB: u64 = 1 << 20;
/// The most resident memory the engine may have used after a refusal, in KiB: a search,
/// the net and the default table take well under half of it.
const RESIDENT_KIB: u64 = 200 << 10;

/// `rookery` run through a shell that limits its address space first.
fn limited(args: &[&str]) -> Command {
    let mut command = Command::new("sh");
    command
        .arg("-c")
        .arg(format!(
            "ulimit -v {ADDRESS_SPACE_KIB} && exec \"$0\" \"$@\""
        ))
        .arg(env!("CARGO_BIN_EXE_rookery"))
        .args(args);
    command
}

/// A scratch directory holding an empty directory, a 4 GiB sparse file and a directory
/// with a 4 GiB sparse file named as a table.
struct Scratch {
    dir: PathBuf,
}

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = common::scratch_dir(&format!("paths-{name}"));
        std::fs::create_dir_all(dir.join("empty")).unwrap();
        std::fs::create_dir_all(dir.join("tables")).unwrap();
        let huge = 4 << 30;
        std::fs::File::create(dir.join("huge"))
            .unwrap()
            .set_len(huge)
            .unwrap();
        // A table's length is 16 more than a multiple of 64.
        std::fs::File::create(dir.join("tables/KQvK.rtbw"))
            .unwrap()
            .set_len(huge + 16)
            .unwrap();
        Scratch { dir }
    }

    fn path(&self, name: &str) -> String {
        self.dir.join(name).display().to_string()
    }

    /// The paths to try and, for each, words the refusal must contain (any of them).
    fn inputs(&self) -> Vec<(String, &'static [&'static str])> {
        vec![
            (
                "/dev/zero".into(),
                &["not a regular file", "not a directory"],
            ),
            (
                "/dev/urandom".into(),
                &["not a regular file", "not a directory"],
            ),
            (
                self.path("empty"),
                &["a directory", "no records", "no tablebase files"],
            ),
            // Four GiB of zeros: longer than a book may be, not a net or a table.
            (
                self.path("huge"),
                &["more than", "bad magic", "not a directory", "do not fit"],
            ),
        ]
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Peak resident memory of process `pid`, in KiB.
fn peak_resident_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

#[test]
fn every_option_naming_a_file_refuses_devices_directories_and_huge_files() {
    let scratch = Scratch::new("uci");
    let mut e = Engine::start_with(limited(&[]));
    let mut cases: Vec<(&str, String, &[&str])> = Vec::new();
    for option in ["EvalFile", "BookFile"] {
        for (path, says) in scratch.inputs() {
            cases.push((option, path, says));
        }
    }
    for (path, says) in scratch.inputs() {
        cases.push(("SyzygyPath", path, says));
    }
    cases.push((
        "SyzygyPath",
        scratch.path("tables"),
        &["is not a Syzygy table"],
    ));
    for (option, path, says) in &cases {
        e.send(&format!("setoption name {option} value {path}"));
        e.send("isready");
        let lines = e.until(WAIT, |l| l == "readyok");
        assert_eq!(
            lines.len(),
            2,
            "{option} {path}: one line, then readyok: {lines:#?}"
        );
        let refusal = &lines[0];
        assert!(
            refusal.starts_with("info string ") && says.iter().any(|s| refusal.contains(s)),
            "{option} {path}: {refusal}"
        );
        let peak = peak_resident_kib(e.pid());
        assert!(
            peak < RESIDENT_KIB,
            "{option} {path}: {peak} KiB resident at the peak"
        );
    }
    // The debug log only appends: a device or a long file takes it, a directory cannot.
    for (path, _) in scratch.inputs() {
        e.send(&format!("setoption name Debug Log File value {path}"));
        e.send("isready");
        let lines = e.until(WAIT, |l| l == "readyok");
        assert!(lines.len() <= 2, "Debug Log File {path}: {lines:#?}");
        assert!(
            lines[..lines.len() - 1]
                .iter()
                .all(|l| l.starts_with("info string "))
        );
    }
    e.send("setoption name Debug Log File value <empty>");
    // Still an engine: it searches on.
    e.send("position startpos");
    let lines = e.go("depth 6");
    check_answer(&Position::startpos(), &lines);
    let peak = peak_resident_kib(e.pid());
    assert!(peak < RESIDENT_KIB, "{peak} KiB resident at the peak");
}

/// Runs `rookery ARGS` under the limit: it must refuse with status 1 or 2 and one line on
/// stderr containing one of `says`, and write nothing under `out` (if given).
fn assert_refused(args: &[&str], says: &[&str], out: Option<&Path>) {
    let run = limited(args).output().expect("the binary runs");
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(
        matches!(run.status.code(), Some(1 | 2)),
        "{args:?}: {:?} {stderr}",
        run.status
    );
    assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
    assert!(
        says.iter().any(|s| stderr.contains(s)),
        "{args:?}: {stderr}"
    );
    if let Some(out) = out {
        assert!(!out.exists(), "{args:?} made {}", out.display());
    }
}

#[test]
fn every_tool_reading_a_file_refuses_devices_directories_and_huge_files() {
    let scratch = Scratch::new("cli");
    let out = scratch.dir.join("out");
    let net = scratch.dir.join("net.nnue");
    let (o, n) = (out.to_str().unwrap(), net.to_str().unwrap());
    for (path, says) in scratch.inputs() {
        let p = path.as_str();
        for args in [
            &["book", p][..],
            &["perft", "--epd", p],
            &["hashcheck", "--epd", p],
            &["hashstats", "chess", "--epd", p],
            &["datagen", "--out", o, "--net", p],
            &["datagen", "--out", o, "--book", p],
        ] {
            assert_refused(args, says, Some(&out));
        }
        assert_refused(&["train", p, "--out", n], says, Some(&net));
    }
    // Output paths that are not a directory (datagen) or a file (train).
    for path in ["/dev/zero", &scratch.path("huge")] {
        assert_refused(&["datagen", "--out", path], &["cannot create"], None);
    }
    for path in ["/dev/zero", &scratch.path("empty")] {
        let data = scratch.path("huge");
        assert_refused(
            &["train", &data, "--out", path],
            &["directory", "not a regular file"],
            None,
        );
    }
}

#[test]
fn hash_shrinks_and_grows_without_holding_two_tables() {
    let mut e = Engine::start_with(limited(&[]));
    // Under the 1 GiB limit a table of 640 MiB fits, but not beside one of 384 MiB.
    for mib in [640, 384, 640, 16] {
        e.send(&format!("setoption name Hash value {mib}"));
        e.send("isready");
        let lines = e.until(WAIT, |l| l == "readyok");
        assert_eq!(lines, ["readyok"], "Hash {mib}");
    }
    e.send("position startpos");
    let lines = e.go("depth 5");
    check_answer(&Position::startpos(), &lines);
}
