//! Running the `rookery` binary's command-line tools from the tests.

use std::process::{Command, Output, Stdio};

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

/// Which of a run's output streams goes to a pipe nobody reads.
pub enum Closed {
    /// Standard output.
    Stdout,
    /// Standard error.
    Stderr,
}

/// Runs `rookery ARGS...` with no input, the `closed` stream written into a pipe whose
/// reading end is closed before the tool starts (its first write there fails) and the other
/// stream captured.
pub fn rookery_closed(closed: Closed, args: &[&str]) -> Output {
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    let mut command = Command::new(env!("CARGO_BIN_EXE_rookery"));
    command.args(args).stdin(Stdio::null());
    match closed {
        Closed::Stdout => command.stdout(writer).stderr(Stdio::piped()),
        Closed::Stderr => command.stdout(Stdio::piped()).stderr(writer),
    };
    command.output().expect("the binary runs")
}

/// Runs `rookery ARGS...` with no input and its address space limited to `kib` KiB
/// (`ulimit -v`).
pub fn rookery_in_memory(kib: u64, args: &[&str]) -> Output {
    Command::new("sh")
        .arg("-c")
        .arg(format!(r#"ulimit -v {kib} && exec "$@""#))
        .arg("sh")
        .arg(env!("CARGO_BIN_EXE_rookery"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("the shell runs")
}
