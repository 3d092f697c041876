//! Reading and appending journal files. An entry counts once its whole line,
//! newline included, is on disk: a line cut by a crash is dropped with a
//! message, never guessed at.

use std::fs::{File, OpenOptions};
use std::io::Write;
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
    /// Length in bytes of the file as read.
    pub len: u64,
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
        len: bytes.len() as u64,
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

/// Where a journal's bytes go: the journal file (opened in append mode and
/// locked), or in tests a file that fails on cue.
pub trait JournalSink: Write + Send + Sync + std::fmt::Debug {
    /// Waits for the disk.
    fn sync(&mut self) -> std::io::Result<()>;
    /// Cuts the file back to `len` bytes.
    fn cut(&mut self, len: u64) -> std::io::Result<()>;
}

impl JournalSink for File {
    fn sync(&mut self) -> std::io::Result<()> {
        self.sync_data()
    }

    fn cut(&mut self, len: u64) -> std::io::Result<()> {
        self.set_len(len)
    }
}

/// Appends entries to a journal, each flushed to disk before `append`
/// returns. A line is on disk whole or not at all: a write that fails is cut
/// back, and a writer that cannot cut it back writes nothing more.
#[derive(Debug)]
pub struct JournalWriter {
    sink: Box<dyn JournalSink>,
    pub path: PathBuf,
    /// Entries in the file.
    pub entries: usize,
    /// Bytes of the whole lines in the file.
    len: u64,
    /// Set when a failed write could not be cut back: why nothing more is
    /// written after the fragment.
    broken: Option<String>,
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

/// The error of a journal another process holds (its `ErrorKind` is
/// `WouldBlock`).
pub fn in_use(path: &Path) -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::WouldBlock,
        format!(
            "the game {} is open in another window (another `bob` holds its lock)",
            path.display()
        ),
    )
}

/// Whether `file` is still the file named `path` (a journal is replaced by
/// a rename: a lock taken on the file it replaced guards nothing).
fn still_at(file: &File, path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (file.metadata(), std::fs::metadata(path)) {
            (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = (file, path);
        true
    }
}

/// Takes the OS lock on the journal at `path` (an empty file is made when
/// there is none), before anything else touches it: one process writes a
/// game at a time. The lock is the operating system's (`File::try_lock`), so
/// it goes with the process that holds it, a killed one included. Refused
/// with [`in_use`] while another process holds it.
pub fn lock(path: &Path) -> std::io::Result<File> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    // A journal replaced between the open and the lock is opened again.
    for _ in 0..3 {
        let file = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(path)?;
        match file.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => return Err(in_use(path)),
            Err(std::fs::TryLockError::Error(e)) => return Err(e),
        }
        if still_at(&file, path) {
            return Ok(file);
        }
    }
    Err(in_use(path))
}

/// Whether a journal is there with something in it: an empty file is a
/// journal's lock taken before its header was in place (a process killed
/// then), no game.
pub fn holds_a_game(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.len() > 0)
}

/// Whether another process holds the lock of the journal at `path` (asked
/// by the command line before a window opens; the window takes the lock
/// itself).
pub fn held_elsewhere(path: &Path) -> bool {
    File::open(path).is_ok_and(|f| matches!(f.try_lock(), Err(std::fs::TryLockError::WouldBlock)))
}

impl JournalWriter {
    /// Starts a new journal at `path` (an existing file there is archived,
    /// never overwritten), under its lock.
    pub fn create(path: &Path, header: &Header) -> std::io::Result<Self> {
        Self::start(lock(path)?, path, header, &[])
    }

    /// Starts a journal at `path` with these entries, under the lock `held`
    /// (from [`lock`]). A journal there is first linked aside as
    /// `NAME-old-N.ron`; the new one is written aside, locked and renamed
    /// into place, so a journal either does not exist or starts with a whole
    /// header, and no other process finds the name free in between.
    pub fn start(
        held: File,
        path: &Path,
        header: &Header,
        entries: &[(usize, Entry)],
    ) -> std::io::Result<Self> {
        if held.metadata()?.len() > 0 {
            archive_copy(path)?;
        }
        let part = write_part(path, header, entries)?;
        let file = OpenOptions::new().read(true).append(true).open(&part)?;
        if file.try_lock().is_err() {
            return Err(in_use(path));
        }
        std::fs::rename(&part, path)?;
        sync_dir(path);
        let len = file.metadata()?.len();
        drop(held);
        Ok(Self::on(Box::new(file), path, entries.len(), len))
    }

