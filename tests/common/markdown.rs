//! Reading the project's Markdown docs: a page, and the cells of a table line.

/// The text of `page`, a path from the project's root (`docs/uci.md`).
pub fn page(page: &str) -> String {
    let path = format!("{}/{page}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The cells of a table line, trimmed, with `\|` kept inside its cell as `|`.
pub fn cells(line: &str) -> Vec<String> {
    let inner = line.trim().trim_start_matches('|').trim_end_matches('|');
    inner
        .replace("\\|", "\u{0}")
        .split('|')
        .map(|cell| cell.trim().replace('\u{0}', "|"))
        .collect()
}
