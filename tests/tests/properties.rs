//! One report, one story: invariants checked over random small clusters, options and profiles, from a
//! seeded generator (the same seeds every run; `KP_PROPERTY_CASES` runs more). Each invariant is written
//! down in docs/semantics.md, "Invariants of a report".

use std::collections::{BTreeMap, BTreeSet};

use kube_preflight::quantity::IntOrPercent;
use kube_preflight::render::{render, Format, RenderOptions};
use kube_preflight::{check, Input, Profile, Report, Severity, UpgradeOptions};
use kube_preflight_tests::gen::Rng;
use serde_json::{json, Value};

/// A random cluster for `profile`: control-plane, etcd and worker nodes in random states, workloads with
/// one to four replicas, DaemonSet and mirror pods, unmanaged pods, emptyDir and hostPath volumes, and
/// budgets of every shape, some with a status.
fn cluster(r: &mut Rng, profile: Profile) -> Value {
    let mut items = Vec::new();
    let cps = 1 + r.below(3);
    let workers = 1 + r.below(9);
    let kubelet = |r: &mut Rng| *r.pick(&["v1.27.9", "v1.27.9", "v1.27.9", "v1.26.12", "v1.25.16"]);
    let mut node_names = Vec::new();
    for i in 0..cps + workers {
        let cp = i < cps;
        let name = if cp { format!("cp-{i}") } else { format!("w-{i}") };
        let mut labels = BTreeMap::new();
        labels.insert("kubernetes.io/hostname".to_owned(), json!(name));
        labels.insert("topology.kubernetes.io/zone".to_owned(), json!(format!("z{}", i % 3)));
        match (profile, cp) {
            (Profile::Rke | Profile::RkeLegacy, true) => {
                labels.insert("node-role.kubernetes.io/controlplane".into(), json!("true"));
                labels.insert("node-role.kubernetes.io/etcd".into(), json!("true"));
            }
            (Profile::Rke | Profile::RkeLegacy, false) => {
                labels.insert("node-role.kubernetes.io/worker".into(), json!("true"));
            }
            (Profile::Openshift, true) => {
                labels.insert("node-role.kubernetes.io/master".into(), json!(""));
            }
            (Profile::Openshift, false) => {
                labels.insert("node-role.kubernetes.io/worker".into(), json!(""));
            }
            (_, true) => {
                labels.insert("node-role.kubernetes.io/control-plane".into(), json!(""));
            }
            (Profile::Kops, false) => {
                labels.insert("kops.k8s.io/instancegroup".into(), json!(*r.pick(&["nodes-a", "nodes-b"])));
            }
            (Profile::GkeBaremetal, false) => {
                labels.insert("baremetal.cluster.gke.io/node-pool".into(), json!(*r.pick(&["pool-a", "pool-b"])));
            }
            _ => {}
        }
        let ready = match r.below(20) {
            0 => "False",
            1 => "Unknown",
            _ => "True",
        };
        let version = if cp { "v1.27.9" } else { kubelet(r) };
        items.push(json!({
            "apiVersion": "v1", "kind": "Node",
            "metadata": {"name": name, "labels": labels, "creationTimestamp": format!("2026-01-0{}T00:00:00Z", 1 + i % 9)},
            "spec": {"unschedulable": r.chance(8), "providerID": if r.chance(50) { format!("aws:///eu-west-1a/i-{i}") } else { String::new() }},
            "status": {"conditions": [{"type": "Ready", "status": ready}],
                       "nodeInfo": {"kubeletVersion": version},
                       "allocatable": {"cpu": "8", "memory": "32Gi", "pods": "110"}},
        }));
        node_names.push((name, cp));
    }
    let workers_only: Vec<String> = node_names.iter().filter(|(_, cp)| !cp).map(|(n, _)| n.clone()).collect();
    let pod = |name: String, ns: &str, node: &str, labels: Value, owner: Option<(&str, String)>, r: &mut Rng| {
        let mut meta = json!({"name": name, "namespace": ns, "labels": labels});
        if let Some((kind, owner)) = owner {
            meta["ownerReferences"] =
                json!([{"apiVersion": "apps/v1", "kind": kind, "name": owner, "controller": true}]);
        }
        let mut volumes = Vec::new();
        if r.chance(10) {
            volumes.push(json!({"name": "scratch", "emptyDir": {}}));
        }
        if r.chance(4) {
            volumes.push(json!({"name": "host", "hostPath": {"path": "/var/data"}}));
        }
        let phase = *r.pick(&["Running", "Running", "Running", "Running", "Running", "Pending", "Succeeded"]);
        let ready = if phase == "Running" && r.chance(90) { "True" } else { "False" };
        let mut spec = json!({"nodeName": node, "containers": [{"name": "c", "image": "app:1"}], "volumes": volumes,
            "tolerations": [{"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300},
                            {"key": "node.kubernetes.io/unreachable", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300}]});
        if r.chance(5) {
            spec["nodeSelector"] = json!({"disk": "ssd"});
        }
        json!({"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": spec,
               "status": {"phase": phase, "conditions": [{"type": "Ready", "status": ready}]}})
    };
    // Workloads.
    for k in 0..r.below(6) {
        let ns = *r.pick(&["shop", "data"]);
        let app = format!("app-{k}");
        let replicas = 1 + r.below(4);
        items.push(json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": app, "namespace": ns},
            "spec": {"replicas": replicas, "selector": {"matchLabels": {"app": app}},
                     "template": {"metadata": {"labels": {"app": app}}, "spec": {"containers": [{"name": "c", "image": "app:1"}]}}}}));
        let rs = format!("{app}-7d9f");
        items.push(json!({"apiVersion": "apps/v1", "kind": "ReplicaSet",
            "metadata": {"name": rs, "namespace": ns, "ownerReferences": [{"apiVersion": "apps/v1", "kind": "Deployment", "name": app, "controller": true}]},
            "spec": {"replicas": replicas, "selector": {"matchLabels": {"app": app}}}}));
        for p in 0..replicas {
            let node = r.pick(&workers_only).clone();
            items.push(pod(format!("{rs}-{p}"), ns, &node, json!({"app": app}), Some(("ReplicaSet", rs.clone())), r));
        }
        if r.chance(60) {
            let mut spec = json!({"selector": {"matchLabels": {"app": app}}});
            match r.below(5) {
                0 => spec["minAvailable"] = json!(replicas),
                1 => spec["maxUnavailable"] = json!(0),
                2 => spec["maxUnavailable"] = json!(1),
                3 => spec["minAvailable"] = json!("50%"),
                _ => spec["maxUnavailable"] = json!("34%"),
            }
            let mut pdb = json!({"apiVersion": "policy/v1", "kind": "PodDisruptionBudget", "metadata": {"name": app, "namespace": ns}, "spec": spec});
            if r.chance(30) {
                let allowed = r.below(2);
                pdb["status"] = json!({"currentHealthy": replicas, "desiredHealthy": replicas - allowed.min(replicas), "expectedPods": replicas, "disruptionsAllowed": allowed});
            }
            items.push(pdb);
        }
    }
    // A DaemonSet on every node, a mirror pod on the control plane, an unmanaged pod now and then.
    for (i, (node, cp)) in node_names.iter().enumerate() {
        items.push(pod(
            format!("proxy-{i}"),
            "kube-system",
            node,
            json!({"k8s-app": "proxy"}),
            Some(("DaemonSet", "proxy".into())),
            r,
        ));
        if *cp {
            let mut m = pod(
                format!("kube-apiserver-{node}"),
                "kube-system",
                node,
                json!({"component": "kube-apiserver"}),
                None,
                r,
            );
            m["metadata"]["annotations"] = json!({"kubernetes.io/config.mirror": "abc"});
            m["metadata"]["ownerReferences"] =
                json!([{"apiVersion": "v1", "kind": "Node", "name": node, "controller": true}]);
            items.push(m);
        }
    }
    if r.chance(20) {
        let node = r.pick(&workers_only).clone();
        items.push(pod("debug".into(), "default", &node, json!({}), None, r));
    }
    json!({"apiVersion": "v1", "kind": "List", "items": items})
}

