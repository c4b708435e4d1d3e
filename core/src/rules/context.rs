//! What every rule sees: the objects read, indexed, and the resolved request.

use std::cell::OnceCell;
use std::collections::{BTreeMap, HashMap};

use crate::model::{
    Body, NodeInfo, NodeRoles, NodeSelectorTerm, Object, ObjectRef, PodInfo, PodSpec, Requirement, Via, WorkloadInfo,
};
use crate::options::{Profile, UpgradeOptions};
use crate::version::Version;

/// A node with what the rules keep asking of it.
pub struct NodeView<'a> {
    pub obj: &'a Object,
    pub info: &'a NodeInfo,
    pub roles: NodeRoles,
    /// The kubelet's version, when it parses.
    pub kubelet: Option<Version>,
}

impl NodeView<'_> {
    pub fn name(&self) -> &str {
        &self.obj.r.name
    }

    pub fn ready(&self) -> bool {
        self.info.ready == Some(true)
    }

    /// Not ready, or cordoned: counts as already unavailable for an upgrade's budget.
    pub fn unavailable(&self) -> bool {
        !self.ready() || self.info.unschedulable
    }

    pub fn is_control_plane(&self) -> bool {
        self.roles.control_plane
    }

    /// A worker is any node that is not control-plane or etcd only.
    pub fn is_worker(&self) -> bool {
        self.roles.worker || !(self.roles.control_plane || self.roles.etcd)
    }
}

/// A workload's identity: kind, namespace, name.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct WorkloadKey {
    pub kind: String,
    pub namespace: String,
    pub name: String,
}

pub struct Context<'a> {
    pub objects: &'a [Object],
    pub options: &'a UpgradeOptions,
    pub to: Version,
    /// The current control-plane version, when given or inferable.
    pub from: Option<Version>,
    /// Each hop's target, in order (empty when there is nothing to upgrade or `from` is unknown).
    pub path: Vec<Version>,
    pub nodes: Vec<NodeView<'a>>,
    /// Each workload's outcome in the plan's simulation (`None` when there is no plan).
    pub workload_outcomes: Option<Vec<crate::plan::downtime::WorkloadOutcome>>,
    /// Live objects by (kind, namespace, name), and nodes by name: lookups stay O(1) on large snapshots.
    index: HashMap<(&'a str, &'a str, &'a str), &'a Object>,
    node_index: HashMap<&'a str, usize>,
    by_controller: OnceCell<PodsByController<'a>>,
    budgets: OnceCell<Vec<(&'a Object, crate::rules::disruption::pdb_blocks_drain::Budget)>>,
    after: OnceCell<Vec<Object>>,
    by_namespace: OnceCell<HashMap<&'a str, Vec<RunningPod<'a>>>>,
    by_node: OnceCell<Vec<Vec<RunningPod<'a>>>>,
}

/// A running pod: the object, its pod fields, its node's name.
pub type RunningPod<'a> = (&'a Object, &'a PodInfo, &'a str);

/// Pods with something attached, under their controller (`None`: a pod with no controller).
pub type Group<'a, T> = (Option<WorkloadKey>, Vec<(&'a Object, T)>);

/// Running pods by their top controller.
pub type PodsByController<'a> = BTreeMap<WorkloadKey, Vec<(&'a Object, &'a PodInfo, &'a str)>>;

