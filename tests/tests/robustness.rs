//! The core never panics, whatever the bytes: truncated and corrupted copies of real inputs give a report
//! or an error naming the file, never a panic (a panic in wasm kills the page or the pipeline).

use kube_preflight::{check, Error, Input, Profile, Session, UpgradeOptions};
use kube_preflight_tests::fixtures;

/// A small deterministic generator (no dependency, same bytes every run).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }
}

fn run(name: &str, bytes: Vec<u8>, profile: Profile) {
    let mut o = UpgradeOptions::new("1.29.2");
    o.profile = profile;
    match check(&[Input::new(name, bytes.clone())], &o) {
        Ok(r) => assert!(r.to_json().starts_with('{')),
        Err(Error::Input(e)) => assert_eq!(e.file, name),
        Err(Error::Options(e)) => panic!("unexpected options error {e}"),
    }
    // The same bytes streamed in uneven chunks.
    if let Ok(mut s) = Session::new(o) {
        let mut ok = true;
        for c in bytes.chunks(97) {
            if s.push(name, c).is_err() {
                ok = false;
                break;
            }
        }
        if ok {
            let _ = s.finish();
        }
    }
}

#[test]
fn truncations_and_corruptions_never_panic() {
    let sources = [
        ("cluster.yaml", std::fs::read(fixtures().join("demo/cluster.yaml")).unwrap()),
        ("manifests.yaml", std::fs::read(fixtures().join("demo/manifests.yaml")).unwrap()),
        ("secrets.yaml", std::fs::read(fixtures().join("rules/api/removed/fail-helm-release/secrets.yaml")).unwrap()),
        ("nodes.json", std::fs::read(fixtures().join("cli/nodes-1.30.json")).unwrap()),
    ];
    let profiles =
        [Profile::Kubeadm, Profile::Rke, Profile::RkeLegacy, Profile::Kops, Profile::Openshift, Profile::GkeBaremetal];
    let mut rng = Lcg(0x5eed);
    for (name, bytes) in &sources {
        // Truncated at many points, under every profile.
        let step = (bytes.len() / 40).max(1);
        for (k, cut) in (0..bytes.len()).step_by(step).enumerate() {
            run(name, bytes[..cut].to_vec(), profiles[k % profiles.len()]);
        }
        // Corrupted: bytes replaced by YAML/JSON punctuation, digits, invalid UTF-8 and NULs.
        let alphabet = b":-[]{}#&*!|>'\"%@`,\n\t 0123456789\xff\xfe\x00";
        for k in 0..80 {
            let mut b = bytes.clone();
            for _ in 0..(1 + rng.next() % 8) {
                let i = (rng.next() as usize) % b.len().max(1);
                if let Some(x) = b.get_mut(i) {
                    *x = alphabet[(rng.next() as usize) % alphabet.len()];
                }
            }
            run(name, b, profiles[k % profiles.len()]);
        }
    }
}

#[test]
fn odd_values_in_well_formed_objects_never_panic() {
    let odd = r#"
apiVersion: v1
kind: List
items:
- {apiVersion: v1, kind: Node, metadata: {name: a, labels: {node-role.kubernetes.io/control-plane: ""}}, status: {nodeInfo: {kubeletVersion: "v1.x"}, allocatable: {cpu: "lots", memory: "-5Gi", pods: "1e99"}, conditions: "Ready"}}
- {apiVersion: v1, kind: Node, metadata: {name: b}, spec: {taints: [null, 3, {effect: 7}]}, status: {nodeInfo: {kubeletVersion: "v99999999.1.0"}}}
- {apiVersion: v1, kind: Pod, metadata: {name: p, ownerReferences: [{}, null]}, spec: {nodeName: nowhere, nodeSelector: [1, 2], tolerations: {a: b}, terminationGracePeriodSeconds: -9223372036854775808, containers: [{resources: {requests: {cpu: "1e308", memory: "9999999999999999999999Ei"}}}], affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchExpressions: [{key: k, operator: Gt, values: ["x"]}]}]}}}}}
- {apiVersion: policy/v1, kind: PodDisruptionBudget, metadata: {name: d}, spec: {minAvailable: "250%", selector: {matchExpressions: [{operator: In}]}}, status: {expectedPods: -1, disruptionsAllowed: "many"}}
- {apiVersion: apps/v1, kind: Deployment, metadata: {name: w}, spec: {replicas: -3, template: {spec: {volumes: [{emptyDir: null}, {hostPath: 3}]}}}}
- {apiVersion: kops.k8s.io/v1alpha2, kind: InstanceGroup, metadata: {name: g}, spec: {role: Bastion, minSize: 9223372036854775807, rollingUpdate: {maxSurge: "-5%", maxUnavailable: "x"}}}
- {apiVersion: machineconfiguration.openshift.io/v1, kind: MachineConfigPool, metadata: {name: m}, spec: {maxUnavailable: "1000%", nodeSelector: 5}}
"#;
    for p in
        [Profile::Kubeadm, Profile::Rke, Profile::RkeLegacy, Profile::Kops, Profile::Openshift, Profile::GkeBaremetal]
    {
        let mut o = UpgradeOptions::new("1.29.2");
        o.profile = p;
        o.from = Some("1.26.0".into());
        let r = check(&[Input::new("odd.yaml", odd)], &o).expect("odd values are findings, not errors");
        assert_eq!(r.inventory.objects, 7);
    }
}
