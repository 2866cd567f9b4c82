//! `rookery net NET [--epd FILE] [--scale PCT --out OUT]`: a net file's checksum and shape,
//! how far from 0 its scores run over a suite's positions, and a copy of it with every score
//! scaled (see [`rookery::engine::eval::nnue::calibration`]). One line each on stdout:
//!
//! ```text
//! <NET>: checksum <16 hex digits>, <shape>, <S> cp per output unit
//! <NET>: mean |evaluation| <cp, 2 decimals> over <N> positions of <FILE>   (with --epd)
//! <OUT>: checksum <16 hex digits>, <shape>, <S> cp per output unit, <NET>'s scores scaled to <PCT>%
//! <OUT>: mean |evaluation| ...                                            (with --epd)
//! ```
//!
//! A net that does not load, a suite that does not parse, a factor out of range, `--scale`
//! without `--out` (or the other way round) and an `--out` that already exists are refused
//! with exit status 2 before anything is written. The scaled net is written beside `OUT`
//! and renamed to it once whole: a write that fails leaves no `OUT`.

use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use shakmaty::Chess;

use super::args::{Args, UsageError};
use super::output::out;
use super::{Outcome, epd_roots};
use rookery::engine::eval::nnue::Network;
use rookery::engine::eval::nnue::calibration::mean_absolute_evaluation;

/// Usage text.
pub const USAGE: &str = "usage: rookery net NET [--epd FILE] [--scale PCT --out OUT]   \
a net's checksum and shape, its mean |evaluation| over FILE, a copy with its scores scaled";

/// Runs `rookery net` with the words after `net`.
pub fn run(words: &[String]) -> Result<Outcome, UsageError> {
    let args = Args::parse(words, &["epd", "scale", "out"], &[])?;
    let [net_path] = args.positional.as_slice() else {
        return Err(UsageError(USAGE.to_string()));
    };
    let scaling = match (args.value::<u32>("scale")?, args.value::<PathBuf>("out")?) {
        (Some(percent), Some(out)) => Some((percent, out)),
        (None, None) => None,
        _ => {
            return Err(UsageError(
                "--scale and --out go together: the scaled net needs a file".to_string(),
            ));
        }
    };
    let net = Network::read_file(Path::new(net_path))
        .map_err(|e| UsageError(format!("{net_path}: {e}")))?;
    let suite = match args.value::<PathBuf>("epd")? {
        Some(_) => {
            let (roots, name) = epd_roots(&args)?;
            let positions: Vec<Chess> = roots
                .iter()
                .map(|root| root.position().chess().clone())
                .collect();
            Some((positions, name))
        }
        None => None,
    };
    let scaled = match &scaling {
        Some((percent, out)) => {
            if out.exists() {
                return Err(UsageError(format!(
                    "{}: already exists; the scaled net goes to a new file",
                    out.display()
                )));
            }
            let scaled = net
                .with_scale_percent(*percent)
                .map_err(|e| UsageError(format!("{net_path}: {e}")))?;
            write_new_file(out, &scaled.to_bytes())
                .map_err(|e| UsageError(format!("{}: cannot write it: {e}", out.display())))?;
            Some((scaled, *percent, out.display().to_string()))
        }
        None => None,
    };
    report(net_path, &net, "", suite.as_ref());
    if let Some((scaled, percent, out)) = &scaled {
        let origin = format!(", {net_path}'s scores scaled to {percent}%");
        report(out, scaled, &origin, suite.as_ref());
    }
    Ok(Outcome::Success)
}

/// Writes `bytes` to the new file `out` whole or not at all: into a temporary file beside
/// it (in the same directory, so on the same file system), renamed to `out` once written
/// and synced. A write that fails (a full disk, a file size limit) takes its temporary file
/// with it and leaves no `out`, so the same command can be run again.
fn write_new_file(out: &Path, bytes: &[u8]) -> io::Result<()> {
    let name = out
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "not the name of a file"))?;
    let temporary = out.with_file_name(format!(
        ".{}.{}.tmp",
        name.to_string_lossy(),
        std::process::id()
    ));
    let written = File::create_new(&temporary).and_then(|mut file| {
        file.write_all(bytes)?;
        file.sync_all()
    });
    written
        .and_then(|()| std::fs::rename(&temporary, out))
        .inspect_err(|_| {
            let _ = std::fs::remove_file(&temporary);
        })
}

/// Prints the lines of one net: its checksum and shape (then `origin`), and its mean
/// absolute evaluation over the suite when one is given.
fn report(name: &str, net: &Network, origin: &str, suite: Option<&(Vec<Chess>, String)>) {
    out!(
        "{name}: checksum {:016x}, {}, {} cp per output unit{origin}",
        net.checksum(),
        net.architecture(),
        net.scale()
    );
    if let Some((positions, suite_name)) = suite
        && let Some(mean) = mean_absolute_evaluation(net, positions)
    {
        out!(
            "{name}: mean |evaluation| {mean:.2} cp over {} positions of {suite_name}",
            positions.len()
        );
    }
}