impl<'a> Context<'a> {
    pub fn new(
        objects: &'a [Object],
        options: &'a UpgradeOptions,
        to: Version,
        from: Option<Version>,
        path: Vec<Version>,
    ) -> Self {
        let nodes: Vec<NodeView<'a>> = objects
            .iter()
            .filter(|o| live(o))
            .filter_map(|o| {
                let info = o.node()?;
                Some(NodeView {
                    obj: o,
                    info,
                    roles: o.node_roles(),
                    kubelet: info.kubelet_version.as_deref().and_then(|v| Version::parse(v).ok()),
                })
            })
            .collect();
        let mut index = HashMap::new();
        for o in objects.iter().filter(|o| live(o)) {
            index.entry((o.r.kind.as_str(), o.r.namespace.as_deref().unwrap_or(""), o.r.name.as_str())).or_insert(o);
        }
        let node_index =
            nodes.iter().enumerate().map(|(i, n): (usize, &NodeView<'a>)| (n.obj.r.name.as_str(), i)).collect();
        Context {
            objects,
            options,
            to,
            from,
            path,
            nodes,
            workload_outcomes: None,
            index,
            node_index,
            by_controller: OnceCell::new(),
            budgets: OnceCell::new(),
            after: OnceCell::new(),
            by_namespace: OnceCell::new(),
            by_node: OnceCell::new(),
        }
    }

    pub fn profile(&self) -> Profile {
        self.options.profile
    }

    /// The control-plane node the current version was read from (the oldest), for findings about it.
    pub fn from_node(&self) -> Option<&'a Object> {
        self.nodes
            .iter()
            .filter(|n| n.is_control_plane())
            .filter_map(|n| Some((n.kubelet.clone()?, n.obj)))
            .min_by(|a, b| a.0.cmp(&b.0))
            .map(|(_, o)| o)
    }

    /// The pools the profile budgets over.
    pub fn pools(&self) -> Vec<crate::budget::Pool> {
        crate::budget::pools(self.profile(), &self.nodes, self.objects)
    }

    /// Do the nodes run on AWS (by `spec.providerID`)? kOps defaults its surge to 1 there.
    pub fn on_aws(&self) -> bool {
        self.nodes.iter().any(|n| n.info.provider_id.as_deref().is_some_and(|p| p.starts_with("aws://")))
    }

    /// A pool's resolved budget.
    pub fn limit(&self, pool: &crate::budget::Pool) -> crate::budget::Limit {
        crate::budget::resolve(self.profile(), pool.role, pool.nodes.len(), self.options, &pool.settings, self.on_aws())
    }

    /// Does this upgrade drain nodes (evict pods) before upgrading them? RKE only with `drain: true`;
    /// RKE < 1.1 never; the others always, unless `drain: false` is given.
    pub fn drains(&self) -> bool {
        match self.profile() {
            Profile::Rke => self.options.drain.unwrap_or(false),
            Profile::RkeLegacy => false,
            _ => self.options.drain.unwrap_or(true),
        }
    }

    /// Does the drain honour PodDisruptionBudgets and wait on them (rather than proceed regardless)?
    /// GKE on Bare Metal gives up after 20 minutes and proceeds.
    pub fn drain_honours_pdbs(&self) -> bool {
        self.drains() && self.profile() != Profile::GkeBaremetal
    }

    pub fn node(&self, name: &str) -> Option<&NodeView<'a>> {
        self.nodes.get(self.node_index(name)?)
    }

    /// Running pods of a namespace (`"default"` for those with none).
    pub fn running_pods_in(&self, namespace: &str) -> &[RunningPod<'a>] {
        let m = self.by_namespace.get_or_init(|| {
            let mut m: HashMap<&'a str, Vec<RunningPod<'a>>> = HashMap::new();
            for p in self.running_pods() {
                m.entry(p.0.r.namespace.as_deref().unwrap_or("default")).or_default().push(p);
            }
            m
        });
        m.get(namespace).map_or(&[], Vec::as_slice)
    }

    /// Running pods on the node at `index`.
    pub fn running_pods_on(&self, index: usize) -> &[RunningPod<'a>] {
        let v = self.by_node.get_or_init(|| {
            let mut v: Vec<Vec<RunningPod<'a>>> = vec![Vec::new(); self.nodes.len()];
            for p in self.running_pods() {
                if let Some(slot) = self.node_index(p.2).and_then(|i| v.get_mut(i)) {
                    slot.push(p);
                }
            }
            v
        });
        v.get(index).map_or(&[], Vec::as_slice)
    }

    /// The position of a node in `nodes`.
    pub fn node_index(&self, name: &str) -> Option<usize> {
        self.node_index.get(name).copied()
    }

