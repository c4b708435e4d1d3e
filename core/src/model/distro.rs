//! The distributions' own configuration, read from the inputs (CONTRACT section 2): RKE `cluster.yml`,
//! kOps `InstanceGroup` and `Cluster` objects, OpenShift `MachineConfigPool` objects, GKE on Bare Metal
//! `NodePool` objects. Flags and options always win over them.

use super::LabelSelector;
use crate::parse::Node;
use crate::quantity::IntOrPercent;

/// A `rollingUpdate` / `maxUnavailable` style setting.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RollingUpdate {
    pub max_unavailable: Option<IntOrPercent>,
    pub max_surge: Option<IntOrPercent>,
    /// kOps `drainAndTerminate: false`: nodes are only tainted, not replaced.
    pub drain_and_terminate: Option<bool>,
}

impl RollingUpdate {
    pub fn from_node(n: &Node) -> RollingUpdate {
        RollingUpdate {
            max_unavailable: super::int_or_percent(n.get("maxUnavailable")),
            max_surge: super::int_or_percent(n.get("maxSurge")),
            drain_and_terminate: n.get("drainAndTerminate").as_bool_yaml11(),
        }
    }
}

/// kOps instance group roles.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KopsRole {
    Bastion,
    ControlPlane,
    ApiServer,
    Node,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KopsGroup {
    pub role: KopsRole,
    pub rolling: RollingUpdate,
    pub min_size: i64,
}

/// A kOps `Cluster`: its cluster-wide `rollingUpdate` and whether it runs on AWS (`spec.cloudProvider`:
/// `aws` in v1alpha2, `{aws: {}}` in v1alpha3), which kOps' defaults depend on.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct KopsCluster {
    pub rolling: RollingUpdate,
    /// `None` when the Cluster does not say.
    pub aws: Option<bool>,
    /// `spec.kubernetesVersion`: the version kOps runs the cluster at (`kops update cluster` applies it).
    pub kubernetes_version: Option<String>,
}

impl KopsCluster {
    pub fn from_node(n: &Node) -> KopsCluster {
        let spec = n.get("spec");
        let cloud = spec.get("cloudProvider");
        let aws = match cloud.as_str() {
            Some(name) => Some(name == "aws"),
            None if cloud.is_map() => Some(!cloud.get("aws").is_null()),
            None => None,
        };
        KopsCluster {
            rolling: RollingUpdate::from_node(spec.get("rollingUpdate")),
            aws,
            kubernetes_version: spec.get("kubernetesVersion").as_string(),
        }
    }
}

