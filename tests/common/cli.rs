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

/// Runs `rookery ARGS...`, which must be refused: exit status 2, nothing on stdout and one
/// line on stderr, which it returns.
pub fn refused(args: &[&str]) -> String {
    let run = rookery(args);
    let stderr = String::from_utf8_lossy(&run.stderr).into_owned();
    assert_eq!(run.status.code(), Some(2), "{args:?}: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
    assert!(run.stdout.is_empty(), "{args:?}: {:?}", run.stdout);
    stderr
}