fn options(r: &mut Rng, profile: Profile) -> UpgradeOptions {
    let versions: [&str; 3] = ["1.28.4", "1.29.2", "1.30.1"];
    let to = *r.pick(&versions);
    let mut o = UpgradeOptions::new(to);
    o.profile = profile;
    if profile == Profile::Openshift {
        o.to = (*r.pick(&["4.15.3", "4.16.2"])).to_owned();
        o.from = Some("4.14.9".into());
    }
    let limit = |r: &mut Rng| {
        *r.pick(&[IntOrPercent::Int(1), IntOrPercent::Int(2), IntOrPercent::Int(3), IntOrPercent::Percent(50)])
    };
    if r.chance(50) && profile != Profile::GkeBaremetal {
        o.max_unavailable_worker = Some(limit(r));
    } else if r.chance(50) && profile == Profile::GkeBaremetal {
        o.max_unavailable_worker = Some(IntOrPercent::Int(1 + r.below(3) as i64));
    }
    if profile == Profile::Kops && r.chance(40) {
        o.max_surge = Some(IntOrPercent::Int(r.below(3) as i64));
    }
    if profile == Profile::Rke {
        o.drain = Some(r.chance(60));
    }
    if matches!(profile, Profile::Rke | Profile::Kubeadm) {
        o.drain_force = Some(r.chance(50));
        o.drain_delete_local_data = Some(r.chance(50));
    }
    o
}