impl KopsGroup {
    pub fn from_node(n: &Node) -> KopsGroup {
        let spec = n.get("spec");
        let role = match spec.get("role").as_str().unwrap_or("Node") {
            "Bastion" => KopsRole::Bastion,
            "Master" | "ControlPlane" => KopsRole::ControlPlane,
            "APIServer" => KopsRole::ApiServer,
            _ => KopsRole::Node,
        };
        KopsGroup {
            role,
            rolling: RollingUpdate::from_node(spec.get("rollingUpdate")),
            min_size: super::int(spec.get("minSize")).unwrap_or(1),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mcp {
    pub node_selector: LabelSelector,
    pub max_unavailable: Option<IntOrPercent>,
    /// `maxUnavailable` is set to something the MCO refuses (node_controller.go, maxUnavailable:
    /// intstr.GetScaledValueFromIntOrPercent takes a number, or a string of digits ending in `%`: `"60"`,
    /// `"40 %"`, `"50 percent"` are errors), so it never updates the pool.
    pub max_unavailable_refused: Option<String>,
    pub paused: bool,
    /// `status.degradedMachineCount`.
    pub degraded_machines: i64,
    /// `status.conditions`: `Degraded`, `NodeDegraded`, `RenderDegraded`, `Updated`, `Updating`.
    pub conditions: Vec<Condition>,
}

/// Is this `maxUnavailable` one the MCO takes: a number, or a string of digits followed by `%`?
fn mco_int_or_percent(n: &Node) -> Result<(), String> {
    use crate::parse::{ScalarKind, Value};
    match &n.value {
        Value::Null => Ok(()),
        Value::Scalar(s, ScalarKind::Plain) if s.parse::<i64>().is_ok() => Ok(()),
        Value::Scalar(s, _) => {
            let digits = s.strip_suffix('%').filter(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()));
            digits.map(|_| ()).ok_or_else(|| s.to_string())
        }
        _ => Err("a value that is neither a number nor a string".to_owned()),
    }
}

impl Mcp {
    pub fn from_node(n: &Node) -> Mcp {
        let spec = n.get("spec");
        Mcp {
            node_selector: LabelSelector::from_node(spec.get("nodeSelector")),
            max_unavailable: spec.get("maxUnavailable").as_str().and_then(IntOrPercent::parse),
            max_unavailable_refused: mco_int_or_percent(spec.get("maxUnavailable")).err(),
            paused: spec.get("paused").as_bool().unwrap_or(false),
            degraded_machines: super::int(n.at(&["status", "degradedMachineCount"])).unwrap_or(0),
            conditions: conditions(n.get("status")),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GkePool {
    /// `spec.upgradeStrategy.parallelUpgrade.concurrentNodes`.
    pub concurrent_nodes: Option<i64>,
    pub minimum_available: Option<i64>,
    /// `spec.anthosBareMetalVersion`: empty, the pool follows its cluster; set, it is pinned there.
    pub spec_version: Option<String>,
    /// `status.anthosBareMetalVersion`: the version the pool's nodes run.
    pub status_version: Option<String>,
}

impl GkePool {
    pub fn from_node(n: &Node) -> GkePool {
        let p = n.at(&["spec", "upgradeStrategy", "parallelUpgrade"]);
        GkePool {
            concurrent_nodes: super::int(p.get("concurrentNodes")),
            minimum_available: super::int(p.get("minimumAvailableNodes")),
            spec_version: text(n.at(&["spec", "anthosBareMetalVersion"])),
            status_version: text(n.at(&["status", "anthosBareMetalVersion"])),
        }
    }
}

/// An RKE `cluster.yml` (it has no `kind`): its upgrade strategy.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RkeConfig {
    pub max_unavailable_worker: Option<IntOrPercent>,
    pub max_unavailable_control_plane: Option<IntOrPercent>,
    pub drain: Option<bool>,
    /// `node_drain_input.timeout`, seconds.
    pub drain_timeout: Option<u64>,
    /// `node_drain_input.force` (RKE's default: false).
    pub drain_force: Option<bool>,
    /// `node_drain_input.delete_local_data` (RKE's default: false).
    pub drain_delete_local_data: Option<bool>,
    /// `node_drain_input.ignore_daemonsets` (RKE's default: true; only `false` turns it off).
    pub drain_ignore_daemonsets: Option<bool>,
    pub nodes: usize,
    /// Does the file have an `upgrade_strategy` (which RKE reads from v1.1.0 on)?
    pub upgrade_strategy: bool,
    /// The add-ons and their update strategies.
    pub addons: Vec<RkeAddon>,
    /// `kubernetes_version` (`v1.26.8-rancher1-1`): the version `rke up` deploys.
    pub kubernetes_version: Option<String>,
    /// Values RKE refuses when it reads the file (`rke up` stops with "Failed to parse the cluster file"):
    /// `(line, field, why)`. The upgrade never starts.
    pub problems: Vec<(u32, String, String)>,
}

/// An RKE add-on's `update_strategy` as RKE resolves it (cluster/cluster.go, from v1.1.0): a DaemonSet's
/// `RollingUpdate` with `maxUnavailable` 1 unless set; a Deployment's with 25%/25% (CoreDNS: maxUnavailable 1,
/// maxSurge 0); another strategy (`OnDelete`, `Recreate`) as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RkeAddon {
    /// The cluster.yml key (`ingress`, `network`, `dns`, `monitoring`).
    pub key: &'static str,
    /// What runs it: `DaemonSet` or `Deployment`.
    pub kind: &'static str,
    /// What it is (`nginx ingress controller`).
    pub what: &'static str,
    pub strategy: String,
    pub max_unavailable: IntOrPercent,
    pub max_surge: Option<IntOrPercent>,
    /// Was `update_strategy` given in the file (or is this RKE's default)?
    pub given: bool,
}

/// The add-ons RKE deploys and rolls on `rke up`, with their update strategies.
fn rke_addons(doc: &Node) -> Vec<RkeAddon> {
    let dns_provider = doc.at(&["dns", "provider"]).as_str().unwrap_or("coredns").to_owned();
    let specs: [(&'static str, &'static str, &'static str, IntOrPercent, Option<IntOrPercent>); 4] = [
        ("ingress", "DaemonSet", "nginx ingress controller", IntOrPercent::Int(1), None),
        ("network", "DaemonSet", "network plugin (CNI)", IntOrPercent::Int(1), None),
        (
            "dns",
            "Deployment",
            if dns_provider == "kube-dns" { "kube-dns" } else { "CoreDNS" },
            if dns_provider == "kube-dns" { IntOrPercent::Int(0) } else { IntOrPercent::Int(1) },
            Some(if dns_provider == "kube-dns" { IntOrPercent::Percent(10) } else { IntOrPercent::Int(0) }),
        ),
        ("monitoring", "Deployment", "metrics-server", IntOrPercent::Percent(25), Some(IntOrPercent::Percent(25))),
    ];
    specs
        .into_iter()
        .filter(|(key, ..)| doc.at(&[key, "provider"]).as_str() != Some("none"))
        .map(|(key, kind, what, mu, ms)| {
            let u = doc.at(&[key, "update_strategy"]);
            let ru = u.get("rollingUpdate");
            RkeAddon {
                key,
                kind,
                what,
                strategy: u.get("strategy").as_str().unwrap_or("RollingUpdate").to_owned(),
                max_unavailable: super::int_or_percent(ru.get("maxUnavailable")).unwrap_or(mu),
                max_surge: super::int_or_percent(ru.get("maxSurge")).or(ms),
                given: u.is_map(),
            }
        })
        .collect()
}

/// Does this kind-less document look like an RKE `cluster.yml` (a `nodes` list of hosts with roles)?
pub fn is_rke_cluster_yml(doc: &Node) -> bool {
    doc.is_map()
        && doc.get("kind").is_null()
        && doc.get("nodes").as_seq().first().is_some_and(|n| !n.get("role").is_null() && !n.get("address").is_null())
}

impl RkeConfig {
    pub fn from_node(doc: &Node) -> RkeConfig {
        let s = doc.get("upgrade_strategy");
        let mut problems = Vec::new();
        // RKE reads cluster.yml as YAML 1.1 (go-yaml v2) into typed fields: `drain: yes` is true, and a
        // quoted `"true"` is a string that does not go into a boolean: RKE refuses the whole file.
        let mut flag = |field: &str, n: &Node| -> Option<bool> {
            if n.is_null() {
                return None;
            }
            let read = match &n.value {
                crate::parse::Value::Scalar(_, crate::parse::ScalarKind::Plain) => n.as_bool_yaml11(),
                _ => None,
            };
            if read.is_none() {
                problems.push((
                    n.line(),
                    format!("upgrade_strategy.{field}"),
                    format!("{} is not a YAML boolean (true, false, yes, no, on, off unquoted)", shown_value(n)),
                ));
            }
            read
        };
        let drain = flag("drain", s.get("drain"));
        let drain_force = flag("node_drain_input.force", s.at(&["node_drain_input", "force"]));
        let drain_delete_local_data =
            flag("node_drain_input.delete_local_data", s.at(&["node_drain_input", "delete_local_data"]));
        let drain_ignore_daemonsets =
            flag("node_drain_input.ignore_daemonsets", s.at(&["node_drain_input", "ignore_daemonsets"]));
        let timeout = s.at(&["node_drain_input", "timeout"]);
        let drain_timeout = match &timeout.value {
            crate::parse::Value::Scalar(raw, crate::parse::ScalarKind::Plain) => {
                super::yaml11_int(raw).or_else(|| timeout.as_i64()).and_then(|t| u64::try_from(t).ok())
            }
            _ => None,
        };
        if !timeout.is_null() && drain_timeout.is_none() {
            problems.push((
                timeout.line(),
                "upgrade_strategy.node_drain_input.timeout".to_owned(),
                format!("{} is not a whole number of seconds", shown_value(timeout)),
            ));
        }
        RkeConfig {
            max_unavailable_worker: super::int_or_percent(s.get("max_unavailable_worker")),
            max_unavailable_control_plane: super::int_or_percent(s.get("max_unavailable_controlplane")),
            drain,
            drain_timeout,
            drain_force,
            drain_delete_local_data,
            drain_ignore_daemonsets,
            nodes: doc.get("nodes").as_seq().len(),
            upgrade_strategy: s.is_map(),
            addons: rke_addons(doc),
            kubernetes_version: doc.get("kubernetes_version").as_string(),
            problems,
        }
    }
}

/// A value as the file wrote it, for a message: quoted when it was a string.
fn shown_value(n: &Node) -> String {
    match &n.value {
        crate::parse::Value::Scalar(v, crate::parse::ScalarKind::Str) => format!("{v:?} (quoted)"),
        crate::parse::Value::Scalar(v, _) => format!("`{v}`"),
        crate::parse::Value::Seq(_) => "a sequence".to_owned(),
        crate::parse::Value::Map(_) => "a mapping".to_owned(),
        crate::parse::Value::Null => "null".to_owned(),
    }
}

/// A string field that says something: `None` when absent or empty.
fn text(n: &Node) -> Option<String> {
    n.as_str().map(str::to_owned).filter(|s| !s.is_empty())
}

/// A status condition (`type`, `status`, `reason`, `message`), as OpenShift's and GKE on Bare Metal's
/// objects write them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Condition {
    pub kind: String,
    pub status: String,
    pub reason: String,
    pub message: String,
}

/// `status.conditions` as read.
pub fn conditions(status: &Node) -> Vec<Condition> {
    status
        .get("conditions")
        .as_seq()
        .iter()
        .map(|c| Condition {
            kind: c.get("type").as_str().unwrap_or_default().to_owned(),
            status: c.get("status").as_str().unwrap_or_default().to_owned(),
            reason: c.get("reason").as_str().unwrap_or_default().to_owned(),
            message: c.get("message").as_str().unwrap_or_default().to_owned(),
        })
        .collect()
}

/// The condition of this type, if any.
pub fn condition<'c>(conditions: &'c [Condition], kind: &str) -> Option<&'c Condition> {
    conditions.iter().find(|c| c.kind == kind)
}

/// A known risk of a conditional update (`status.conditionalUpdates[].risks[]`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Risk {
    pub name: String,
    pub message: String,
    pub url: String,
}

