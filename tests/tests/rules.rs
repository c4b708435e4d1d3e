//! Every rule's fixtures: `tests/fixtures/rules/<category>/<rule>/{fail,pass}-*/`.
//! A `fail-` case must report the rule (and meet its `case.yaml`); a `pass-` case must not report it.

use kube_preflight_tests::{case_dirs, fixtures, run_case};

#[test]
fn rule_fixtures() {
    let root = fixtures().join("rules");
    let mut failures = Vec::new();
    let dirs = case_dirs(&root);
    assert!(!dirs.is_empty());
    for dir in &dirs {
        let rel = dir.strip_prefix(&root).unwrap();
        let parts: Vec<String> = rel.iter().map(|p| p.to_string_lossy().into_owned()).collect();
        let [category, rule, case] = parts.as_slice() else {
            failures.push(format!("{}: expected rules/<category>/<rule>/<case>", rel.display()));
            continue;
        };
        let code = format!("{category}/{rule}");
        let c = run_case(dir);
        let mut problems = Vec::new();
        if case.starts_with("fail-") && !c.codes().contains(&code) {
            problems.push(format!("{code} did not fire"));
        } else if case.starts_with("pass-") && c.codes().contains(&code) {
            problems.push(format!("{code} fired"));
        } else if !case.starts_with("fail-") && !case.starts_with("pass-") {
            problems.push("case folders are named fail-* or pass-*".to_owned());
        }
        problems.extend(c.failures());
        if !problems.is_empty() {
            failures.push(format!("{}:\n  {}", rel.display(), problems.join("\n  ")));
        }
    }
    assert!(failures.is_empty(), "{} case(s) failed:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn every_rule_has_a_failing_and_a_passing_fixture() {
    let root = fixtures().join("rules");
    let mut missing = Vec::new();
    for info in kube_preflight::rules() {
        let dir = root.join(info.code);
        let cases: Vec<String> = std::fs::read_dir(&dir)
            .map(|d| d.filter_map(Result::ok).map(|e| e.file_name().to_string_lossy().into_owned()).collect())
            .unwrap_or_default();
        for kind in ["fail-", "pass-"] {
            if !cases.iter().any(|c| c.starts_with(kind)) {
                missing.push(format!("{} has no {kind}* fixture in {}", info.code, dir.display()));
            }
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}