    /// A writer on `sink`, which holds `entries` whole entries in `len`
    /// bytes (tests give a sink that fails on cue).
    pub fn on(sink: Box<dyn JournalSink>, path: &Path, entries: usize, len: u64) -> Self {
        JournalWriter {
            sink,
            path: path.to_path_buf(),
            entries,
            len,
            broken: None,
        }
    }

    /// Goes on with a journal read back, under its lock: a cut last line is
    /// cut away first. A journal that changed since it was read (another
    /// window wrote to it) is refused.
    pub fn resume(path: &Path, read: &JournalRead) -> std::io::Result<Self> {
        Self::resume_held(lock(path)?, path, read)
    }

    /// [`Self::resume`] under the lock `held` (from [`lock`]).
    pub fn resume_held(held: File, path: &Path, read: &JournalRead) -> std::io::Result<Self> {
        let file = held;
        if file.metadata()?.len() != read.len {
            return Err(std::io::Error::other(format!(
                "{} changed since it was read (another window wrote to it?); open it again",
                path.display()
            )));
        }
        file.set_len(read.valid_len)?;
        file.sync_all()?;
        Ok(Self::on(
            Box::new(file),
            path,
            read.entries.len(),
            read.valid_len,
        ))
    }

    /// Whether a failed write could not be cut back, so that nothing more
    /// is written.
    pub fn is_broken(&self) -> bool {
        self.broken.is_some()
    }

    /// Appends one accepted order with the state hash after it, and waits
    /// for the disk; returns the entry written. A failed write or sync cuts
    /// the file back to its last whole entry and is returned; when the cut
    /// fails too, this and every later append are refused (never a line
    /// after a fragment).
    pub fn append(&mut self, order: &crate::engine::Order, state: u64) -> std::io::Result<Entry> {
        if let Some(why) = &self.broken {
            return Err(std::io::Error::other(why.clone()));
        }
        let entry = Entry {
            n: self.entries + 1,
            order: order.clone(),
            state: format!("{state:016x}"),
        };
        let mut line = ron::to_string(&entry).map_err(std::io::Error::other)?;
        line.push('\n');
        let written = self
            .sink
            .write_all(line.as_bytes())
            .and_then(|()| self.sink.sync());
        if let Err(e) = written {
            if let Err(cut) = self.sink.cut(self.len) {
                self.broken = Some(format!(
                    "{}: a write failed ({e}) and the file could not be cut back to its last whole entry ({cut}); nothing more is written to it",
                    self.path.display()
                ));
            } else {
                let _ = self.sink.sync();
            }
            return Err(e);
        }
        self.len += line.len() as u64;
        self.entries += 1;
        Ok(entry)
    }
}

/// Moves a journal aside as `NAME-old-N.ron` (journals are never deleted);
/// returns where it went.
pub fn archive(path: &Path) -> std::io::Result<PathBuf> {
    let to = archive_name(path)?;
    std::fs::rename(path, &to)?;
    Ok(to)
}

/// The first free `NAME-old-N.ron` beside a journal.
fn archive_name(path: &Path) -> std::io::Result<PathBuf> {
    let stem = path
        .file_stem()
        .map_or("journal".into(), |s| s.to_string_lossy().to_string());
    (1..10_000)
        .map(|n| path.with_file_name(format!("{stem}-old-{n}.ron")))
        .find(|to| !to.exists())
        .ok_or_else(|| std::io::Error::other("too many archived journals"))
}

/// Keeps a journal's content as `NAME-old-N.ron` while its name stays taken
/// (a hard link, else a copy); returns where it went.
fn archive_copy(path: &Path) -> std::io::Result<PathBuf> {
    let to = archive_name(path)?;
    if std::fs::hard_link(path, &to).is_err() {
        std::fs::copy(path, &to)?;
    }
    sync_dir(&to);
    Ok(to)
}

/// Writes a journal under a new name: the entries read, with a summary.
pub fn write_copy(to: &Path, header: &Header, entries: &[(usize, Entry)]) -> std::io::Result<()> {
    let part = write_part(to, header, entries)?;
    std::fs::rename(&part, to)?;
    sync_dir(to);
    Ok(())
}