/// Every invariant of one report; returns what broke.
fn broken(r: &Report, snapshot: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let blockers = r.findings.iter().filter(|f| f.severity == Severity::Blocker).count();
    let warnings = r.findings.iter().filter(|f| f.severity == Severity::Warning).count();
    // 1. The verdict is blocked if and only if there is a blocker; the summary counts the findings.
    if (r.summary.verdict == "blocked") != (blockers > 0)
        || r.summary.blocker != blockers
        || r.summary.warning != warnings
    {
        out.push(format!("summary {:?} against {blockers} blocker(s), {warnings} warning(s)", r.summary));
    }
    // 2. No node is upgraded twice in a hop: once per plane (RKE upgrades a host's etcd plane and then its
    //    control plane, two phases; never one plane twice).
    let mut seen = BTreeSet::new();
    for s in &r.plan.steps {
        if !seen.insert((s.hop.clone(), s.phase, s.node.clone())) {
            out.push(format!("{} upgraded twice in phase {} of hop {:?}", s.node, s.phase, s.hop));
        }
        // 2b. A step's time is its segments' (drain, waiting on a budget, upgrade, readiness), none empty.
        let parts: u64 = s.segments.iter().map(|g| g.seconds).sum();
        if parts != s.end_seconds - s.start_seconds || s.segments.iter().any(|g| g.seconds == 0) {
            out.push(format!(
                "{} in {}: segments {:?} against a step of {} s",
                s.node,
                s.phase,
                s.segments,
                s.end_seconds - s.start_seconds
            ));
        }
    }
    // 3. At every moment, the nodes of a phase in flight are within its resolved concurrency (which the
    //    planner lowers by the nodes already unavailable), a node that never finishes holding its slot.
    for ph in &r.plan.phases {
        let mut events: Vec<(u64, i64)> = Vec::new();
        for s in r.plan.steps.iter().filter(|s| s.phase == ph.name && s.pool == ph.pool && s.hop == ph.hop) {
            events.push((s.start_seconds, 1));
            events.push((s.end_seconds, -1));
        }
        events.sort();
        let (mut now, mut most) = (0i64, 0i64);
        for (_, d) in events {
            now += d;
            most = most.max(now);
        }
        if most > i64::from(ph.concurrency) {
            out.push(format!(
                "phase {} {:?} has {most} nodes out at once, over its {}",
                ph.name, ph.pool, ph.concurrency
            ));
        }
    }
    // 4. A node a blocker says is not upgraded (unavailable, never picked) has no step; a node the plan
    //    says is never upgraded has no step either.
    let stepped: BTreeSet<&str> = r.plan.steps.iter().map(|s| s.node.as_str()).collect();
    for f in r.findings.iter().filter(|f| f.severity == Severity::Blocker) {
        let named: Vec<String> = match f.code {
            "budget/unavailable-exceeds-limit" => f
                .data
                .get("unavailable")
                .and_then(|v| serde_json::to_value(v).ok())
                .and_then(|v| serde_json::from_value::<Vec<String>>(v).ok())
                .unwrap_or_default(),
            "budget/node-unavailable" => f.object.iter().map(|o| o.name.to_string()).collect(),
            _ => Vec::new(),
        };
        for n in named.iter().filter(|n| stepped.contains(n.as_str())) {
            out.push(format!("{n} is upgraded in the plan, yet {} says: {}", f.code, f.message));
        }
    }
    // A node a stop says is never upgraded has no step in that phase of the hop, nor any step of the hop
    // that starts at or after the stop (RKE's control-plane hosts may have had their etcd plane upgraded
    // before it).
    for st in &r.plan.stops {
        for n in st.pending.iter().chain(st.node.iter()) {
            let hop = |s: &&kube_preflight::report::Step| &s.node == n && s.hop.as_deref() == Some(st.hop.as_str());
            if r.plan.steps.iter().filter(hop).any(|s| s.phase == st.phase || s.start_seconds >= st.at_seconds) {
                out.push(format!("{n} is never upgraded in {} of hop {} (stop), yet has a step", st.phase, st.hop));
            }
        }
    }
    // 5. A plan that stops says why with a blocker of the code it names; a plan with a stop is not complete;
    //    an incomplete plan means a blocked verdict.
    let codes: BTreeSet<&str> = r.findings.iter().filter(|f| f.severity == Severity::Blocker).map(|f| f.code).collect();
    for st in &r.plan.stops {
        if !codes.contains(st.code) {
            out.push(format!("the plan stops ({}: {}) with no {} blocker", st.phase, st.reason, st.code));
        }
    }
    if r.plan.complete != r.plan.stops.is_empty() && !r.plan.phases.is_empty() {
        out.push(format!("complete {} with {} stop(s)", r.plan.complete, r.plan.stops.len()));
    }
    // 6. Downtime lies inside the plan (a pod evicted last is back podStartSeconds after its node's step or
    //    the stop), and a workload's windows add up to its seconds; a workload is down until someone
    //    intervenes only when the plan stops.
    let end = r.plan.total_seconds + r.plan.timings.get("podStartSeconds").copied().unwrap_or(0);
    for w in &r.downtime.workloads {
        let sum: u64 = w.windows.iter().map(|x| x.end_seconds - x.start_seconds).sum();
        if sum != w.seconds || w.windows.iter().any(|x| x.start_seconds > x.end_seconds || x.end_seconds > end) {
            out.push(format!(
                "{} {}: windows {:?} against {} s and a {} s plan",
                w.kind, w.name, w.windows, w.seconds, r.plan.total_seconds
            ));
        }
        if w.until_intervention && r.plan.complete {
            out.push(format!("{} {} is down until someone intervenes in a plan that completes", w.kind, w.name));
        }
    }
    // 7. Every format gives the same counts.
    let n = r.findings.len();
    let text = render(r, Format::Text, RenderOptions::default());
    let tail = format!("{} blocker(s), {} warning(s), {} info", r.summary.blocker, r.summary.warning, r.summary.info);
    if !text.contains(&tail) {
        out.push(format!("text output lacks {tail:?}"));
    }
    let sarif: Value = serde_json::from_str(&render(r, Format::Sarif, RenderOptions::default())).unwrap();
    let results = sarif["runs"][0]["results"].as_array().map_or(0, Vec::len);
    let errors =
        sarif["runs"][0]["results"].as_array().map_or(0, |v| v.iter().filter(|x| x["level"] == "error").count());
    if results != n || errors != blockers {
        out.push(format!(
            "SARIF has {results} result(s), {errors} error(s), for {n} finding(s), {blockers} blocker(s)"
        ));
    }
    let junit = render(
        r,
        Format::Junit,
        RenderOptions { color: false, fail_on: Some(Severity::Blocker), ..RenderOptions::default() },
    );
    if !junit.contains(&format!("failures=\"{blockers}\"")) || junit.matches("<testcase").count() < n {
        out.push(format!("JUnit does not count {blockers} failure(s) over {n} finding(s)"));
    }
    let md = render(r, Format::Markdown, RenderOptions::default());
    let rows = md.lines().filter(|l| l.starts_with("| ") && r.findings.iter().any(|f| l.contains(f.code))).count();
    if rows != n {
        out.push(format!("Markdown lists {rows} finding row(s) for {n}"));
    }
    let json: Value = serde_json::from_str(&r.to_json()).unwrap();
    if json["findings"].as_array().map_or(0, Vec::len) != n || json["summary"]["blocker"] != blockers {
        out.push("JSON counts differ".into());
    }
    // 8. One story for each drain: a finding that says a node's drain fails (a pod it refuses without its
    //    flag, an eviction a webhook refuses) names a node the plan stops on, or one it never reached
    //    because of an earlier stop; and the downtime of a plan that stops says it is partial.
    // (Only where a plan ran: pods whose nodes are not among the inputs have no plan to agree with; the plan
    // family is then `not-simulated`, invariant 11.)
    for f in r.findings.iter().filter(|f| f.severity == Severity::Blocker && !r.plan.phases.is_empty()) {
        let nodes: Vec<&str> = match f.code {
            "disruption/unmanaged-pod" | "disruption/local-storage" => {
                f.data.get("node").and_then(|v| v.as_str()).into_iter().collect()
            }
            "admission/webhook-unavailable" => f
                .data
                .get("nodes")
                .and_then(|v| v.as_value())
                .and_then(|v| v.as_array())
                .map(|a| a.iter().filter_map(|v| v.as_str()).collect())
                .unwrap_or_default(),
            _ => Vec::new(),
        };
        for node in nodes {
            let stops_there = r.plan.stops.iter().any(|s| s.node.as_deref() == Some(node));
            if !stops_there && !r.plan.not_simulated.iter().any(|n| n == node) {
                out.push(format!("{} says the drain of {node} fails; the plan completes it", f.code));
            }
        }
    }
    if r.downtime.partial == r.plan.complete && !r.plan.phases.is_empty() {
        out.push(format!("downtime partial {} in a plan complete {}", r.downtime.partial, r.plan.complete));
    }
    // 9. The plan "if resolved" is there exactly when a stop's cause can be lifted, and lifts no cause of
    //    a stop the real plan does not have.
    if let Some(ir) = &r.plan.if_resolved {
        if r.plan.complete {
            out.push("a complete plan has a plan if resolved".into());
        }
        if ir.plan.if_resolved.is_some() {
            out.push("a plan if resolved has one of its own".into());
        }
    }
    // 11. No pass from anything but checked: `ready` only when every family in scope stands on what was read
    //     (checked, partial or skipped by choice) and the current version is known; `incomplete` exactly when
    //     nothing blocks and a family in scope stands on nothing; a family whose kinds are absent from the
    //     inventory is never checked; JUnit passes a rule or a family only when it was checked; the text's
    //     verdict line says the report's verdict.
    let c = &r.coverage;
    let stands_on_nothing = c.families.iter().any(|f| f.in_scope && f.state.makes_incomplete());
    if (r.summary.verdict == "incomplete") != (blockers == 0 && r.inventory.objects > 0 && stands_on_nothing) {
        out.push(format!("verdict {} with families {:?} and {blockers} blocker(s)", r.summary.verdict, c.incomplete));
    }
    let judges_cluster = c.scope == kube_preflight::coverage::Scope::Cluster;
    if r.summary.verdict == "ready" && ((judges_cluster && r.upgrade.from.is_none()) || stands_on_nothing) {
        out.push(format!("ready with the current version {:?} and families {:?}", r.upgrade.from, c.incomplete));
    }
    for f in c.families.iter().filter(|f| f.state == kube_preflight::coverage::State::Checked) {
        let groups_read = f.kinds.is_empty() || f.kinds.iter().any(|k| k.read > 0);
        let counted = f.kinds.iter().all(|k| {
            r.inventory.by_kind.get(k.kind).copied().unwrap_or(0) == k.read
                || k.kind == kube_preflight::coverage::HELM_RELEASE
        });
        if !groups_read || !counted {
            out.push(format!("{} is checked with kinds {:?}", f.id, f.kinds));
        }
    }
    let junit = render(r, Format::Junit, RenderOptions::default());
    for line in junit.lines().map(str::trim) {
        let Some(rest) = line.strip_prefix("<testcase classname=\"").filter(|l| l.ends_with("/>")) else { continue };
        let (class, name) = rest.split_once("\" name=\"").unwrap_or((rest, ""));
        let name = name.trim_end_matches("\"/>");
        let passes_unchecked = if class == "coverage" {
            c.families.iter().any(|f| f.id == name && f.state != kube_preflight::coverage::State::Checked)
        } else {
            name == "no findings" && c.unchecked_for(class).is_some()
        };
        if passes_unchecked {
            out.push(format!("JUnit passes {class} {name}, whose family was not checked"));
        }
    }
    let text = render(r, Format::Text, RenderOptions::default());
    let last = text.trim_end().lines().last().unwrap_or_default().to_ascii_lowercase();
    if !last.starts_with(&r.summary.verdict.replace('-', " ")) {
        out.push(format!("the text's verdict line {last:?} against {}", r.summary.verdict));
    }
    let _ = snapshot;
    out
}

