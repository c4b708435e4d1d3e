//! Which workload owns a pod: the top controller through ReplicaSets and Jobs, and the pod specs a
//! selector lives in.

use std::collections::{BTreeMap, BTreeSet};

use super::{is_mirror, Cluster};
use crate::model::{display_ref, Object, PodInfo, PodSpec};

/// A workload's identity: kind, namespace, name, borrowed from the snapshot's objects (a pod's owner, its
/// namespace, its ReplicaSet's or Job's owner): a key per pod copied no string and counted no shared one,
/// where three counted strings per key were written at each key made and let go (at 150,000 pods the
/// keys of the pods grouped by controller were a fifth of letting the run if resolved's model go).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct WorkloadKey<'k> {
    pub kind: &'k str,
    pub namespace: &'k str,
    pub name: &'k str,
}

impl WorkloadKey<'_> {
    pub fn display(&self) -> String {
        format!("{} {}/{}", self.kind, self.namespace, self.name)
    }
}

/// Pods with something attached, under their controller (`None`: a pod with no controller).
pub type Group<'a, T> = (Option<WorkloadKey<'a>>, Vec<(&'a Object, T)>);

/// Running pods by their top controller.
pub type PodsByController<'a> = BTreeMap<WorkloadKey<'a>, Vec<(&'a Object, &'a PodInfo, &'a str)>>;

impl<'a> Cluster<'a> {
    /// The top controller of a pod: a ReplicaSet's Deployment, a Job's CronJob, else the owner itself.
    /// `None` for a pod with no controller.
    pub fn controller_of<'k>(&self, pod: &'k Object) -> Option<WorkloadKey<'k>>
    where
        'a: 'k,
    {
        let owner = pod.owners.iter().find(|o| o.controller).or_else(|| pod.owners.first())?;
        let namespace = pod.r.namespace.as_deref().unwrap_or_default();
        let mut key = WorkloadKey { kind: owner.kind.as_str(), namespace, name: owner.name.as_str() };
        if matches!(key.kind, "ReplicaSet" | "Job") {
            let parent_kind = if key.kind == "ReplicaSet" { "Deployment" } else { "CronJob" };
            let found = self.lookup(key.kind, key.namespace, key.name);
            match found.and_then(|o| o.owners.iter().find(|w| w.kind == parent_kind)) {
                Some(parent) => {
                    key = WorkloadKey { kind: parent.kind.as_str(), namespace, name: parent.name.as_str() };
                }
                None if found.is_none() && key.kind == "ReplicaSet" => {
                    // The ReplicaSet is not in the snapshot: its name is `<deployment>-<pod-template-hash>`.
                    if let Some(hash) = pod.labels.get("pod-template-hash") {
                        let deploy = key.name.strip_suffix(hash.as_str()).and_then(|d| d.strip_suffix('-'));
                        if let Some(deploy) = deploy {
                            key = WorkloadKey { kind: "Deployment", namespace, name: deploy };
                        }
                    }
                }
                None => {}
            }
        }
        Some(key)
    }

    /// The object of a workload, if the snapshot has it.
    pub fn workload_object(&self, key: &WorkloadKey<'_>) -> Option<&'a Object> {
        self.lookup(key.kind, key.namespace, key.name)
    }

    /// The object that stands for a workload in a finding: its own, else its first running pod.
    pub fn representative(&self, key: &WorkloadKey<'_>) -> Option<&'a Object> {
        self.workload_object(key).or_else(|| self.pods_by_controller().get(key).and_then(|v| v.first()).map(|p| p.0))
    }

    /// Group pods by their top controller (`None`: pods with no controller, each alone), in a stable order.
    pub fn group_by_controller<T>(&self, pods: Vec<(&'a Object, T)>) -> Vec<Group<'a, T>> {
        // Keyed by controller, and by the pod itself when it has none; sorted stably by key, so that each
        // group keeps its pods' order (a list rather than a B-tree map: one map type less per `T`).
        type Key<'k> = (Option<WorkloadKey<'k>>, String);
        let mut keyed: Vec<(Key<'a>, (&'a Object, T))> = pods
            .into_iter()
            .map(|(o, t)| {
                let key = self.controller_of(o);
                let solo = if key.is_none() { display_ref(&o.r) } else { String::new() };
                ((key, solo), (o, t))
            })
            .collect();
        crate::sort::sort_by(&mut keyed, |a, b| a.0.cmp(&b.0));
        let mut out: Vec<Group<'a, T>> = Vec::new();
        let mut last: Option<Key<'a>> = None;
        for (key, pod) in keyed {
            match out.last_mut() {
                Some((_, members)) if last.as_ref() == Some(&key) => members.push(pod),
                _ => {
                    out.push((key.0, vec![pod]));
                    last = Some(key);
                }
            }
        }
        out
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
        let mut seen = BTreeSet::new();
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

    /// Running pods grouped by their top controller (mirror pods left out).
    pub fn pods_by_controller(&self) -> &PodsByController<'a> {
        self.by_controller.get_or_init(|| {
            let mut m: PodsByController<'a> = BTreeMap::new();
            for p in self.running_pods() {
                if is_mirror(p.0) {
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
