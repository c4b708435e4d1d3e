//! Which distribution the inputs come from, and why we think so: the distribution's own files and objects
//! first (an RKE `cluster.yml`, kOps `InstanceGroup`s, OpenShift `MachineConfigPool`s, GKE on Bare Metal
//! `Cluster`/`NodePool` objects), then what it writes on the nodes (labels, annotations, provider IDs).
//! A managed cluster (EKS, GKE, AKS) is named too: none of our profiles upgrades it.

use crate::ingest::Ingested;
use crate::model::Object;
use crate::options::Profile;
pub use crate::report::{Detected, Evidence};

/// A distribution's file or object (weight 3), a mark on every node (2), on some nodes (1).
struct Candidate {
    profile: Option<Profile>,
    managed: Option<&'static str>,
    weight: u32,
    evidence: Vec<Evidence>,
}

/// Node marks: (profile, managed, how the mark is found, what it is called).
type Mark = (Option<Profile>, Option<&'static str>, fn(&Object) -> bool, &'static str);

const MARKS: [Mark; 8] = [
    (
        Some(Profile::Kops),
        None,
        |o| o.labels.get(crate::budget::KOPS_GROUP_LABEL).is_some(),
        "label kops.k8s.io/instancegroup",
    ),
    (
        Some(Profile::Openshift),
        None,
        |o| {
            o.annotations.get("machineconfiguration.openshift.io/currentConfig").is_some()
                || o.labels.get("node.openshift.io/os_id").is_some()
        },
        "annotation machineconfiguration.openshift.io/currentConfig or label node.openshift.io/os_id",
    ),
    (
        Some(Profile::GkeBaremetal),
        None,
        |o| o.labels.get(crate::budget::GKE_POOL_LABEL).is_some(),
        "label baremetal.cluster.gke.io/node-pool",
    ),
    (
        Some(Profile::Rke),
        None,
        |o| {
            o.annotations.get("rke.cattle.io/internal-ip").is_some()
                || o.annotations.get("rke.cattle.io/external-ip").is_some()
        },
        "annotation rke.cattle.io/internal-ip (set by RKE on the hosts it provisions)",
    ),
    (
        Some(Profile::Kubeadm),
        None,
        |o| o.annotations.get("kubeadm.alpha.kubernetes.io/cri-socket").is_some(),
        "annotation kubeadm.alpha.kubernetes.io/cri-socket (written by kubeadm join/init)",
    ),
    (
        None,
        Some("eks"),
        |o| {
            o.labels.get("eks.amazonaws.com/nodegroup").is_some()
                || o.labels.get("eks.amazonaws.com/compute-type").is_some()
        },
        "label eks.amazonaws.com/nodegroup",
    ),
    (
        None,
        Some("gke"),
        |o| o.labels.get("cloud.google.com/gke-nodepool").is_some(),
        "label cloud.google.com/gke-nodepool",
    ),
    (
        None,
        Some("aks"),
        |o| {
            o.labels.get("kubernetes.azure.com/agentpool").is_some()
                || o.labels.get("kubernetes.azure.com/cluster").is_some()
        },
        "label kubernetes.azure.com/agentpool",
    ),
];

/// Which RKE generation a cluster.yml was written for, and why: RKE reads `upgrade_strategy` from v1.1.0
/// on (workers in a window of `max_unavailable_worker`, drains), and deploys Kubernetes 1.18 from v1.1.0
/// on; before v1.1 every node of a role was upgraded at once (`rke-legacy`). Nothing RKE writes on the
/// nodes records its own version, so without either sign it is RKE v1.1 or later, said as an assumption.
pub fn rke_generation(cfg: Option<&crate::model::distro::RkeConfig>) -> (Profile, String) {
    let Some(cfg) = cfg else { return (Profile::Rke, "no upgrade_strategy to tell the RKE version".to_owned()) };
    let k8s = cfg.kubernetes_version.as_deref().and_then(|v| crate::version::Version::parse(v).ok());
    if cfg.upgrade_strategy {
        return (Profile::Rke, "it has upgrade_strategy, which RKE reads from v1.1.0 on (profile rke)".to_owned());
    }
    match k8s {
        Some(v) if v.minor >= 18 => {
            (Profile::Rke, format!("kubernetes_version {v} is deployed by RKE v1.1.0 or later (profile rke)"))
        }
        _ => (
            Profile::Rke,
            "no upgrade_strategy and no Kubernetes version that only RKE v1.1+ deploys: RKE v1.1 or later is \
             assumed (profile rke); for an older RKE, which upgrades every node of a role at once, choose rke-legacy"
                .to_owned(),
        ),
    }
}