/// 9. A plan that completes steps, in each hop, exactly the nodes `plan::scope` says a hop goes through
///    (the nodes a stop lists as never started when a hop stops short).
fn scope_differs(r: &Report, text: &str, o: &UpgradeOptions) -> Option<String> {
    if !r.plan.complete || r.plan.steps.is_empty() {
        return None;
    }
    let ingested = kube_preflight::ingest::ingest(&[Input::new("cluster.json", text.as_bytes())]).ok()?;
    let version = |v: &str| kube_preflight::version::Version::parse(v).ok();
    let to = version(&r.upgrade.to)?;
    let from = r.upgrade.from.as_deref().and_then(version);
    let path: Vec<_> = r.upgrade.path.iter().filter_map(|v| version(v)).collect();
    let c = kube_preflight::cluster::Cluster::new(&ingested.objects, o, to, from, path);
    let scope: BTreeSet<&str> =
        kube_preflight::plan::scope(&c).iter().filter_map(|i| c.nodes.get(*i)).map(|n| n.name()).collect();
    let names: BTreeSet<&str> = c.nodes.iter().map(|n| n.name()).collect();
    for hop in &r.upgrade.path {
        let stepped: BTreeSet<&str> = r
            .plan
            .steps
            .iter()
            .filter(|s| s.hop.as_deref() == Some(hop.as_str()) && names.contains(s.node.as_str()))
            .map(|s| s.node.as_str())
            .collect();
        if stepped != scope {
            return Some(format!("hop {hop} steps {stepped:?}; plan::scope says {scope:?}"));
        }
    }
    None
}