/// Writes a journal's header and entries beside `to`, on disk; returns the
/// file written, for the caller to rename into place.
fn write_part(to: &Path, header: &Header, entries: &[(usize, Entry)]) -> std::io::Result<PathBuf> {
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
    let mut f = File::create(&tmp)?;
    f.write_all(text.as_bytes())?;
    f.sync_all()?;
    Ok(tmp)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    /// A disk in memory: `room` bytes left, a cut that fails on cue.
    #[derive(Debug, Default)]
    struct Disk {
        bytes: Vec<u8>,
        room: usize,
        cut_fails: bool,
    }

    #[derive(Debug, Clone, Default)]
    struct Sink(Arc<Mutex<Disk>>);

    fn no_space() -> std::io::Error {
        std::io::Error::from_raw_os_error(28)
    }

    impl Write for Sink {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            let mut d = self.0.lock().map_err(|_| no_space())?;
            let n = buf.len().min(d.room);
            if n == 0 {
                return Err(no_space());
            }
            d.room -= n;
            d.bytes.extend_from_slice(&buf[..n]);
            Ok(n)
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl JournalSink for Sink {
        fn sync(&mut self) -> std::io::Result<()> {
            Ok(())
        }

        fn cut(&mut self, len: u64) -> std::io::Result<()> {
            let mut d = self.0.lock().map_err(|_| no_space())?;
            if d.cut_fails {
                return Err(std::io::Error::from_raw_os_error(5));
            }
            let gone = d.bytes.len().saturating_sub(len as usize);
            d.bytes.truncate(len as usize);
            d.room += gone;
            Ok(())
        }
    }

    fn bytes(sink: &Sink) -> Vec<u8> {
        sink.0.lock().map(|d| d.bytes.clone()).unwrap_or_default()
    }

    fn set(sink: &Sink, room: usize, cut_fails: bool) {
        if let Ok(mut d) = sink.0.lock() {
            d.room = room;
            d.cut_fails = cut_fails;
        }
    }

    const MARK: &str = "(n:1,order:mark_used(unit:\"A1\"),state:\"0000000000000007\")\n";

    #[test]
    fn a_write_that_fails_mid_line_is_cut_back_and_the_next_entry_is_whole() {
        let sink = Sink::default();
        set(&sink, 1000, false);
        let mut w = JournalWriter::on(Box::new(sink.clone()), Path::new("j.ron"), 0, 0);
        let order = crate::engine::Order::MarkUsed { unit: "A1".into() };
        w.append(&order, 7).unwrap();
        assert_eq!(bytes(&sink), MARK.as_bytes());
        // Ten bytes of the next line fit, then the disk is full.
        set(&sink, 10, false);
        let e = w.append(&order, 7).unwrap_err();
        assert_eq!(e.raw_os_error(), Some(28));
        assert_eq!(bytes(&sink), MARK.as_bytes(), "the fragment stays");
        assert_eq!(w.entries, 1);
        // Space returns: entry 2 follows entry 1 whole.
        set(&sink, 1000, false);
        let entry = w.append(&order, 7).unwrap();
        assert_eq!(entry.n, 2);
        assert_eq!(
            String::from_utf8(bytes(&sink)).unwrap(),
            format!("{MARK}{}", MARK.replace("n:1", "n:2"))
        );
    }

    #[test]
    fn a_fragment_that_cannot_be_cut_back_is_never_followed() {
        let sink = Sink::default();
        set(&sink, 10, true);
        let mut w = JournalWriter::on(Box::new(sink.clone()), Path::new("j.ron"), 0, 0);
        let order = crate::engine::Order::MarkUsed { unit: "A1".into() };
        assert!(w.append(&order, 7).is_err());
        assert!(w.is_broken());
        set(&sink, 1000, false);
        let e = w.append(&order, 7).unwrap_err();
        assert_eq!(
            e.to_string(),
            "j.ron: a write failed (No space left on device (os error 28)) and the file could not be cut back to its last whole entry (Input/output error (os error 5)); nothing more is written to it"
        );
        assert_eq!(bytes(&sink), &MARK.as_bytes()[..10]);
    }
}
