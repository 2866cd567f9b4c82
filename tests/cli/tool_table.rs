//! The tools `rookery help` lists (the binary's one list, `COMMANDS`) against the tool table
//! of `docs/tools.md`: every tool has one row, and every row names a tool. A tool added
//! without its row, or a row left for a tool that is gone, fails here. Then what every tool
//! answers to `--help`, options written `--name=value`, and stray arguments.

use crate::common;
use common::cli::{refused, rookery, stdout};
use common::markdown::{cells, page};
use common::scratch_dir;

/// The page that holds the tool table.
const DOC: &str = "docs/tools.md";

/// The tools `rookery help` lists: the first word of each line under `tools:`.
fn listed_tools() -> Vec<String> {
    let out = rookery(&["help"]);
    assert!(out.status.success());
    let text = stdout(&out);
    let tools: Vec<String> = text
        .lines()
        .skip_while(|line| *line != "tools:")
        .skip(1)
        .take_while(|line| line.starts_with("  "))
        .filter_map(|line| line.split_whitespace().next())
        .map(str::to_string)
        .collect();
    assert!(!tools.is_empty(), "no tools listed:\n{text}");
    tools
}

/// The tool a row's first cell names: the second word of each of its code spans that start
/// with `rookery`, which must all name the same tool.
fn row_tool(line: &str) -> Result<String, String> {
    let first = cells(line).into_iter().next().unwrap_or_default();
    let mut names: Vec<String> = first
        .split('`')
        .skip(1)
        .step_by(2)
        .filter_map(|span| span.strip_prefix("rookery "))
        .filter_map(|rest| rest.split_whitespace().next())
        .map(str::to_string)
        .collect();
    names.dedup();
    match names.as_slice() {
        [name] => Ok(name.clone()),
        [] => Err(format!("a row names no tool: {line}")),
        _ => Err(format!("a row names {names:?}: {line}")),
    }
}

/// The tools of the table whose header is `| command | what it does | more |`, a row each.
fn table_tools(page: &str) -> Result<Vec<String>, String> {
    let mut lines = page
        .lines()
        .skip_while(|line| cells(line) != ["command", "what it does", "more"]);
    lines
        .next()
        .ok_or("no `| command | what it does | more |` table")?;
    lines
        .skip(1) // the `| --- |` line
        .take_while(|line| line.starts_with('|'))
        .map(row_tool)
        .collect()
}

/// Every difference between the table's tools and the listed ones, both ways; empty when
/// they agree.
fn differences(rows: &[String], tools: &[String]) -> Vec<String> {
    let mut found = Vec::new();
    for tool in tools {
        match rows.iter().filter(|row| *row == tool).count() {
            0 => found.push(format!("`{tool}` has no row in the table")),
            1 => {}
            n => found.push(format!("`{tool}` has {n} rows")),
        }
    }
    for row in rows {
        if !tools.contains(row) {
            found.push(format!("the table's `{row}` is not a tool"));
        }
    }
    found
}

#[test]
fn the_tool_table_of_the_docs_matches_the_tools_the_binary_lists() {
    let rows = table_tools(&page(DOC)).unwrap_or_else(|e| panic!("{DOC}: {e}"));
    let found = differences(&rows, &listed_tools());
    assert!(
        found.is_empty(),
        "{DOC}'s tool table and `rookery help` (COMMANDS, src/cli/mod.rs) differ:\n{}",
        found.join("\n")
    );
}

#[test]
fn a_drifted_table_is_caught_both_ways() {
    let tools = listed_tools();
    let mut rows = tools.clone();
    assert_eq!(differences(&rows, &tools), Vec::<String>::new());
    // A tool added without its row, and a row of a tool that is gone.
    let mut more = tools.clone();
    more.push("newtool".to_string());
    rows.push("oldtool".to_string());
    let found = differences(&rows, &more);
    assert_eq!(
        found,
        [
            "`newtool` has no row in the table",
            "the table's `oldtool` is not a tool"
        ]
    );
    // Rows are read as the table writes them.
    let row = |line| row_tool(line);
    assert_eq!(
        row("| `rookery bench [DEPTH]` | x | y |"),
        Ok("bench".into())
    );
    assert_eq!(
        row("| `rookery perft DEPTH`, `rookery perft --epd FILE` | x | |"),
        Ok("perft".into())
    );
    assert!(row("| `rookery perft 1`, `rookery hash hive` | x | |").is_err());
    assert!(row("| `tools/ci/release.sh` | x | |").is_err());
}

