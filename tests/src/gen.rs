//! Realistic cluster snapshots of any size, deterministic from a seed (`cargo xtask gen`).
//!
//! Objects are shaped as `kubectl get nodes,pods,deploy,rs,ds,sts,pdb,hpa -A -o json|yaml` prints them:
//! managed fields, full statuses (conditions, container statuses, node images), env, probes, volumes,
//! default tolerations. A pod is about 7 to 10 KB of JSON, as in the snapshots measured for issue #11.
//! Every kind of finding appears somewhere: removed APIs, a budget that allows nothing, overlapping
//! budgets, a NotReady and a cordoned node, a pod with no controller, emptyDir data, single replicas,
//! a selector on the master label, pods without eviction tolerations.

use serde_json::{json, Value};

/// The shape of a generated snapshot.
#[derive(Debug, Clone, Copy)]
pub struct Shape {
    pub nodes: usize,
    pub pods: usize,
    pub seed: u64,
}

/// xorshift64*: small, fast, and the same everywhere (also the property tests' generator).
pub struct Rng(pub u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    pub fn below(&mut self, n: usize) -> usize {
        usize::try_from(self.next() % (n.max(1) as u64)).unwrap_or(0)
    }
    /// True `percent` times in a hundred.
    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
    /// One element of a non-empty slice.
    pub fn pick<'a, T>(&mut self, v: &'a [T]) -> &'a T {
        &v[self.below(v.len())]
    }
    fn hex(&mut self, len: usize) -> String {
        (0..len).map(|_| char::from(b"0123456789abcdef"[self.below(16)])).collect()
    }
    fn uid(&mut self) -> String {
        format!("{}-{}-4{}-8{}-{}", self.hex(8), self.hex(4), self.hex(3), self.hex(3), self.hex(12))
    }
}

const TS: &str = "2026-10-01T08:00:00Z";

fn managed(manager: &str, api_version: &str, fields: Value) -> Value {
    json!({"apiVersion": api_version, "fieldsType": "FieldsV1", "fieldsV1": fields, "manager": manager,
           "operation": "Update", "time": TS})
}

fn node(r: &mut Rng, i: usize, control_plane: bool) -> Value {
    let name = if control_plane { format!("cp-{i}") } else { format!("worker-{i:04}") };
    let zone = ["a", "b", "c"][i % 3];
    let mut labels = json!({
        "beta.kubernetes.io/arch": "amd64", "beta.kubernetes.io/os": "linux", "kubernetes.io/arch": "amd64",
        "kubernetes.io/hostname": name, "kubernetes.io/os": "linux",
        "topology.kubernetes.io/region": "eu-west-1", "topology.kubernetes.io/zone": format!("eu-west-1{zone}"),
        "node.kubernetes.io/instance-type": "m6i.2xlarge",
    });
    let mut spec = json!({"podCIDR": format!("10.{}.{}.0/24", i / 250, i % 250), "providerID": format!("aws:///eu-west-1{zone}/i-{}", r.hex(17))});
    if control_plane {
        labels["node-role.kubernetes.io/control-plane"] = json!("");
        spec["taints"] = json!([{"effect": "NoSchedule", "key": "node-role.kubernetes.io/control-plane"}]);
    }
    // One worker NotReady, one cordoned: findings of their own.
    let ready = if !control_plane && i == 7 { "False" } else { "True" };
    if !control_plane && i == 11 {
        spec["unschedulable"] = json!(true);
    }
    let images: Vec<Value> = (0..40)
        .map(|k| json!({"names": [format!("registry.example.com/team-{}/image-{k}@sha256:{}", k % 7, r.hex(64)), format!("registry.example.com/team-{}/image-{k}:v1.{k}", k % 7)], "sizeBytes": 10_000_000 + k * 1_234_567}))
        .collect();
    json!({
        "apiVersion": "v1", "kind": "Node",
        "metadata": {
            "annotations": {"node.alpha.kubernetes.io/ttl": "0", "volumes.kubernetes.io/controller-managed-attach-detach": "true"},
            "creationTimestamp": TS, "labels": labels,
            "managedFields": [
                managed("kubelet", "v1", json!({"f:metadata": {"f:labels": {".": {}}}, "f:status": {"f:conditions": {}}})),
                managed("kube-controller-manager", "v1", json!({"f:spec": {"f:podCIDR": {}}})),
            ],
            "name": name, "resourceVersion": format!("{}", 100_000 + i), "uid": r.uid(),
        },
        "spec": spec,
        "status": {
            "addresses": [{"address": format!("10.0.{}.{}", i / 250, i % 250), "type": "InternalIP"}, {"address": name, "type": "Hostname"}],
            "allocatable": {"cpu": "7910m", "ephemeral-storage": "95491281146", "memory": "31709540Ki", "pods": "110"},
            "capacity": {"cpu": "8", "ephemeral-storage": "103609320Ki", "memory": "32417124Ki", "pods": "110"},
            "conditions": [
                {"lastHeartbeatTime": TS, "lastTransitionTime": TS, "message": "kubelet has sufficient memory available", "reason": "KubeletHasSufficientMemory", "status": "False", "type": "MemoryPressure"},
                {"lastHeartbeatTime": TS, "lastTransitionTime": TS, "message": "kubelet has no disk pressure", "reason": "KubeletHasNoDiskPressure", "status": "False", "type": "DiskPressure"},
                {"lastHeartbeatTime": TS, "lastTransitionTime": TS, "message": "kubelet has sufficient PID available", "reason": "KubeletHasSufficientPID", "status": "False", "type": "PIDPressure"},
                {"lastHeartbeatTime": TS, "lastTransitionTime": TS, "message": "kubelet is posting ready status", "reason": "KubeletReady", "status": ready, "type": "Ready"},
            ],
            "daemonEndpoints": {"kubeletEndpoint": {"Port": 10250}},
            "images": images,
            "nodeInfo": {"architecture": "amd64", "bootID": r.uid(), "containerRuntimeVersion": "containerd://1.7.13",
                         "kernelVersion": "6.1.0-18-amd64", "kubeProxyVersion": "v1.28.9", "kubeletVersion": "v1.28.9",
                         "machineID": r.hex(32), "operatingSystem": "linux", "osImage": "Debian GNU/Linux 12 (bookworm)", "systemUUID": r.uid()},
        },
    })
}

