//! `cargo xtask bench`: time `check()` over generated clusters of growing size (release build).
//! Benchmarks measure; tests never time anything.

use std::fmt::Write;
use std::time::Instant;

use kube_preflight::{check, Input, Session, UpgradeOptions};

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

/// The best of `runs` timings of `check()` on one input, in seconds.
fn best_of(runs: usize, text: &str) -> f64 {
    let inputs = [Input::new("snapshot.json", text.as_bytes())];
    let opts = UpgradeOptions::new("1.29.2");
    (0..runs)
        .map(|_| {
            let t = Instant::now();
            let _ = check(&inputs, &opts).expect("the generated snapshot is valid");
            t.elapsed().as_secs_f64()
        })
        .fold(f64::MAX, f64::min)
}

/// One YAML document (a `List`, as `kubectl get -o yaml` prints it) of `pods` pods.
fn yaml_list(pods: usize) -> String {
    let mut s = String::from("apiVersion: v1\nkind: List\nitems:\n");
    for p in 0..pods {
        let _ = write!(
            s,
            "- apiVersion: v1\n  kind: Pod\n  metadata:\n    name: app-{p}\n    namespace: ns-{}\n    labels: {{app: app-{}}}\n  spec:\n    nodeName: node-{}\n    containers:\n    - name: c\n      resources: {{requests: {{cpu: 100m, memory: 128Mi}}}}\n  status:\n    phase: Running\n    conditions: [{{type: Ready, status: \"True\"}}]\n",
            p % 7,
            p % 50,
            p % 200
        );
    }
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
    // Minified JSON (one line, as `jq -c` and API clients write it) against the same objects one per line:
    // the ratio should be about 1 (it was quadratic in the line's length: 65 s for 4 MB).
    let pretty = snapshot(200, 25);
    let minified: String = pretty.lines().collect();
    let (p, m) = (best_of(3, &pretty), best_of(3, &minified));
    println!(
        "minified JSON ({:.1} MB on one line): {:.1} ms; one object a line: {:.1} ms; ratio {:.2}",
        minified.len() as f64 / 1e6,
        m * 1000.0,
        p * 1000.0,
        m / p
    );
    // One large YAML document pushed to a Session in 64 KiB chunks, against check() on the same bytes: the
    // ratio should be about 1 (each push rescanned everything pending: quadratic in the document's size).
    let doc = yaml_list(20_000);
    let opts = UpgradeOptions::new("1.29.2");
    let whole = best_of(1, &doc);
    let t = Instant::now();
    let mut session = Session::new(opts).expect("valid options");
    for chunk in doc.as_bytes().chunks(64 << 10) {
        session.push("list.yaml", chunk).expect("valid YAML");
    }
    let _ = session.finish().expect("valid YAML");
    let streamed = t.elapsed().as_secs_f64();
    println!(
        "one YAML document ({:.1} MB) through Session in 64 KiB chunks: {:.1} ms; check(): {:.1} ms; ratio {:.2}",
        doc.len() as f64 / 1e6,
        streamed * 1000.0,
        whole * 1000.0,
        streamed / whole
    );
}
