//! Module layering: no room of `src/` may reach up into a room above it.
//!
//! The order lives in `docs/architecture.md`, under `## Layers`, as one line of
//! backticked rooms joined by ` → `, top first: a room may name itself and any
//! room to its right, never one to its left. The room of `src/X.rs` and of
//! everything under `src/X/` is `X`; `src/lib.rs` and `src/main.rs` are the
//! crate root and may name anything, and `src/bin/` holds other binaries,
//! which reach the library as `bob::`. This test checks that every room is in the
//! order (and every room in the order exists), then scans every `.rs` file for
//! `crate::` paths (in `use`, `pub use`, grouped imports, expressions, types,
//! attributes, macros' `$crate::`) and `super::` chains that climb to the crate
//! root, leaving out comments and string and char literals.
//!
//! Limits: this reads text, not the module tree. A `#[path]` module is placed by
//! its file, and a path built inside a macro from pieces is not seen. The
//! environment variable `BOB_LAYERS_DOC` names another document to read the
//! order from (to try out an order before writing it down).

use std::collections::BTreeSet;

use std::path::PathBuf;

mod common;

use common::source::{is_ident, read, sources, tokens};

/// The document holding the order, relative to the package root.
const DOC: &str = "docs/architecture.md";

/// The order line under `## Layers`, top room first.
fn parse_order(doc: &str) -> Result<Vec<String>, String> {
    let mut lines = doc.lines().skip_while(|l| l.trim() != "## Layers");
    if lines.next().is_none() {
        return Err("no `## Layers` heading; the layer order belongs there".to_owned());
    }
    let line = lines
        .take_while(|l| !l.starts_with("## "))
        .find(|l| l.contains(" → ") && l.contains('`'))
        .ok_or("no line of `room` → `room` … under `## Layers`")?;
    let mut order = Vec::new();
    for part in line.split(" → ") {
        let part = part.trim();
        let Some(name) = part.split('`').nth(1).filter(|n| !n.is_empty()) else {
            return Err(format!(
                "`{part}` in the order line is not a backticked room"
            ));
        };
        if order.iter().any(|n| n == name) {
            return Err(format!("`{name}` appears twice in the order line"));
        }
        order.push(name.to_owned());
    }
    Ok(order)
}

fn is_word(s: &str) -> bool {
    s.chars().next().is_some_and(is_ident)
}

/// End (exclusive) of the path starting at `t[j]`: `a::b::c`, `a::{…}`, `a::*`.
fn path_end(t: &[(usize, String)], j: usize) -> usize {
    let (mut k, mut depth) = (j, 0);
    while let Some((_, s)) = t.get(k) {
        let joined = k == j || s == "::" || t[k - 1].1 == "::";
        let part = is_word(s) || matches!(s.as_str(), "::" | "{" | "*");
        if depth == 0 && !(joined && part) {
            break;
        }
        depth += i32::from(s == "{") - i32::from(s == "}");
        k += 1;
    }
    k - usize::from(k > j && t[k - 1].1 == "::")
}

/// Tokens back into text: `crate::a::{B, c::D}`.
fn render(t: &[(usize, String)]) -> String {
    let mut s = String::new();
    for (k, (_, tok)) in t.iter().enumerate() {
        if k > 0 && ((is_word(tok) && is_word(&t[k - 1].1)) || t[k - 1].1 == ",") {
            s.push(' ');
        }
        s.push_str(tok);
    }
    s
}

/// Every path from the crate root out of `source`, as (line, room, path as
/// written): `crate::room…` and
/// `super::…::room…` chains that climb exactly to the root. `depth` is the
/// file's module depth (1 for `src/ui/mod.rs` and `src/app.rs`, 2 for
/// `src/ui/demo.rs`); inline `mod name { … }` blocks add to it.
fn crate_paths(source: &str, depth: usize) -> Vec<(usize, String, String)> {
    let t = tokens(source);
    let word = |k: usize| t.get(k).map_or("", |x| x.1.as_str());
    let (mut found, mut braces, mut mods) = (Vec::new(), 0, Vec::new());
    for i in 0..t.len() {
        match word(i) {
            "{" => {
                braces += 1;
                if i >= 2 && word(i - 2) == "mod" && is_word(word(i - 1)) {
                    mods.push(braces);
                }
            }
            "}" => {
                if mods.last() == Some(&braces) {
                    mods.pop();
                }
                braces -= 1;
            }
            _ => {}
        }
        if i > 0 && word(i - 1) == "::" {
            continue;
        }
        let mut j = i;
        while word(j) == "super" && word(j + 1) == "::" {
            j += 2;
        }
        let at_root = match word(i) {
            "crate" => word(i + 1) == "::",
            "super" => j > i && (j - i) / 2 == depth + mods.len(),
            _ => false,
        };
        if !at_root {
            continue;
        }
        let j = if word(i) == "crate" { i + 2 } else { j };
        let prefix = render(&t[i..j]);
        if word(j) == "{" {
            // A group: each item's first segment is a room.
            let mut k = j + 1;
            while k < t.len() && word(k) != "}" {
                let end = path_end(&t, k).max(k + 1);
                if (is_word(word(k)) && word(k) != "self") || word(k) == "*" {
                    let shown = format!("{prefix}{}", render(&t[k..end]));
                    found.push((t[k].0, t[k].1.clone(), shown));
                }
                let next = (end..t.len()).find(|&m| matches!(word(m), "," | "}"));
                k = next.unwrap_or(t.len());
                k += usize::from(word(k) == ",");
            }
        } else if is_word(word(j)) || word(j) == "*" {
            let end = path_end(&t, j);
            found.push((t[j].0, t[j].1.clone(), render(&t[i..end])));
        }
    }
    found
}

