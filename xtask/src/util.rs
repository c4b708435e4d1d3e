//! Small process and file helpers for the xtask commands.

use std::fmt;
use std::path::Path;
use std::process::{Command, Stdio};

use crate::setup::Env;

/// Why an xtask command stopped.
#[derive(Debug)]
pub struct Failure(String);

impl Failure {
    pub fn new(msg: impl Into<String>) -> Failure {
        Failure(msg.into())
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A command run in `dir` with the tools' PATH, and no standard input (CI has none; nothing may prompt).
pub fn cmd(program: &str, dir: &Path, env: &Env) -> Command {
    let mut c = Command::new(program);
    c.current_dir(dir).env("PATH", &env.path).stdin(Stdio::null());
    // The NO_COLOR convention is "set and not empty" (NO_COLOR=1 is the usual form), but trunk reads the
    // variable as its `--no-color` flag and refuses anything but `true` or `false`.
    if program == "trunk" {
        if let Some(v) = std::env::var_os("NO_COLOR") {
            c.env("NO_COLOR", if v.is_empty() { "false" } else { "true" });
        }
    }
    c
}

fn describe(c: &Command) -> String {
    let mut s = c.get_program().to_string_lossy().into_owned();
    for a in c.get_args() {
        s.push(' ');
        s.push_str(&a.to_string_lossy());
    }
    s
}

/// Run to completion with output shown; a failure names the command.
pub fn run(c: &mut Command) -> Result<(), Failure> {
    let shown = describe(c);
    println!("$ {shown}");
    let status = c.status().map_err(|e| Failure::new(format!("could not start `{shown}`: {e}")))?;
    if status.success() {
        Ok(())
    } else {
        Err(Failure::new(format!("`{shown}` failed ({status})")))
    }
}

/// Run quietly and return stdout (trimmed), or `None` when the program is missing or fails.
pub fn output(c: &mut Command) -> Option<String> {
    let out = c.stderr(Stdio::null()).output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_owned())
}

pub fn read(p: &Path) -> Result<String, Failure> {
    std::fs::read_to_string(p).map_err(|e| Failure::new(format!("cannot read {}: {e}", p.display())))
}

pub fn write(p: &Path, text: &str) -> Result<(), Failure> {
    std::fs::write(p, text).map_err(|e| Failure::new(format!("cannot write {}: {e}", p.display())))
}

pub fn copy_file(from: &Path, to: &Path) -> Result<(), Failure> {
    if let Some(parent) = to.parent() {
        std::fs::create_dir_all(parent)
            .map_err(|e| Failure::new(format!("cannot create {}: {e}", parent.display())))?;
    }
    std::fs::copy(from, to)
        .map(|_| ())
        .map_err(|e| Failure::new(format!("cannot copy {} to {}: {e}", from.display(), to.display())))
}

pub fn copy_tree(from: &Path, to: &Path) -> Result<(), Failure> {
    let entries = std::fs::read_dir(from).map_err(|e| Failure::new(format!("cannot list {}: {e}", from.display())))?;
    for entry in entries {
        let entry = entry.map_err(|e| Failure::new(format!("cannot list {}: {e}", from.display())))?;
        let path = entry.path();
        let dest = to.join(entry.file_name());
        if path.is_dir() {
            copy_tree(&path, &dest)?;
        } else {
            copy_file(&path, &dest)?;
        }
    }
    Ok(())
}

/// The gzip -9 size of a file (the size a browser downloads).
pub fn gzip_size(p: &Path) -> Result<u64, Failure> {
    let out = Command::new("gzip")
        .arg("-9c")
        .arg(p)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| Failure::new(format!("cannot run gzip: {e}")))?;
    Ok(out.stdout.len() as u64)
}

/// The `*.test.mjs` files of a folder, sorted (Node 20's `--test` takes no globs).
pub fn test_files(dir: &Path) -> Result<Vec<std::path::PathBuf>, Failure> {
    let entries = std::fs::read_dir(dir).map_err(|e| Failure::new(format!("cannot list {}: {e}", dir.display())))?;
    let mut files: Vec<_> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.to_string_lossy().ends_with(".test.mjs"))
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(Failure::new(format!("no *.test.mjs files in {}", dir.display())));
    }
    Ok(files)
}

/// A key for what a build read: a hash of each part, in order (std's SipHash: stable within one build of
/// xtask, which is all a cache stamp needs; a new xtask rebuilds once).
pub fn fingerprint(parts: &[&[u8]]) -> String {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    for p in parts {
        p.len().hash(&mut h);
        p.hash(&mut h);
    }
    format!("{:016x}", h.finish())
}

/// A key for the files under `paths` (relative to `root`, files or folders, `target` and `node_modules`
/// left out): each file's path, size and modification time, sorted, and `extra`.
pub fn tree_fingerprint(root: &Path, paths: &[&str], extra: &[&str]) -> Result<String, Failure> {
    fn walk(dir: &Path, out: &mut Vec<String>) -> Result<(), Failure> {
        let meta = std::fs::metadata(dir).map_err(|e| Failure::new(format!("cannot read {}: {e}", dir.display())))?;
        if meta.is_file() {
            let modified = meta.modified().ok().and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok());
            out.push(format!("{} {} {:?}", dir.display(), meta.len(), modified));
            return Ok(());
        }
        let entries =
            std::fs::read_dir(dir).map_err(|e| Failure::new(format!("cannot list {}: {e}", dir.display())))?;
        for entry in entries {
            let entry = entry.map_err(|e| Failure::new(format!("cannot list {}: {e}", dir.display())))?;
            let name = entry.file_name();
            if name == "target" || name == "node_modules" {
                continue;
            }
            walk(&entry.path(), out)?;
        }
        Ok(())
    }
    let mut lines = Vec::new();
    for p in paths {
        walk(&root.join(p), &mut lines)?;
    }
    lines.sort();
    lines.extend(extra.iter().map(|s| (*s).to_owned()));
    let joined = lines.join("\n");
    Ok(fingerprint(&[joined.as_bytes()]))
}