/// The pod template of workload `w` (its containers, env, probes, volumes).
fn template(w: usize, app: &str) -> Value {
    let env: Vec<Value> =
        (0..12).map(|k| json!({"name": format!("SETTING_{k}"), "value": format!("value-{k}-of-{app}")})).collect();
    let mut volumes = vec![
        json!({"name": "config", "configMap": {"defaultMode": 420, "name": format!("{app}-config")}}),
        json!({"name": "kube-api-access", "projected": {"defaultMode": 420, "sources": [
            {"serviceAccountToken": {"expirationSeconds": 3607, "path": "token"}},
            {"configMap": {"items": [{"key": "ca.crt", "path": "ca.crt"}], "name": "kube-root-ca.crt"}},
            {"downwardAPI": {"items": [{"fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.namespace"}, "path": "namespace"}]}}]}}),
    ];
    if w % 9 == 4 {
        volumes.push(json!({"name": "scratch", "emptyDir": {}}));
    }
    let mut spec = json!({
        "containers": [{
            "name": app, "image": format!("registry.example.com/{app}:1.{w}"), "imagePullPolicy": "IfNotPresent",
            "env": env, "ports": [{"containerPort": 8080, "name": "http", "protocol": "TCP"}],
            "resources": {"limits": {"memory": "512Mi"}, "requests": {"cpu": "100m", "memory": "256Mi"}},
            "livenessProbe": {"failureThreshold": 3, "httpGet": {"path": "/healthz", "port": 8080, "scheme": "HTTP"}, "periodSeconds": 10, "successThreshold": 1, "timeoutSeconds": 1},
            "readinessProbe": {"failureThreshold": 3, "httpGet": {"path": "/ready", "port": 8080, "scheme": "HTTP"}, "periodSeconds": 5, "successThreshold": 1, "timeoutSeconds": 1},
            "volumeMounts": [{"mountPath": "/etc/app", "name": "config", "readOnly": true}, {"mountPath": "/var/run/secrets/kubernetes.io/serviceaccount", "name": "kube-api-access", "readOnly": true}],
            "terminationMessagePath": "/dev/termination-log", "terminationMessagePolicy": "File",
        }],
        "dnsPolicy": "ClusterFirst", "restartPolicy": "Always", "schedulerName": "default-scheduler",
        "securityContext": {}, "serviceAccountName": "default", "terminationGracePeriodSeconds": 30,
        "volumes": volumes,
    });
    // A few workloads pinned to the legacy master label, or without the default eviction tolerations.
    if w % 23 == 5 {
        spec["nodeSelector"] = json!({"node-role.kubernetes.io/master": ""});
    }
    if w % 17 != 3 {
        spec["tolerations"] = json!([
            {"effect": "NoExecute", "key": "node.kubernetes.io/not-ready", "operator": "Exists", "tolerationSeconds": 300},
            {"effect": "NoExecute", "key": "node.kubernetes.io/unreachable", "operator": "Exists", "tolerationSeconds": 300}]);
    }
    spec
}

