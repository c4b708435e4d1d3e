#![cfg(not(target_arch = "wasm32"))]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]
//! No file of the dashboard imports a file that imports it back (issue #34: `bridge.rs` and
//! `components/ctx.rs` did): a pair of files that need each other is one concern split in two, or a
//! helper in the wrong place. Reads every `crate::` and `super::` path of `web/src` (test modules aside).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// The module path of a file relative to `src` (`components/ctx.rs` is `components::ctx`).
fn module_of(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel.iter().map(|s| s.to_string_lossy().into_owned()).collect();
    if let Some(last) = parts.last_mut() {
        *last = last.trim_end_matches(".rs").to_owned();
    }
    if parts.last().is_some_and(|l| l == "mod" || l == "lib") {
        parts.pop();
    }
    parts
}

/// The file a module path names, the longest prefix that is a file (`crate::view::ReportView` is `view.rs`).
fn file_of(src: &Path, path: &[String]) -> Option<PathBuf> {
    for n in (1..=path.len()).rev() {
        let rel: PathBuf = path.iter().take(n).collect();
        for f in [src.join(&rel).with_extension("rs"), src.join(&rel).join("mod.rs")] {
            if f.is_file() {
                return Some(f);
            }
        }
    }
    None
}

/// Every module path a text names through `crate::` or `super::` (a `use` group's items each).
fn paths(text: &str, module: &[String]) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    for start in ["crate::", "super::"] {
        let mut from = 0;
        while let Some(i) = text[from..].find(start) {
            let at = from + i;
            from = at + start.len();
            if at > 0 && (bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_' || bytes[at - 1] == b':') {
                continue;
            }
            let mut base: Vec<String> = if start == "crate::" {
                Vec::new()
            } else {
                let mut m = module.to_vec();
                m.pop();
                m
            };
            let rest = &text[from..];
            let end = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':')).unwrap_or(rest.len());
            for seg in rest[..end].split("::").filter(|s| !s.is_empty()) {
                base.push(seg.to_owned());
            }
            // `use super::{a, b}`: each item of the group.
            if rest[end..].starts_with('{') {
                let close = rest[end..].find('}').map_or(rest.len(), |c| end + c);
                for item in rest[end + 1..close].split(',') {
                    let item = item.trim().split("::").next().unwrap_or("").trim().to_owned();
                    if !item.is_empty() {
                        let mut p = base.clone();
                        p.push(item);
                        out.push(p);
                    }
                }
            } else {
                out.push(base);
            }
        }
    }
    out
}

#[test]
fn no_file_imports_a_file_that_imports_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut all = Vec::new();
    files(&src, &mut all);
    let mut graph: BTreeMap<PathBuf, BTreeSet<PathBuf>> = BTreeMap::new();
    for f in &all {
        let text = std::fs::read_to_string(f).unwrap();
        let text = text.split("#[cfg(test)]").next().unwrap_or("");
        // Comments name modules without importing them (doc links).
        let text: String = text.lines().map(|l| l.split("//").next().unwrap_or("")).collect::<Vec<_>>().join("\n");
        let module = module_of(f.strip_prefix(&src).unwrap());
        let deps = graph.entry(f.clone()).or_default();
        for p in paths(&text, &module) {
            if let Some(to) = file_of(&src, &p).filter(|to| to != f) {
                deps.insert(to);
            }
        }
    }
    let mut cycles = Vec::new();
    for (a, deps) in &graph {
        for b in deps {
            if a < b && graph.get(b).is_some_and(|d| d.contains(a)) {
                cycles.push(format!(
                    "{} <-> {}",
                    a.strip_prefix(&src).unwrap().display(),
                    b.strip_prefix(&src).unwrap().display()
                ));
            }
        }
    }
    assert!(cycles.is_empty(), "files that import each other:\n{}", cycles.join("\n"));
    assert!(graph.len() > 20, "read {} files", graph.len());
}