/// The room and module depth of a file, by its path under `src/`
/// (`None` for the crate root, `lib.rs` and `main.rs`, and for the other
/// binaries, `bin/`).
fn placed(rel: &str) -> Option<(String, usize)> {
    if rel == "lib.rs" || rel == "main.rs" || rel.starts_with("bin/") {
        return None;
    }
    let parts: Vec<&str> = rel.split('/').collect();
    let depth = parts.len() - usize::from(parts.last() == Some(&"mod.rs"));
    Some((parts[0].trim_end_matches(".rs").to_owned(), depth))
}

/// Rooms missing from the order, and rooms the order names that do not exist.
fn placement(order: &[String], files: &[(String, String)]) -> Vec<String> {
    let rooms: BTreeSet<String> = files.iter().filter_map(|f| Some(placed(&f.0)?.0)).collect();
    let missing = rooms.iter().filter(|r| !order.contains(r));
    let missing = missing.map(|r| format!("room `{r}` (src/{r}) is not in the layer order"));
    let stale = order.iter().filter(|r| !rooms.contains(*r));
    let stale = stale.map(|r| format!("`{r}` is in the layer order but not under src/"));
    missing.chain(stale).collect()
}

/// Every path that names a room above its own, as `src/file:line: from → to (path)`,
/// sorted by file and line. `files` are (path under `src/`, source text).
fn violations(order: &[String], files: &[(String, String)]) -> Vec<String> {
    let rank = |room: &str| order.iter().position(|r| r == room);
    let mut out = Vec::new();
    for (rel, source) in files {
        // The crate root may name anything; an unplaced room is reported by `placement`.
        let Some((room, depth)) = placed(rel) else {
            continue;
        };
        let Some(own) = rank(&room) else { continue };
        for (line, to, shown) in crate_paths(source, depth) {
            let note = match rank(&to) {
                Some(r) if r < own => "",
                Some(_) => continue,
                None => ", which is not in the layer order",
            };
            out.push((rel.clone(), line, format!("{room} → {to} ({shown}){note}")));
        }
    }
    out.sort();
    out.iter()
        .map(|(rel, line, msg)| format!("src/{rel}:{line}: {msg}"))
        .collect()
}

#[test]
fn layers_hold() {
    let root = PathBuf::from(option_env!("CARGO_MANIFEST_DIR").unwrap_or("."));
    let doc_path = std::env::var_os("BOB_LAYERS_DOC").map_or_else(|| root.join(DOC), PathBuf::from);
    let order =
        parse_order(&read(&doc_path)).unwrap_or_else(|e| panic!("{}: {e}", doc_path.display()));
    let src = root.join("src");
    let mut files = Vec::new();
    sources(&src, &src, &mut files);
    let mut problems = placement(&order, &files);
    problems.extend(violations(&order, &files));
    assert!(
        problems.is_empty(),
        "{} layering problem(s), against the order in {} ({}):\n{}\n",
        problems.len(),
        doc_path.display(),
        order.join(" → "),
        problems.join("\n")
    );
}

mod checker {
    use super::*;

    const ORDER: [&str; 4] = ["ui", "phases", "engine", "world"];

    fn check(files: &[(&str, &str)]) -> Vec<String> {
        let owned = |(r, s): &(&str, &str)| (r.to_string(), s.to_string());
        let files: Vec<_> = files.iter().map(owned).collect();
        violations(&ORDER.map(String::from), &files)
    }

    /// `line room shown` for each path found.
    fn paths(source: &str, depth: usize) -> Vec<String> {
        let found = crate_paths(source, depth).into_iter();
        found
            .map(|(line, room, shown)| format!("{line} {room} {shown}"))
            .collect()
    }

