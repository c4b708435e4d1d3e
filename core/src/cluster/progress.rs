//! An upgrade caught under way: which nodes are done, which are being upgraded (and at which step), which
//! have not started, read as the distribution's own status tools read them.
//!
//! - OpenShift, as `oc adm upgrade status` reads it (openshift/oc `pkg/cli/admin/upgrade/status`,
//!   `workerpool.go`, `assessNodesStatus`): the update is the ClusterVersion's newest history entry; a node's
//!   version is the `release-image-version` annotation of the rendered MachineConfig its Machine Config
//!   Daemon's `currentConfig` names; a node is updated when that is the update's version (and its
//!   `desiredConfig` is its `currentConfig`), updating when its `desiredConfig` renders that version; then
//!   draining (the controller's `desiredDrain` asks a drain it has not applied, or the daemon has not started
//!   yet), updating, rebooting (the daemon's `state`); a node of a paused pool is excluded; any other is
//!   pending. A degraded daemon (`Degraded`, `Unreconcilable`, with its `reason`) stalls the update.
//!   Without the rendered MachineConfigs in the inputs, the kubelets' minor stands in, and a node whose
//!   minor cannot tell is said unknown.
//! - Everywhere else, as `kubeadm upgrade plan` and the skew policy read it: the API server states the
//!   version the cluster is upgrading to; a node whose kubelet is older has not been upgraded yet (kOps:
//!   also a node its rolling update marked `kops.k8s.io/needs-update`); a cordoned one among them is the
//!   node being drained now, and a cordoned one at the new version has been upgraded and not yet uncordoned.
//!
//! Built once with the cluster; the nodes the upgrade itself cordoned are `upgrading` ([`Cluster::new`]),
//! so that their cordon is read as progress, not as a node the upgrade cannot take.

use super::nodes::NodeView;
use crate::model::distro::{condition, ClusterVersion};
use crate::model::{Body, Object};
use crate::options::Profile;
use crate::parse::FastMap;
use crate::version::Version;

const MCO: &str = "machineconfiguration.openshift.io/";
/// kOps marks the nodes its rolling update is to replace (`pkg/instancegroups`), so that an interrupted
/// rolling update resumes with them.
pub const KOPS_NEEDS_UPDATE: &str = "kops.k8s.io/needs-update";

/// Where a node is in the upgrade.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Stage {
    /// Being upgraded now (see its [`Step`]).
    InProgress,
    /// Not upgraded yet.
    NotStarted,
    /// In a pool the upgrade leaves out (a paused MachineConfigPool).
    Excluded,
    /// The inputs cannot tell.
    Unknown,
    /// At the upgrade's version.
    Done,
}

impl Stage {
    pub fn as_str(self) -> &'static str {
        match self {
            Stage::Done => "done",
            Stage::InProgress => "in-progress",
            Stage::NotStarted => "not-started",
            Stage::Excluded => "left-out",
            Stage::Unknown => "unknown",
        }
    }
}

/// The step of a node being upgraded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// Cordoned by the upgrade, its pods not yet evicted (or being evicted).
    Draining,
    /// The new version being put on it (the kubelet, the OS image).
    Updating,
    Rebooting,
    /// Upgraded, not yet schedulable again.
    Rejoining,
}

impl Step {
    pub fn as_str(self) -> &'static str {
        match self {
            Step::Draining => "draining",
            Step::Updating => "updating",
            Step::Rebooting => "rebooting",
            Step::Rejoining => "rejoining",
        }
    }
}

/// One node's place in the upgrade under way.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeProgress {
    /// Position in `Cluster::nodes`.
    pub node: usize,
    pub stage: Stage,
    pub step: Option<Step>,
    /// The version it runs, as the status tool reads it (the release of its rendered MachineConfig on
    /// OpenShift, else its kubelet's); `None` when not known.
    pub version: Option<String>,
    /// Its update is stalled: the Machine Config Daemon's reason (oc: "Update Stalled").
    pub degraded: Option<String>,
    /// It is unavailable for a reason the update did not cause (oc: "Update Speed").
    pub unavailable: Option<String>,
}

