//! `cargo xtask bench`: time `check()` over generated clusters of growing size (release build).
//! Benchmarks measure; tests never time anything.

use std::fmt::Write;
use std::time::Instant;

use kube_preflight::{check, Input, UpgradeOptions};

/// A `kubectl get nodes,pods -o json`-shaped snapshot with `nodes` nodes and `pods_per_node` pods each.
fn snapshot(nodes: usize, pods_per_node: usize) -> String {
    let mut s = String::from("{\"apiVersion\":\"v1\",\"kind\":\"List\",\"items\":[\n");
    for n in 0..nodes {
        let role = if n < 3 { "control-plane" } else { "worker" };
        let _ = writeln!(
            s,
            "{{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{{\"name\":\"node-{n}\",\"labels\":{{\"node-role.kubernetes.io/{role}\":\"\",\"topology.kubernetes.io/zone\":\"zone-{}\"}}}},\"status\":{{\"conditions\":[{{\"type\":\"Ready\",\"status\":\"True\"}}],\"nodeInfo\":{{\"kubeletVersion\":\"v1.28.{}\"}},\"allocatable\":{{\"cpu\":\"8\",\"memory\":\"32Gi\",\"pods\":\"110\"}}}}}},",
            n % 3,
            n % 5
        );
    }
    for n in 0..nodes {
        for p in 0..pods_per_node {
            let _ = writeln!(
                s,
                "{{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{{\"name\":\"app-{p}-{n}\",\"namespace\":\"ns-{}\",\"labels\":{{\"app\":\"app-{p}\"}},\"ownerReferences\":[{{\"kind\":\"ReplicaSet\",\"name\":\"app-{p}-rs\",\"controller\":true}}]}},\"spec\":{{\"nodeName\":\"node-{n}\",\"containers\":[{{\"name\":\"c\",\"resources\":{{\"requests\":{{\"cpu\":\"100m\",\"memory\":\"128Mi\"}}}}}}],\"tolerations\":[{{\"key\":\"node.kubernetes.io/not-ready\",\"operator\":\"Exists\",\"effect\":\"NoExecute\",\"tolerationSeconds\":300}}]}},\"status\":{{\"phase\":\"Running\",\"conditions\":[{{\"type\":\"Ready\",\"status\":\"True\"}}]}}}},",
                p % 7
            );
        }
    }
    s.push_str("{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"end\"}}]}\n");
    s
}

fn main() {
    println!("{:>7} {:>7} {:>10} {:>12} {:>14}", "nodes", "pods", "input MB", "check ms", "objects/s");
    for (nodes, per) in [(50, 20), (200, 25), (1000, 30)] {
        let text = snapshot(nodes, per);
        let inputs = [Input::new("snapshot.json", text.as_bytes())];
        let opts = UpgradeOptions::new("1.29.2");
        let runs = 5;
        let mut best = f64::MAX;
        let mut objects = 0;
        for _ in 0..runs {
            let t = Instant::now();
            let report = check(&inputs, &opts).expect("the generated snapshot is valid");
            best = best.min(t.elapsed().as_secs_f64());
            objects = report.inventory.objects;
        }
        println!(
            "{:>7} {:>7} {:>10.1} {:>12.1} {:>14.0}",
            nodes,
            nodes * per,
            text.len() as f64 / 1e6,
            best * 1000.0,
            objects as f64 / best
        );
    }
}
