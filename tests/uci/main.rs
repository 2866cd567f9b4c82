//! The UCI engine: the real binary driven through its stdin and stdout as a GUI drives it,
//! and the fuzzers' corpora replayed through the parser and whole sessions.

#[path = "../common/mod.rs"]
mod common;

mod answers;
mod book;
mod clock;
mod fuzz_corpus;
mod malformed;
mod protocol;
mod rules;
