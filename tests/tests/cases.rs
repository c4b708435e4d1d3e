//! Plan and downtime fixtures: `tests/fixtures/plan/*/case.yaml` (see `tests/src/lib.rs` for the format).

use kube_preflight_tests::{case_dirs, fixtures, run_case};

#[test]
fn plan_fixtures() {
    let root = fixtures().join("plan");
    let dirs = case_dirs(&root);
    assert!(!dirs.is_empty());
    let mut failures = Vec::new();
    for dir in &dirs {
        let c = run_case(dir);
        let problems = c.failures();
        if !problems.is_empty() {
            let plan = serde_json::to_string_pretty(&c.json["plan"]["phases"]).unwrap();
            failures.push(format!(
                "{}:\n  {}\nphases were:\n{plan}",
                dir.strip_prefix(&root).unwrap().display(),
                problems.join("\n  ")
            ));
        }
    }
    assert!(failures.is_empty(), "{} case(s) failed:\n{}", failures.len(), failures.join("\n"));
}
