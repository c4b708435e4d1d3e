//! Verdicts you can gate on: a healthy cluster with the usual noise (DaemonSets, static pods' mirrors,
//! finished Jobs, budgets with room, a cordoned but Ready worker) gives no blocker where the distribution
//! would go through (docs/semantics.md).

use kube_preflight::{check, Profile, UpgradeOptions};
use kube_preflight_tests::{fixtures, inputs, run_case};

#[test]
fn a_healthy_cluster_with_the_usual_noise_is_ready() {
    let dir = fixtures().join("healthy");
    let case = run_case(&dir);
    assert!(case.failures().is_empty(), "{:?}", case.failures());
    for profile in [Profile::Kubeadm, Profile::Rke, Profile::RkeLegacy] {
        let mut o = UpgradeOptions::new("1.29.2");
        o.profile = profile;
        let r = check(&inputs(&dir), &o).unwrap();
        let blockers: Vec<(&str, &str)> = r
            .findings
            .iter()
            .filter(|f| f.severity == kube_preflight::Severity::Blocker)
            .map(|f| (f.code, f.message.as_str()))
            .collect();
        assert!(blockers.is_empty(), "{profile}: {blockers:#?}");
        // The cordoned worker is said, as a warning.
        assert!(r
            .findings
            .iter()
            .any(|f| f.code == "budget/node-unavailable" && f.object.as_ref().is_some_and(|o| o.name == "w-4")));
    }
}

#[test]
fn the_same_cordon_stalls_an_openshift_pool() {
    // The MCO never picks an unschedulable node (machine-config-operator pkg/controller/node/status.go):
    // the worker pool cannot complete.
    let mut o = UpgradeOptions::new("4.16.3");
    o.from = Some("4.15.10".into());
    o.profile = Profile::Openshift;
    let r = check(&inputs(&fixtures().join("healthy")), &o).unwrap();
    assert!(r.findings.iter().any(|f| f.code == "budget/node-unavailable"
        && f.severity == kube_preflight::Severity::Blocker
        && f.object.as_ref().is_some_and(|o| o.name == "w-4")));
}
