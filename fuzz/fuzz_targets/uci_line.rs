//! One UCI command line through the `position`, FEN and `go` parsers.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| rookery::engine::harness::command_line(data));