#[test]
fn every_tool_answers_help_with_its_usage_and_exits_0() {
    for tool in listed_tools() {
        let mut answers = Vec::new();
        for args in [
            vec![tool.as_str(), "--help"],
            vec![tool.as_str(), "-h"],
            vec!["help", tool.as_str()],
        ] {
            let out = rookery(&args);
            assert_eq!(out.status.code(), Some(0), "{args:?}");
            assert!(out.stderr.is_empty(), "{args:?}");
            let usage = stdout(&out);
            assert!(
                usage.starts_with(&format!("usage: rookery {tool}")),
                "{args:?}: {usage}"
            );
            answers.push(usage);
        }
        assert!(
            answers.windows(2).all(|w| w[0] == w[1]),
            "{tool}: {answers:#?}"
        );
    }
    // `--help` anywhere on the line wins over the rest, which is not read.
    let out = rookery(&["perft", "x", "--help"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(stdout(&out).starts_with("usage: rookery perft"));
}

#[test]
fn an_option_takes_its_value_after_an_equals_sign_as_after_a_space() {
    let suite = concat!(env!("CARGO_MANIFEST_DIR"), "/perft/published.epd");
    for (spaced, joined) in [
        (
            &["perft", "--epd", suite, "--max-depth", "2", "--hash", "4"][..],
            vec![
                "perft".to_string(),
                format!("--epd={suite}"),
                "--max-depth=2".to_string(),
                "--hash=4".to_string(),
            ],
        ),
        (
            &[
                "hashcheck",
                "--depth",
                "2",
                "--games",
                "3",
                "--plies",
                "20",
                "--seed",
                "9",
            ],
            [
                "hashcheck",
                "--depth=2",
                "--games=3",
                "--plies=20",
                "--seed=9",
            ]
            .map(String::from)
            .to_vec(),
        ),
        (
            &["hash", "gomoku", "--size", "9", "4,4", "0,8"],
            ["hash", "gomoku", "--size=9", "4,4", "0,8"]
                .map(String::from)
                .to_vec(),
        ),
    ] {
        let joined: Vec<&str> = joined.iter().map(String::as_str).collect();
        let (a, b) = (rookery(spaced), rookery(&joined));
        assert!(a.status.success(), "{spaced:?}");
        assert!(b.status.success(), "{joined:?}");
        assert_eq!(stdout(&a), stdout(&b), "{joined:?}");
        assert!(!stdout(&a).is_empty());
    }
    // A switch takes no value.
    refused(&["perft", "1", "--chess960=yes"]);
}

#[test]
fn stray_arguments_are_refused_in_one_line_and_nothing_is_written() {
    let dir = scratch_dir("stray-arguments");
    let path = |name: &str| dir.join(name).to_string_lossy().into_owned();
    let suite = concat!(env!("CARGO_MANIFEST_DIR"), "/perft/published.epd");
    let cases: Vec<Vec<String>> = [
        vec!["--version", "extra"],
        vec!["help", "perft", "bench"],
        vec!["help", "frobnicate"],
        vec!["frobnicate"],
        vec!["bench", "2", "extra"],
        vec!["spsa", "extra"],
        vec!["perft", "1", "--max-depth", "1"],
        vec!["perft", "--epd", suite, "extra"],
        vec!["hashcheck", "extra"],
        vec!["hashstats", "hive", "extra"],
        vec!["hashstats", "hive", "--epd", suite],
        vec!["hashstats", "gomoku", "--game", "sc2020"],
        vec!["hashstats", "--games", "1"],
        vec!["hash"],
        vec!["hash", "gomoku"],
        vec!["net", "a.nnue", "b.nnue"],
        vec!["datagen", "--out", &path("data"), "--games", "1", "extra"],
        vec!["datagen", "--games", "1"],
        vec!["train", "--out", &path("net.nnue")],
        vec!["data"],
        vec!["book"],
    ]
    .iter()
    .map(|args| args.iter().map(|w| w.to_string()).collect())
    .collect();
    for args in &cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let line = refused(&args);
        assert!(!line.contains("panicked"), "{args:?}: {line}");
    }
    assert_eq!(
        std::fs::read_dir(&dir).unwrap().count(),
        0,
        "nothing written"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
