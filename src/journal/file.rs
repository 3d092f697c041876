//! Reading and appending journal files. An entry counts once its whole line,
//! newline included, is on disk: a line cut by a crash is dropped with a
//! message, never guessed at.

use std::fs::{File, OpenOptions};
use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use crate::scenario::validate::{Problem, parse_ron, text_of};
use crate::scenario::{self, FileReport};

use super::{Entry, FORMAT, Header};

/// A journal read back: its header, its complete entries (with their line
/// numbers), and what a crash cut off.
#[derive(Debug, Clone)]
pub struct JournalRead {
    /// The file, as named in messages.
    pub file: String,
    pub header: Header,
    /// (1-based line, entry).
    pub entries: Vec<(usize, Entry)>,
    /// Length in bytes of the complete lines.
    pub valid_len: u64,
    /// Set when the last line was cut: what was dropped, as a sentence.
    pub dropped: Option<String>,
}

fn report(file: &str, line: usize, col: usize, message: String) -> FileReport {
    FileReport {
        file: file.to_string(),
        problems: vec![Problem { line, col, message }],
    }
}

/// The 1-based column of `field:` in a line (1 when absent).
fn column_of(line: &str, field: &str) -> usize {
    line.find(&format!("{field}:"))
        .map_or(1, |off| line[..off].chars().count() + 1)
}

/// Reads a journal or save file.
pub fn read_journal(path: &Path) -> Result<JournalRead, FileReport> {
    let bytes = scenario::read_file(path)?;
    parse_journal(&path.display().to_string(), &bytes)
}

/// Parses a journal's bytes (named `file` in errors).
pub fn parse_journal(file: &str, bytes: &[u8]) -> Result<JournalRead, FileReport> {
    let complete = bytes.iter().rposition(|b| *b == b'\n').map_or(0, |i| i + 1);
    let (body, tail) = bytes.split_at(complete);
    let text = match text_of(body) {
        Ok(t) => t,
        Err(p) if bytes.iter().all(u8::is_ascii_whitespace) => {
            return Err(report(file, p.line, p.col, p.message));
        }
        Err(p) if p.message == "file is empty" => {
            return Err(report(
                file,
                1,
                1,
                "the header line is incomplete (the file was cut before its first line ended)"
                    .into(),
            ));
        }
        Err(p) => return Err(report(file, p.line, p.col, p.message)),
    };
    let lines = text.split('\n').enumerate().map(|(i, l)| (i + 1, l));
    let mut header = None;
    let mut entries: Vec<(usize, Entry)> = Vec::new();
    for (no, raw) in lines {
        let line = raw.trim_end_matches('\r');
        if line.trim().is_empty() {
            continue;
        }
        if header.is_none() {
            header = Some(parse_header(file, no, line)?);
        } else {
            let entry: Entry =
                parse_ron(line).map_err(|p| report(file, no + p.line - 1, p.col, p.message))?;
            let expected = entries.len() + 1;
            if entry.n != expected {
                return Err(report(
                    file,
                    no,
                    column_of(line, "n"),
                    format!(
                        "field `n`: entry {} where entry {expected} was expected",
                        entry.n
                    ),
                ));
            }
            entries.push((no, entry));
        }
    }
    let Some(header) = header else {
        return Err(report(file, 1, 1, "file is empty".into()));
    };
    let dropped = (!tail.iter().all(u8::is_ascii_whitespace)).then(|| {
        let line_no = text.matches('\n').count() + 1;
        let shown: String = String::from_utf8_lossy(&tail[..tail.len().min(240)])
            .chars().take(60).collect();
        format!(
            "{file}:{line_no}: the last entry was cut off ({} bytes: `{shown}`) and is dropped; resuming after entry {}",
            tail.len(),
            entries.len()
        )
    });
    Ok(JournalRead {
        file: file.to_string(),
        header,
        entries,
        valid_len: complete as u64,
        dropped,
    })
}

