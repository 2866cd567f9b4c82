//! Whole command sequences against the engine's state machine.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| rookery::engine::harness::session(data));