    /// A live object by kind, namespace (`""` for none) and name.
    pub fn lookup(&self, kind: &str, namespace: &str, name: &str) -> Option<&'a Object> {
        self.index.get(&(kind, namespace, name)).copied()
    }

    /// Every node as it will be after the upgrade (labels the upgrade removes, removed), by node index.
    pub fn nodes_after(&self) -> &[Object] {
        self.after
            .get_or_init(|| self.nodes.iter().map(|n| crate::rules::scheduling::node_after(self, n.obj)).collect())
    }

    /// Every PodDisruptionBudget with its numbers (DOMAIN section 6), computed once.
    pub fn budgets(&self) -> &[(&'a Object, crate::rules::disruption::pdb_blocks_drain::Budget)] {
        self.budgets.get_or_init(|| {
            self.live_objects()
                .filter_map(|o| match &o.body {
                    crate::model::Body::Pdb(pdb) => {
                        Some((o, crate::rules::disruption::pdb_blocks_drain::evaluate(self, o, pdb)))
                    }
                    _ => None,
                })
                .collect()
        })
    }

    /// Objects as they are in the cluster or the manifests (Helm release contents left out).
    pub fn live_objects(&self) -> impl Iterator<Item = &'a Object> + 'a {
        self.objects.iter().filter(|o| live(o))
    }

    pub fn pods(&self) -> impl Iterator<Item = (&'a Object, &'a PodInfo)> + 'a {
        self.live_objects().filter_map(|o| Some((o, o.pod()?)))
    }

    /// Pods bound to a node and not finished.
    pub fn running_pods(&self) -> impl Iterator<Item = (&'a Object, &'a PodInfo, &'a str)> + 'a {
        self.pods().filter_map(|(o, p)| {
            let node = p.spec.node_name.as_deref()?;
            let done = matches!(p.phase.as_deref(), Some("Succeeded" | "Failed"));
            (!done).then_some((o, p, node))
        })
    }

    pub fn workloads(&self) -> impl Iterator<Item = (&'a Object, &'a WorkloadInfo)> + 'a {
        self.live_objects().filter_map(|o| match &o.body {
            Body::Workload(w) => Some((o, w)),
            _ => None,
        })
    }

    pub fn path_strings(&self) -> Vec<String> {
        self.path.iter().map(ToString::to_string).collect()
    }

    /// The top controller of a pod: a ReplicaSet's Deployment, a Job's CronJob, else the owner itself.
    /// `None` for a pod with no controller.
    pub fn controller_of(&self, pod: &Object) -> Option<WorkloadKey> {
        let owner = pod.owners.iter().find(|o| o.controller).or_else(|| pod.owners.first())?;
        let ns = pod.r.namespace.clone().unwrap_or_default();
        let mut key = WorkloadKey { kind: owner.kind.clone(), namespace: ns, name: owner.name.clone() };
        if matches!(key.kind.as_str(), "ReplicaSet" | "Job") {
            let parent_kind = if key.kind == "ReplicaSet" { "Deployment" } else { "CronJob" };
            let found = self.lookup(&key.kind, &key.namespace, &key.name);
            match found.and_then(|o| o.owners.iter().find(|w| w.kind == parent_kind)) {
                Some(parent) => {
                    key =
                        WorkloadKey { kind: parent.kind.clone(), namespace: key.namespace, name: parent.name.clone() };
                }
                None if found.is_none() && key.kind == "ReplicaSet" => {
                    // The ReplicaSet is not in the snapshot: its name is `<deployment>-<pod-template-hash>`.
                    if let Some(hash) = pod.labels.get("pod-template-hash") {
                        if let Some(deploy) = key.name.strip_suffix(&format!("-{hash}")) {
                            key = WorkloadKey {
                                kind: "Deployment".into(),
                                namespace: key.namespace,
                                name: deploy.to_owned(),
                            };
                        }
                    }
                }
                None => {}
            }
        }
        Some(key)
    }

    /// The object of a workload, if the snapshot has it.
    pub fn workload_object(&self, key: &WorkloadKey) -> Option<&'a Object> {
        self.lookup(&key.kind, &key.namespace, &key.name)
    }

    /// The object that stands for a workload in a finding: its own, else its first running pod.
    pub fn representative(&self, key: &WorkloadKey) -> Option<&'a Object> {
        self.workload_object(key).or_else(|| self.pods_by_controller().get(key).and_then(|v| v.first()).map(|p| p.0))
    }

    /// Group pods by their top controller (`None`: pods with no controller, each alone), in a stable order.
    pub fn group_by_controller<T>(&self, pods: Vec<(&'a Object, T)>) -> Vec<Group<'a, T>> {
        // Keyed by controller, and by the pod itself when it has none.
        let mut groups: BTreeMap<(Option<WorkloadKey>, String), Vec<_>> = BTreeMap::new();
        for (o, t) in pods {
            let key = self.controller_of(o);
            let solo = if key.is_none() { display_ref(&o.r) } else { String::new() };
            groups.entry((key, solo)).or_default().push((o, t));
        }
        groups.into_iter().map(|((k, _), v)| (k, v)).collect()
    }

    /// A workload template or an unmanaged pod: the specs a selector lives in, without the copies that
    /// ReplicaSets of Deployments and Jobs of CronJobs repeat. A pod whose controller is not in the inputs
    /// stands for it (one pod per controller).
    pub fn pod_specs(&self) -> Vec<(&'a Object, &'a PodSpec)> {
        let mut out = Vec::new();
        for (o, w) in self.workloads() {
            let owned = (o.r.kind == "ReplicaSet" && o.owners.iter().any(|x| x.kind == "Deployment"))
                || (o.r.kind == "Job" && o.owners.iter().any(|x| x.kind == "CronJob"));
            if !owned {
                out.push((o, &w.template));
            }
        }
        let mut seen = std::collections::BTreeSet::new();
        for (o, p) in self.pods() {
            match self.controller_of(o) {
                None => out.push((o, &p.spec)),
                Some(k) => {
                    if self.workload_object(&k).is_none() && seen.insert(k) {
                        out.push((o, &p.spec));
                    }
                }
            }
        }
        out
    }

    /// Running pods grouped by their top controller.
    pub fn pods_by_controller(&self) -> &PodsByController<'a> {
        self.by_controller.get_or_init(|| {
            let mut m: PodsByController<'a> = BTreeMap::new();
            for p in self.running_pods() {
                if crate::rules::disruption::is_mirror(p.0) {
                    continue;
                }
                if let Some(k) = self.controller_of(p.0) {
                    m.entry(k).or_default().push(p);
                }
            }
            m
        })
    }
}

