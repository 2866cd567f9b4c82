//! The greeting: started at a terminal, the engine says on one line who it is and that `help`
//! lists its commands; started by a GUI (input from a pipe) it says nothing unasked.

use std::io::Write;
use std::process::{Command, Stdio};

use crate::common;

/// What the engine prints for `isready` and `quit`, its input a pipe or, through `script`
/// (util-linux), a terminal.
fn answers(at_a_terminal: bool) -> String {
    let binary = env!("CARGO_BIN_EXE_rookery");
    let mut command = if at_a_terminal {
        let mut script = Command::new("script");
        script.args(["-qec", binary, "/dev/null"]);
        script
    } else {
        Command::new(binary)
    };
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the engine (and util-linux's script) run");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"isready\nquit\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    String::from_utf8_lossy(&out.stdout).replace('\r', "")
}

#[test]
fn a_terminal_is_greeted_with_the_name_and_help_and_a_pipe_is_not() {
    let name = common::build_name::engine_name();
    let terminal = answers(true);
    let greeting = terminal
        .lines()
        .find(|line| line.starts_with(&name))
        .unwrap_or_else(|| panic!("no greeting: {terminal}"));
    assert!(greeting.contains("'help'"), "{greeting}");
    assert!(terminal.lines().any(|line| line == "readyok"), "{terminal}");
    assert_eq!(answers(false), "readyok\n");
}