/// What the inputs look like, for a report made under `chosen`; `None` when nothing tells.
pub fn detect(ingested: &Ingested, chosen: Profile) -> Option<Detected> {
    let mut cands: Vec<Candidate> = Vec::new();
    let mut add = |profile: Option<Profile>, managed: Option<&'static str>, weight: u32, e: Evidence| match cands
        .iter_mut()
        .find(|c| c.profile == profile && c.managed == managed)
    {
        Some(c) => {
            c.weight = c.weight.max(weight);
            c.evidence.push(e);
        }
        None => cands.push(Candidate { profile, managed, weight, evidence: vec![e] }),
    };
    for c in ingested.inventory.distribution_configs.iter().filter(|c| c.kind == "rke-cluster-yml").take(1) {
        let at = Some(format!("{}:{}", c.file, c.line));
        let (profile, why) = rke_generation(ingested.rke.as_ref());
        add(Some(profile), None, 3, Evidence { what: format!("an RKE cluster.yml: {why}"), at });
    }
    // The distribution's own objects: (profile, api group, kind), the first of each and how many.
    let objects: [(Profile, &str, &str); 5] = [
        (Profile::Kops, "kops.k8s.io/", "InstanceGroup"),
        (Profile::Kops, "kops.k8s.io/", "Cluster"),
        (Profile::Openshift, "machineconfiguration.openshift.io/", "MachineConfigPool"),
        (Profile::GkeBaremetal, "baremetal.cluster.gke.io/", "Cluster"),
        (Profile::GkeBaremetal, "baremetal.cluster.gke.io/", "NodePool"),
    ];
    // One pass over the objects (at 150,000 pods, seven passes were a fifth of assembling the report): the
    // first of each of `objects` and how many, the first kubeadm-config, the nodes.
    let mut found: [(Option<&Object>, usize); 5] = [(None, 0); 5];
    let mut kubeadm: Option<&Object> = None;
    let mut nodes: Vec<&Object> = Vec::new();
    for o in &ingested.objects {
        if o.node().is_some() {
            nodes.push(o);
        }
        for ((_, group, kind), (first, n)) in objects.iter().zip(found.iter_mut()) {
            if &*o.r.kind == *kind && o.r.api_version.starts_with(group) {
                first.get_or_insert(o);
                *n += 1;
            }
        }
        if kubeadm.is_none()
            && &*o.r.kind == "ConfigMap"
            && o.r.namespace.as_deref() == Some("kube-system")
            && &*o.r.name == "kubeadm-config"
        {
            kubeadm = Some(o);
        }
    }
    for ((profile, group, kind), (first, n)) in objects.into_iter().zip(found) {
        if let Some(first) = first {
            add(
                Some(profile),
                None,
                3,
                Evidence {
                    what: format!("{n} {kind} object(s) of {}", group.trim_end_matches('/')),
                    at: Some(first.source.location()),
                },
            );
        }
    }
    if let Some(cm) = kubeadm {
        add(
            Some(Profile::Kubeadm),
            None,
            3,
            Evidence { what: "ConfigMap kube-system/kubeadm-config".to_owned(), at: Some(cm.source.location()) },
        );
    }
    for (profile, managed, has, what) in MARKS {
        let mut marked = nodes.iter().filter(|o| has(o));
        if let Some(first) = marked.next() {
            let n = 1 + marked.count();
            add(
                profile,
                managed,
                if n == nodes.len() { 2 } else { 1 },
                Evidence {
                    what: format!("{n} of {} node(s) carry the {what}", nodes.len()),
                    at: Some(first.source.location()),
                },
            );
        }
    }
    // RKE's role labels (`controlplane`, one word) on every control-plane node: kubeadm writes `control-plane`.
    let cp: Vec<&&Object> = nodes.iter().filter(|o| o.node_roles().control_plane).collect();
    let rke_role = |o: &&&Object| o.labels.get("node-role.kubernetes.io/controlplane").is_some();
    if !cp.is_empty() && cp.iter().all(rke_role) {
        add(
            Some(Profile::Rke),
            None,
            2,
            Evidence {
                what: format!(
                    "{} control-plane node(s) labelled node-role.kubernetes.io/controlplane (RKE's role labels)",
                    cp.len()
                ),
                at: cp.first().map(|o| o.source.location()),
            },
        );
    }
    // Provider IDs back a managed service's labels (they alone tell only the cloud, not who runs it).
    for (managed, prefix) in [("eks", "aws://"), ("gke", "gce://"), ("aks", "azure://")] {
        let n = nodes
            .iter()
            .filter(|o| o.node().and_then(|i| i.provider_id.as_deref()).is_some_and(|p| p.starts_with(prefix)))
            .count();
        if let Some(c) = cands.iter_mut().find(|c| c.managed == Some(managed)).filter(|_| n > 0) {
            c.evidence.push(Evidence { what: format!("{n} node(s) with a {prefix} provider ID"), at: None });
        }
    }
    // The strongest; on a tie, the one our profiles know, then the profile's order (deterministic).
    let best = cands.into_iter().max_by(|a, b| {
        (a.weight, a.profile.is_some(), std::cmp::Reverse(a.profile), std::cmp::Reverse(a.managed)).cmp(&(
            b.weight,
            b.profile.is_some(),
            std::cmp::Reverse(b.profile),
            std::cmp::Reverse(b.managed),
        ))
    })?;
    let same = |p: Profile| match p {
        Profile::RkeLegacy => Profile::Rke,
        p => p,
    };
    Some(Detected {
        matches: best.profile.is_some_and(|p| same(p) == same(chosen)),
        profile: best.profile,
        managed: best.managed,
        evidence: best.evidence,
    })
}

