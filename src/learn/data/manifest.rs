//! The manifest beside self-play data, `DIR/manifest.jsonl`: one JSON object per line, a
//! `start` line when a datagen run begins and an `end` line when it finishes.
//!
//! The `start` line gives what made the games that follow: the build and its commit, the
//! net's checksum, the search's node limits, seed, threads and openings, and the training
//! positions (`records`) and games already in the directory. The `end` line gives the counts
//! when the run ended. A run that was killed has no `end` line: its games run up to the next
//! `start` line's counts (or to the end of the data). So every game written by a run is
//! accounted for by the `start` line before it; the format is in `docs/net.md`. [`Summary`]
//! reads a manifest back for `rookery data`.

use std::fs::OpenOptions;
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

use crate::input_file;
use crate::json::{JsonObject, JsonValue, parse_flat_object};

/// The manifest's name inside a datagen directory.
pub const MANIFEST_FILE: &str = "manifest.jsonl";

/// Where a run's openings come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpeningSource {
    /// The start position.
    StartPosition,
    /// A file of positions.
    Book {
        /// The path as given.
        path: String,
        /// FNV-1a 64 of the file's bytes.
        checksum: u64,
        /// Playable positions read from it.
        positions: usize,
    },
}

/// What a datagen run was asked to do and what it found, for its `start` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunStart {
    /// Unix time, seconds.
    pub time: u64,
    /// The engine's name and version.
    pub build: String,
    /// The git commit of the build, or `unknown`.
    pub commit: String,
    /// The checksum of the net that evaluates; `None` for the hand-written evaluation.
    pub net: Option<u64>,
    /// Soft node limit of each move's search.
    pub nodes: u64,
    /// Hard node limit of each move's search.
    pub hard_nodes: u64,
    /// The run's seed.
    pub seed: u64,
    /// Generating threads.
    pub threads: usize,
    /// Where the openings come from.
    pub openings: OpeningSource,
    /// Random plies after the opening (one more half the time).
    pub random_plies: usize,
    /// Games the directory is to hold in all; `None` runs until stopped.
    pub games_target: Option<u64>,
    /// Training positions in the directory at the start.
    pub records: u64,
    /// Games in the directory at the start.
    pub games: u64,
}

impl RunStart {
    /// The `start` line, without a line break.
    pub fn line(&self) -> String {
        let (book, checksum, positions) = match &self.openings {
            OpeningSource::StartPosition => (None, None, None),
            OpeningSource::Book {
                path,
                checksum,
                positions,
            } => (
                Some(path.as_str()),
                Some(format!("{checksum:016x}")),
                Some(*positions as u64),
            ),
        };
        let openings = match self.openings {
            OpeningSource::StartPosition => "start position",
            OpeningSource::Book { .. } => "book",
        };
        JsonObject::new()
            .string("event", "start")
            .number("time", self.time)
            .string("build", &self.build)
            .string("commit", &self.commit)
            .optional_string("net", self.net.map(|c| format!("{c:016x}")).as_deref())
            .number("nodes", self.nodes)
            .number("hard_nodes", self.hard_nodes)
            .number("seed", self.seed)
            .number("threads", self.threads as u64)
            .string("openings", openings)
            .optional_string("book", book)
            .optional_string("book_checksum", checksum.as_deref())
            .optional_number("book_positions", positions)
            .number("random_plies", self.random_plies as u64)
            .optional_number("games_target", self.games_target)
            .number("records_start", self.records)
            .number("games_start", self.games)
            .finish()
    }
}

/// How a datagen run ended, for its `end` line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunEnd {
    /// Unix time, seconds.
    pub time: u64,
    /// The `start` line's time.
    pub started: u64,
    /// Training positions in the directory at the start.
    pub records_start: u64,
    /// Training positions in the directory at the end.
    pub records_end: u64,
    /// Games in the directory at the start.
    pub games_start: u64,
    /// Games in the directory at the end.
    pub games_end: u64,
    /// Games not written because this run had written the same game before.
    pub repeats: u64,
}

