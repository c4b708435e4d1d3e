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
    for profile in [Profile::Kubeadm, Profile::Rke, Profile::RkeLegacy, Profile::Kops, Profile::GkeBaremetal] {
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
        // No blocker, so the plan runs to its end (one story).
        assert!(r.plan.complete && r.plan.stops.is_empty(), "{profile}: {:?}", r.plan.stops);
        // The cordoned worker is said, as a warning.
        assert!(r
            .findings
            .iter()
            .any(|f| f.code == "budget/node-unavailable" && f.object.as_ref().is_some_and(|o| o.name == "w-4")));
    }
}

/// Healthy OpenShift and GKE on Bare Metal clusters, with every object their own tools read (a recommended
/// target, operators Available, nothing Degraded, the admin gates acknowledged, a passed preflight check):
/// no platform gate, no blocker, a plan that completes.
#[test]
fn healthy_openshift_and_gke_baremetal_clusters_pass_their_platforms_gates() {
    for name in ["healthy-openshift", "healthy-gke-baremetal"] {
        let case = run_case(&fixtures().join(name));
        assert!(case.failures().is_empty(), "{name}: {:?}", case.failures());
        assert_eq!(case.report.summary.blocker, 0, "{name}: {:#?}", case.report.findings);
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

#[test]
fn rke_refuses_a_limit_of_zero_as_rke_does() {
    // rancher/rke services/node_util.go CalculateMaxUnavailable: an int <= 0, a negative percentage or "0%"
    // is "invalid input for max_unavailable_<role>: ..., value must be > 0".
    let cluster = kube_preflight::Input::new("nodes.yaml", "kind: Node\napiVersion: v1\nmetadata: {name: n1}\n");
    for (flag, value) in [("maxUnavailableWorker", "0%"), ("maxUnavailableControlPlane", "0")] {
        let mut o = UpgradeOptions::new("1.29.2");
        o.profile = Profile::Rke;
        let v = kube_preflight::options::parse_limit(flag, value).unwrap();
        if flag == "maxUnavailableWorker" {
            o.max_unavailable_worker = Some(v);
        } else {
            o.max_unavailable_control_plane = Some(v);
        }
        match check(std::slice::from_ref(&cluster), &o) {
            Err(kube_preflight::Error::Options(e)) => assert_eq!(e.field, flag, "{e}"),
            other => panic!("{flag} {value}: expected an options error, got {other:?}"),
        }
    }
    // The same from the cluster's own cluster.yml: the error says where it came from.
    let yml = kube_preflight::Input::new(
        "cluster.yml",
        "nodes: [{address: 10.0.0.1, role: [controlplane, etcd, worker]}]\nupgrade_strategy:\n  max_unavailable_worker: 0%\n",
    );
    let mut o = UpgradeOptions::new("1.29.2");
    o.profile = Profile::Rke;
    match check(&[cluster, yml], &o) {
        Err(kube_preflight::Error::Options(e)) => {
            assert_eq!(e.field, "maxUnavailableWorker");
            assert!(e.message.contains("from cluster.yml:1"), "{e}");
        }
        other => panic!("expected an options error, got {other:?}"),
    }
    // 1 is fine.
    let mut o = UpgradeOptions::new("1.29.2");
    o.profile = Profile::Rke;
    o.max_unavailable_worker = Some(kube_preflight::options::parse_limit("maxUnavailableWorker", "1").unwrap());
    let n = kube_preflight::Input::new("nodes.yaml", "kind: Node\napiVersion: v1\nmetadata: {name: n1}\n");
    assert!(check(&[n], &o).is_ok());
}

#[test]
fn options_the_distribution_refuses_are_options_errors() {
    let n = || kube_preflight::Input::new("nodes.yaml", "kind: Node\napiVersion: v1\nmetadata: {name: n1}\n");
    let limit = |v: &str| Some(kube_preflight::options::parse_limit("x", v).unwrap());
    let cases: Vec<(Profile, UpgradeOptions, &str)> = vec![
        // A surge under kubeadm: only kOps creates extra nodes.
        (Profile::Kubeadm, UpgradeOptions { max_surge: limit("1"), ..UpgradeOptions::new("1.29.2") }, "maxSurge"),
        // 0 at a time where the distribution refuses it.
        (
            Profile::Kubeadm,
            UpgradeOptions { max_unavailable_worker: limit("0"), ..UpgradeOptions::new("1.29.2") },
            "maxUnavailableWorker",
        ),
        (
            Profile::GkeBaremetal,
            UpgradeOptions { max_unavailable_worker: limit("0"), ..UpgradeOptions::new("1.29.2") },
            "maxUnavailableWorker",
        ),
        // A percentage where the distribution takes only a count (GKE's concurrentNodes).
        (
            Profile::GkeBaremetal,
            UpgradeOptions { max_unavailable_worker: limit("25%"), ..UpgradeOptions::new("1.29.2") },
            "maxUnavailableWorker",
        ),
    ];
    for (profile, mut o, field) in cases {
        o.profile = profile;
        match check(&[n()], &o) {
            Err(kube_preflight::Error::Options(e)) => assert_eq!(e.field, field, "{profile}: {e}"),
            other => panic!("{profile} {field}: expected an options error, got {other:?}"),
        }
    }
    // A drain timeout too large in cluster.yml: an options error that names the file.
    let yml = kube_preflight::Input::new(
        "cluster.yml",
        "nodes: [{address: 10.0.0.1, role: [controlplane, etcd, worker]}]\nupgrade_strategy:\n  drain: true\n  node_drain_input: {timeout: 99999999}\n",
    );
    let mut o = UpgradeOptions::new("1.29.2");
    o.profile = Profile::Rke;
    match check(&[n(), yml], &o) {
        Err(kube_preflight::Error::Options(e)) => {
            assert_eq!(e.field, "timings.drainTimeoutSeconds");
            assert!(e.message.contains("from cluster.yml:1"), "{e}");
        }
        other => panic!("expected an options error, got {other:?}"),
    }
}

/// Two `kubectl version` outputs that disagree: the same current version, findings and verdict whichever
/// file comes first (the choice follows a rule, never the order of the files).
#[test]
fn disagreeing_version_outputs_give_one_verdict_in_either_order() {
    let dir = fixtures().join("rules/input/conflicting-version/fail-two-kubectl-versions");
    let case = run_case(&dir);
    let mut reversed = inputs(&dir);
    reversed.reverse();
    let options = UpgradeOptions::from_node(case.spec.get("options")).unwrap();
    let other = check(&reversed, &options).unwrap();
    assert_eq!(other.upgrade.from, case.report.upgrade.from);
    assert_eq!(other.summary.verdict, case.report.summary.verdict);
    let codes = |r: &kube_preflight::Report| r.findings.iter().map(|f| (f.code, f.message.clone())).collect::<Vec<_>>();
    assert_eq!(codes(&other), codes(&case.report));
}
