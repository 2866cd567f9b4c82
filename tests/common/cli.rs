//! Running the `rookery` binary's command-line tools from the tests.

use std::process::{Command, Output};

/// Runs `rookery ARGS...` to completion.
pub fn rookery(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rookery"))
        .args(args)
        .output()
        .expect("the binary runs")
}

/// A run's standard output as text.
pub fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("utf-8 output")
}
