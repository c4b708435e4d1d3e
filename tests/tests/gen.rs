//! The snapshot generator (`cargo xtask gen`): deterministic, kubectl-sized, readable as JSON and YAML
//! alike, and with findings of every kind the issue asks for.

use std::collections::BTreeSet;

use kube_preflight::{check, Input, UpgradeOptions};
use kube_preflight_tests::gen::{snapshot, to_json, to_yaml, write, Shape};

#[test]
fn a_generated_snapshot_is_deterministic_realistic_and_full_of_findings() {
    let shape = Shape { nodes: 30, pods: 400, seed: 7 };
    let json = to_json(&snapshot(shape));
    assert_eq!(json, to_json(&snapshot(shape)), "the same seed gives the same bytes");
    assert_ne!(json, to_json(&snapshot(Shape { seed: 8, ..shape })));
    // Written item by item (`cargo xtask gen`), the same bytes.
    for yaml in [false, true] {
        let mut streamed = Vec::new();
        write(shape, yaml, &mut streamed).unwrap();
        let whole = if yaml { to_yaml(&snapshot(shape)) } else { json.clone() };
        assert!(streamed == whole.as_bytes(), "written item by item, {} differs", if yaml { "YAML" } else { "JSON" });
    }
    // About the size kubectl prints: several KB a pod (managed fields, statuses, env, probes, volumes).
    let v = snapshot(shape);
    let pods: Vec<_> = v["items"].as_array().unwrap().iter().filter(|o| o["kind"] == "Pod").collect();
    let bytes: usize = pods.iter().map(|p| to_json(p).len()).sum();
    let per_pod = bytes / pods.len();
    assert!((5_000..12_000).contains(&per_pod), "{per_pod} bytes a pod");

    let opts = UpgradeOptions::new("1.29.2");
    let from_json = check(&[Input::new("s.json", json.as_bytes())], &opts).unwrap();
    let yaml = to_yaml(&snapshot(shape));
    let from_yaml = check(&[Input::new("s.yaml", yaml.as_bytes())], &opts).unwrap();
    assert_eq!(from_json.inventory.by_kind, from_yaml.inventory.by_kind);
    assert_eq!(from_json.inventory.by_kind["Pod"], 400);
    let messages =
        |r: &kube_preflight::Report| r.findings.iter().map(|f| (f.code, f.message.clone())).collect::<Vec<_>>();
    assert_eq!(messages(&from_json), messages(&from_yaml), "JSON and YAML of one snapshot read alike");
    let codes: BTreeSet<&str> = from_json.findings.iter().map(|f| f.code).collect();
    for code in [
        "api/removed",
        "budget/node-unavailable",
        "disruption/pdb-blocks-drain",
        "disruption/overlapping-pdbs",
        "disruption/unmanaged-pod",
        "disruption/local-storage",
        "scheduling/legacy-node-label",
        "tolerations/missing-eviction-toleration",
    ] {
        assert!(codes.contains(code), "{code} missing from {codes:?}");
    }
    // kubeadm's drain waits for ever on the budget that allows nothing, so the plan stops there; GKE on
    // Bare Metal gives up after 20 minutes and goes on, and reaches the single replicas.
    assert!(!from_json.plan.complete && !from_json.plan.stops.is_empty());
    let mut gke = UpgradeOptions::new("1.29.2");
    gke.profile = kube_preflight::Profile::GkeBaremetal;
    // Three at a time, so the one NotReady worker does not use up the pool's concurrency.
    gke.max_unavailable_worker = Some(kube_preflight::quantity::IntOrPercent::Int(3));
    let r = check(&[Input::new("s.json", json.as_bytes())], &gke).unwrap();
    assert!(r.findings.iter().any(|f| f.code == "disruption/single-replica"), "{:?}", r.plan.stops);
}