/// One random cluster's report checked against itself: what it contradicts, if anything, and the stops
/// and the completion it reached.
fn one_case(seed: u64) -> (Option<String>, Vec<&'static str>) {
    let mut r = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let profile = *r.pick(&Profile::ALL);
    let snapshot = cluster(&mut r, profile);
    let mut o = options(&mut r, profile);
    // Kinds left out at random, and families skipped by choice: what the report stands on varies.
    let mut snapshot = snapshot;
    for kind in ["PodDisruptionBudget", "Pod", "Node"] {
        if r.chance(if kind == "Node" { 5 } else { 10 }) {
            if let Some(items) = snapshot["items"].as_array_mut() {
                items.retain(|i| i["kind"] != kind);
            }
        }
    }
    if r.chance(50) {
        o.skip = ["admission-webhooks", "admission-policies", "aggregated-apis", "custom-resources", "helm-charts"]
            .map(String::from)
            .to_vec();
        if r.chance(30) {
            o.skip.push("budgets".into());
        }
    }
    let text = serde_json::to_string(&snapshot).unwrap();
    if std::env::var("KP_PROPERTY_DUMP").ok().and_then(|v| v.parse::<u64>().ok()) == Some(seed) {
        std::fs::write(std::env::temp_dir().join(format!("kp-seed-{seed}.json")), &text).unwrap();
        eprintln!("seed {seed}: {o:?}");
    }
    let report = match check(&[Input::new("cluster.json", text.as_bytes())], &o) {
        Ok(rep) => rep,
        // A limit the distribution refuses is an options error: nothing to check.
        Err(kube_preflight::Error::Options(_)) => return (None, Vec::new()),
        Err(e) => panic!("seed {seed}: {e}"),
    };
    let mut reached: Vec<&'static str> = report.plan.stops.iter().map(|st| st.code).collect();
    reached.push(if report.plan.complete { "complete" } else { "incomplete" });
    reached.push(match report.summary.verdict {
        "ready" => "verdict ready",
        "incomplete" => "verdict incomplete",
        _ => "verdict other",
    });
    let mut b = broken(&report, &snapshot);
    b.extend(kube_preflight_tests::unshared_differs(&[Input::new("cluster.json", text.as_bytes())], &o, &report));
    b.extend(scope_differs(&report, &text, &o));
    let failure = (!b.is_empty()).then(|| format!("seed {seed} ({profile}, to {}):\n  {}", o.to, b.join("\n  ")));
    (failure, reached)
}

