//! One UCI command line through the `position`, FEN and `go` parsers.
#![no_main]

#[path = "../harness.rs"]
#[allow(dead_code)] // each target uses one entry point
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| harness::command_line(data));
