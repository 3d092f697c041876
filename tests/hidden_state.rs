//! No hidden state in the game's logic (issue 24): nothing a game's result
//! could depend on lives outside the objects the game owns (its world, its
//! board, its bot). In the rooms that decide games — `map`, `scenario`,
//! `rules`, `world`, `engine` (with its phases) and `bot` — this test fails
//! on:
//!
//! - a `thread_local!`;
//! - a `static` that can change: `static mut`, or one whose type holds a
//!   lock, a cell, a once-cell or an atomic (however many lines the item
//!   spans);
//! - a table keyed by an address: a pointer cast (`as *const`, `as *mut`)
//!   or `as_ptr` (identity checks such as `Arc::ptr_eq` on a value the
//!   owner holds are not keys, and are allowed).
//!
//! Test modules (`#[cfg(test)] mod …`) are left out: they are not the game.
//! Comments and string literals are read as nothing (`common::source`).

mod common;

use std::path::Path;

use common::source::{sources, tokens};

/// The rooms whose code decides games.
const ROOMS: &[&str] = &["map", "scenario", "rules", "world", "engine", "bot"];

/// Type names that make a `static` changeable.
const CHANGEABLE: &[&str] = &[
    "Mutex",
    "RwLock",
    "Cell",
    "RefCell",
    "UnsafeCell",
    "OnceLock",
    "OnceCell",
    "LazyLock",
    "LazyCell",
];

/// The tokens of `src` without its `#[cfg(test)] mod name { … }` blocks.
fn game_tokens(src: &str) -> Vec<(usize, String)> {
    let t = tokens(src);
    let text = |i: usize| t.get(i).map_or("", |(_, s)| s.as_str());
    let mut out = Vec::new();
    let mut i = 0;
    while i < t.len() {
        let test_mod = ["#", "[", "cfg", "(", "test", ")", "]", "mod"]
            .iter()
            .enumerate()
            .all(|(k, w)| text(i + k) == *w)
            && text(i + 9) == "{";
        if test_mod {
            let mut depth = 0usize;
            let mut j = i + 9;
            while j < t.len() {
                match text(j) {
                    "{" => depth += 1,
                    "}" => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
            i = j + 1;
            continue;
        }
        out.push(t[i].clone());
        i += 1;
    }
    out
}

/// What `src` holds that this test forbids, as `line: what`.
fn findings(src: &str) -> Vec<String> {
    let t = game_tokens(src);
    let text = |i: usize| t.get(i).map_or("", |(_, s)| s.as_str());
    let mut out = Vec::new();
    for (i, (line, tok)) in t.iter().enumerate() {
        match tok.as_str() {
            "thread_local" if text(i + 1) == "!" => {
                out.push(format!("{line}: thread_local!"));
            }
            // `'static` is a lifetime, not an item.
            "static" if i == 0 || text(i - 1) != "'" => {
                if text(i + 1) == "mut" {
                    out.push(format!("{line}: static mut"));
                    continue;
                }
                // The item's type and value, up to its `;`.
                let item: Vec<&str> = (i + 1..t.len())
                    .map(text)
                    .take_while(|s| *s != ";")
                    .collect();
                if let Some(k) = item
                    .iter()
                    .find(|s| CHANGEABLE.contains(s) || s.starts_with("Atomic"))
                {
                    out.push(format!("{line}: static holding {k}"));
                }
            }
            "as" if text(i + 1) == "*" => {
                out.push(format!("{line}: pointer cast (an address as a value)"));
            }
            "as_ptr" => out.push(format!("{line}: as_ptr (an address as a value)")),
            _ => {}
        }
    }
    out
}

#[test]
fn no_hidden_state_in_the_game() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut bad = Vec::new();
    for room in ROOMS {
        let mut files = Vec::new();
        sources(&root, &root.join(room), &mut files);
        assert!(!files.is_empty(), "no sources under src/{room}");
        for (path, text) in files {
            for f in findings(&text) {
                bad.push(format!("src/{path}:{f}"));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "hidden state in the game's logic (see docs/decisions.md, \"Caches\"):\n{}",
        bad.join("\n")
    );
}

/// The scanner finds each kind, however the item is laid out, and passes
/// what is allowed.
#[test]
fn the_scanner_finds_what_it_should() {
    let caught = |src: &str| findings(src).len();
    assert_eq!(caught("thread_local! { static K: u8 = 0; }"), 1);
    assert_eq!(
        caught("static KEPT:\n    std::sync::Mutex<Vec<u8>> =\n    Mutex::new(Vec::new());"),
        1
    );
    assert_eq!(caught("pub static N: AtomicU32 = AtomicU32::new(0);"), 1);
    assert_eq!(caught("static mut N: u32 = 0;"), 1);
    assert_eq!(
        caught("static A: std::sync::OnceLock<u8> = std::sync::OnceLock::new();"),
        1
    );
    assert_eq!(caught("let k = t as *const T as usize;"), 1);
    assert_eq!(caught("let k = Arc::as_ptr(&t) as usize;"), 1);
    // Allowed: constants, plain statics, lifetimes, identity checks,
    // words in comments and strings, test modules.
    assert_eq!(caught("static NAMES: &[&str] = &[\"Mutex\"];"), 0);
    assert_eq!(
        caught("fn f(s: &'static str) -> bool { Arc::ptr_eq(&a, &b) }"),
        0
    );
    assert_eq!(
        caught("// thread_local! static X: Mutex<u8>\nlet s = \"as_ptr\";"),
        0
    );
    assert_eq!(
        caught("#[cfg(test)]\nmod tests { static A: OnceLock<u8> = OnceLock::new(); }"),
        0
    );
    assert_eq!(
        caught("#[cfg(test)]\nmod tests { fn f() {} }\nstatic B: Mutex<u8> = Mutex::new(0);"),
        1
    );
}