#[test]
fn one_report_one_story_over_random_clusters() {
    let cases: u64 = std::env::var("KP_PROPERTY_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(1000);
    // The seeds shared among the machine's cores (every `threads`th to each), the results put back in seed
    // order: the same failures, in the same order, as one thread gives.
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(4) as u64;
    let mut results: Vec<(u64, Option<String>, Vec<&'static str>)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                s.spawn(move || {
                    (1..=cases)
                        .filter(|seed| seed % threads == t)
                        .map(|seed| {
                            let (failure, reached) = one_case(seed);
                            (seed, failure, reached)
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e))).collect()
    });
    results.sort_by_key(|(seed, _, _)| *seed);
    // What the generator reached, so that the invariants are tried where they can break.
    let mut reached: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut failures = Vec::new();
    for (_, failure, codes) in results {
        for code in codes {
            *reached.entry(code).or_default() += 1;
        }
        failures.extend(failure);
    }
    assert!(
        failures.is_empty(),
        "{} of {cases} random report(s) contradict themselves:\n{}",
        failures.len(),
        failures.join("\n")
    );
    if cases >= 300 {
        for code in [
            "complete",
            "incomplete",
            "budget/unavailable-exceeds-limit",
            "budget/node-unavailable",
            "disruption/pdb-blocks-drain",
            "disruption/unmanaged-pod",
            "disruption/local-storage",
            "verdict ready",
            "verdict incomplete",
        ] {
            assert!(
                reached.get(code).copied().unwrap_or(0) >= 3,
                "the generator reached {code} too seldom: {reached:?}"
            );
        }
    }
}

