//! The fixture harness: a case is a folder of input files plus a `case.yaml` that gives the options and
//! what the report must (and must not) contain. Tests go through [`run_case`] and the rendered report,
//! never through internal APIs.
//!
//! ```yaml
//! # case.yaml
//! options: {to: 1.29.2, profile: rke}      # UpgradeOptions
//! expect:                                  # each entry must match at least one finding
//! - code: version/downgrade
//!   severity: blocker
//!   object: cp-1                           # the object's name (optional)
//!   data: {from: 1.30.1}                   # a subset of the finding's data (optional)
//! absent:                                  # a code: no finding with that code; a map: no finding
//! - version/minor-skip                     #   that contains it (`object: name` as in expect)
//! - {code: disruption/unmanaged-pod, object: ds-pod}
//! upstream:                                # conformance cases: the upstream test they translate
//!   {repo: kubernetes/kubernetes, file: pkg/.../x_test.go, case: "TestX/row"}
//! known: "why kube-preflight does not agree yet"   # conformance only: the case must still fail
//! ours: "what it asserts beyond upstream"  # conformance only: a conclusion of kube-preflight's own
//! report: {upgrade: {path: [1.29.2]}}      # a subset of the report JSON (optional; an array whose
//!                                          # first element is "..." matches a prefix)
//! skipped: [secrets.yaml]                  # inputs the case means to be skipped (any other skipped
//!                                          # input, or an `input/*` finding not in `expect`, fails it)
//! ```

pub mod gen;

use std::path::{Path, PathBuf};

use kube_preflight::parse::{parse_documents, Node, Value};
use kube_preflight::{check, Input, Report, UpgradeOptions};
use serde_json::Value as Json;

/// The repository's `tests/fixtures` folder.
pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}

