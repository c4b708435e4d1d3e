//! Where a pod can run: `nodeSelector`, required node affinity, taints and tolerations, as the scheduler
//! reads them.

use std::hash::{Hash, Hasher};
use std::rc::Rc;

use super::{Cluster, NodeView};
use crate::model::{NodeInfo, NodeSelectorTerm, Object, PodSpec, Requirement, Taint, Toleration};
use crate::parse::{FastMap, Str, StringMap};

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

/// A label value as the API accepts it: at most 63 characters, alphanumerics with `-`, `_` and `.` inside.
fn valid_label_value(v: &str) -> bool {
    let b = v.as_bytes();
    v.len() <= 63
        && b.iter().all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.'))
        && b.first().is_none_or(u8::is_ascii_alphanumeric)
        && b.last().is_none_or(u8::is_ascii_alphanumeric)
}

/// Would the scheduler accept this requirement (labels.NewRequirement; for fields,
/// nodeSelectorRequirementsAsFieldSelector)? A term with one it refuses matches no node
/// (component-helpers scheduling/corev1/nodeaffinity, LazyErrorNodeSelector).
fn requirement_valid(r: &Requirement, field: bool) -> bool {
    if field {
        return r.key == "metadata.name" && matches!(r.operator.as_str(), "In" | "NotIn") && r.values.len() == 1;
    }
    match r.operator.as_str() {
        "In" | "NotIn" => !r.values.is_empty() && r.values.iter().all(|v| valid_label_value(v)),
        "Exists" | "DoesNotExist" => r.values.is_empty(),
        "Gt" | "Lt" => r.values.len() == 1 && r.values.iter().all(|v| v.parse::<i64>().is_ok()),
        _ => false,
    }
}

fn term_matches(t: &NodeSelectorTerm, node: &Object) -> bool {
    if t.match_expressions.is_empty() && t.match_fields.is_empty() {
        // An empty term selects no node (Kubernetes semantics).
        return false;
    }
    if !t.match_expressions.iter().all(|r| requirement_valid(r, false))
        || !t.match_fields.iter().all(|r| requirement_valid(r, true))
    {
        return false;
    }
    t.match_expressions.iter().all(|r| requirement_matches(r, node.labels.get(&r.key).map(Str::as_str)))
        && t.match_fields.iter().all(|r| r.key == "metadata.name" && requirement_matches(r, Some(&node.r.name)))
}

/// Does the node satisfy the pod's `nodeSelector` and required node affinity?
pub fn selector_matches(spec: &PodSpec, node: &Object) -> bool {
    spec.node_selector.iter().all(|(k, v)| node.labels.get(k) == Some(v))
        && match &spec.required_affinity {
            None => true,
            // A required affinity with no terms selects no node (nodeaffinity.go, NodeSelector.Match).
            Some(terms) => terms.iter().any(|t| term_matches(t, node)),
        }
}

/// The node's `NoSchedule`/`NoExecute` taints the pod does not tolerate.
pub fn untolerated_taints<'n>(spec: &PodSpec, node: &'n NodeInfo) -> Vec<&'n Taint> {
    node.taints
        .iter()
        .filter(|t| t.effect == "NoSchedule" || t.effect == "NoExecute")
        .filter(|t| !spec.tolerations.iter().any(|tol| tol.tolerates(t)))
        .collect()
}

/// Can a pod with this spec be scheduled on the node after the upgrade (selector, affinity, taints)?
/// `after` is the node as it will be ([`super::upgrade`]).
pub fn fits(spec: &PodSpec, node: &NodeView<'_>, after: &Object) -> bool {
    node.ready()
        && !node.info.unschedulable
        && selector_matches(spec, after)
        && untolerated_taints(spec, node.info).is_empty()
}

/// What decides where a pod may run: the parts of its spec [`fits`] reads.
#[derive(PartialEq, Eq, Hash)]
struct Placement {
    node_selector: StringMap,
    required_affinity: Option<Vec<NodeSelectorTerm>>,
    tolerations: std::sync::Arc<[Toleration]>,
}

impl Placement {
    fn is(&self, spec: &PodSpec) -> bool {
        self.node_selector == spec.node_selector
            && self.required_affinity == spec.required_affinity
            && self.tolerations == spec.tolerations
    }
}

/// The nodes each placement fits, by a hash of the placement (the placements under one hash compared in
/// full): workloads times nodes is quadratic in a cluster's size, while most workloads share a handful
/// of placements.
#[derive(Default)]
pub struct EligibleCache {
    by_hash: FastMap<u64, Vec<Eligible>>,
}

/// A placement and the nodes it fits.
type Eligible = (Placement, Rc<[usize]>);

fn placement_hash(spec: &PodSpec) -> u64 {
    let mut h = crate::parse::ShortHasher::default();
    spec.node_selector.hash(&mut h);
    spec.required_affinity.hash(&mut h);
    spec.tolerations.hash(&mut h);
    h.finish()
}

impl Cluster<'_> {
    /// Positions (in `nodes`) of the nodes a pod with this spec fits after the upgrade ([`fits`]),
    /// computed once per placement.
    pub fn eligible_nodes(&self, spec: &PodSpec) -> Rc<[usize]> {
        let hash = placement_hash(spec);
        let mut cache = self.eligible.borrow_mut();
        let bucket = cache.by_hash.entry(hash).or_default();
        if let Some((_, fit)) = bucket.iter().find(|(p, _)| p.is(spec)) {
            return Rc::clone(fit);
        }
        let after = self.nodes_after();
        let fit: Rc<[usize]> = (0..self.nodes.len())
            .filter(|i| self.nodes.get(*i).zip(after.get(*i)).is_some_and(|(n, a)| fits(spec, n, a)))
            .collect();
        let placement = Placement {
            node_selector: spec.node_selector.clone(),
            required_affinity: spec.required_affinity.clone(),
            tolerations: spec.tolerations.clone(),
        };
        bucket.push((placement, Rc::clone(&fit)));
        fit
    }
}