impl RunEnd {
    /// The `end` line, without a line break.
    pub fn line(&self) -> String {
        JsonObject::new()
            .string("event", "end")
            .number("time", self.time)
            .number("time_start", self.started)
            .number("records_start", self.records_start)
            .number("records_end", self.records_end)
            .number("games_start", self.games_start)
            .number("games_end", self.games_end)
            .number("repeats_skipped", self.repeats)
            .finish()
    }
}

/// The longest manifest: a million runs. `rookery data` reads no longer one, and datagen
/// appends to none.
pub const MAX_MANIFEST_BYTES: u64 = 1 << 30;

/// Appends `line` and a line break to the manifest in `dir`, in one write, after a line
/// break of its own when the manifest's last line has none (a line added by hand without
/// one), so that the line never joins another. A manifest that is not a regular file, or
/// holds [`MAX_MANIFEST_BYTES`] already, is refused.
pub fn append(dir: &Path, line: &str) -> io::Result<()> {
    let mut options = OpenOptions::new();
    options.create(true).append(true).read(true);
    let mut file = input_file::open_writable(&dir.join(MANIFEST_FILE), &options)?;
    let len = file.metadata()?.len();
    if len >= MAX_MANIFEST_BYTES {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("{len} bytes, as long as a manifest may be ({MAX_MANIFEST_BYTES} bytes)"),
        ));
    }
    let mut last = [b'\n'];
    if len > 0 {
        file.seek(SeekFrom::Start(len - 1))?;
        file.read_exact(&mut last)?;
    }
    let apart = if last[0] == b'\n' { "" } else { "\n" };
    file.write_all(format!("{apart}{line}\n").as_bytes())
}

/// Checks the manifest in `dir`, when there is one, as `rookery data` reads it: a manifest
/// it refuses (a line that is not a run's `start` or `end`, a file too long or not text)
/// is refused with the reason, named by its path.
pub fn check(dir: &Path) -> Result<(), String> {
    let path = dir.join(MANIFEST_FILE);
    let in_file = |e: String| format!("{}: {e}", path.display());
    match input_file::read_text(&path, MAX_MANIFEST_BYTES, "a manifest") {
        Ok(text) => Summary::read(&text)
            .map(|_| ())
            .map_err(|e| in_file(e.to_string())),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(in_file(e.to_string())),
    }
}

/// The Unix time now, in seconds.
pub fn unix_now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// What a manifest says of the runs it logs, as `rookery data` prints it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Runs begun (`start` lines).
    pub runs: usize,
    /// Runs that finished (`end` lines).
    pub ended: usize,
    /// The runs' seeds, each once, in order.
    pub seeds: Vec<u64>,
    /// The nets that evaluated (checksums, `hce` for the hand-written evaluation), each
    /// once, in order.
    pub nets: Vec<String>,
    /// The runs' soft node limits, each once, in order.
    pub nodes: Vec<u64>,
    /// The last `end` line's `records_end` and `games_end`.
    pub last_end: Option<(u64, u64)>,
}

/// A manifest line that is not one, at a byte offset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ManifestError {
    /// The line's first byte.
    pub offset: u64,
    /// What is wrong with it.
    pub message: String,
}

impl std::fmt::Display for ManifestError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "byte {}: {}", self.offset, self.message)
    }
}

impl std::error::Error for ManifestError {}

/// Adds `value` to `list` unless it is there.
fn push_new<T: PartialEq>(list: &mut Vec<T>, value: T) {
    if !list.contains(&value) {
        list.push(value);
    }
}

impl Summary {
    /// Reads a manifest's text; a line that is not a `start` or `end` object with its
    /// members is refused at its first byte.
    pub fn read(text: &str) -> Result<Summary, ManifestError> {
        let mut summary = Summary::default();
        let mut offset = 0;
        for line in text.split_inclusive('\n') {
            if !line.trim().is_empty() {
                summary.add(line).map_err(|message| ManifestError {
                    offset: offset as u64,
                    message,
                })?;
            }
            offset += line.len();
        }
        Ok(summary)
    }