/// Every input file of a folder (recursively, sorted), named relative to the folder, `case.yaml` left out.
pub fn inputs(dir: &Path) -> Vec<Input> {
    fn walk(base: &Path, dir: &Path, out: &mut Vec<Input>) {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                walk(base, &p, out);
            } else if p.file_name().is_some_and(|n| n != "case.yaml" && n != "expected.json")
                && p.extension().is_some_and(|e| e == "yaml" || e == "yml" || e == "json")
            {
                let name = p.strip_prefix(base).unwrap().to_string_lossy().into_owned();
                out.push(Input::new(name, std::fs::read(&p).unwrap()).discovered());
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out
}

/// Convert a positioned node to JSON (for comparing expectations with the report).
pub fn to_json(n: &Node) -> Json {
    match &n.value {
        Value::Null => Json::Null,
        Value::Scalar(s, kind) => {
            if *kind == kube_preflight::parse::ScalarKind::Plain {
                if let Ok(i) = s.parse::<i64>() {
                    return Json::from(i);
                }
                if let Some(b) = n.as_bool() {
                    return Json::Bool(b);
                }
            }
            Json::String(s.to_string())
        }
        Value::Seq(items) => Json::Array(items.iter().map(to_json).collect()),
        Value::Map(entries) => Json::Object(entries.iter().map(|(k, v)| (k.to_string(), to_json(v))).collect()),
    }
}

/// Does `actual` contain `expected` (objects: every expected key, recursively; arrays: element by element
/// and of the same length, or a prefix when the expected array starts with `"..."`; scalars: equal, numbers
/// and strings compared by their text)?
pub fn contains(actual: &Json, expected: &Json) -> bool {
    match (actual, expected) {
        (Json::Object(a), Json::Object(e)) => e.iter().all(|(k, v)| a.get(k).is_some_and(|av| contains(av, v))),
        (Json::Array(a), Json::Array(e)) if e.first().is_some_and(|f| f == "...") => {
            let e = e.get(1..).unwrap_or_default();
            a.len() >= e.len() && a.iter().zip(e).all(|(x, y)| contains(x, y))
        }
        (Json::Array(a), Json::Array(e)) => a.len() == e.len() && a.iter().zip(e).all(|(x, y)| contains(x, y)),
        (Json::Number(a), Json::String(e)) | (Json::String(e), Json::Number(a)) => a.to_string() == *e,
        _ => actual == expected,
    }
}

pub struct Case {
    pub dir: PathBuf,
    pub spec: Node,
    pub report: Report,
    pub json: Json,
    /// Where the plan if resolved worked out the long way ([`unshared_differs`]) gave another report.
    pub unshared: Option<String>,
    /// The names of the objects read (an `absent` entry that names an object must name one of them).
    pub names: std::collections::BTreeSet<String>,
    /// Objects of a built-in API group whose kind that group does not have (a misspelt kind is read as an
    /// object no check looks at, so every `absent` would hold): `apiVersion kind name`.
    pub unknown_kinds: Vec<String>,
}

/// The kinds of the built-in API groups the fixtures use (Kubernetes' API reference): an object of one of
/// these groups with another kind is a typo.
const BUILT_IN_KINDS: &[(&str, &[&str])] = &[
    (
        "v1",
        &[
            "Binding",
            "ComponentStatus",
            "ConfigMap",
            "Endpoints",
            "Event",
            "LimitRange",
            "List",
            "Namespace",
            "Node",
            "PersistentVolume",
            "PersistentVolumeClaim",
            "Pod",
            "PodTemplate",
            "ReplicationController",
            "ResourceQuota",
            "Secret",
            "Service",
            "ServiceAccount",
        ],
    ),
    ("apps/v1", &["ControllerRevision", "DaemonSet", "Deployment", "ReplicaSet", "StatefulSet"]),
    ("batch/v1", &["CronJob", "Job"]),
    ("policy/v1", &["Eviction", "PodDisruptionBudget"]),
];

/// The report of `inputs` under `options` worked out the long way (each round of the run if resolved
/// indexing the cluster again and running every rule: `pipeline::report_for_unshared`), when it differs
/// from `report`: the first line that does, with its neighbours.
pub fn unshared_differs(inputs: &[Input], options: &UpgradeOptions, report: &Report) -> Option<String> {
    report.plan.if_resolved.as_ref()?;
    let ingested = kube_preflight::ingest::ingest(inputs).ok()?;
    let long = kube_preflight::pipeline::report_for_unshared(&ingested, options).ok()?.to_json();
    let short = report.to_json();
    let (a, b): (Vec<&str>, Vec<&str>) = (short.lines().collect(), long.lines().collect());
    let at = a.iter().zip(&b).position(|(x, y)| x != y).unwrap_or(a.len().min(b.len()));
    (short != long).then(|| {
        format!(
            "the report differs when the plan if resolved is worked out the long way, at line {}:\n  shared: {}\n  long:   {}",
            at + 1,
            a.get(at).unwrap_or(&"(end)"),
            b.get(at).unwrap_or(&"(end)")
        )
    })
}

/// Run the case in `dir`.
pub fn run_case(dir: &Path) -> Case {
    let spec_text = std::fs::read_to_string(dir.join("case.yaml"))
        .unwrap_or_else(|e| panic!("{}: no case.yaml: {e}", dir.display()));
    let spec = parse_documents("case.yaml", &spec_text).unwrap().into_iter().next().unwrap();
    let options = UpgradeOptions::from_node(spec.get("options")).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let report = check(&inputs(dir), &options).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let json: Json = serde_json::from_str(&report.to_json()).unwrap();
    let unshared = unshared_differs(&inputs(dir), &options, &report);
    let objects = kube_preflight::ingest::ingest(&inputs(dir)).map(|i| i.objects).unwrap_or_default();
    let names = objects.iter().map(|o| o.r.name.to_string()).collect();
    let unknown_kinds = objects
        .iter()
        .filter(|o| {
            BUILT_IN_KINDS
                .iter()
                .find(|(api, _)| *api == o.r.api_version.as_str())
                .is_some_and(|(_, kinds)| !kinds.contains(&o.r.kind.as_str()))
        })
        .map(|o| format!("{} {} {}", o.r.api_version, o.r.kind, o.r.name))
        .collect();
    Case { dir: dir.to_path_buf(), spec, report, json, unshared, names, unknown_kinds }
}

impl Case {
    /// Check `expect`, `absent` and `report`; returns what failed, one line each.
    pub fn failures(&self) -> Vec<String> {
        let mut out = Vec::new();
        let findings = self.json["findings"].as_array().cloned().unwrap_or_default();
        // `object: name` is shorthand for matching the object's name.
        let pattern = |e: &Node| {
            let mut want = to_json(e);
            if let Some(Json::String(name)) = want.get("object").cloned() {
                want["object"] = serde_json::json!({ "name": name });
            }
            want
        };
        for e in self.spec.get("expect").as_seq() {
            let want = pattern(e);
            if !findings.iter().any(|f| contains(f, &want)) {
                out.push(format!("expected a finding like {want}"));
            }
        }
        for e in self.spec.get("absent").as_seq() {
            let unwanted = match e.as_str() {
                Some(code) => serde_json::json!({ "code": code }),
                None => pattern(e),
            };
            // An absence about an object that was never read proves nothing (a misspelt name), unless the
            // case means an input to be passed over (`skipped:`), whose objects are not read by design.
            if let Some(name) = unwanted.get("object").and_then(|o| o.get("name")).and_then(Json::as_str) {
                if !self.names.contains(name) && self.spec.get("skipped").is_null() {
                    out.push(format!("`absent` names object {name}, which no input holds"));
                }
            }
            if let Some(f) = findings.iter().find(|f| contains(f, &unwanted)) {
                out.push(format!("expected no finding like {unwanted}, found {}", f["message"]));
            }
        }
        // A case stands on all its inputs: none skipped, and no `input/*` finding it does not expect (a
        // misspelt object would satisfy an `absent` alone).
        let skipped_ok: Vec<&str> = self.spec.get("skipped").as_seq().iter().filter_map(|n| n.as_str()).collect();
        for sk in self.json["inventory"]["skipped"].as_array().cloned().unwrap_or_default() {
            if !skipped_ok.contains(&sk["file"].as_str().unwrap_or_default()) {
                out.push(format!("an input was skipped (list it under `skipped:` if the case means it): {sk}"));
            }
        }
        let expected_codes: Vec<String> =
            self.spec.get("expect").as_seq().iter().filter_map(|e| e.get("code").as_str().map(str::to_owned)).collect();
        for f in &findings {
            let code = f["code"].as_str().unwrap_or_default();
            if code.starts_with("input/") && !expected_codes.iter().any(|c| c == code) {
                out.push(format!("an input finding the case does not expect: {}", f["message"]));
            }
        }
        for k in &self.unknown_kinds {
            out.push(format!("an object of a kind its API group does not have (misspelt?): {k}"));
        }
        out.extend(self.unshared.clone());
        let report_part = self.spec.get("report");
        if !report_part.is_null() && !contains(&self.json, &to_json(report_part)) {
            out.push(format!("the report does not contain {}", to_json(report_part)));
        }
        if !out.is_empty() {
            out.push(format!("findings were:\n{}", serde_json::to_string_pretty(&findings).unwrap()));
        }
        out
    }

    pub fn codes(&self) -> Vec<String> {
        self.report.findings.iter().map(|f| f.code.to_owned()).collect()
    }
}

/// Every case folder (one holding a `case.yaml`) under `dir`, sorted.
pub fn case_dirs(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        if d.join("case.yaml").exists() {
            out.push(d.clone());
            continue;
        }
        if let Ok(entries) = std::fs::read_dir(&d) {
            stack.extend(entries.filter_map(Result::ok).map(|e| e.path()).filter(|p| p.is_dir()));
        }
    }
    out.sort();
    out
}

/// The same inputs with every line moved down (a comment and a blank line above each YAML file; JSON as
/// it is): what identifies a finding must not change.
pub fn moved_lines(inputs: Vec<Input>) -> Vec<Input> {
    inputs
        .into_iter()
        .map(|i| {
            let text = String::from_utf8(i.content.clone()).unwrap();
            let text = if text.trim_start().starts_with('{') { text } else { format!("# moved\n\n{text}") };
            Input::new(i.name.clone(), text)
        })
        .collect()
}
