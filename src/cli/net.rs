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
//! with exit status 2 before anything is written.

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
            std::fs::write(out, scaled.to_bytes())
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