/// One entry of `status.conditionalUpdates`: a release the update service offers with known risks.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ConditionalUpdate {
    pub version: String,
    pub risks: Vec<Risk>,
    /// The `Recommended` condition the CVO evaluated for this cluster.
    pub recommended: Option<Condition>,
}

/// One entry of `status.history` (newest first): `Completed` or `Partial`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HistoryEntry {
    pub state: String,
    pub version: String,
    /// The release image (empty when not given).
    pub image: String,
    /// `startedTime` and `completionTime` (RFC 3339, as written; `None` when not given or null).
    pub started: Option<String>,
    pub completed: Option<String>,
}

/// OpenShift's `ClusterVersion` (config.openshift.io/v1, name `version`): what the cluster-version
/// operator knows of the update service and of the cluster's own state.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ClusterVersion {
    /// `spec.channel`; `None` or empty: no channel, so no updates are offered.
    pub channel: Option<String>,
    /// `spec.desiredUpdate.version`: an update already asked for.
    pub desired_update: Option<String>,
    /// Risks the administrator accepted (`spec.desiredUpdate.acceptRisks[].name`, in API versions that
    /// have them).
    pub accepted_risks: Vec<String>,
    /// `status.desired.version`: the release the CVO is reconciling to.
    pub desired: Option<String>,
    /// `status.desired.image` (empty when not given).
    pub desired_image: String,
    pub history: Vec<HistoryEntry>,
    /// `status.availableUpdates[].version`; `None` when the field is absent (not `[]`).
    pub available: Option<Vec<String>>,
    pub conditional: Vec<ConditionalUpdate>,
    pub conditions: Vec<Condition>,
}