    /// Counts one line.
    fn add(&mut self, line: &str) -> Result<(), String> {
        let members = parse_flat_object(line).ok_or("not a flat JSON object")?;
        let get = |key: &str| {
            members
                .iter()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v)
                .ok_or(format!("no '{key}'"))
        };
        let number = |key: &str| match get(key)? {
            JsonValue::Number(n) => Ok(*n),
            _ => Err(format!("'{key}' is not a number")),
        };
        match get("event")? {
            JsonValue::String(e) if e == "start" => {
                self.runs += 1;
                push_new(&mut self.seeds, number("seed")?);
                push_new(&mut self.nodes, number("nodes")?);
                let net = match get("net")? {
                    JsonValue::String(net) => net.clone(),
                    _ => "hce".to_string(),
                };
                push_new(&mut self.nets, net);
            }
            JsonValue::String(e) if e == "end" => {
                self.ended += 1;
                self.last_end = Some((number("records_end")?, number("games_end")?));
            }
            _ => return Err("'event' is neither 'start' nor 'end'".into()),
        }
        Ok(())
    }
}

impl std::fmt::Display for Summary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let list = |items: Vec<String>| {
            if items.is_empty() {
                "none".to_string()
            } else {
                items.join(", ")
            }
        };
        write!(
            f,
            "{} runs ({} ended); seeds {}; nets {}; nodes {}",
            self.runs,
            self.ended,
            list(self.seeds.iter().map(u64::to_string).collect()),
            list(self.nets.clone()),
            list(self.nodes.iter().map(u64::to_string).collect()),
        )?;
        match self.last_end {
            Some((records, games)) => write!(f, "; last records_end {records}, games_end {games}"),
            None => f.write_str("; no run ended"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_name_every_setting_and_count() {
        let start = RunStart {
            time: 1_700_000_000,
            build: "Rookery 0.2.0".into(),
            commit: "unknown".into(),
            net: Some(0xd448_e24d_0dec_3867),
            nodes: 5000,
            hard_nodes: 40_000,
            seed: 8,
            threads: 2,
            openings: OpeningSource::Book {
                path: "b.epd".into(),
                checksum: 0xab,
                positions: 3,
            },
            random_plies: 0,
            games_target: None,
            records: 10,
            games: 1,
        };
        assert_eq!(
            start.line(),
            r#"{"event":"start","time":1700000000,"build":"Rookery 0.2.0","commit":"unknown","net":"d448e24d0dec3867","nodes":5000,"hard_nodes":40000,"seed":8,"threads":2,"openings":"book","book":"b.epd","book_checksum":"00000000000000ab","book_positions":3,"random_plies":0,"games_target":null,"records_start":10,"games_start":1}"#
        );
        let hce = RunStart {
            net: None,
            openings: OpeningSource::StartPosition,
            games_target: Some(4),
            ..start.clone()
        };
        let line = hce.line();
        assert!(line.contains(r#""net":null"#), "{line}");
        assert!(
            line.contains(r#""openings":"start position","book":null"#),
            "{line}"
        );
        assert!(line.contains(r#""games_target":4"#), "{line}");
        let end = RunEnd {
            time: 5,
            started: 4,
            records_start: 10,
            records_end: 30,
            games_start: 1,
            games_end: 3,
            repeats: 1,
        };
        assert_eq!(
            end.line(),
            r#"{"event":"end","time":5,"time_start":4,"records_start":10,"records_end":30,"games_start":1,"games_end":3,"repeats_skipped":1}"#
        );
        // Read back: two runs, one of them ended.
        let text = format!("{}\n{}\n{}\n", start.line(), end.line(), hce.line());
        let summary = Summary::read(&text).unwrap();
        assert_eq!(
            summary.to_string(),
            "2 runs (1 ended); seeds 8; nets d448e24d0dec3867, hce; nodes 5000; \
             last records_end 30, games_end 3"
        );
        let broken = format!("{}\n{{\"event\":\"end\"}}\n", start.line());
        assert_eq!(
            Summary::read(&broken),
            Err(ManifestError {
                offset: start.line().len() as u64 + 1,
                message: "no 'records_end'".into()
            })
        );
        let error = Summary::read("garbage\n").unwrap_err();
        assert_eq!(
            (error.offset, error.message.as_str()),
            (0, "not a flat JSON object")
        );
    }
}
