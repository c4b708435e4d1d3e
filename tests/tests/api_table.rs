//! Every row of `removed-apis.tsv` is honoured end to end: an object of that group/version/kind is
//! served, deprecated or removed at exactly the minors the row says, through `check()`.

use kube_preflight::apis::table;
use kube_preflight::{check, Input, UpgradeOptions};

fn codes_at(gv: &str, kind: &str, minor: u32) -> Vec<&'static str> {
    let manifest = format!("apiVersion: {gv}\nkind: {kind}\nmetadata:\n  name: probe\n  namespace: default\n");
    let report = check(&[Input::new("probe.yaml", manifest)], &UpgradeOptions::new(&format!("1.{minor}.0"))).unwrap();
    report.findings.iter().map(|f| f.code).collect()
}

#[test]
fn every_row_is_honoured() {
    let rows = table();
    assert_eq!(rows.len(), 111);
    let mut wrong = Vec::new();
    for r in &rows {
        let mut expect = |minor: u32, want: &[&str]| {
            let got = codes_at(r.group_version, r.kind, minor);
            if got != want {
                wrong.push(format!("{} {} at 1.{minor}: got {got:?}, want {want:?}", r.group_version, r.kind));
            }
        };
        match (r.deprecated_in, r.removed_in) {
            (Some(d), Some(rem)) => {
                if d > 16 {
                    expect(d - 1, &[]);
                }
                if d < rem {
                    expect(d, &["api/deprecated"]);
                    expect(rem - 1, &["api/deprecated"]);
                }
                expect(rem, &["api/removed"]);
                expect(rem + 5, &["api/removed"]);
            }
            (None, Some(rem)) => {
                expect(rem - 1, &[]);
                expect(rem, &["api/removed"]);
            }
            (Some(d), None) => {
                expect(d - 1, &[]);
                expect(d, &["api/deprecated"]);
            }
            // Deprecated by its provider with no Kubernetes version: always a warning.
            (None, None) => expect(30, &["api/deprecated"]),
        }
    }
    assert!(wrong.is_empty(), "{} mismatches:\n{}", wrong.len(), wrong.join("\n"));
}

#[test]
fn a_removed_api_reports_replacement_and_versions() {
    let manifest = "apiVersion: batch/v1beta1\nkind: CronJob\nmetadata: {name: nightly, namespace: jobs}\n";
    let report = check(&[Input::new("cron.yaml", manifest)], &UpgradeOptions::new("1.25.0")).unwrap();
    let f = &report.findings[0];
    assert_eq!(f.code, "api/removed");
    assert_eq!(f.data["replacement"].as_str(), Some("batch/v1"));
    assert_eq!(f.data["deprecatedIn"].as_str(), Some("1.21"));
    assert_eq!(f.data["removedIn"].as_str(), Some("1.25"));
    assert!(f.message.contains("CronJob jobs/nightly"), "{}", f.message);
}
