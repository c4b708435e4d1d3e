//! The core's layers hold: every top-level module of `core/src` (and `parse`, the readers' own crate,
//! re-exported) uses only modules of lower layers
//! (ARCHITECTURE.md, "Layers"). A module that names one of its own layer or above, a module that is not
//! placed in a layer, or a path through the crate root (`crate::check`, which hides the module it comes
//! from) fails this test with the file and line.
//!
//! Test modules (`#[cfg(test)] mod ... { }`) and comments are not read: tests may use anything.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

/// Bottom to top. A module may use the modules of the layers below its own, and no other.
const LAYERS: &[(&str, &[&str])] = &[
    ("units, parsing and sorting", &["units", "parse", "quantity", "version", "sort"]),
    ("the typed model, the API and runtime tables and the options", &["apis", "model", "options", "runtimes"]),
    ("what each family of checks reads", &["coverage"]),
    ("the report's plain data, Helm records, errors", &["report", "helm", "error"]),
    ("ingestion", &["ingest"]),
    ("the current version as the platform states it", &["current"]),
    ("the cluster and its semantics", &["cluster"]),
    ("pools and budgets", &["budget"]),
    ("the distribution recognised", &["detect"]),
    ("the plan's simulation and its downtime", &["plan"]),
    ("the rules", &["rules"]),
    ("rendering", &["render"]),
    ("the whole check", &["pipeline"]),
    ("streaming input", &["session"]),
];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|(_, mods)| mods.contains(&module))
}

/// One use of another top-level module (or of the crate root).
#[derive(Debug, PartialEq, Eq)]
struct Reference {
    line: usize,
    /// The first path segment after the crate root.
    name: String,
}

/// Where the string or char literal that starts at `i` ends (just past it), if one starts there: `"..."`
/// with escapes, raw strings `r"..."` and `r#"..."#` (also `b`-prefixed), and char literals `'x'`, `'\n'`
/// (a lifetime `'a` is none).
fn literal_end(chars: &[char], i: usize) -> Option<usize> {
    let at = |k: usize| chars.get(k).copied();
    let ident = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
    let before = if i == 0 { None } else { at(i - 1) };
    match at(i)? {
        '"' if !ident(before) || before == Some('b') || before == Some('r') => {
            let mut k = i + 1;
            while let Some(c) = at(k) {
                match c {
                    '\\' => k += 2,
                    '"' => return Some(k + 1),
                    _ => k += 1,
                }
            }
            Some(chars.len())
        }
        'r' if !ident(before) || before == Some('b') => {
            let hashes = (i + 1..).take_while(|&k| at(k) == Some('#')).count();
            if at(i + 1 + hashes) != Some('"') || (hashes == 0 && at(i + 1) != Some('"')) {
                return None;
            }
            let mut k = i + 2 + hashes;
            while k < chars.len() {
                if at(k) == Some('"') && (1..=hashes).all(|h| at(k + h) == Some('#')) {
                    return Some(k + 1 + hashes);
                }
                k += 1;
            }
            Some(chars.len())
        }
        '\'' if at(i + 1) == Some('\\') => (i + 3..).find(|&k| at(k) == Some('\'') || at(k).is_none()).map(|k| k + 1),
        '\'' if at(i + 2) == Some('\'') => Some(i + 3),
        _ => None,
    }
}

/// `text` with comments and `#[cfg(test)]` modules blanked out (line breaks kept, so lines still count).
fn strip(text: &str) -> String {
    let mut out: Vec<char> = Vec::with_capacity(text.len());
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        // A string or char literal is blanked whole: a `/*` or `//` inside one (`"api/*"`) starts no comment,
        // and a path inside one is no use of a module.
        if let Some(end) = literal_end(&chars, i) {
            for c in &chars[i..end] {
                out.push(if *c == '\n' { '\n' } else { ' ' });
            }
            i = end;
            continue;
        }
        let rest: String = chars[i..chars.len().min(i + 12)].iter().collect();
        if rest.starts_with("//") {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
            continue;
        }
        if rest.starts_with("/*") {
            while i < chars.len() && !(chars[i] == '*' && chars.get(i + 1) == Some(&'/')) {
                out.push(if chars[i] == '\n' { '\n' } else { ' ' });
                i += 1;
            }
            i += 2;
            continue;
        }
        if rest.starts_with("#[cfg(test)]") {
            // Skip the attribute and the item after it, up to its closing brace (or semicolon).
            let mut depth = 0usize;
            let mut opened = false;
            while i < chars.len() {
                let c = chars[i];
                if c == '\n' {
                    out.push('\n');
                }
                i += 1;
                match c {
                    '{' => {
                        depth += 1;
                        opened = true;
                    }
                    '}' => {
                        depth = depth.saturating_sub(1);
                        if opened && depth == 0 {
                            break;
                        }
                    }
                    ';' if !opened => break,
                    _ => {}
                }
            }
            continue;
        }
        out.push(chars[i]);
        i += 1;
    }
    out.into_iter().collect()
}