impl ClusterVersion {
    pub fn from_node(n: &Node) -> ClusterVersion {
        let spec = n.get("spec");
        let status = n.get("status");
        let risks = |n: &Node| {
            n.as_seq()
                .iter()
                .map(|r| Risk {
                    name: r.get("name").as_str().unwrap_or_default().to_owned(),
                    message: r.get("message").as_str().unwrap_or_default().to_owned(),
                    url: r.get("url").as_str().unwrap_or_default().to_owned(),
                })
                .collect()
        };
        ClusterVersion {
            channel: text(spec.get("channel")),
            desired_update: text(spec.at(&["desiredUpdate", "version"])),
            accepted_risks: spec
                .at(&["desiredUpdate", "acceptRisks"])
                .as_seq()
                .iter()
                .filter_map(|r| r.get("name").as_str().map(str::to_owned))
                .collect(),
            desired: text(status.at(&["desired", "version"])),
            desired_image: status.at(&["desired", "image"]).as_str().unwrap_or_default().to_owned(),
            history: status
                .get("history")
                .as_seq()
                .iter()
                .map(|h| HistoryEntry {
                    state: h.get("state").as_str().unwrap_or_default().to_owned(),
                    version: h.get("version").as_str().unwrap_or_default().to_owned(),
                    image: h.get("image").as_str().unwrap_or_default().to_owned(),
                    started: h.get("startedTime").as_str().map(str::to_owned),
                    completed: h.get("completionTime").as_str().map(str::to_owned),
                })
                .collect(),
            available: matches!(status.get("availableUpdates").value, crate::parse::Value::Seq(_)).then(|| {
                status
                    .get("availableUpdates")
                    .as_seq()
                    .iter()
                    .filter_map(|u| u.get("version").as_str().map(str::to_owned))
                    .collect()
            }),
            conditional: status
                .get("conditionalUpdates")
                .as_seq()
                .iter()
                .map(|u| {
                    let conds = conditions(u);
                    ConditionalUpdate {
                        version: u.at(&["release", "version"]).as_str().unwrap_or_default().to_owned(),
                        risks: risks(u.get("risks")),
                        recommended: condition(&conds, "Recommended").cloned(),
                    }
                })
                .collect(),
            conditions: conditions(status),
        }
    }

