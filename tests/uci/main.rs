//! The UCI engine: the real binary driven through its stdin and stdout as a GUI drives it,
//! every path it and the tools are given that is not the file they expect, and the
//! fuzzers' corpora replayed through the parser and whole sessions.

#[path = "../common/mod.rs"]
mod common;

mod answers;
mod arguments;
mod book;
// Address-space limits (`ulimit -v`) and `/proc/PID/status`: Linux only.
#[cfg(target_os = "linux")]
mod bounded_memory;
mod clock;
mod fuzz_corpus;
mod greeting;
mod malformed;
mod protocol;
mod rules;