/// An upgrade under way, as the snapshot shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Underway {
    /// The version the cluster is being upgraded to, as written where it was read.
    pub target: String,
    /// Where that was read, in words.
    pub read_from: String,
    /// When the update started (RFC 3339), when the platform records it (ClusterVersion history).
    pub started: Option<String>,
    /// Is the control plane done (the platform's own record, or the API server already at the target)?
    pub control_plane_done: bool,
    /// Every node, in `Cluster::nodes` order.
    pub nodes: Vec<NodeProgress>,
    /// What the reading could not see (the rendered MachineConfigs missing), in words.
    pub caveat: Option<String>,
    /// Read from the platform's own record of an update (OpenShift's ClusterVersion), not from kubelets.
    pub platform: bool,
    /// `target` read as its platform reads it.
    pub version: Option<Version>,
    /// OpenShift: the release's own operators, as `oc adm upgrade status` counts them.
    pub operators: Option<Operators>,
}

/// The cluster operators of the release (annotated `include.release.openshift.io/...` or
/// `exclude.release.openshift.io/...`; oc `controlplane.go`): updated (their `operator` version is the
/// update's), updating (not yet, Progressing=True: by name) and waiting (not yet, Progressing=False).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Operators {
    pub total: usize,
    pub updated: usize,
    pub updating: Vec<String>,
    pub waiting: usize,
}

/// The release's operators against the update's version.
fn operators(objects: &[Object], target: &str) -> Option<Operators> {
    let mut out = Operators::default();
    for o in objects.iter().filter(|o| super::live(o)) {
        let Body::ClusterOperator(co) = &o.body else { continue };
        let of_release = o.annotations.iter().any(|(k, _)| {
            k.starts_with("include.release.openshift.io/") || k.starts_with("exclude.release.openshift.io/")
        });
        if !of_release {
            continue;
        }
        out.total += 1;
        let progressing = condition(&co.conditions, "Progressing").map(|c| c.status.as_str());
        if co.version.as_deref() == Some(target) {
            out.updated += 1;
        } else if progressing == Some("True") {
            out.updating.push(o.r.name.to_string());
        } else if progressing == Some("False") {
            out.waiting += 1;
        }
    }
    crate::sort::sort(&mut out.updating);
    (out.total > 0).then_some(out)
}

impl Underway {
    /// Are nodes left to upgrade (in progress or not started)?
    pub fn remaining(&self) -> bool {
        self.nodes.iter().any(|n| matches!(n.stage, Stage::InProgress | Stage::NotStarted))
    }

    /// A node's place, by its position in `Cluster::nodes` (`nodes` holds every node, in that order).
    pub fn of(&self, node: usize) -> Option<&NodeProgress> {
        self.nodes.get(node).filter(|p| p.node == node)
    }

    /// Has the upgrade under way reached this node (done, or being upgraded)? Its version is then the
    /// upgrade's, not a straggler's nor one ahead of the control plane.
    pub fn reached(&self, node: usize) -> bool {
        self.of(node).is_some_and(|p| matches!(p.stage, Stage::Done | Stage::InProgress))
    }
}