/// Every node's heartbeat set to `time`: the snapshot says when it was taken.
fn at_time(snapshot: &mut Value, time: &str) {
    for item in snapshot["items"].as_array_mut().into_iter().flatten().filter(|i| i["kind"] == "Node") {
        for c in item["status"]["conditions"].as_array_mut().into_iter().flatten() {
            c["lastHeartbeatTime"] = json!(time);
        }
    }
}

/// A snapshot taken at plan time `t` of a simulated upgrade gives progress consistent with the plan at `t`:
/// a random cluster is planned (the report taken before the upgrade), then aged to `t` as the plan has it
/// (the API server at the target once the control plane is through, each node whose window has ended at
/// the target, each node whose window holds `t` cordoned), and read again with the first report as
/// `since`: the nodes done and in progress are the plan's at `t`, the upgrade is on schedule, and the rest
/// of the plan is exactly the nodes not done.
#[test]
fn a_snapshot_at_plan_time_t_is_where_the_plan_says() {
    let cases: u64 = std::env::var("KP_PROPERTY_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(1000) / 4;
    let (mut failures, mut tried) = (Vec::new(), 0);
    for seed in 1..=cases {
        let mut r = Rng(seed.wrapping_mul(0x2545_f491_4f6c_dd1d) | 1);
        let profile = *r.pick(&[Profile::Kubeadm, Profile::Rke, Profile::Kops]);
        let mut before = cluster(&mut r, profile);
        let mut o = options(&mut r, profile);
        o.to = "1.28.4".into();
        at_time(&mut before, "2026-03-10T09:00:00Z");
        let text = serde_json::to_string(&before).unwrap();
        let Ok(planned) = check(&[Input::new("cluster.json", text.as_bytes())], &o) else { continue };
        if !planned.plan.complete || planned.plan.steps.is_empty() || planned.upgrade.path.len() != 1 {
            continue;
        }
        // Each node's window (first start, last end), and when the control plane is through.
        let mut windows: BTreeMap<String, (u64, u64)> = BTreeMap::new();
        for st in &planned.plan.steps {
            let w = windows.entry(st.node.clone()).or_insert((st.start_seconds, st.end_seconds));
            *w = (w.0.min(st.start_seconds), w.1.max(st.end_seconds));
        }
        let cp_end = planned
            .plan
            .steps
            .iter()
            .filter(|s| s.phase == "control-plane" || s.phase == "etcd")
            .map(|s| s.end_seconds)
            .max()
            .unwrap_or(0);
        let total = planned.plan.total_seconds;
        if cp_end >= total {
            continue;
        }
        let t = cp_end + (r.below(usize::try_from(total - cp_end).unwrap_or(1)) as u64);
        let done: BTreeSet<&String> = windows.iter().filter(|(_, w)| w.1 <= t).map(|(n, _)| n).collect();
        let moving: BTreeSet<&String> = windows.iter().filter(|(_, w)| w.0 <= t && t < w.1).map(|(n, _)| n).collect();
        // A node cordoned before the upgrade and not upgraded yet looks, in a snapshot, like one its drain has
        // begun: no snapshot tells them apart, so it counts as in progress too.
        let cordoned_before: BTreeSet<String> = before["items"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|i| i["kind"] == "Node" && i["spec"]["unschedulable"] == json!(true))
            .filter_map(|i| i["metadata"]["name"].as_str().map(str::to_owned))
            .filter(|n| !done.contains(n) && !moving.contains(n))
            .collect();
        let mut aged = before.clone();
        for item in aged["items"].as_array_mut().into_iter().flatten().filter(|i| i["kind"] == "Node") {
            let name = item["metadata"]["name"].as_str().unwrap_or_default().to_owned();
            if done.contains(&name) {
                item["status"]["nodeInfo"]["kubeletVersion"] = json!("v1.28.4");
            } else if moving.contains(&name) {
                item["spec"]["unschedulable"] = json!(true);
            }
        }
        at_time(&mut aged, &kube_preflight::units::format_timestamp(1_773_133_200 + i64::try_from(t).unwrap_or(0)));
        let version = json!({"serverVersion": {"major": "1", "minor": "28", "gitVersion": "v1.28.4"}});
        let mut o2 = o.clone();
        o2.since = Some(
            kube_preflight::options::Since::from_node(
                &kube_preflight::parse::parse_json("before.json", &planned.to_json()).unwrap(),
            )
            .unwrap(),
        );
        let inputs = [
            Input::new("cluster.json", serde_json::to_string(&aged).unwrap().as_bytes()),
            Input::new("version.json", version.to_string().as_bytes()),
        ];
        let Ok(now) = check(&inputs, &o2) else { continue };
        tried += 1;
        let Some(p) = &now.progress else {
            failures.push(format!("seed {seed} ({profile:?}, t {t}): no progress section"));
            continue;
        };
        let mut broke = Vec::new();
        if p.counts.done < done.len() || p.counts.in_progress != moving.len() + cordoned_before.len() {
            broke.push(format!(
                "done {} in progress {}, the plan at t: {} and {} (and {} cordoned before)",
                p.counts.done,
                p.counts.in_progress,
                done.len(),
                moving.len(),
                cordoned_before.len()
            ));
        }
        let s = p.since.as_ref();
        if s.and_then(|s| s.elapsed_seconds) != Some(t)
            || s.and_then(|s| s.planned_done) != Some(done.len())
            || s.map(|s| s.actual_done) != Some(done.len())
            || s.and_then(|s| s.behind_seconds) != Some(0)
        {
            broke.push(format!("against the plan: {s:?}, expected {} done at {t} s, on schedule", done.len()));
        }
        if now.plan.complete {
            let rest: BTreeSet<&String> = now.plan.steps.iter().map(|s| &s.node).collect();
            let expected: BTreeSet<&String> = windows.keys().filter(|n| !done.contains(n)).collect();
            if rest != expected {
                broke.push(format!("the rest of the plan is {rest:?}, the nodes not done {expected:?}"));
            }
        }
        if !broke.is_empty() {
            failures.push(format!("seed {seed} ({profile:?}, t {t} of {total}): {}", broke.join("; ")));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {tried} aged snapshot(s) disagree with their plan:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(tried >= cases as usize / 4, "only {tried} of {cases} random clusters were planned to completion and aged");
}