fn ident_at(s: &str) -> Option<&str> {
    let end = s.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(s.len());
    (end > 0).then(|| &s[..end])
}

/// The first segments of the paths in a `{a, b::c, d::{e, f}}` group.
fn group_heads(group: &str) -> Vec<&str> {
    let mut heads = Vec::new();
    let (mut depth, mut start) = (0usize, 0usize);
    for (k, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                heads.extend(ident_at(group[start..k].trim()));
                start = k + 1;
            }
            _ => {}
        }
    }
    heads.extend(ident_at(group[start..].trim()));
    heads.retain(|h| *h != "self");
    heads
}

/// The references to the crate root's children in one file's text. `depth` is the file's module depth
/// (`cluster/mod.rs` 1, `cluster/nodes.rs` 2), so that `super::super::x` is seen for what it reaches.
fn references(text: &str, depth: usize) -> Vec<Reference> {
    let text = strip(text);
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let mut roots: Vec<usize> = line.match_indices("crate::").map(|(k, _)| k + "crate::".len()).collect();
        // `super::` chains that climb to the crate root.
        for (k, _) in line.match_indices("super::") {
            if k >= 7 && line[..k].ends_with("super::") {
                continue; // counted from the chain's start
            }
            let mut end = k;
            let mut count = 0;
            while line[end..].starts_with("super::") {
                end += "super::".len();
                count += 1;
            }
            if count >= depth {
                roots.push(end);
            }
        }
        for at in roots {
            let rest = &line[at..];
            if let Some(group) = rest.strip_prefix('{') {
                // A group may span lines: read up to its closing brace in the whole text.
                let offset: usize =
                    text.lines().take(n).map(|l| l.len() + 1).sum::<usize>() + (line.len() - group.len());
                let body = &text[offset..];
                let mut depth_b = 1usize;
                let end = body
                    .char_indices()
                    .find(|(_, c)| {
                        match c {
                            '{' => depth_b += 1,
                            '}' => depth_b -= 1,
                            _ => {}
                        }
                        depth_b == 0
                    })
                    .map_or(body.len(), |(e, _)| e);
                for h in group_heads(&body[..end]) {
                    out.push(Reference { line: n + 1, name: h.to_owned() });
                }
            } else if let Some(id) = ident_at(rest) {
                // `crate::rules()` calls a function of the crate root, even where a module has the name.
                let call = rest[id.len()..].trim_start().starts_with('(');
                let name = if call { format!("{id}()") } else { id.to_owned() };
                out.push(Reference { line: n + 1, name });
            }
        }
    }
    out
}

/// The top-level modules of a crate's `src`.
fn top_modules(src: &Path) -> BTreeSet<String> {
    let mut mods = BTreeSet::new();
    for e in fs::read_dir(src).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_stem().unwrap().to_string_lossy().into_owned();
        if p.is_dir() || (p.extension().is_some_and(|x| x == "rs") && name != "lib" && name != "main") {
            mods.insert(name);
        }
    }
    mods
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// Every violation of the layers in a file: `(line, message)`.
fn violations(module: &str, depth: usize, text: &str, modules: &BTreeSet<String>) -> Vec<(usize, String)> {
    let Some(own) = layer_of(module) else {
        return vec![(0, format!("module `{module}` is in no layer: place it in LAYERS (core/tests/layers.rs)"))];
    };
    let mut out = Vec::new();
    for r in references(text, depth) {
        if r.name == module {
            continue;
        }
        if !modules.contains(&r.name) {
            out.push((r.line, format!("`crate::{}` goes through the crate root: name the module it lives in", r.name)));
            continue;
        }
        match layer_of(&r.name) {
            Some(l) if l < own => {}
            Some(l) => out.push((
                r.line,
                format!(
                    "`{module}` ({}) uses `{}` ({}){}",
                    LAYERS[own].0,
                    r.name,
                    LAYERS[l].0,
                    if l == own { ", a module of its own layer" } else { ", a layer above it" }
                ),
            )),
            None => out.push((r.line, format!("`{}` is in no layer", r.name))),
        }
    }
    out
}

