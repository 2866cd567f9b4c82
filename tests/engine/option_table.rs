//! The option table of `docs/uci.md` against the engine's option list, `OPTIONS`: every option
//! the engine lists has a row with its type, range and default, and every row names an option
//! the engine lists. An option added, renamed or given a new default or range without the doc
//! fails here.

use crate::common::markdown::{cells, page};
use rookery::engine::options::{OPTIONS, OptionKind};

/// The page that holds the one option table.
const DOC: &str = "docs/uci.md";

/// One row of the table: the option's name and its kind as the row states it.
#[derive(Debug, PartialEq, Eq)]
struct Row {
    name: String,
    kind: DocKind,
}

/// An option's kind, default and range as the table writes them.
#[derive(Debug, PartialEq, Eq)]
enum DocKind {
    Check { default: bool },
    Spin { default: i64, min: i64, max: i64 },
    Button,
    String { default: String },
}

impl From<OptionKind> for DocKind {
    fn from(kind: OptionKind) -> Self {
        match kind {
            OptionKind::Check { default } => DocKind::Check { default },
            OptionKind::Spin { default, min, max } => DocKind::Spin { default, min, max },
            OptionKind::Button => DocKind::Button,
            OptionKind::String { default } => DocKind::String {
                default: default.to_string(),
            },
        }
    }
}

/// A cell's text without the backticks of inline code.
fn unquote(cell: &str) -> &str {
    cell.trim_matches('`')
}

/// Reads one row: `| name | type | default | meaning |`.
fn parse_row(line: &str) -> Result<Row, String> {
    let cells = cells(line);
    let [name, kind, default, _meaning] = cells.as_slice() else {
        return Err(format!("not four cells: {line}"));
    };
    let name = unquote(name).to_string();
    let default = unquote(default);
    let kind = match kind.split_once(' ') {
        None if kind == "check" => DocKind::Check {
            default: default
                .parse()
                .map_err(|_| format!("{name}: check default '{default}'"))?,
        },
        None if kind == "button" => {
            if !default.is_empty() {
                return Err(format!("{name}: a button with default '{default}'"));
            }
            DocKind::Button
        }
        None if kind == "string" => DocKind::String {
            default: if default == "empty" {
                String::new()
            } else {
                default.to_string()
            },
        },
        Some(("spin", range)) => {
            let (min, max) = range
                .split_once('-')
                .ok_or_else(|| format!("{name}: spin range '{range}'"))?;
            let number = |text: &str| {
                text.parse::<i64>()
                    .map_err(|_| format!("{name}: '{text}' is not a number"))
            };
            DocKind::Spin {
                default: number(default)?,
                min: number(min)?,
                max: number(max)?,
            }
        }
        _ => return Err(format!("{name}: unknown type '{kind}'")),
    };
    Ok(Row { name, kind })
}

/// The rows of the table under the page's `## Options` heading.
fn table_rows(page: &str) -> Result<Vec<Row>, String> {
    let section = page
        .split("\n## ")
        .find(|s| s.starts_with("Options\n"))
        .ok_or("no `## Options` section")?;
    let mut lines = section.lines().skip_while(|l| !l.starts_with('|'));
    let header = lines.next().ok_or("no table in `## Options`")?;
    if cells(header) != ["option", "type", "default", "meaning"] {
        return Err(format!("unexpected header: {header}"));
    }
    lines
        .skip(1) // the `| --- |` line
        .take_while(|l| l.starts_with('|'))
        .map(parse_row)
        .collect()
}

/// Every difference between the rows and `OPTIONS`, both ways; empty when they agree.
fn differences(rows: &[Row]) -> Vec<String> {
    let mut found = Vec::new();
    for option in OPTIONS {
        let expected = DocKind::from(option.kind);
        match rows.iter().filter(|r| r.name == option.name).count() {
            0 => found.push(format!("`{}` is not in the table", option.name)),
            1 => {}
            n => found.push(format!("`{}` has {n} rows", option.name)),
        }
        if let Some(row) = rows.iter().find(|r| r.name == option.name)
            && row.kind != expected
        {
            found.push(format!(
                "`{}`: the table says {:?}, the engine {:?}",
                option.name, row.kind, expected
            ));
        }
    }
    for row in rows {
        if !OPTIONS.iter().any(|o| o.name == row.name) {
            found.push(format!(
                "the table's `{}` is not an engine option",
                row.name
            ));
        }
    }
    found
}

#[test]
fn the_option_table_of_the_docs_matches_the_engines_options() {
    let rows = table_rows(&page(DOC)).unwrap_or_else(|e| panic!("{DOC}: {e}"));
    let found = differences(&rows);
    assert!(
        found.is_empty(),
        "{DOC}'s option table and OPTIONS (src/engine/options.rs) differ:\n{}",
        found.join("\n")
    );
}

#[test]
fn a_drifted_table_is_caught_both_ways() {
    // A table written from `OPTIONS` agrees with it; then it drifts three ways.
    let mut rows: Vec<Row> = OPTIONS
        .iter()
        .map(|o| Row {
            name: o.name.to_string(),
            kind: DocKind::from(o.kind),
        })
        .collect();
    assert_eq!(differences(&rows), Vec::<String>::new());
    // An option the table lacks, an option the engine lacks, and a changed default.
    let hash = rows.iter().position(|r| r.name == "Hash").unwrap();
    rows[hash].name = "Hash Size".to_string();
    let threads = rows.iter_mut().find(|r| r.name == "Threads").unwrap();
    threads.kind = DocKind::Spin {
        default: 2,
        min: 1,
        max: 256,
    };
    let found = differences(&rows);
    assert_eq!(found.len(), 3, "{found:#?}");
    for expected in [
        "`Hash` is not in the table",
        "`Threads`: the table says",
        "`Hash Size` is not an engine option",
    ] {
        assert!(found.iter().any(|f| f.contains(expected)), "{found:#?}");
    }
}

#[test]
fn rows_are_read_as_the_table_writes_them() {
    let row = |line| parse_row(line).unwrap().kind;
    assert_eq!(
        row("| `Hash` | spin 1-65536 | 16 | table size |"),
        DocKind::Spin {
            default: 16,
            min: 1,
            max: 65536
        }
    );
    assert_eq!(
        row("| `Ponder` | check | false | a \\| b |"),
        DocKind::Check { default: false }
    );
    assert_eq!(
        row("| `Clear Hash` | button | | empties |"),
        DocKind::Button
    );
    assert_eq!(
        row("| `BookFile` | string | empty | a book |"),
        DocKind::String {
            default: String::new()
        }
    );
    assert_eq!(
        row("| `EvalFile` | string | `<default>` | a net |"),
        DocKind::String {
            default: "<default>".to_string()
        }
    );
    assert!(parse_row("| `Hash` | spin 1 to 65536 | 16 | x |").is_err());
    assert!(parse_row("| `Ponder` | check | no | x |").is_err());
}
