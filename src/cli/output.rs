//! The tools' standard output. Every result line goes through [`out!`]: when the reader
//! has closed its end (`rookery data DIR | head -1`), the tool stops at once and in
//! silence, with exit status 141, the status a shell reports for a program that SIGPIPE
//! stopped; any other failure to write is one line on stderr and exit status 1.
//!
//! Lines for a person on the way (progress, notes) go to stderr through [`note!`]: a
//! stderr that cannot be written (its reader gone) drops them, and the tool goes on.

use std::fmt;
use std::io::{self, Write};
use std::time::Duration;

/// The exit status of a tool whose standard output was closed: 128 + SIGPIPE (13).
pub const CLOSED_STDOUT_STATUS: i32 = 141;

/// Writes `text` to stdout and flushes it; a failure ends the process (see the module).
pub fn write_stdout(text: fmt::Arguments) {
    let written = {
        let mut stdout = io::stdout().lock();
        stdout.write_fmt(text).and_then(|()| stdout.flush())
    };
    if let Err(e) = written {
        if e.kind() == io::ErrorKind::BrokenPipe {
            std::process::exit(CLOSED_STDOUT_STATUS);
        }
        eprintln!("rookery: cannot write to standard output: {e}");
        std::process::exit(1);
    }
}

/// Writes `text` to stderr; a failure to write drops it (see the module).
pub fn write_stderr(text: fmt::Arguments) {
    let _ = io::stderr().lock().write_fmt(text);
}

/// `eprintln!` for the tools' progress and notes: a closed stderr drops them quietly (see
/// the module).
macro_rules! note {
    ($($arg:tt)*) => {
        $crate::cli::output::write_stderr(format_args!("{}\n", format_args!($($arg)*)))
    };
}

pub(crate) use note;

/// `println!` for the tools' results: a closed stdout ends the run quietly (see the
/// module).
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::cli::output::write_stdout(format_args!("{}\n", format_args!($($arg)*)))
    };
}

pub(crate) use out;

/// Nodes per second, 0 for an instant run.
pub fn nps(nodes: u64, elapsed: Duration) -> u64 {
    let secs = elapsed.as_secs_f64();
    if secs > 0.0 {
        (nodes as f64 / secs) as u64
    } else {
        0
    }
}