#[test]
fn core_modules_use_only_lower_layers() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut modules = top_modules(&src);
    // The readers are their own crate (`parse/`, built for speed), re-exported as `crate::parse`: a module
    // of the bottom layer that cannot use the core at all (it does not depend on it).
    modules.insert("parse".to_owned());
    for m in &modules {
        assert!(layer_of(m).is_some(), "module `{m}` is in no layer: place it in LAYERS (core/tests/layers.rs)");
    }
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut problems = Vec::new();
    for f in &files {
        let rel = f.strip_prefix(&src).unwrap();
        let parts: Vec<String> = rel.iter().map(|c| c.to_string_lossy().into_owned()).collect();
        let top = parts[0].trim_end_matches(".rs").to_owned();
        if top == "lib" {
            continue;
        }
        // Module depth: `x.rs` and `x/mod.rs` are 1; `x/y.rs` 2; `x/y/mod.rs` 2.
        let depth = parts.len() - usize::from(parts.last().is_some_and(|p| p == "mod.rs"));
        let text = fs::read_to_string(f).unwrap();
        for (line, msg) in violations(&top, depth, &text, &modules) {
            problems.push(format!("core/src/{}:{line}: {msg}", rel.display()));
        }
    }
    assert!(problems.is_empty(), "the layers are broken:\n{}", problems.join("\n"));
}

#[test]
fn the_check_sees_what_it_must() {
    let modules: BTreeSet<String> = LAYERS.iter().flat_map(|(_, m)| m.iter().map(|s| (*s).to_owned())).collect();
    // Downward: fine.
    assert!(
        violations("plan", 1, "use crate::cluster::Cluster;\nuse crate::budget::{self, Pool};\n", &modules).is_empty()
    );
    // Upward, in a plain path, a group, a multi-line group and a path inside an expression.
    let up = violations("cluster", 2, "use crate::rules::Context;\n", &modules);
    assert_eq!(up.len(), 1, "{up:?}");
    assert!(up[0].1.contains("a layer above it"), "{up:?}");
    assert_eq!(violations("model", 1, "use crate::{parse::Node, plan::Outcome};\n", &modules).len(), 1);
    assert_eq!(violations("model", 1, "use crate::{\n    parse::Node,\n    render::text,\n};\n", &modules).len(), 1);
    assert_eq!(violations("report", 1, "fn f() { crate::rules::RULES.len(); }\n", &modules).len(), 1);
    // Sideways (same layer) is a cycle waiting to happen.
    assert!(violations("model", 1, "use crate::options::Profile;\n", &modules)[0].1.contains("its own layer"));
    // `super::` that climbs to the root: from cluster/nodes.rs (depth 2), super::super::plan is the plan.
    assert_eq!(violations("cluster", 2, "use super::super::plan::Outcome;\n", &modules).len(), 1);
    assert!(violations("cluster", 2, "use super::Cluster;\n", &modules).is_empty());
    // Through the crate root.
    assert!(violations("render", 1, "let r = crate::rules::rule_infos();\n", &modules).is_empty());
    assert_eq!(violations("render", 1, "let r = crate::rules();\n", &modules).len(), 1);
    assert_eq!(violations("render", 1, "let r = crate::check(&i, &o);\n", &modules).len(), 1);
    // A `/*` inside a string starts no comment: what follows it is still read.
    assert_eq!(
        violations("options", 1, "const P: &str = \"api/*\";\nfn f() { crate::coverage::x(); }\n", &modules).len(),
        1
    );
    assert_eq!(
        violations("options", 1, "const P: &str = r#\"a /* \"b\" \"#;\nuse crate::rules::X;\n", &modules).len(),
        1
    );
    assert!(violations("options", 1, "const P: &str = \"crate::rules\";\nconst C: char = '\"';\n", &modules).is_empty());
    // Test modules and comments are not read.
    let text = "// crate::session\n/* crate::pipeline */\nfn a() {}\n#[cfg(test)]\nmod tests {\n    use crate::session::Session;\n}\n";
    assert!(violations("units", 1, text, &modules).is_empty());
    // A module that is not placed.
    assert!(violations("newthing", 1, "", &modules)[0].1.contains("in no layer"));
}
