//! Every rule has fixtures: `tests/fixtures/rules/<category>/<rule>/{fail,pass}-*/`, at least one of each.
//! The cases themselves run in `tests/fixtures.rs`, one test each.

use kube_preflight_tests::fixtures;

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
