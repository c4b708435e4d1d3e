//! The current version, as the platform itself states it: the API server's version first (a
//! `kubectl version` output among the inputs, the kube-apiserver static pods' image tags as kubeadm reads
//! them), then the distribution's record of it (OpenShift's ClusterVersion `status.desired`, GKE on Bare
//! Metal's Cluster `status.anthosBareMetalVersion`, kubeadm's ClusterConfiguration, kOps' Cluster, RKE's
//! cluster.yml), and the oldest control-plane kubelet only as a last resort. A cluster caught mid-upgrade
//! (kubeadm's `upgrade apply` done, the kubelets not yet) is planned from where its API server is, as
//! `kubeadm upgrade plan` does.

use crate::ingest::Ingested;
use crate::model::distro::GkeCluster;
use crate::model::{Body, Object, Via};
use crate::options::Profile;
use crate::parse::parse_yaml_documents;
use crate::version::Version;

/// The kind and field where the profile's own platform records the current version (`None`: the profile
/// has no record of its own): one that cannot be read leaves the version taken from another source in doubt.
pub fn platform_version_field(profile: Profile) -> Option<(&'static str, &'static str)> {
    match profile {
        Profile::Openshift => Some(("ClusterVersion", "status.desired.version")),
        Profile::GkeBaremetal => Some(("Cluster", "status.anthosBareMetalVersion")),
        Profile::Kops => Some(("Cluster", "spec.kubernetesVersion")),
        _ => None,
    }
}

/// The current version and where it was read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Current {
    pub version: Version,
    /// What stated it, for `upgrade.fromSource`.
    pub source: &'static str,
    /// Which object or file, and what else was seen (`upgrade.fromDetail`).
    pub detail: String,
    /// Other sources of the same standing, or a lower one that should agree, that state another version
    /// (`kubectl version output (b.json:1) says 1.29.3`): `input/conflicting-version`.
    pub disagree: Vec<String>,
}

pub const FROM_OPTIONS: &str = "options";
pub const FROM_KUBELETS: &str = "control-plane nodes";
pub const FROM_KUBECTL_VERSION: &str = "kubectl version";
pub const FROM_APISERVER_PODS: &str = "kube-apiserver pods";
pub const FROM_CLUSTER_VERSION: &str = "ClusterVersion";
pub const FROM_GKE_CLUSTER: &str = "GKE on Bare Metal Cluster";
pub const FROM_KUBEADM_CONFIG: &str = "kubeadm-config";
pub const FROM_KOPS_CLUSTER: &str = "kOps Cluster";
pub const FROM_RKE_CONFIG: &str = "RKE cluster.yml";

/// The current control-plane version from the control-plane nodes' kubelets: the lowest one (an HA control
/// plane mid-upgrade is only as far as its oldest member).
pub fn oldest_control_plane_kubelet(objects: &[Object]) -> Option<(Version, &Object)> {
    objects
        .iter()
        .filter_map(|o| Some((o, o.node()?)))
        .filter(|(o, _)| o.node_roles().control_plane)
        .filter_map(|(o, n)| n.kubelet_version.as_deref().and_then(|v| Version::parse(v).ok()).map(|v| (v, o)))
        .min_by(|a, b| a.0.cmp(&b.0))
}

/// `file:line` of the first distribution config of this kind that was read.
fn config_at(ingested: &Ingested, kind: &str) -> String {
    ingested
        .inventory
        .distribution_configs
        .iter()
        .find(|c| c.kind == kind)
        .map(|c| format!("{}:{}", c.file, c.line))
        .unwrap_or_default()
}

fn at(o: &Object) -> String {
    let ns = o.r.namespace.as_deref().map(|n| format!("{n}/")).unwrap_or_default();
    format!("{} {ns}{} ({})", o.r.kind, o.r.name, o.source.location())
}