    #[test]
    fn order_line_is_parsed() {
        let doc =
            "# A\n## Layers\n\nTop first:\n\n    `ui` → `phases` → `engine`\n\n## B\n`x` → `y`\n";
        assert_eq!(parse_order(doc).unwrap(), ["ui", "phases", "engine"]);
        let missing = parse_order("# A\n`ui` → `engine`\n").unwrap_err();
        assert!(missing.contains("## Layers"), "{missing}");
        assert!(parse_order("## Layers\nprose\n## B\n`ui` → `engine`\n").is_err());
        let twice = parse_order("## Layers\n`ui` → `ui`\n").unwrap_err();
        assert!(twice.contains("twice"), "{twice}");
    }

    #[test]
    fn inline_attribute_and_reexport_paths_are_caught_and_sorted() {
        let ops = "fn f() {\n    let x = crate::phases::ask(1);\n}\n\
                   #[component(on_insert = crate::ui::hook)]\nstruct S;\npub use crate::phases::P;\n";
        let world = "\n\n\n\n\n\n\n\n\nuse crate::ui::A;\n";
        assert_eq!(
            check(&[("world/z.rs", world), ("engine/ops.rs", ops)]),
            [
                "src/engine/ops.rs:2: engine → phases (crate::phases::ask)",
                "src/engine/ops.rs:4: engine → ui (crate::ui::hook)",
                "src/engine/ops.rs:6: engine → phases (crate::phases::P)",
                "src/world/z.rs:10: world → ui (crate::ui::A)",
            ]
        );
    }

    #[test]
    fn grouped_multiline_use_yields_each_room() {
        let src = "use crate::{\n    ui::X,\n    phases::{Y, Z as W},\n    world::*,\n};\n";
        assert_eq!(
            paths(src, 1),
            [
                "2 ui crate::ui::X",
                "3 phases crate::phases::{Y, Z as W}",
                "4 world crate::world::*",
            ]
        );
        assert_eq!(check(&[("engine/a.rs", src)]).len(), 2);
    }

    #[test]
    fn comments_and_literals_are_ignored() {
        let src = r##"
            // see crate::ui
            /// and crate::ui::Thing
            //! crate::ui
            /* crate::ui /* nested crate::ui */ still crate::ui */
            const A: &str = "crate::ui \" crate::ui";
            const B: &str = r#"crate::ui" crate::ui "#;
            const D: char = '"';
            fn f<'a>(x: &'a str) -> &'a str { let _ = ('{', '\'', '\"'); x }
            const C: &[u8] = br"\";
            use crate::world::Board;
        "##;
        assert_eq!(paths(src, 2), ["11 world crate::world::Board"]);
    }

    #[test]
    fn downward_and_same_room_paths_pass() {
        let src =
            "use crate::engine::O;\nuse crate::world::{B, U};\nfn f() { crate::engine::go() }";
        assert!(check(&[("phases/mod.rs", src), ("engine/orders.rs", src)]).is_empty());
        assert!(check(&[("lib.rs", "pub use crate::ui::Plugin;")]).is_empty());
        assert!(
            paths(
                "pub(crate) fn f() {}\nextern crate alloc;\nmy_crate::ui::f();",
                1
            )
            .is_empty()
        );
    }

    #[test]
    fn super_chains_to_the_root_are_caught() {
        let src = "use super::super::super::ui::X;\nuse super::super::orders::Y;\nmod tests {\n\
                   use super::super::super::super::{ui::Z};\nuse super::super::super::Q;\n}\n";
        let files = [
            ("engine/phases/rout.rs", src),
            ("engine.rs", "use super::phases::P;"),
        ];
        assert_eq!(
            check(&files),
            [
                "src/engine.rs:1: engine → phases (super::phases::P)",
                "src/engine/phases/rout.rs:1: engine → ui (super::super::super::ui::X)",
                "src/engine/phases/rout.rs:4: engine → ui (super::super::super::super::ui::Z)",
            ]
        );
    }

    #[test]
    fn rooms_and_order_must_match() {
        let names = "lib.rs ui/mod.rs engine.rs bot/x/y.rs world/a.rs phases/b.rs bin/x.rs";
        let names = names.split(' ');
        let files: Vec<_> = names.map(|f| (f.to_owned(), String::new())).collect();
        let mut order = ORDER.map(String::from).to_vec();
        order.push("map".to_owned());
        assert_eq!(
            placement(&order, &files),
            [
                "room `bot` (src/bot) is not in the layer order",
                "`map` is in the layer order but not under src/",
            ]
        );
        assert_eq!(placement(&ORDER.map(String::from), &files[..2]).len(), 3);
    }
}
