//! Reading the game's own source as tokens, for the tests that check how
//! it is written (`tests/layers.rs`, `tests/hidden_state.rs`).

use std::fs;
use std::path::Path;

pub fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The tokens of `src` (words, `::`, single punctuation), each with its line,
/// leaving out comments (`//`, `///`, `//!`, nested `/* */`) and string and
/// char literals (raw strings included).
pub fn tokens(src: &str) -> Vec<(usize, String)> {
    let c: Vec<char> = src.chars().collect();
    let at = |i: usize| c.get(i).copied().unwrap_or('\0');
    let starts = |i: usize, pat: &str| pat.chars().enumerate().all(|(k, p)| at(i + k) == p);
    let find = |from: usize, pat: &str| (from..c.len()).find(|&j| starts(j, pat));
    let (mut out, mut line, mut i) = (Vec::new(), 1, 0);
    while i < c.len() {
        // Words are taken whole, so an `r` here starts one: r"…", r#"…"#, br"…", cr"…"
        // are raw strings, r#type is a raw identifier.
        let r = i + usize::from(c[i] != 'r');
        let hashes = (r + 1..c.len()).take_while(|&j| c[j] == '#').count();
        let (end, keep) = match c[i] {
            '/' if at(i + 1) == '/' => (find(i, "\n").unwrap_or(c.len()), false),
            '/' if at(i + 1) == '*' => {
                let (mut j, mut depth) = (i + 2, 1);
                while j < c.len() && depth > 0 {
                    match (c[j], at(j + 1)) {
                        ('/', '*') => (depth, j) = (depth + 1, j + 2),
                        ('*', '/') => (depth, j) = (depth - 1, j + 2),
                        _ => j += 1,
                    }
                }
                (j, false)
            }
            '"' => {
                let mut j = i + 1;
                while j < c.len() && c[j] != '"' {
                    j += if c[j] == '\\' { 2 } else { 1 };
                }
                (j + 1, false)
            }
            'r' | 'b' | 'c' if at(r) == 'r' && at(r + 1 + hashes) == '"' => {
                let close = format!("\"{}", "#".repeat(hashes));
                let end = find(r + 2 + hashes, &close).map_or(c.len(), |j| j + close.len());
                (end, false)
            }
            // '\n', '\u{…}' and 'x' are char literals; 'a alone is a lifetime or label.
            '\'' if at(i + 1) == '\\' => (find(i + 3, "'").map_or(c.len(), |j| j + 1), false),
            '\'' if at(i + 2) == '\'' => (i + 3, false),
            ch if is_ident(ch) => (
                (i..c.len()).find(|&j| !is_ident(c[j])).unwrap_or(c.len()),
                true,
            ),
            ':' if at(i + 1) == ':' => (i + 2, true),
            ch => (i + 1, !ch.is_whitespace()),
        };
        let end = end.min(c.len());
        if keep {
            out.push((line, c[i..end].iter().collect()));
        }
        line += c[i..end].iter().filter(|&&ch| ch == '\n').count();
        i = end;
    }
    out
}

pub fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// Every `.rs` file under `dir`, as (path relative to `base` with `/`, text).
pub fn sources(base: &Path, dir: &Path, out: &mut Vec<(String, String)>) {
    let entries = fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            sources(base, &path, out);
        } else if path.extension().is_some_and(|x| x == "rs") {
            let rel = path.strip_prefix(base).expect("under src/").components();
            let rel: Vec<_> = rel.map(|c| c.as_os_str().to_string_lossy()).collect();
            out.push((rel.join("/"), read(&path)));
        }
    }
}
