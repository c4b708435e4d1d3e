//! A realistic 60-node, 1,016-pod RKE cluster (`tests/fixtures/large/`), 1.27 -> 1.29 with drains on
//! (from its cluster.yml). Every line of its report was read; this pins what it must say.

use kube_preflight::{check, Profile, Severity, UpgradeOptions};
use kube_preflight_tests::{fixtures, inputs};

#[test]
fn the_large_cluster_report_says_what_was_read() {
    let mut o = UpgradeOptions::new("1.29.2");
    o.profile = Profile::Rke;
    let r = check(&inputs(&fixtures().join("large")), &o).unwrap();
    assert!(r.inventory.by_kind["Node"] >= 50 && r.inventory.by_kind["Pod"] >= 1000);
    assert_eq!(r.upgrade.from.as_deref(), Some("1.27.10"));
    assert_eq!(r.upgrade.path, ["1.28", "1.29.2"]);
    assert_eq!(r.inventory.distribution_configs.len(), 1);

    let found = |code: &str, name: &str| {
        r.findings.iter().filter(|f| f.code == code && f.object.as_ref().is_some_and(|o| o.name == name)).count()
    };
    let codes: Vec<(&str, Severity)> = r.findings.iter().map(|f| (f.code, f.severity)).collect();
    // Blockers: the PDB that never allows an eviction (RKE drains with drain: true), the pods whose zone
    // selector uses a label the nodes no longer carry, and the two pods with no controller: cluster.yml
    // says `node_drain_input.force: false`, RKE builds kubectl's drain helper from it
    // (services/node_util.go getDrainHelper), and the helper refuses such pods without Force
    // (kubectl pkg/drain/filters.go unreplicatedFilter): those hosts' drains fail and RKE stops.
    assert_eq!(found("disruption/pdb-blocks-drain", "ledger-postgres"), 1);
    assert_eq!(found("scheduling/node-selector-mismatch", "zone-pinned"), 1);
    let unmanaged_blockers =
        r.findings.iter().filter(|f| f.code == "disruption/unmanaged-pod" && f.severity == Severity::Blocker).count();
    assert_eq!(unmanaged_blockers, 2, "{codes:?}");
    assert_eq!(r.summary.blocker, 4, "{codes:?}");
    // The stale last-applied annotation (extensions/v1beta1, unserved since 1.16) is a warning.
    assert!(r.findings.iter().any(|f| f.code == "api/removed" && f.severity == Severity::Warning));
    // 57 workers at 10% (from cluster.yml) -> 5 at a time. prod-w-41 is Ready Unknown: RKE cannot reach
    // it, so it is inactive (cluster/cluster.go UpgradeWorkerPlane): left out of the upgrade and subtracted
    // from the limit (services/node_util.go ResetMaxUnavailable: 1 < 5, so 5 - 1 = 4). prod-w-52 is only
    // cordoned: RKE upgrades (and uncordons) it like the others. The 1.26 straggler is within RKE's
    // 3-minor kubelet skew.
    let workers = r.plan.phases.iter().find(|p| p.name == "workers" && p.pool.is_none()).unwrap();
    assert_eq!(workers.concurrency, 4);
    assert!(!workers.nodes.iter().any(|n| n == "prod-w-41"));
    // The hosts whose drain fails (RKE's drain refuses the two unmanaged pods; the budget that never allows
    // an eviction times out after node_drain_input.timeout) fail, each holding its slot of the window
    // (services/workerplane.go: a failed host ends its worker), until no slot is left: the upgrade stops in
    // hop 1.28 with prod-w-46..55 (prod-w-52 among them) never upgraded.
    let stops: Vec<(&str, &str)> = r.plan.stops.iter().map(|s| (s.node.as_deref().unwrap_or(""), s.code)).collect();
    assert_eq!(
        stops,
        [
            ("prod-w-05", "disruption/unmanaged-pod"),
            ("prod-w-33", "disruption/unmanaged-pod"),
            ("prod-w-37", "disruption/pdb-blocks-drain"),
            ("prod-w-45", "disruption/pdb-blocks-drain")
        ]
    );
    assert!(!r.plan.complete && r.plan.stops.iter().all(|s| s.hop == "1.28" && s.outcome == "fails"));
    assert_eq!(workers.nodes.len() + 4 + r.plan.stops[0].pending.len(), 56);
    assert!(r.plan.stops[0].pending.iter().any(|n| n == "prod-w-52"));
    assert_eq!(found("budget/node-unavailable", "prod-w-52"), 1);
    assert_eq!(found("budget/unavailable-exceeds-limit", "prod-w-41"), 0);
    assert!(!codes.iter().any(|(c, _)| c.starts_with("skew/")), "{codes:?}");
    // Both GPU nodes sit in the first window of 5, so the inference replicas go down together.
    assert_eq!(found("disruption/replicas-in-one-window", "inference"), 1);
    assert_eq!(found("disruption/replicas-in-one-window", "reviews-cache"), 1);
    // The single replicas whose nodes the plan reaches before it stops.
    for single in ["cert-manager", "metrics-server", "search-indexer"] {
        let reached = r.downtime.workloads.iter().any(|w| w.name == single);
        assert_eq!(found("disruption/single-replica", single), usize::from(reached), "{single}");
    }
    assert_eq!(
        found("disruption/unmanaged-pod", "debug-netshoot") + found("disruption/unmanaged-pod", "oneoff-migration"),
        2
    );
    assert_eq!(found("tolerations/missing-eviction-toleration", "batch-reporter"), 1);
    // Budgets with room (memcached at 10%, ingress at minAvailable 50%, coredns) block nothing.
    assert_eq!(r.findings.iter().filter(|f| f.code == "disruption/pdb-blocks-drain").count(), 1);
    // The plan: etcd, control plane and workers of hop 1.28, where it stops (no add-ons, no second hop);
    // the drain timeout comes from cluster.yml.
    assert_eq!(r.plan.phases.iter().filter(|p| p.name == "etcd").count(), 1);
    assert!(!r.plan.phases.iter().any(|p| p.name == "addons"));
    assert_eq!(r.plan.timings["drainTimeoutSeconds"], 600);
    // Evicted pods are back a minute later, except inference's: both GPU nodes are out in the first window,
    // so its pods stay Pending until one is back (the placement replay), and the capacity finding says so.
    assert!(r.downtime.workloads.iter().all(|w| !w.until_intervention));
    assert!(r.downtime.workloads.iter().filter(|w| w.name != "inference").all(|w| w.seconds == 60));
    assert!(r.downtime.workloads.iter().any(|w| w.name == "inference" && w.seconds > 60));
    let headroom: Vec<&str> = r
        .findings
        .iter()
        .filter(|f| f.code == "capacity/insufficient-headroom")
        .filter_map(|f| f.object.as_ref().map(|o| o.name.as_str()))
        .collect();
    assert_eq!(headroom, ["prod-gpu-1", "prod-gpu-2"]);
}