fn parse_header(file: &str, no: usize, line: &str) -> Result<Header, FileReport> {
    // The format first, alone: a newer format may have fields this build
    // does not know, and "newer format" is the message that helps.
    #[derive(serde::Deserialize)]
    struct Version {
        format: u32,
    }
    if let Ok(Version { format }) = ron::from_str::<Version>(line)
        && format != FORMAT
    {
        let why = if format > FORMAT {
            format!(
                "field `format`: journal format {format} is newer than this game reads ({FORMAT}); update the game to open it"
            )
        } else {
            format!("field `format`: unknown journal format {format} (this game reads {FORMAT})")
        };
        return Err(report(file, no, column_of(line, "format"), why));
    }
    parse_ron::<Header>(line).map_err(|p| report(file, no + p.line - 1, p.col, p.message))
}

/// Appends entries to a journal, each flushed to disk before `append`
/// returns.
#[derive(Debug)]
pub struct JournalWriter {
    file: File,
    pub path: PathBuf,
    /// Entries in the file.
    pub entries: usize,
}

fn sync_dir(path: &Path) {
    // Makes a new file's name durable too; not every platform can open a
    // directory, so failure is not an error.
    if let Some(dir) = path.parent()
        && let Ok(d) = File::open(dir)
    {
        let _ = d.sync_all();
    }
}

impl JournalWriter {
    /// Starts a new journal at `path` (an existing file there is archived,
    /// never overwritten).
    pub fn create(path: &Path, header: &Header) -> std::io::Result<Self> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        if path.exists() {
            archive(path)?;
        }
        // The header is written aside and renamed into place: a journal
        // either does not exist or starts with a whole header.
        write_copy(path, header, &[])?;
        let mut file = OpenOptions::new().write(true).open(path)?;
        file.seek(SeekFrom::End(0))?;
        Ok(JournalWriter {
            file,
            path: path.to_path_buf(),
            entries: 0,
        })
    }

    /// Goes on with a journal read back: a cut last line is cut away first.
    pub fn resume(path: &Path, read: &JournalRead) -> std::io::Result<Self> {
        let mut file = OpenOptions::new().write(true).open(path)?;
        file.set_len(read.valid_len)?;
        file.seek(SeekFrom::End(0))?;
        file.sync_all()?;
        Ok(JournalWriter {
            file,
            path: path.to_path_buf(),
            entries: read.entries.len(),
        })
    }

    /// Appends one accepted order with the state hash after it, and waits
    /// for the disk.
    pub fn append(&mut self, order: &crate::engine::Order, state: u64) -> std::io::Result<()> {
        let entry = Entry {
            n: self.entries + 1,
            order: order.clone(),
            state: format!("{state:016x}"),
        };
        let line = ron::to_string(&entry).map_err(std::io::Error::other)?;
        self.file.write_all(format!("{line}\n").as_bytes())?;
        self.file.sync_data()?;
        self.entries += 1;
        Ok(())
    }
}

/// Moves a journal aside as `NAME-old-N.ron` (journals are never deleted);
/// returns where it went.
pub fn archive(path: &Path) -> std::io::Result<PathBuf> {
    let stem = path
        .file_stem()
        .map_or("journal".into(), |s| s.to_string_lossy().to_string());
    for n in 1..10_000 {
        let to = path.with_file_name(format!("{stem}-old-{n}.ron"));
        if !to.exists() {
            std::fs::rename(path, &to)?;
            return Ok(to);
        }
    }
    Err(std::io::Error::other("too many archived journals"))
}

/// Writes a journal under a new name: the entries read, with a summary.
pub fn write_copy(to: &Path, header: &Header, entries: &[(usize, Entry)]) -> std::io::Result<()> {
    if let Some(dir) = to.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    let mut text = ron::to_string(header).map_err(std::io::Error::other)?;
    text.push('\n');
    for (_, e) in entries {
        text.push_str(&ron::to_string(e).map_err(std::io::Error::other)?);
        text.push('\n');
    }
    let tmp = to.with_extension("ron.part");
    {
        let mut f = File::create(&tmp)?;
        f.write_all(text.as_bytes())?;
        f.sync_all()?;
    }
    std::fs::rename(&tmp, to)?;
    sync_dir(to);
    Ok(())
}
