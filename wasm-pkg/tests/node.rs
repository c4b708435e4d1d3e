//! The exported API, run in Node by wasm-bindgen-test-runner (`cargo test --target wasm32-unknown-unknown`).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]
#![cfg(target_arch = "wasm32")]

use js_sys::{Array, Object, Reflect, Uint8Array, JSON};
use kube_preflight_wasm::{check, rules, version};
use wasm_bindgen::JsValue;
use wasm_bindgen_test::wasm_bindgen_test;

fn file(name: &str, content: JsValue) -> JsValue {
    let o = Object::new();
    Reflect::set(&o, &"name".into(), &name.into()).unwrap();
    Reflect::set(&o, &"content".into(), &content).unwrap();
    o.into()
}

fn get(v: &JsValue, path: &str) -> JsValue {
    path.split('.').fold(v.clone(), |v, k| Reflect::get(&v, &k.into()).unwrap())
}

const NODES: &str = "kind: List\nitems:\n- apiVersion: v1\n  kind: Node\n  metadata:\n    name: cp-1\n    labels: {node-role.kubernetes.io/control-plane: \"\"}\n  status:\n    conditions: [{type: Ready, status: \"True\"}]\n    nodeInfo: {kubeletVersion: v1.27.3}\n";

#[wasm_bindgen_test]
fn check_returns_a_report_object() {
    let files = Array::of1(&file("nodes.yaml", NODES.into()));
    let opts = JSON::parse(r#"{"to":"1.29.2"}"#).unwrap();
    let report = check(files.into(), opts).unwrap();
    assert_eq!(get(&report, "schemaVersion").as_f64(), Some(1.0));
    assert_eq!(get(&report, "upgrade.from").as_string().as_deref(), Some("1.27.3"));
    assert_eq!(JSON::stringify(&get(&report, "upgrade.path")).unwrap().as_string().unwrap(), r#"["1.28","1.29.2"]"#);
    // A single Ready control-plane node: warnings (no HA, no etcd quorum margin, a minor skip), no blocker;
    // but no pod, budget or API machinery was read, so the verdict is incomplete, never ready.
    assert_eq!(get(&report, "summary.verdict").as_string().as_deref(), Some("incomplete"));
    assert_eq!(
        JSON::stringify(&get(&report, "coverage.incomplete")).unwrap().as_string().unwrap(),
        r#"["drains","budgets","admission-webhooks","admission-policies","aggregated-apis","custom-resources","helm-charts"]"#
    );
    assert_eq!(get(&report, "summary.warning").as_f64(), Some(3.0));
}

#[wasm_bindgen_test]
fn bytes_are_accepted_and_errors_carry_code_and_position() {
    let bytes = Uint8Array::from(b"kind: Pod\nmetadata: [\n".as_slice());
    let err = check(Array::of1(&file("bad.yaml", bytes.into())).into(), JSON::parse(r#"{"to":"1.29"}"#).unwrap())
        .unwrap_err();
    assert_eq!(get(&err, "code").as_string().as_deref(), Some("input"));
    assert_eq!(get(&err, "file").as_string().as_deref(), Some("bad.yaml"));
    assert!(get(&err, "line").as_f64().is_some());
    let msg = get(&err, "message").as_string().unwrap();
    assert!(msg.starts_with("bad.yaml:"), "{msg}");

    let err = check(Array::new().into(), JSON::parse(r#"{"to":"1.29","maxSurge":"150%"}"#).unwrap()).unwrap_err();
    assert_eq!(get(&err, "code").as_string().as_deref(), Some("options"));
    assert_eq!(get(&err, "field").as_string().as_deref(), Some("maxSurge"));
}

#[wasm_bindgen_test]
fn rules_and_version() {
    let r: Array = rules().unwrap().into();
    assert!(r.length() >= 23);
    let codes: Vec<String> = r.iter().filter_map(|x| get(&x, "code").as_string()).collect();
    assert!(codes.iter().any(|c| c == "version/downgrade"), "{codes:?}");
    assert!(codes.windows(2).all(|w| w[0] < w[1]), "sorted by code");
    assert!(!version().is_empty());
}
