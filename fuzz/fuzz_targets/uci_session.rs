//! Whole command sequences against the engine's state machine.
#![no_main]

#[path = "../harness.rs"]
#[allow(dead_code)] // each target uses one entry point
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| harness::session(data));