/// Not read out of a Helm release record (those are manifests, not cluster state).
pub fn live(o: &Object) -> bool {
    o.source.via != Some(Via::HelmRelease)
}

fn requirement_matches(r: &Requirement, value: Option<&str>) -> bool {
    match r.operator.as_str() {
        "In" => value.is_some_and(|v| r.values.iter().any(|x| x == v)),
        "NotIn" => value.is_none_or(|v| !r.values.iter().any(|x| x == v)),
        "Exists" => value.is_some(),
        "DoesNotExist" => value.is_none(),
        "Gt" | "Lt" => {
            let (Some(v), Some(bound)) =
                (value.and_then(|v| v.parse::<i64>().ok()), r.values.first().and_then(|b| b.parse::<i64>().ok()))
            else {
                return false;
            };
            if r.operator == "Gt" {
                v > bound
            } else {
                v < bound
            }
        }
        _ => false,
    }
}

fn term_matches(t: &NodeSelectorTerm, node: &Object) -> bool {
    if t.match_expressions.is_empty() && t.match_fields.is_empty() {
        // An empty term selects no node (Kubernetes semantics).
        return false;
    }
    t.match_expressions.iter().all(|r| requirement_matches(r, node.labels.get(&r.key).map(String::as_str)))
        && t.match_fields.iter().all(|r| r.key == "metadata.name" && requirement_matches(r, Some(&node.r.name)))
}

