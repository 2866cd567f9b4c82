//! Structured logs through `tracing`: to stderr (level from `RUST_LOG`) or to a file chosen
//! at run time (the UCI option `Debug Log File`), never to stdout, which belongs to the
//! protocol and the tools' output. `RUST_LOG` names one level for all of Rookery's logs
//! (`error`, `warn`, `info`, `debug`, `trace` or `off`; a `target=level` directive counts by
//! its level).

use std::fs::File;
use std::io::{self, Write};
use std::sync::{Mutex, Once, OnceLock};

use tracing_subscriber::filter::LevelFilter;
use tracing_subscriber::fmt::MakeWriter;
use tracing_subscriber::prelude::*;
use tracing_subscriber::reload;

static INIT: Once = Once::new();
/// The log file, when one is set; stderr otherwise.
static LOG_FILE: Mutex<Option<File>> = Mutex::new(None);
/// Changes the level filter after start-up.
static FILTER: OnceLock<reload::Handle<LevelFilter, tracing_subscriber::Registry>> =
    OnceLock::new();

/// Installs the global subscriber once: stderr, filtered by `RUST_LOG` (off when unset).
pub fn init() {
    INIT.call_once(|| {
        let (filter, handle) = reload::Layer::new(env_filter());
        let layer = tracing_subscriber::fmt::layer()
            .with_writer(Sink)
            .with_ansi(false);
        // A global subscriber set elsewhere (a test harness's) is not worth failing over.
        if tracing_subscriber::registry()
            .with(filter)
            .with(layer)
            .try_init()
            .is_ok()
        {
            let _ = FILTER.set(handle);
        }
    });
}

/// The level `RUST_LOG` names, off when it is unset or names none.
fn env_filter() -> LevelFilter {
    std::env::var("RUST_LOG")
        .ok()
        .and_then(|value| level_named(&value))
        .unwrap_or(LevelFilter::OFF)
}

/// The level a `RUST_LOG` value names: a level alone, or the level of its last
/// `target=level` directive.
fn level_named(value: &str) -> Option<LevelFilter> {
    let directive = value.rsplit(',').next()?.trim();
    let level = directive.rsplit('=').next()?.trim();
    level.parse().ok()
}

/// Sends logs to `path` (appending), or back to stderr when `path` is empty. Logging to a
/// file turns debug logs on unless `RUST_LOG` says otherwise.
pub fn set_log_file(path: &str) -> io::Result<()> {
    let file = if path.is_empty() {
        None
    } else {
        Some(File::options().create(true).append(true).open(path)?)
    };
    let enable = file.is_some();
    *LOG_FILE.lock().unwrap_or_else(|e| e.into_inner()) = file;
    if let Some(handle) = FILTER.get() {
        let filter = match std::env::var("RUST_LOG") {
            Ok(_) => env_filter(),
            Err(_) if enable => LevelFilter::DEBUG,
            Err(_) => LevelFilter::OFF,
        };
        let _ = handle.reload(filter);
    }
    Ok(())
}

/// Writes each log record to the log file if set, else to stderr.
struct Sink;

impl<'a> MakeWriter<'a> for Sink {
    type Writer = SinkWriter;
    fn make_writer(&'a self) -> SinkWriter {
        SinkWriter
    }
}

struct SinkWriter;

impl Write for SinkWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match LOG_FILE.lock().unwrap_or_else(|e| e.into_inner()).as_mut() {
            Some(file) => file.write(buf),
            None => io::stderr().write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match LOG_FILE.lock().unwrap_or_else(|e| e.into_inner()).as_mut() {
            Some(file) => file.flush(),
            None => io::stderr().flush(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rust_log_names_a_level_alone_or_by_its_last_directive() {
        assert_eq!(level_named("debug"), Some(LevelFilter::DEBUG));
        assert_eq!(level_named("OFF"), Some(LevelFilter::OFF));
        assert_eq!(level_named("rookery=trace"), Some(LevelFilter::TRACE));
        assert_eq!(level_named("warn,rookery=info"), Some(LevelFilter::INFO));
        assert_eq!(level_named("loud"), None);
    }
}
