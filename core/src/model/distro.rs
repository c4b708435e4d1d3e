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
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct KopsCluster {
    pub rolling: RollingUpdate,
    /// `None` when the Cluster does not say.
    pub aws: Option<bool>,
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
        KopsCluster { rolling: RollingUpdate::from_node(spec.get("rollingUpdate")), aws }
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
            min_size: spec.get("minSize").as_i64().unwrap_or(1),
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
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GkePool {
    /// `spec.upgradeStrategy.parallelUpgrade.concurrentNodes`.
    pub concurrent_nodes: Option<i64>,
    pub minimum_available: Option<i64>,
}

impl GkePool {
    pub fn from_node(n: &Node) -> GkePool {
        let p = n.at(&["spec", "upgradeStrategy", "parallelUpgrade"]);
        GkePool {
            concurrent_nodes: p.get("concurrentNodes").as_i64(),
            minimum_available: p.get("minimumAvailableNodes").as_i64(),
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
    pub nodes: usize,
    /// Values RKE refuses when it reads the file (`rke up` stops with "Failed to parse the cluster file"):
    /// `(line, field, why)`. The upgrade never starts.
    pub problems: Vec<(u32, String, String)>,
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
            nodes: doc.get("nodes").as_seq().len(),
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
