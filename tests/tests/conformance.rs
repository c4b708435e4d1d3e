//! The upstream components' own unit tests, translated: `tests/fixtures/conformance/<component>/<case>/`,
//! each `case.yaml` naming the upstream repository, test file and case it comes from (`upstream`), with
//! the outcome that upstream test expects (docs/conformance.md lists them all, and the cases left out).

use std::collections::BTreeSet;

use kube_preflight_tests::{case_dirs, fixtures, run_case};

#[test]
fn every_translated_upstream_case_gives_the_upstream_outcome() {
    let root = fixtures().join("conformance");
    let dirs = case_dirs(&root);
    assert!(dirs.len() >= 100, "only {} conformance cases", dirs.len());
    let mut failures = Vec::new();
    for dir in &dirs {
        let c = run_case(dir);
        let name = dir.strip_prefix(&root).unwrap().display().to_string();
        let up = c.spec.get("upstream");
        for key in ["repo", "file", "case"] {
            if up.get(key).as_str().is_none_or(str::is_empty) {
                failures.push(format!("{name}: case.yaml has no upstream.{key}"));
            }
        }
        // What a case asserts beyond its upstream test (a kube-preflight conclusion: a severity, a plan
        // detail) is marked as ours, with what it adds; an empty mark says nothing and is refused.
        if !c.spec.get("ours").is_null() && c.spec.get("ours").as_str().is_none_or(|s| s.trim().is_empty()) {
            failures.push(format!("{name}: `ours` must say what the case asserts beyond its upstream test"));
        }
        let problems = c.failures();
        // A case kube-preflight does not yet agree with says why (`known`), and must still disagree: when
        // it passes, the explanation is stale and the case is taken as a plain one.
        let known = c.spec.get("known").as_str().unwrap_or_default().to_owned();
        match (known.is_empty(), problems.is_empty()) {
            (true, false) => failures.push(format!("{name}:\n  {}", problems.join("\n  "))),
            (false, true) => failures.push(format!("{name}: passes now: remove its `known` explanation")),
            _ => {}
        }
    }
    assert!(failures.is_empty(), "{} of {} case(s) failed:\n{}", failures.len(), dirs.len(), failures.join("\n"));
}

/// docs/conformance.md names every fixture folder, so the table of what was translated stays true.
#[test]
fn docs_conformance_lists_every_case() {
    let root = fixtures().join("conformance");
    let doc = std::fs::read_to_string(fixtures().join("../../docs/conformance.md")).expect("docs/conformance.md");
    let missing: BTreeSet<String> = case_dirs(&root)
        .iter()
        .map(|d| d.file_name().unwrap().to_string_lossy().into_owned())
        .filter(|name| !doc.contains(&format!("`{name}`")))
        .collect();
    assert!(missing.is_empty(), "docs/conformance.md does not list: {missing:?}");
}
