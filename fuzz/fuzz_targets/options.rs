//! Option parsing: any bytes as an options document (JSON or YAML), then a check of a small cluster with
//! whatever was accepted. Nothing may panic; a refused option names its field.
#![no_main]

use kube_preflight::parse::parse_documents;
use kube_preflight::{check, Error, Input, UpgradeOptions};
use libfuzzer_sys::fuzz_target;

const CLUSTER: &str = "apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: Node, metadata: {name: cp-1, labels: {node-role.kubernetes.io/control-plane: \"\"}}, status: {conditions: [{type: Ready, status: \"True\"}], nodeInfo: {kubeletVersion: v1.28.4}}}\n- {apiVersion: v1, kind: Node, metadata: {name: w-1, labels: {kops.k8s.io/instancegroup: nodes, baremetal.cluster.gke.io/node-pool: pool-a}}, status: {conditions: [{type: Ready, status: \"Unknown\"}], nodeInfo: {kubeletVersion: v1.27.4}}}\n";

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(docs) = parse_documents("options", text) else { return };
    let Some(doc) = docs.first() else { return };
    let o = match UpgradeOptions::from_node(doc) {
        Ok(o) => o,
        Err(e) => {
            assert!(!e.field.is_empty(), "an options error must name its field: {e}");
            return;
        }
    };
    match check(&[Input::new("cluster.yaml", CLUSTER)], &o) {
        Ok(r) => {
            let _ = r.to_json();
        }
        Err(Error::Options(e)) => assert!(!e.field.is_empty(), "{e}"),
        Err(Error::Input(e)) => panic!("the fixed cluster is readable: {e}"),
    }
});