    /// The version the cluster last completed an update to (the newest `Completed` entry of the history),
    /// as the CVO's preconditions take the "current" version.
    pub fn last_completed(&self) -> Option<&str> {
        self.history.iter().find(|h| h.state == "Completed").map(|h| h.version.as_str())
    }
}

/// An OpenShift `ClusterOperator` (config.openshift.io/v1): its conditions.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ClusterOperator {
    pub conditions: Vec<Condition>,
    /// `status.versions[name=operator].version`: the release the operator has reached.
    pub version: Option<String>,
}

impl ClusterOperator {
    pub fn from_node(n: &Node) -> ClusterOperator {
        let status = n.get("status");
        ClusterOperator {
            conditions: conditions(status),
            version: status
                .get("versions")
                .as_seq()
                .iter()
                .find(|v| v.get("name").as_str() == Some("operator"))
                .and_then(|v| v.get("version").as_str())
                .map(str::to_owned),
        }
    }
}

/// An OLM `ClusterServiceVersion` (operators.coreos.com/v1alpha1): whether it is OLM's copy of an
/// installed operator. The highest OpenShift minor it runs on is in its annotations
/// (`cluster::platform::max_openshift_version`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Csv {
    /// `status.reason` (`Copied` on the copies OLM writes into other namespaces).
    pub reason: Option<String>,
}

impl Csv {
    pub fn from_node(n: &Node) -> Csv {
        Csv { reason: n.at(&["status", "reason"]).as_str().map(str::to_owned) }
    }
}

/// A GKE on Bare Metal `Cluster` (baremetal.cluster.gke.io/v1): its type and its product versions.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GkeCluster {
    /// `spec.type`: `admin`, `user`, `hybrid` or `standalone`.
    pub kind: Option<String>,
    /// `spec.anthosBareMetalVersion`: the version asked for (the target once an upgrade began).
    pub spec_version: Option<String>,
    /// `status.anthosBareMetalVersion`: the version the cluster is at.
    pub status_version: Option<String>,
}

impl GkeCluster {
    pub fn from_node(n: &Node) -> GkeCluster {
        GkeCluster {
            kind: text(n.at(&["spec", "type"])),
            spec_version: text(n.at(&["spec", "anthosBareMetalVersion"])),
            status_version: text(n.at(&["status", "anthosBareMetalVersion"])),
        }
    }
}

/// A GKE on Bare Metal `PreflightCheck` (baremetal.cluster.gke.io/v1): the checks `bmctl` ran before an
/// upgrade (`upgrade-cluster-<timestamp>`) and whether they passed. Read leniently: `status.pass`, and the
/// failed checks from `status.checks` (a map or a list of checks with `pass` and `message`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GkePreflight {
    pub pass: Option<bool>,
    /// The checks that did not pass: (name, message).
    pub failed: Vec<(String, String)>,
    pub created: Option<String>,
}

impl GkePreflight {
    pub fn from_node(n: &Node) -> GkePreflight {
        let status = n.get("status");
        let checks = status.get("checks");
        let mut failed = Vec::new();
        let mut one = |name: &str, c: &Node| {
            if c.get("pass").as_bool() == Some(false) {
                let message = c.get("message").as_str().or_else(|| c.get("reason").as_str()).unwrap_or_default();
                failed.push((name.to_owned(), message.to_owned()));
            }
        };
        for (name, c) in checks.as_map() {
            one(name, c);
        }
        for c in checks.as_seq() {
            one(c.get("name").as_str().unwrap_or_default(), c);
        }
        GkePreflight {
            pass: status.get("pass").as_bool(),
            failed,
            created: n.at(&["metadata", "creationTimestamp"]).as_string(),
        }
    }
}