/// The zone and region labels the scheduler's VolumeZone filter reads, each with its GA name (a beta label
/// on the volume also matches the GA one on the node).
const TOPOLOGY_LABELS: [(&str, &str); 4] = [
    ("topology.kubernetes.io/zone", "topology.kubernetes.io/zone"),
    ("topology.kubernetes.io/region", "topology.kubernetes.io/region"),
    ("failure-domain.beta.kubernetes.io/zone", "topology.kubernetes.io/zone"),
    ("failure-domain.beta.kubernetes.io/region", "topology.kubernetes.io/region"),
];

/// Can a node reach this PersistentVolume? Its zone and region labels (VolumeZone, volume_zone.go: a node
/// with no topology label passes; a value may list zones joined by `__`) and its required node affinity
/// (VolumeBinding, CheckNodeAffinity).
pub fn volume_reachable(pv: &Object, affinity: Option<&[NodeSelectorTerm]>, node: &Object) -> bool {
    let (affinity_ok, zones_ok) = volume_reachable_parts(pv, affinity, node);
    affinity_ok && zones_ok
}

/// [`volume_reachable`] in the scheduler's two filters: the volume's node affinity (VolumeBinding) and its
/// zone and region labels (VolumeZone).
pub fn volume_reachable_parts(pv: &Object, affinity: Option<&[NodeSelectorTerm]>, node: &Object) -> (bool, bool) {
    let node_has_topology = TOPOLOGY_LABELS.iter().any(|(k, _)| node.labels.contains_key(k));
    let zones_ok = !node_has_topology
        || TOPOLOGY_LABELS.iter().all(|(key, ga)| match pv.labels.get(key) {
            None => true,
            Some(want) => {
                let have = node.labels.get(key).or_else(|| node.labels.get(ga));
                have.is_some_and(|v| want.split("__").any(|w| w == v.as_str()))
            }
        });
    (affinity.is_none_or(|terms| terms.iter().any(|t| term_matches(t, node))), zones_ok)
}

/// Does a PersistentVolume limit the nodes that can reach it (a node affinity, a zone or region label)?
pub fn volume_constrained(pv: &Object, affinity: Option<&[NodeSelectorTerm]>) -> bool {
    affinity.is_some() || TOPOLOGY_LABELS.iter().any(|(k, _)| pv.labels.contains_key(k))
}

impl<'a> Cluster<'a> {
    /// The PersistentVolume bound to a claim (by the volume's `claimRef`), if the snapshot has it.
    pub fn pv_of_claim(&self, namespace: &str, claim: &str) -> Option<&'a Object> {
        let map = self.pv_by_claim.get_or_init(|| {
            self.live_objects()
                .filter_map(|o| match &o.body {
                    crate::model::Body::Pv(pv) => pv.claim.clone().map(|c| (c, o)),
                    _ => None,
                })
                .collect()
        });
        map.get(&(namespace.to_owned(), claim.to_owned())).copied()
    }

    /// The PersistentVolumes a pod's claims are bound to (persistentVolumeClaim and generic ephemeral
    /// volumes), with the volume's name.
    pub fn pod_volumes(&self, pod: &Object, spec: &PodSpec) -> Vec<(&'a Object, &'a crate::model::PvInfo, String)> {
        let ns = pod.r.namespace.as_deref().unwrap_or("default");
        spec.volumes
            .iter()
            .filter_map(|v| {
                let claim = match v.kind {
                    crate::model::VolumeKind::PersistentVolumeClaim => v.claim.clone()?,
                    crate::model::VolumeKind::Ephemeral => format!("{}-{}", pod.r.name, v.name),
                    _ => return None,
                };
                let o = self.pv_of_claim(ns, &claim)?;
                match &o.body {
                    crate::model::Body::Pv(pv) => Some((o, &**pv, v.name.clone())),
                    _ => None,
                }
            })
            .collect()
    }

    /// The nodes a pod fits ([`Cluster::eligible_nodes`] of its spec, `base`) that can also reach its
    /// volumes: a pod whose claims are bound to zonal or local volumes can only move where they are.
    pub fn pod_eligible(&self, pod: &Object, spec: &PodSpec, base: &Rc<[usize]>) -> Rc<[usize]> {
        let vols = self.pod_volumes(pod, spec);
        if vols.is_empty() {
            return Rc::clone(base);
        }
        let after = self.nodes_after();
        base.iter()
            .copied()
            .filter(|i| {
                after
                    .get(*i)
                    .is_some_and(|n| vols.iter().all(|(o, pv, _)| volume_reachable(o, pv.affinity.as_deref(), n)))
            })
            .collect()
    }
}

/// The label keys a spec's selector and required affinity use.
pub fn selector_keys(spec: &PodSpec) -> Vec<&str> {
    let mut keys: Vec<&str> = spec.node_selector.keys().map(Str::as_str).collect();
    for t in spec.required_affinity.iter().flatten() {
        keys.extend(t.match_expressions.iter().map(|r| r.key.as_str()));
    }
    crate::sort::sort(&mut keys);
    keys.dedup();
    keys
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