/// A generated snapshot as one `kind: List` value.
pub fn snapshot(shape: Shape) -> Value {
    let mut items: Vec<Value> = Vec::with_capacity(shape.pods + shape.nodes + shape.pods / 4);
    for_each_item(shape, |v| items.push(v));
    json!({"apiVersion": "v1", "kind": "List", "metadata": {"resourceVersion": ""}, "items": items})
}

/// A pusher of items (`items.push(v)`), so that the generation below reads as building a list.
struct Items<F: FnMut(Value)>(F);

impl<F: FnMut(Value)> Items<F> {
    fn push(&mut self, v: Value) {
        (self.0)(v)
    }
}

/// The snapshot's items, one at a time (any size fits in memory).
pub fn for_each_item(shape: Shape, emit: impl FnMut(Value)) {
    let mut r = Rng(shape.seed.max(1));
    let cps = shape.nodes.clamp(1, 3);
    let workers = shape.nodes.saturating_sub(cps).max(1);
    let mut items = Items(emit);
    for i in 0..cps {
        items.push(node(&mut r, i, true));
    }
    for i in 0..workers {
        items.push(node(&mut r, i, false));
    }
    // Workloads of 1 to 6 replicas until the pods are placed.
    let mut placed = 0;
    let mut w = 0;
    while placed < shape.pods {
        let ns = format!("team-{}", w % 12);
        let app = format!("svc-{w}");
        let replicas = if w % 11 == 0 { 1 } else { 2 + r.below(5) };
        let replicas = replicas.min(shape.pods - placed);
        let hash = r.hex(10);
        let deploy_uid = r.uid();
        let rs_uid = r.uid();
        let labels = json!({"app.kubernetes.io/name": app, "app": app});
        let tpl = template(w, &app);
        items.push(json!({
            "apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"annotations": {"deployment.kubernetes.io/revision": "3",
                                         "kubectl.kubernetes.io/last-applied-configuration": format!("{{\"apiVersion\":\"{}\",\"kind\":\"Deployment\",\"metadata\":{{\"name\":\"{app}\",\"namespace\":\"{ns}\"}}}}\n", if w % 29 == 7 { "extensions/v1beta1" } else { "apps/v1" })},
                         "creationTimestamp": TS, "generation": 3, "labels": labels,
                         "managedFields": [managed("kubectl-client-side-apply", "apps/v1", json!({"f:spec": {"f:replicas": {}}})), managed("kube-controller-manager", "apps/v1", json!({"f:status": {}}))],
                         "name": app, "namespace": ns, "resourceVersion": format!("{}", 200_000 + w), "uid": deploy_uid},
            "spec": {"progressDeadlineSeconds": 600, "replicas": replicas, "revisionHistoryLimit": 10,
                     "selector": {"matchLabels": {"app": app}},
                     "strategy": {"rollingUpdate": {"maxSurge": "25%", "maxUnavailable": "25%"}, "type": "RollingUpdate"},
                     "template": {"metadata": {"labels": {"app": app, "app.kubernetes.io/name": app}}, "spec": tpl}},
            "status": {"availableReplicas": replicas, "observedGeneration": 3, "readyReplicas": replicas, "replicas": replicas, "updatedReplicas": replicas},
        }));
        items.push(json!({
            "apiVersion": "apps/v1", "kind": "ReplicaSet",
            "metadata": {"name": format!("{app}-{hash}"), "namespace": ns, "uid": rs_uid, "labels": {"app": app, "pod-template-hash": hash},
                         "ownerReferences": [{"apiVersion": "apps/v1", "blockOwnerDeletion": true, "controller": true, "kind": "Deployment", "name": app, "uid": deploy_uid}]},
            "spec": {"replicas": replicas, "selector": {"matchLabels": {"app": app, "pod-template-hash": hash}},
                     "template": {"metadata": {"labels": {"app": app, "pod-template-hash": hash}}, "spec": template(w, &app)}},
            "status": {"replicas": replicas, "readyReplicas": replicas},
        }));
        // Budgets: most allow one disruption; some allow none; a few overlap.
        if w % 5 == 0 && replicas > 1 {
            let budget = if w % 15 == 0 { json!({"minAvailable": replicas}) } else { json!({"maxUnavailable": 1}) };
            let mut pdb = json!({"apiVersion": "policy/v1", "kind": "PodDisruptionBudget",
                "metadata": {"name": app, "namespace": ns, "uid": r.uid()},
                "spec": {"selector": {"matchLabels": {"app": app}}}});
            for (k, v) in budget.as_object().into_iter().flatten() {
                pdb["spec"][k] = v.clone();
            }
            items.push(pdb);
            if w % 35 == 10 {
                items.push(json!({"apiVersion": "policy/v1", "kind": "PodDisruptionBudget",
                    "metadata": {"name": format!("{app}-all"), "namespace": ns, "uid": r.uid()},
                    "spec": {"maxUnavailable": 1, "selector": {"matchLabels": {"app.kubernetes.io/name": app}}}}));
            }
        }
        for k in 0..replicas {
            let node_name = format!("worker-{:04}", r.below(workers));
            let pod_name = format!("{app}-{hash}-{}", r.hex(5));
            let mut spec = template(w, &app);
            spec["nodeName"] = json!(node_name);
            spec["enableServiceLinks"] = json!(true);
            spec["preemptionPolicy"] = json!("PreemptLowerPriority");
            spec["priority"] = json!(0);
            let unmanaged = w % 97 == 13 && k == 0;
            let owners = if unmanaged {
                json!([])
            } else {
                json!([{"apiVersion": "apps/v1", "blockOwnerDeletion": true, "controller": true, "kind": "ReplicaSet", "name": format!("{app}-{hash}"), "uid": rs_uid}])
            };
            items.push(json!({
                "apiVersion": "v1", "kind": "Pod",
                "metadata": {"creationTimestamp": TS, "generateName": format!("{app}-{hash}-"),
                             "labels": {"app": app, "app.kubernetes.io/name": app, "pod-template-hash": hash},
                             "managedFields": [
                                 managed("kube-controller-manager", "v1", json!({"f:metadata": {"f:generateName": {}, "f:labels": {}, "f:ownerReferences": {}}, "f:spec": {"f:containers": {}}})),
                                 managed("kubelet", "v1", json!({"f:status": {"f:conditions": {}, "f:containerStatuses": {}, "f:hostIP": {}, "f:phase": {}, "f:podIP": {}, "f:startTime": {}}})),
                             ],
                             "name": pod_name, "namespace": ns, "ownerReferences": owners,
                             "resourceVersion": format!("{}", 300_000 + placed), "uid": r.uid()},
                "spec": spec,
                "status": {
                    "conditions": [
                        {"lastProbeTime": null, "lastTransitionTime": TS, "status": "True", "type": "Initialized"},
                        {"lastProbeTime": null, "lastTransitionTime": TS, "status": "True", "type": "Ready"},
                        {"lastProbeTime": null, "lastTransitionTime": TS, "status": "True", "type": "ContainersReady"},
                        {"lastProbeTime": null, "lastTransitionTime": TS, "status": "True", "type": "PodScheduled"}],
                    "containerStatuses": [{"containerID": format!("containerd://{}", r.hex(64)), "image": format!("registry.example.com/{app}:1.{w}"),
                                           "imageID": format!("registry.example.com/{app}@sha256:{}", r.hex(64)), "lastState": {}, "name": app,
                                           "ready": true, "restartCount": r.below(3), "started": true, "state": {"running": {"startedAt": TS}}}],
                    "hostIP": "10.0.0.1", "phase": "Running", "podIP": format!("10.244.{}.{}", placed / 250 % 250, placed % 250),
                    "podIPs": [{"ip": format!("10.244.{}.{}", placed / 250 % 250, placed % 250)}], "qosClass": "Burstable", "startTime": TS,
                },
            }));
            placed += 1;
        }
        w += 1;
    }
    // An HPA on an API the target no longer serves.
    items.push(json!({"apiVersion": "autoscaling/v2beta2", "kind": "HorizontalPodAutoscaler",
        "metadata": {"name": "svc-1", "namespace": "team-1", "uid": r.uid()},
        "spec": {"maxReplicas": 10, "minReplicas": 2, "scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "svc-1"}}}));
}

/// Write the snapshot as [`to_json`] and [`to_yaml`] print it (the same bytes), item by item.
pub fn write(shape: Shape, yaml: bool, out: &mut impl std::io::Write) -> std::io::Result<()> {
    let mut first = true;
    let mut result = Ok(());
    if yaml {
        result = out.write_all(b"apiVersion: v1\nitems:\n");
    } else {
        result = result.and_then(|()| out.write_all(b"{\n    \"apiVersion\": \"v1\",\n    \"items\": ["));
    }
    for_each_item(shape, |item| {
        if result.is_err() {
            return;
        }
        let text = if yaml {
            let mut s = String::new();
            yaml_value(&Value::Array(vec![item]), 0, &mut s, false);
            s
        } else {
            // The item at the indent it has inside the List (two levels of four spaces).
            let body = to_json(&item);
            let mut s = String::from(if first { "\n" } else { ",\n" });
            for (k, line) in body.trim_end().lines().enumerate() {
                if k > 0 {
                    s.push('\n');
                }
                s.push_str("        ");
                s.push_str(line);
            }
            s
        };
        first = false;
        result = out.write_all(text.as_bytes());
    });
    result?;
    if yaml {
        out.write_all(b"kind: List\nmetadata:\n  resourceVersion: \"\"\n")
    } else {
        out.write_all(
            b"\n    ],\n    \"kind\": \"List\",\n    \"metadata\": {\n        \"resourceVersion\": \"\"\n    }\n}\n",
        )
    }
}

/// JSON as kubectl prints it (4-space indents).
pub fn to_json(v: &Value) -> String {
    let mut out = Vec::new();
    let fmt = serde_json::ser::PrettyFormatter::with_indent(b"    ");
    let mut ser = serde_json::Serializer::with_formatter(&mut out, fmt);
    serde::Serialize::serialize(v, &mut ser).expect("a Value serializes");
    out.push(b'\n');
    String::from_utf8(out).expect("serde_json writes UTF-8")
}

/// YAML as kubectl prints it (block style, 2-space indents, `- ` items at their key's indent).
pub fn to_yaml(v: &Value) -> String {
    let mut out = String::new();
    yaml_value(v, 0, &mut out, false);
    out
}

fn scalar(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => {
            let plain = !s.is_empty()
                && s.chars().all(|c| c.is_ascii_alphanumeric() || "-_./".contains(c))
                && s.parse::<f64>().is_err()
                && !matches!(s.as_str(), "true" | "false" | "null" | "yes" | "no" | "on" | "off" | "y" | "n" | "~");
            if plain {
                s.clone()
            } else {
                serde_json::to_string(s).expect("a string serializes")
            }
        }
        _ => String::new(),
    }
}

fn yaml_value(v: &Value, indent: usize, out: &mut String, in_item: bool) {
    let pad = " ".repeat(indent);
    match v {
        Value::Object(m) if !m.is_empty() => {
            for (k, (key, val)) in m.iter().enumerate() {
                if !(in_item && k == 0) {
                    out.push_str(&pad);
                }
                out.push_str(&scalar(&Value::String(key.clone())));
                out.push(':');
                yaml_child(val, indent + 2, out);
            }
        }
        Value::Array(a) if !a.is_empty() => {
            for item in a {
                out.push_str(&pad);
                out.push_str("- ");
                match item {
                    Value::Object(m) if !m.is_empty() => yaml_value(item, indent + 2, out, true),
                    Value::Array(x) if !x.is_empty() => {
                        out.push('\n');
                        yaml_value(item, indent + 2, out, false);
                    }
                    _ => {
                        out.push_str(&flow(item));
                        out.push('\n');
                    }
                }
            }
        }
        _ => {
            out.push_str(&pad);
            out.push_str(&flow(v));
            out.push('\n');
        }
    }
}

fn yaml_child(v: &Value, indent: usize, out: &mut String) {
    match v {
        Value::Object(m) if !m.is_empty() => {
            out.push('\n');
            yaml_value(v, indent, out, false);
        }
        // kubectl writes a mapping's list at the key's own indent.
        Value::Array(a) if !a.is_empty() => {
            out.push('\n');
            yaml_value(v, indent - 2, out, false);
        }
        _ => {
            out.push(' ');
            out.push_str(&flow(v));
            out.push('\n');
        }
    }
}

fn flow(v: &Value) -> String {
    match v {
        Value::Object(m) if m.is_empty() => "{}".into(),
        Value::Array(a) if a.is_empty() => "[]".into(),
        _ => scalar(v),
    }
}
