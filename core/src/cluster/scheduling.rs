//! Where a pod can run: `nodeSelector`, required node affinity, taints and tolerations, as the scheduler
//! reads them.

use std::collections::hash_map::DefaultHasher;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::rc::Rc;

use super::{Cluster, NodeView};
use crate::model::{NodeInfo, NodeSelectorTerm, Object, PodSpec, Requirement, Taint, Toleration};
use crate::parse::{Str, StringMap};

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
    by_hash: HashMap<u64, Vec<Eligible>>,
}

/// A placement and the nodes it fits.
type Eligible = (Placement, Rc<[usize]>);

fn placement_hash(spec: &PodSpec) -> u64 {
    let mut h = DefaultHasher::new();
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

/// The label keys a spec's selector and required affinity use.
pub fn selector_keys(spec: &PodSpec) -> Vec<&str> {
    let mut keys: Vec<&str> = spec.node_selector.keys().map(Str::as_str).collect();
    for t in spec.required_affinity.iter().flatten() {
        keys.extend(t.match_expressions.iter().map(|r| r.key.as_str()));
    }
    keys.sort_unstable();
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