/// Does the node satisfy the pod's `nodeSelector` and required node affinity?
pub fn selector_matches(spec: &PodSpec, node: &Object) -> bool {
    spec.node_selector.iter().all(|(k, v)| node.labels.get(k) == Some(v))
        && match &spec.required_affinity {
            None => true,
            Some(terms) if terms.is_empty() => true,
            Some(terms) => terms.iter().any(|t| term_matches(t, node)),
        }
}

/// The node's `NoSchedule`/`NoExecute` taints the pod does not tolerate.
pub fn untolerated_taints<'n>(spec: &PodSpec, node: &'n NodeInfo) -> Vec<&'n crate::model::Taint> {
    node.taints
        .iter()
        .filter(|t| t.effect == "NoSchedule" || t.effect == "NoExecute")
        .filter(|t| !spec.tolerations.iter().any(|tol| tol.tolerates(t)))
        .collect()
}

impl WorkloadKey {
    pub fn display(&self) -> String {
        format!("{} {}/{}", self.kind, self.namespace, self.name)
    }
}

/// Names for a message: up to `max` of them, then "and N more".
pub fn name_list(names: &[String], max: usize) -> String {
    let shown: Vec<&str> = names.iter().take(max).map(String::as_str).collect();
    if names.len() > max {
        format!("{} and {} more", shown.join(", "), names.len() - max)
    } else {
        shown.join(", ")
    }
}

/// A reference for messages: `Kind namespace/name` or `Kind name`.
pub fn display_ref(r: &ObjectRef) -> String {
    match &r.namespace {
        Some(ns) => format!("{} {ns}/{}", r.kind, r.name),
        None => format!("{} {}", r.kind, r.name),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Source;
    use crate::parse::parse_yaml_documents;

    fn obj(yaml: &str) -> Object {
        let d = parse_yaml_documents("t", yaml).unwrap();
        Object::from_node(&d[0], Source { file: "t".into(), line: None, via: None })
    }

    #[test]
    fn node_affinity_operators() {
        let node =
            obj("kind: Node\napiVersion: v1\nmetadata: {name: n1, labels: {zone: a, cores: '16', gpu: 'yes'}}\n");
        let pod = |aff: &str| {
            let p = obj(&format!("kind: Pod\napiVersion: v1\nmetadata: {{name: p}}\nspec:\n  affinity:\n    nodeAffinity:\n      requiredDuringSchedulingIgnoredDuringExecution:\n        nodeSelectorTerms: {aff}\n"));
            p.pod().unwrap().spec.clone()
        };
        assert!(selector_matches(&pod("[{matchExpressions: [{key: zone, operator: In, values: [a, b]}]}]"), &node));
        assert!(!selector_matches(&pod("[{matchExpressions: [{key: zone, operator: NotIn, values: [a]}]}]"), &node));
        assert!(selector_matches(&pod("[{matchExpressions: [{key: ssd, operator: DoesNotExist}]}]"), &node));
        assert!(selector_matches(&pod("[{matchExpressions: [{key: cores, operator: Gt, values: ['8']}]}]"), &node));
        assert!(!selector_matches(&pod("[{matchExpressions: [{key: cores, operator: Lt, values: ['8']}]}]"), &node));
        assert!(selector_matches(&pod("[{matchFields: [{key: metadata.name, operator: In, values: [n1]}]}]"), &node));
        // Terms are OR-ed; expressions in a term AND-ed.
        assert!(selector_matches(&pod("[{matchExpressions: [{key: zone, operator: In, values: [x]}]}, {matchExpressions: [{key: gpu, operator: Exists}]}]"), &node));
        assert!(!selector_matches(
            &pod("[{matchExpressions: [{key: zone, operator: In, values: [a]}, {key: gpu, operator: DoesNotExist}]}]"),
            &node
        ));
        assert!(!selector_matches(&pod("[{}]"), &node));
    }
}