/// The upgrade under way, if the snapshot shows one (`from`: the current version as the platform states
/// it, which is where its API server already is).
pub fn read(objects: &[Object], nodes: &[NodeView<'_>], profile: Profile, from: Option<&Version>) -> Option<Underway> {
    if profile == Profile::Openshift {
        let cv = objects.iter().filter(|o| super::live(o)).find_map(|o| match &o.body {
            Body::ClusterVersion(cv) => Some(cv.as_ref()),
            _ => None,
        });
        if let Some(cv) = cv {
            return openshift(objects, nodes, cv);
        }
    }
    if profile == Profile::GkeBaremetal {
        if let Some(u) = gke_baremetal(objects, nodes) {
            return Some(u);
        }
    }
    kubelets(nodes, profile, from?)
}

/// GKE on Bare Metal: `bmctl` sets the `Cluster`'s `spec.anthosBareMetalVersion` when an upgrade starts and
/// its status when it succeeds; while they differ, the upgrade to the spec's version is under way, and each
/// node's kubelet against the Kubernetes minor that version ships says where it is.
fn gke_baremetal(objects: &[Object], nodes: &[NodeView<'_>]) -> Option<Underway> {
    let (o, c) = crate::current::gke_self(objects)?;
    let (spec, status) = (c.spec_version.as_deref()?, c.status_version.as_deref()?);
    if spec == status {
        return None;
    }
    let target = Version::parse_gke_baremetal(spec).ok()?;
    let mut u = kubelets(nodes, Profile::GkeBaremetal, &target)?;
    // Across a minor, a kubelet at the target's Kubernetes minor is upgraded (its patch is the product's to
    // choose, so within one minor nothing tells).
    let across = Version::parse_gke_baremetal(status).is_ok_and(|s| s.minor < target.minor);
    for p in u.nodes.iter_mut().filter(|p| across && p.stage == Stage::Unknown) {
        if nodes.get(p.node).and_then(|n| n.kubelet.as_ref()).is_some_and(|k| k.minor >= target.minor) {
            let cordoned = nodes.get(p.node).is_some_and(|n| n.info.unschedulable);
            p.stage = Stage::Done;
            p.step = cordoned.then_some(Step::Rejoining);
        }
    }
    u.target = spec.to_owned();
    u.version = Some(target.clone());
    u.read_from = format!(
        "Cluster {} spec.anthosBareMetalVersion {spec} (status {status}): {} of {} node(s) not at Kubernetes {}",
        o.r.name,
        u.nodes.iter().filter(|n| matches!(n.stage, Stage::InProgress | Stage::NotStarted)).count(),
        u.nodes.len(),
        target.minor_string()
    );
    // The control-plane node pool goes first; it is done when its nodes are.
    u.control_plane_done = u
        .nodes
        .iter()
        .filter(|p| nodes.get(p.node).is_some_and(|n| n.is_control_plane()))
        .all(|p| p.stage == Stage::Done);
    u.platform = true;
    if u.nodes.iter().any(|n| n.stage == Stage::Unknown) {
        u.caveat = Some(format!(
            "a kubelet at Kubernetes {} cannot tell whether its node has the {spec} patch: those nodes are unknown",
            target.minor_string()
        ));
    }
    Some(u)
}

fn annotation<'a>(n: &'a NodeView<'_>, key: &str) -> Option<&'a str> {
    n.obj.annotations.get(&format!("{MCO}{key}")).map(|s| s.as_str())
}

/// `oc adm upgrade status`'s reading of each node (see the module's docs).
fn openshift(objects: &[Object], nodes: &[NodeView<'_>], cv: &ClusterVersion) -> Option<Underway> {
    let head = cv.history.first()?;
    let target = head.version.clone();
    let progressing = condition(&cv.conditions, "Progressing").is_some_and(|c| c.status == "True");
    // Rendered MachineConfigs: the release each was rendered for.
    let mut release: FastMap<&str, &str> = FastMap::default();
    for o in objects.iter().filter(|o| o.r.kind.as_str() == "MachineConfig" && super::live(o)) {
        if let Some(v) = o.annotations.get(&format!("{MCO}release-image-version")) {
            release.insert(o.r.name.as_str(), v.as_str());
        }
    }
    let target_version = Version::parse(&target).ok();
    let paused_pools: Vec<&Object> =
        objects.iter().filter(|o| matches!(&o.body, Body::Mcp(p) if p.paused) && super::live(o)).collect();
    let mut out = Vec::with_capacity(nodes.len());
    for (i, n) in nodes.iter().enumerate() {
        let current = annotation(n, "currentConfig");
        let desired = annotation(n, "desiredConfig");
        let state = annotation(n, "state").unwrap_or("");
        let current_version = current.and_then(|c| release.get(c).copied());
        let desired_version = desired.and_then(|d| release.get(d).copied());
        // (updated, updating, known): oc's reading where the rendered MachineConfig is read.
        let (updated, updating, known) = match current_version {
            Some(v) => {
                let updated = v == target && (desired.is_none() || desired == current);
                (updated, !updated && desired_version == Some(target.as_str()), true)
            }
            // The rendered MachineConfigs were read and none is this node's current one (no annotation, or
            // one naming a config not read): oc cannot place it, and says it pending.
            None if !release.is_empty() => (false, false, true),
            None => {
                // No rendered MachineConfig for it: the kubelet's minor against the update's, which tells
                // a node behind a minor update, and nothing within one minor.
                let kubelet = n.kubelet.as_ref().map(|k| k.minor);
                let wanted = target_version.as_ref().map(|t| t.minor);
                let moving = (desired.is_some() && desired != current) || state == "Working";
                match (kubelet, wanted) {
                    (Some(k), Some(w)) if k < w => (false, moving, true),
                    (Some(k), Some(w)) if k >= w && !moving && !target_is_z(cv) => (true, false, true),
                    _ => (false, moving, moving),
                }
            }
        };
        let degraded = desired
            .filter(|d| !d.is_empty())
            .filter(|_| matches!(state, "Degraded" | "Unreconcilable"))
            .map(|_| annotation(n, "reason").unwrap_or("the Machine Config Daemon reports no reason").to_owned());
        let draining = {
            let (want, applied) = (annotation(n, "desiredDrain"), annotation(n, "lastAppliedDrain"));
            let asked = matches!((want, applied), (Some(w), Some(a)) if !w.is_empty() && !a.is_empty() && w != a
                && w.split('-').next() == Some("drain"));
            asked || (updating && state == "Done")
        };
        // oc's whichPool: a control-plane node is the master pool's.
        let paused = paused_pools.iter().any(|p| match &p.body {
            Body::Mcp(m) => {
                (p.r.name.as_str() == "master") == n.is_control_plane() && m.node_selector.matches(&n.obj.labels)
            }
            _ => false,
        });
        let (stage, step) = if updating && draining {
            (Stage::InProgress, Some(Step::Draining))
        } else if updating {
            (
                Stage::InProgress,
                Some(match state {
                    "Rebooting" => Step::Rebooting,
                    // The daemon says Done while the node is not updated: oc's phase is Updated; it is
                    // in its last step.
                    "Done" => Step::Rejoining,
                    _ => Step::Updating,
                }),
            )
        } else if updated {
            (Stage::Done, None)
        } else if paused {
            (Stage::Excluded, None)
        } else if !known {
            (Stage::Unknown, None)
        } else {
            (Stage::NotStarted, None)
        };
        // Unavailable for a reason the update did not cause (oc: isUnavailable && !isUpdating).
        let unavailable = if updating {
            None
        } else if n.info.ready == Some(false) {
            Some("the node is not Ready".to_owned())
        } else if n.info.unschedulable {
            Some("the node is marked unschedulable".to_owned())
        } else if state == "Working" {
            Some("the Machine Config Daemon is processing the node".to_owned())
        } else {
            None
        };
        let step = if stage == Stage::Done && n.info.unschedulable { Some(Step::Rejoining) } else { step };
        out.push(NodeProgress {
            node: i,
            stage,
            step,
            version: current_version.map(str::to_owned).or_else(|| n.info.kubelet_version.clone()),
            degraded,
            unavailable,
        });
    }
    let partial = head.state == "Partial";
    let under_way =
        partial || progressing || out.iter().any(|n| matches!(n.stage, Stage::InProgress | Stage::NotStarted));
    if !under_way {
        return None;
    }
    let caveat = (release.is_empty() && !out.is_empty()).then(|| {
        "the rendered MachineConfigs were not in the inputs (`oc get machineconfigs -o json`): each node's \
         version is its kubelet's minor, which cannot tell a node done within one minor"
            .to_owned()
    });
    let operators = operators(objects, &target);
    Some(Underway {
        operators,
        read_from: format!(
            "ClusterVersion status.history[0]: {} to {target}{}",
            if partial { "Partial" } else { "Completed" },
            if progressing { ", Progressing" } else { "" }
        ),
        target,
        started: head.started.clone(),
        control_plane_done: !partial,
        nodes: out,
        caveat,
        platform: true,
        version: target_version,
    })
}

/// An update within one minor (a z-stream): the kubelet's minor cannot tell its nodes apart.
fn target_is_z(cv: &ClusterVersion) -> bool {
    let minor = |v: &str| Version::parse(v).ok().map(|v| v.minor);
    match (cv.history.first(), cv.last_completed()) {
        (Some(h), Some(done)) => minor(&h.version).is_some() && minor(&h.version) == minor(done),
        _ => true,
    }
}

/// The kubelets against the version the API server already runs.
fn kubelets(nodes: &[NodeView<'_>], profile: Profile, target: &Version) -> Option<Underway> {
    let mut out = Vec::with_capacity(nodes.len());
    for (i, n) in nodes.iter().enumerate() {
        let marked = profile == Profile::Kops && n.obj.annotations.contains_key(KOPS_NEEDS_UPDATE);
        let behind = match &n.kubelet {
            Some(k) => k.scheme_cmp(target).map(|o| o == std::cmp::Ordering::Less),
            None => None,
        };
        let cordoned = n.info.unschedulable;
        let down = n.info.ready == Some(false) || n.info.unreachable;
        let (stage, step, unavailable) = match (behind, marked) {
            (Some(true), _) | (_, true) if cordoned => {
                (Stage::InProgress, Some(if down { Step::Updating } else { Step::Draining }), None)
            }
            (Some(true), _) | (_, true) => (Stage::NotStarted, None, down.then(|| "the node is not Ready".to_owned())),
            (Some(false), false) if cordoned => (Stage::Done, Some(Step::Rejoining), None),
            (Some(false), false) => (Stage::Done, None, down.then(|| "the node is not Ready".to_owned())),
            (None, false) => (Stage::Unknown, None, None),
        };
        out.push(NodeProgress {
            node: i,
            stage,
            step,
            version: n.info.kubelet_version.clone(),
            degraded: None,
            unavailable,
        });
    }
    if !out.iter().any(|n| matches!(n.stage, Stage::InProgress | Stage::NotStarted)) {
        return None;
    }
    let behind = out.iter().filter(|n| matches!(n.stage, Stage::InProgress | Stage::NotStarted)).count();
    Some(Underway {
        target: target.to_string(),
        read_from: format!(
            "the control plane is at {target} and {behind} of {} node(s) are not{}",
            out.len(),
            if profile == Profile::Kops {
                " (an older kubelet, or kOps' needs-update mark)"
            } else {
                " (an older kubelet)"
            }
        ),
        started: None,
        control_plane_done: true,
        nodes: out,
        caveat: None,
        platform: false,
        version: Some(target.clone()),
        operators: None,
    })
}

/// A node's upgrade step as the cluster recorded it: from its cordon to its uncordon.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Observed {
    /// Position in `Cluster::nodes`.
    pub node: usize,
    pub seconds: u64,
}

/// Each node's steps as its kubelet's events record them: a `NodeNotSchedulable` (the cordon; the kubelet
/// records it again when it restarts on a node still cordoned, so the earliest one after the last uncordon
/// counts) to the next `NodeSchedulable` (the uncordon). Steps still open, or with times that do not read,
/// are not counted.
pub fn observed_steps(objects: &[Object], nodes: &[NodeView<'_>]) -> Vec<Observed> {
    let index: FastMap<&str, usize> = nodes.iter().enumerate().map(|(i, n)| (n.name(), i)).collect();
    // (node, time, uncordon?) for every occurrence an Event object states (its first and last time).
    let mut marks: Vec<(usize, i64, bool)> = Vec::new();
    for o in objects.iter().filter(|o| super::live(o)) {
        let Body::NodeEvent(e) = &o.body else { continue };
        let Some(&node) = index.get(e.node.as_str()) else { continue };
        let uncordon = e.reason == "NodeSchedulable";
        for t in [&e.first, &e.last].into_iter().flatten().filter_map(|t| crate::units::timestamp(t)) {
            marks.push((node, t, uncordon));
        }
    }
    crate::sort::sort_by(&mut marks, |a, b| a.0.cmp(&b.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
    marks.dedup();
    let mut out = Vec::new();
    let mut open: Option<(usize, i64)> = None;
    for (node, t, uncordon) in marks {
        if open.is_some_and(|(n, _)| n != node) {
            open = None;
        }
        match (uncordon, open) {
            (false, None) => open = Some((node, t)),
            (true, Some((n, start))) => {
                if let Ok(seconds) = u64::try_from(t - start) {
                    out.push(Observed { node: n, seconds });
                }
                open = None;
            }
            _ => {}
        }
    }
    out
}
