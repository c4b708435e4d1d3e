//! The demo cluster's whole report, compared with `tests/fixtures/demo/expected.json` (run with
//! `UPDATE_EXPECT=1` to rewrite it after a deliberate change, then read the diff).

use kube_preflight::{check, UpgradeOptions};
use kube_preflight_tests::{fixtures, inputs};

#[test]
fn demo_report_matches_the_expected_report() {
    let dir = fixtures().join("demo");
    let report = check(&inputs(&dir), &UpgradeOptions::new("1.29.2")).unwrap();
    let json = report.to_json();
    let path = dir.join("expected.json");
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::write(&path, &json).unwrap();
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        json == expected,
        "the demo report changed; if deliberate, rerun with UPDATE_EXPECT=1 and review the diff:\n{json}"
    );
}

#[test]
fn same_input_same_output() {
    let dir = fixtures().join("demo");
    let a = check(&inputs(&dir), &UpgradeOptions::new("1.29.2")).unwrap().to_json();
    let mut reversed = inputs(&dir);
    reversed.reverse();
    let b = check(&inputs(&dir), &UpgradeOptions::new("1.29.2")).unwrap().to_json();
    assert_eq!(a, b);
    // Input order changes the sources' order in the inventory but not the findings.
    let c = check(&reversed, &UpgradeOptions::new("1.29.2")).unwrap();
    let codes = |r: &kube_preflight::Report| r.findings.iter().map(|f| (f.code, f.message.clone())).collect::<Vec<_>>();
    assert_eq!(codes(&c), codes(&check(&inputs(&dir), &UpgradeOptions::new("1.29.2")).unwrap()));
}

/// SARIF results carry a fingerprint that tells them apart within a run and stays when lines move (a
/// comment added above every document), so that code scanning tracks an alert instead of opening a new one.
#[test]
fn sarif_fingerprints_are_distinct_and_survive_moved_lines() {
    use kube_preflight::render::{render, Format, RenderOptions};
    use kube_preflight::Input;
    let fingerprints = |inputs: &[Input]| -> Vec<String> {
        let report = check(inputs, &UpgradeOptions::new("1.29.2")).unwrap();
        let sarif: serde_json::Value =
            serde_json::from_str(&render(&report, Format::Sarif, RenderOptions::default())).unwrap();
        sarif["runs"][0]["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["partialFingerprints"]["kubePreflight/v1"].as_str().unwrap().to_owned())
            .collect()
    };
    let dir = fixtures().join("demo");
    let before = fingerprints(&inputs(&dir));
    let mut distinct = before.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), before.len(), "two results share a fingerprint");
    let moved: Vec<Input> = kube_preflight_tests::moved_lines(inputs(&dir));
    let mut after = fingerprints(&moved);
    after.sort();
    assert_eq!(after, distinct);
}
