//! Paths named inside files (a script's `scenario`) never escape: a file may
//! name a built-in scenario or a relative path below the working folder —
//! never an absolute path, never `..`.

use std::path::{Component, Path};

/// Why a path named inside a file is refused, if it is.
pub fn refuse_escape(name: &str) -> Option<String> {
    let p = Path::new(name);
    let escapes = p.is_absolute()
        || name.starts_with('~')
        || p.components().any(|c| {
            matches!(
                c,
                Component::ParentDir | Component::RootDir | Component::Prefix(_)
            )
        });
    escapes.then(|| {
        format!(
            "`{name}` leaves the working folder: a file may name a built-in scenario or a relative path without `..`"
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_that_climb_out_are_refused() {
        assert!(refuse_escape("training").is_none());
        assert!(refuse_escape("tests/data/minimal.ron").is_none());
        assert!(refuse_escape("./my.ron").is_none());
        assert_eq!(
            refuse_escape("../../etc/passwd").unwrap(),
            "`../../etc/passwd` leaves the working folder: a file may name a built-in scenario or a relative path without `..`"
        );
        assert!(refuse_escape("/etc/passwd").is_some());
        assert!(refuse_escape("a/../../b.ron").is_some());
        assert!(refuse_escape("~/x.ron").is_some());
    }
}
