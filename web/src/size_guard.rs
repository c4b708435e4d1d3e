//! What the page's wasm must not bring back (see ARCHITECTURE.md, "Size"): the standard library's Unicode
//! case tables (16 KB gzipped) and its float formatting (8 KB). The page is within its size goal by little;
//! `cargo xtask bench` measures it, this test names the cause at once.

use std::path::Path;

fn sources(dir: &Path, out: &mut Vec<(String, String)>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push((path.display().to_string(), std::fs::read_to_string(&path).unwrap()));
        }
    }
}

#[test]
fn no_unicode_case_mapping_and_no_float_formatting_in_the_dashboard() {
    let mut files = Vec::new();
    sources(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), &mut files);
    assert!(files.len() > 20);
    let mut found = Vec::new();
    for (name, text) in &files {
        if name.ends_with("size_guard.rs") || name.ends_with("contrast.rs") {
            continue; // tests only
        }
        // The code outside its tests, without comments.
        let code = text.split("#[cfg(test)]").next().unwrap_or_default();
        for (n, line) in code.lines().enumerate() {
            let line = line.trim_start();
            if line.starts_with("//") {
                continue;
            }
            let bad = [".to_lowercase()", ".to_uppercase()", ":.0}", ":.1}", ":.2}", ":.3}"];
            if let Some(b) = bad.iter().find(|b| line.contains(*b)) {
                found.push(format!("{name}:{}: {b} (use to_ascii_*, view::fixed or view::num)", n + 1));
            }
        }
    }
    assert!(found.is_empty(), "{found:#?}");
}