/// The current version as the platform states it, with its source; `None` when nothing in the inputs says.
pub fn current(ingested: &Ingested, profile: Profile) -> Option<Current> {
    let objects = &ingested.objects;
    let kubelets = oldest_control_plane_kubelet(objects);
    let kubelet_note = |v: &Version| match &kubelets {
        Some((k, _)) if k.minor < v.minor => {
            format!("; the control-plane kubelets are still at {k}: the cluster is mid-upgrade, planned from where its API server is")
        }
        _ => String::new(),
    };
    // OpenShift: the release the cluster-version operator reconciles to.
    if profile == Profile::Openshift {
        for o in objects {
            if let Body::ClusterVersion(cv) = &o.body {
                if let Some(v) = cv.desired.as_deref().and_then(|d| Version::parse(d).ok()) {
                    let detail = format!("status.desired.version of {}", at(o));
                    return Some(Current { version: v, source: FROM_CLUSTER_VERSION, detail, disagree: Vec::new() });
                }
            }
        }
    }
    // GKE on Bare Metal: the version the cluster object says the cluster is at.
    if profile == Profile::GkeBaremetal {
        if let Some((o, v)) = gke_cluster_version(objects) {
            let detail = format!("status.anthosBareMetalVersion of {}", at(o));
            return Some(Current { version: v, source: FROM_GKE_CLUSTER, detail, disagree: Vec::new() });
        }
    }
    // kubeadm (1.30 and later) reads the highest kube-apiserver image tag of the control-plane pods.
    let apiservers: Vec<(Version, &Object)> = objects
        .iter()
        .filter_map(|o| {
            let tag = o.pod()?.apiserver_version.as_deref()?;
            Version::parse(tag).ok().map(|v| (v, o))
        })
        .collect();
    // Every `kubectl version` output: the highest is taken (as kubeadm takes the highest API server), in
    // any order of the files; the others, and API server pods that run none of them, disagree.
    let outputs: Vec<(Version, &str)> = ingested
        .server_versions
        .iter()
        .filter_map(|(at, v)| Version::parse(v).ok().map(|v| (v, at.as_str())))
        .collect();
    if let Some((v, file)) = outputs.iter().max_by(|a, b| a.0.cmp(&b.0).then_with(|| b.1.cmp(a.1))) {
        let mut disagree: Vec<String> = outputs
            .iter()
            .filter(|(o, _)| o != v)
            .map(|(o, at)| format!("kubectl version output ({at}) says {o}"))
            .collect();
        if !apiservers.is_empty() && !apiservers.iter().any(|(a, _)| a == v) {
            if let Some((a, o)) = apiservers.iter().max_by(|a, b| a.0.cmp(&b.0)) {
                disagree.push(format!("the kube-apiserver pods run at most {a} (image tag of {})", at(o)));
            }
        }
        disagree.sort();
        let detail = format!("serverVersion.gitVersion of kubectl version output ({file}){}", kubelet_note(v));
        return Some(Current { version: v.clone(), source: FROM_KUBECTL_VERSION, detail, disagree });
    }
    if let Some((v, o)) = apiservers.iter().max_by(|a, b| a.0.cmp(&b.0)) {
        let spread = match apiservers.iter().min_by(|a, b| a.0.cmp(&b.0)) {
            Some((lo, _)) if lo != v => format!("; other API servers run {lo}"),
            _ => String::new(),
        };
        let detail = format!("image tag of {}{spread}{}", at(o), kubelet_note(v));
        // kubeadm writes the version it upgraded to into kubeadm-config when `upgrade apply` succeeds: one
        // that names another version than the newest API server runs disagrees.
        let disagree = kubeadm_config_version(objects)
            .filter(|(k, _)| k != v)
            .map(|(k, o)| vec![format!("ClusterConfiguration.kubernetesVersion of {} says {k}", at(o))])
            .unwrap_or_default();
        return Some(Current { version: v.clone(), source: FROM_APISERVER_PODS, detail, disagree });
    }
    if let Some((v, o)) = kubeadm_config_version(objects) {
        let detail = format!("ClusterConfiguration.kubernetesVersion of {}{}", at(o), kubelet_note(&v));
        return Some(Current { version: v, source: FROM_KUBEADM_CONFIG, detail, disagree: Vec::new() });
    }
    // What the distribution's config asks for is the current version unless it was already edited for
    // the upgrade (newer than the control plane's kubelets): then the kubelets say where the cluster is.
    let declared: Option<(Version, &'static str, String)> = objects
        .iter()
        .find_map(|o| match &o.body {
            Body::KopsCluster(k) if profile == Profile::Kops => {
                let v = Version::parse_kops(k.kubernetes_version.as_deref()?).ok()?;
                Some((v, FROM_KOPS_CLUSTER, format!("spec.kubernetesVersion of {}", at(o))))
            }
            _ => None,
        })
        .or_else(|| {
            let rke = ingested.rke.as_ref().filter(|_| matches!(profile, Profile::Rke | Profile::RkeLegacy))?;
            let v = Version::parse(rke.kubernetes_version.as_deref()?).ok()?;
            let file = config_at(ingested, "rke-cluster-yml");
            Some((v, FROM_RKE_CONFIG, format!("kubernetes_version of {file}")))
        });
    match (declared, kubelets) {
        (Some((v, _, what)), Some((k, o))) if k.minor < v.minor => Some(Current {
            version: k.clone(),
            source: FROM_KUBELETS,
            detail: format!(
                "oldest control-plane kubelet, {} ({}): {what} says {v}, already the upgrade's version",
                o.r.name,
                o.source.location()
            ),
            disagree: Vec::new(),
        }),
        (Some((v, source, what)), _) => Some(Current { version: v, source, detail: what, disagree: Vec::new() }),
        (None, Some((k, o))) => Some(Current {
            version: k,
            source: FROM_KUBELETS,
            detail: format!(
                "oldest control-plane kubelet, {} ({}): no API server version among the inputs (add `kubectl version -o json` or the kube-system pods)",
                o.r.name,
                o.source.location()
            ),
            disagree: Vec::new(),
        }),
        (None, None) => None,
    }
}

/// kubeadm-config's `ClusterConfiguration.kubernetesVersion` (kube-system), when it parses.
fn kubeadm_config_version(objects: &[Object]) -> Option<(Version, &Object)> {
    objects.iter().find_map(|o| match (&o.body, o.r.namespace.as_deref(), o.r.name.as_str()) {
        (Body::ConfigData(d), Some("kube-system"), "kubeadm-config") => d
            .get("ClusterConfiguration")
            .and_then(|c| parse_yaml_documents("ClusterConfiguration", c).ok())
            .and_then(|docs| {
                docs.iter().find_map(|n| n.get("kubernetesVersion").as_str().and_then(|v| Version::parse(v).ok()))
            })
            .map(|v| (v, o)),
        _ => None,
    })
}

/// The self-managed GKE on Bare Metal cluster's `status.anthosBareMetalVersion` (or the only cluster's).
fn gke_cluster_version(objects: &[Object]) -> Option<(&Object, Version)> {
    let (me, g) = gke_self(objects)?;
    let v = Version::parse_gke_baremetal(g.status_version.as_deref()?).ok()?;
    Some((me, v))
}

/// The GKE on Bare Metal `Cluster` an upgrade is for: the one self-managed cluster (admin, hybrid or
/// standalone) among those read (a Helm release's copies aside), or the only one.
pub fn gke_self(objects: &[Object]) -> Option<(&Object, &GkeCluster)> {
    let all: Vec<(&Object, &GkeCluster)> = objects
        .iter()
        .filter(|o| o.source.via != Some(Via::HelmRelease))
        .filter_map(|o| match &o.body {
            Body::GkeCluster(g) => Some((o, g.as_ref())),
            _ => None,
        })
        .collect();
    let own: Vec<(&Object, &GkeCluster)> = all
        .iter()
        .filter(|(_, g)| matches!(g.kind.as_deref(), Some("admin" | "hybrid" | "standalone")))
        .copied()
        .collect();
    match (own.as_slice(), all.as_slice()) {
        ([one], _) | ([], [one]) => Some(*one),
        _ => None,
    }
}

/// The target the platform itself already states, when the user gives none (the dashboard's default): the
/// ClusterVersion's `spec.desiredUpdate.version` (under `openshift`), or the GKE on Bare Metal `Cluster`'s
/// `spec.anthosBareMetalVersion` where it is not yet its status (under `gke-baremetal`).
pub fn stated_target(ingested: &Ingested, profile: Profile) -> Option<String> {
    ingested.objects.iter().find_map(|o| match (&o.body, profile) {
        (Body::ClusterVersion(cv), Profile::Openshift) => {
            cv.desired_update.clone().filter(|d| cv.desired.as_deref() != Some(d.as_str()))
        }
        (Body::GkeCluster(g), Profile::GkeBaremetal) => {
            g.spec_version.clone().filter(|s| g.status_version.as_deref() != Some(s.as_str()))
        }
        _ => None,
    })
}
