//! `docs/rules-audit.md` names its proofs truly: every test a row of the
//! audit names (`tests/x.rs::name`, `src/…/x.rs::name`, `tests/scripts/x.ron`)
//! exists, and every row marked `tested` names at least one.

use std::path::Path;

/// The audit, relative to the package root.
const AUDIT: &str = "docs/rules-audit.md";

/// The test references in one cell: `path.rs::name` and `tests/scripts/x.ron`.
fn references(cell: &str) -> Vec<String> {
    let mut out = Vec::new();
    for part in cell.split('`') {
        let part = part.trim();
        let rs = part.contains(".rs::") && (part.starts_with("src/") || part.starts_with("tests/"));
        let ron = part.starts_with("tests/scripts/") && part.ends_with(".ron");
        if (rs || ron) && !part.contains('*') && !part.contains(' ') {
            out.push(part.to_string());
        }
    }
    out
}

/// Whether a reference names something that exists under `root`.
fn exists(root: &Path, reference: &str) -> bool {
    match reference.split_once("::") {
        Some((file, name)) => {
            let name = name.split("::").last().unwrap_or(name);
            std::fs::read_to_string(root.join(file))
                .is_ok_and(|text| text.contains(&format!("fn {name}(")))
        }
        None => root.join(reference).is_file(),
    }
}

/// The cells of a table row (`| a | b |`), trimmed; `\|` is a bar inside
/// a cell.
fn cells(row: &str) -> Vec<String> {
    let inner = row.trim().trim_start_matches('|').trim_end_matches('|');
    let mut out = Vec::new();
    let mut cell = String::new();
    let mut chars = inner.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&'|') => {
                cell.push('|');
                chars.next();
            }
            '|' => out.push(std::mem::take(&mut cell).trim().to_string()),
            c => cell.push(c),
        }
    }
    out.push(cell.trim().to_string());
    out
}

/// Every problem of the audit's rows: a named test that does not exist, a
/// `tested` row that names none.
fn problems(root: &Path, audit: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (n, row) in audit.lines().enumerate() {
        if !row.starts_with("| R ") {
            continue;
        }
        let cells = cells(row);
        let [rule, _sentence, _where, test, status, ..] = &cells[..] else {
            out.push(format!("line {}: a row of fewer than five cells", n + 1));
            continue;
        };
        let named = references(test);
        if !["tested", "enforced", "BROKEN", "not built"]
            .iter()
            .any(|s| status.starts_with(s))
        {
            out.push(format!("line {}: {rule}: unknown status `{status}`", n + 1));
        }
        for r in &named {
            if !exists(root, r) {
                out.push(format!("line {}: {rule}: `{r}` does not exist", n + 1));
            }
        }
        if status.starts_with("tested") && named.is_empty() {
            out.push(format!(
                "line {}: {rule}: marked tested but names no test",
                n + 1
            ));
        }
    }
    out
}

#[test]
fn every_test_the_audit_names_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let audit = std::fs::read_to_string(root.join(AUDIT)).expect("docs/rules-audit.md");
    let rows = audit.lines().filter(|l| l.starts_with("| R ")).count();
    assert!(rows > 100, "the audit has only {rows} rows");
    let problems = problems(root, &audit);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The checker itself: a missing test and a `tested` row without one are
/// caught; a real test and a script pass.
#[test]
fn the_checker_catches_a_missing_test() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let audit = "\
| R 1.0 | \"a\" | x | `tests/rules_audit.rs::the_checker_catches_a_missing_test` | tested |
| R 1.1 | \"b\" | x | `tests/scripts/first_moves.ron` | tested |
| R 1.2 | \"c\" | x | `tests/rules_audit.rs::no_such_test` | tested |
| R 1.3 | \"d\" | x | — | tested |
| R 1.4 | \"e\" | `a \\| b` | — | not built |
| R 1.5 | \"f\" | — | — | done |
";
    assert_eq!(
        problems(root, audit),
        [
            "line 3: R 1.2: `tests/rules_audit.rs::no_such_test` does not exist",
            "line 4: R 1.3: marked tested but names no test",
            "line 6: R 1.5: unknown status `done`",
        ]
    );
}