impl Detected {
    /// One line for a header: `the inputs look like rke (an RKE cluster.yml at cluster.yml:1)`.
    pub fn describe(&self) -> String {
        let name = self
            .profile
            .map(|p| p.name().to_owned())
            .or_else(|| self.managed.map(|m| format!("a managed {} cluster", m.to_ascii_uppercase())))
            .unwrap_or_default();
        let first = self.evidence.first().map(|e| match &e.at {
            Some(at) => format!("{} at {at}", e.what),
            None => e.what.clone(),
        });
        match first {
            Some(f) => format!("the inputs look like {name} ({f})"),
            None => format!("the inputs look like {name}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::{ingest, Input};

    fn detected(files: &[(&str, &str)], chosen: Profile) -> Option<Detected> {
        let inputs: Vec<Input> = files.iter().map(|(n, t)| Input::new(*n, *t)).collect();
        detect(&ingest(&inputs).unwrap(), chosen)
    }

    fn node(name: &str, labels: &str, annotations: &str, provider: &str) -> String {
        format!(
            "---\napiVersion: v1\nkind: Node\nmetadata:\n  name: {name}\n  labels: {{{labels}}}\n  annotations: {{{annotations}}}\nspec: {{providerID: \"{provider}\"}}\nstatus:\n  nodeInfo: {{kubeletVersion: v1.28.3}}\n"
        )
    }

    #[test]
    fn an_rke_cluster_yml_says_rke_and_outweighs_node_marks() {
        let cy = "nodes:\n- address: 10.0.0.1\n  role: [controlplane, etcd, worker]\nupgrade_strategy:\n  max_unavailable_worker: 10%\n";
        let nodes = node("a", "node-role.kubernetes.io/control-plane: \"\"", "", "");
        let d = detected(&[("cluster.yml", cy), ("nodes.yaml", &nodes)], Profile::Kubeadm).unwrap();
        assert_eq!((d.profile, d.matches), (Some(Profile::Rke), false));
        assert_eq!(d.evidence[0].at.as_deref(), Some("cluster.yml:1"));
        assert!(
            d.describe().starts_with(
                "the inputs look like rke (an RKE cluster.yml: it has upgrade_strategy, which RKE reads from v1.1.0 on"
            ),
            "{}",
            d.describe()
        );
        // RKE before v1.1 reads the same file: rke-legacy matches.
        assert!(detected(&[("cluster.yml", cy)], Profile::RkeLegacy).unwrap().matches);
        // Without upgrade_strategy, a Kubernetes version only RKE v1.1+ deploys says rke; nothing says
        // rke-legacy for sure, so RKE v1.1 or later is assumed and the reason says so.
        let old = "nodes:\n- address: 10.0.0.1\n  role: [controlplane, etcd, worker]\nkubernetes_version: v1.18.20-rancher1-3\n";
        let d = detected(&[("cluster.yml", old)], Profile::Kubeadm).unwrap();
        assert!(
            d.describe().contains("kubernetes_version 1.18.20+rancher1-3 is deployed by RKE v1.1.0 or later"),
            "{}",
            d.describe()
        );
        let bare = "nodes:\n- address: 10.0.0.1\n  role: [controlplane, etcd, worker]\n";
        let d = detected(&[("cluster.yml", bare)], Profile::Kubeadm).unwrap();
        assert!(d
            .describe()
            .contains("for an older RKE, which upgrades every node of a role at once, choose rke-legacy"));
    }

    #[test]
    fn node_marks_name_kops_openshift_gke_baremetal_rke_and_kubeadm() {
        let cases = [
            ("kops.k8s.io/instancegroup: nodes-a", "", Profile::Kops),
            ("node.openshift.io/os_id: rhcos", "", Profile::Openshift),
            ("baremetal.cluster.gke.io/node-pool: np1", "", Profile::GkeBaremetal),
            ("node-role.kubernetes.io/worker: \"true\"", "rke.cattle.io/internal-ip: 10.0.0.2", Profile::Rke),
            ("", "kubeadm.alpha.kubernetes.io/cri-socket: unix:///run/containerd/containerd.sock", Profile::Kubeadm),
        ];
        for (labels, annotations, want) in cases {
            let text = node("n1", labels, annotations, "") + &node("n2", labels, annotations, "");
            let d = detected(&[("nodes.yaml", &text)], Profile::Kubeadm).unwrap();
            assert_eq!(d.profile, Some(want), "{labels} {annotations}");
            assert_eq!(d.matches, want == Profile::Kubeadm);
            assert!(d.evidence[0].what.starts_with("2 of 2 node(s)"), "{:?}", d.evidence);
        }
    }

    #[test]
    fn rke_role_labels_on_every_control_plane_node_say_rke() {
        let text = node(
            "cp",
            "node-role.kubernetes.io/controlplane: \"true\", node-role.kubernetes.io/etcd: \"true\"",
            "",
            "",
        ) + &node("w", "node-role.kubernetes.io/worker: \"true\"", "", "");
        let d = detected(&[("nodes.yaml", &text)], Profile::Kubeadm).unwrap();
        assert_eq!(d.profile, Some(Profile::Rke));
        assert_eq!(d.evidence[0].at.as_deref(), Some("nodes.yaml:2"));
    }

    #[test]
    fn distribution_objects_say_kops_openshift_and_gke_baremetal() {
        let cases = [
            ("apiVersion: kops.k8s.io/v1alpha2\nkind: InstanceGroup\nmetadata: {name: nodes}\nspec: {role: Node}\n", Profile::Kops),
            ("apiVersion: machineconfiguration.openshift.io/v1\nkind: MachineConfigPool\nmetadata: {name: worker}\nspec: {}\n", Profile::Openshift),
            ("apiVersion: baremetal.cluster.gke.io/v1\nkind: NodePool\nmetadata: {name: np1, namespace: cluster-a}\nspec: {}\n", Profile::GkeBaremetal),
        ];
        for (text, want) in cases {
            let d = detected(&[("d.yaml", text)], want).unwrap();
            assert_eq!((d.profile, d.matches), (Some(want), true));
            assert!(d.evidence[0].what.starts_with("1 "), "{:?}", d.evidence);
        }
    }

    #[test]
    fn a_managed_cluster_is_named_with_its_provider_ids_and_plain_manifests_tell_nothing() {
        let text = node("ip-10-0-0-1", "eks.amazonaws.com/nodegroup: ng-1", "", "aws:///eu-west-1a/i-0abc");
        let d = detected(&[("nodes.yaml", &text)], Profile::Kubeadm).unwrap();
        assert_eq!((d.profile, d.managed, d.matches), (None, Some("eks"), false));
        assert_eq!(d.evidence.len(), 2);
        assert!(d.describe().contains("a managed EKS cluster"));
        let deploy = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec: {}\n";
        assert_eq!(detected(&[("d.yaml", deploy)], Profile::Kubeadm), None);
    }
}
