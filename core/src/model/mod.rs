//! The typed cluster model: just the fields DOMAIN section 8 lists, read leniently from a [`Node`].
//!
//! Missing or odd fields never fail here: they become `None`/empty, and the rules decide whether that is
//! worth a finding.

use serde::Serialize;

pub mod admission;
pub mod distro;

use crate::parse::Node;
pub use crate::parse::{Interner, Str, StringMap};
use crate::quantity::{bytes, cpu_millis, IntOrPercent};
use crate::version::Version;

/// Where an object came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Via {
    Manifest,
    LastApplied,
    ManagedFields,
    HelmRelease,
    /// Another annotation that records the applied manifest: kapp's `kapp.k14s.io/original`, or one the
    /// user names (`additionalAnnotations`).
    Annotation,
}

impl Via {
    /// As the report writes it.
    pub fn name(self) -> &'static str {
        match self {
            Via::Manifest => "manifest",
            Via::LastApplied => "last-applied",
            Via::ManagedFields => "managed-fields",
            Via::HelmRelease => "helm-release",
            Via::Annotation => "annotation",
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Source {
    pub file: Str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub via: Option<Via>,
}

impl Source {
    /// `file:line`, or the file alone.
    pub fn location(&self) -> String {
        match self.line {
            Some(l) => format!("{}:{l}", self.file),
            None => self.file.to_string(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ObjectRef {
    pub api_version: Str,
    pub kind: Str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub namespace: Option<Str>,
    pub name: Str,
}

/// A reference for messages: `Kind namespace/name` or `Kind name`.
/// Kinds the API server keeps outside namespaces (`kubectl api-resources --namespaced=false`, the
/// built-in ones and the distributions' that kube-preflight reads): a namespace written on one is ignored.
pub const CLUSTER_SCOPED: &[&str] = &[
    "APIService",
    "CertificateSigningRequest",
    "ClusterOperator",
    "ClusterRole",
    "ClusterRoleBinding",
    "ClusterVersion",
    "ComponentStatus",
    "CSIDriver",
    "CSINode",
    "CustomResourceDefinition",
    "DeviceClass",
    "FlowSchema",
    "IngressClass",
    "IPAddress",
    "MachineConfig",
    "MachineConfigPool",
    "MutatingAdmissionPolicy",
    "MutatingAdmissionPolicyBinding",
    "MutatingWebhookConfiguration",
    "Namespace",
    "Node",
    "PersistentVolume",
    "PodSecurityPolicy",
    "PriorityClass",
    "PriorityLevelConfiguration",
    "ResourceSlice",
    "RuntimeClass",
    "ServiceCIDR",
    "StorageClass",
    "StorageVersion",
    "ValidatingAdmissionPolicy",
    "ValidatingAdmissionPolicyBinding",
    "ValidatingWebhookConfiguration",
    "VolumeAttachment",
];

/// The namespace an object is in as the API server would have it: none for a cluster-scoped kind (a
/// namespace written on one is ignored), `default` for a namespaced one written without (`kubectl apply`
/// in the default context): the one identity every copy of an object is known by.
pub fn namespace_as_stored<'o>(kind: &str, namespace: Option<&'o str>) -> Option<&'o str> {
    if CLUSTER_SCOPED.contains(&kind) {
        None
    } else {
        Some(namespace.unwrap_or("default"))
    }
}

pub fn display_ref(r: &ObjectRef) -> String {
    match &r.namespace {
        Some(ns) => format!("{} {ns}/{}", r.kind, r.name),
        None => format!("{} {}", r.kind, r.name),
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OwnerRef {
    pub kind: Str,
    pub name: Str,
    pub controller: bool,
    /// `apiVersion` (`apps/v1`), empty when not given.
    pub api_version: Str,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Taint {
    pub key: String,
    pub value: String,
    pub effect: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Toleration {
    pub key: String,
    /// `Exists` or `Equal` (the default).
    pub operator: String,
    pub value: String,
    /// Empty means every effect.
    pub effect: String,
    pub toleration_seconds: Option<i64>,
}

impl Toleration {
    /// Does this toleration tolerate the taint (Kubernetes `ToleratesTaint`)?
    pub fn tolerates(&self, t: &Taint) -> bool {
        self.tolerates_parts(&t.key, &t.value, &t.effect)
    }

    /// [`Toleration::tolerates`] for a taint given by its key, value and effect (no `Taint` built to ask).
    pub fn tolerates_parts(&self, key: &str, value: &str, effect: &str) -> bool {
        if !self.effect.is_empty() && self.effect != effect {
            return false;
        }
        if !self.key.is_empty() && self.key != key {
            return false;
        }
        match self.operator.as_str() {
            "Exists" => true,
            "" | "Equal" => self.value == value,
            _ => false,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Requirement {
    pub key: String,
    pub operator: String,
    pub values: Vec<String>,
}

/// A `metav1.LabelSelector`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct LabelSelector {
    pub match_labels: StringMap,
    pub match_expressions: Vec<Requirement>,
    /// Was a selector given at all? (An empty one matches everything; a missing one nothing, for PDBs.)
    pub present: bool,
}

impl LabelSelector {
    pub fn from_node(n: &Node) -> LabelSelector {
        LabelSelector::from_node_in(n, &mut Interner::new())
    }

    fn from_node_in(n: &Node, strings: &mut Interner) -> LabelSelector {
        if !n.is_map() {
            return LabelSelector::default();
        }
        LabelSelector {
            match_labels: n.get("matchLabels").string_map_in(strings),
            match_expressions: requirements(n.get("matchExpressions")),
            present: true,
        }
    }

    /// No selector, or one with no terms (`{}`).
    pub fn is_empty(&self) -> bool {
        !self.present || (self.match_labels.is_empty() && self.match_expressions.is_empty())
    }

    pub fn matches(&self, labels: &StringMap) -> bool {
        self.present
            && self.match_labels.iter().all(|(k, v)| labels.get(k) == Some(v))
            && self.match_expressions.iter().all(|r| {
                let have = labels.get(&r.key);
                match r.operator.as_str() {
                    "In" => have.is_some_and(|v| r.values.iter().any(|x| x == v)),
                    "NotIn" => have.is_none_or(|v| !r.values.iter().any(|x| x == v)),
                    "Exists" => have.is_some(),
                    "DoesNotExist" => have.is_none(),
                    _ => false,
                }
            })
    }
}

/// A `NodeSelector` (a pod's required node affinity, a volume's node affinity): its terms, `None` when
/// absent.
fn node_selector(n: &Node) -> Option<Vec<NodeSelectorTerm>> {
    n.is_map().then(|| {
        n.get("nodeSelectorTerms")
            .as_seq()
            .iter()
            .map(|t| NodeSelectorTerm {
                match_expressions: requirements(t.get("matchExpressions")),
                match_fields: requirements(t.get("matchFields")),
            })
            .collect()
    })
}

/// An IntOrString as the component that acts on it reads its YAML (kubectl, kOps, RKE: YAML 1.1 through
/// go-yaml v2): a plain `011` is octal (9), `0x1f` hex, `1_000` a thousand; a quoted value, or one that is
/// no YAML 1.1 integer, as written (`25%`).
pub fn int_or_percent(n: &Node) -> Option<IntOrPercent> {
    use crate::parse::{ScalarKind, Value};
    if let Value::Scalar(raw, ScalarKind::Plain) = &n.value {
        if let Some(i) = yaml11_int(raw) {
            return Some(IntOrPercent::Int(i));
        }
    }
    n.as_str().and_then(IntOrPercent::parse)
}

/// An integer field as the component that acts on it reads its YAML (kubectl and the API server's
/// clients through go-yaml v2, YAML 1.1): a plain `0x258` is 600, `011` is 9, `1_000` a thousand; anything
/// else as [`Node::as_i64`] reads it (`3.0`). JSON numbers are plain decimals, read alike.
pub fn int(n: &Node) -> Option<i64> {
    use crate::parse::{ScalarKind, Value};
    if let Value::Scalar(raw, ScalarKind::Plain) = &n.value {
        // Plain decimal first, with no allocation (every pod has a few); `0...` is octal in YAML 1.1.
        let decimal =
            !raw.is_empty() && raw.bytes().all(|b| b.is_ascii_digit()) && (raw.len() == 1 || !raw.starts_with('0'));
        if decimal {
            if let Ok(v) = raw.parse::<i64>() {
                return Some(v);
            }
        } else if let Some(v) = yaml11_int(raw) {
            return Some(v);
        }
    }
    n.as_i64()
}

/// A YAML 1.1 integer (`[-+]?0b[01_]+`, `[-+]?0[0-7_]+`, `[-+]?(0|[1-9][0-9_]*)`, `[-+]?0x[0-9a-fA-F_]+`).
fn yaml11_int(raw: &str) -> Option<i64> {
    let (neg, body) = match raw.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, raw.strip_prefix('+').unwrap_or(raw)),
    };
    let digits = |s: &str, radix: u32| -> Option<i64> {
        let clean: String = s.chars().filter(|c| *c != '_').collect();
        (!clean.is_empty()).then_some(())?;
        i64::from_str_radix(&clean, radix).ok()
    };
    let v = if let Some(b) = body.strip_prefix("0b") {
        digits(b, 2)?
    } else if let Some(x) = body.strip_prefix("0x") {
        digits(x, 16)?
    } else if body.len() > 1 && body.starts_with('0') {
        digits(body.get(1..)?, 8)?
    } else if body.starts_with(|c: char| c.is_ascii_digit()) {
        digits(body, 10)?
    } else {
        return None;
    };
    Some(if neg { -v } else { v })
}

/// A list of strings (its items that are not strings left out).
pub(crate) fn strings_of(n: &Node) -> Vec<String> {
    n.as_seq().iter().filter_map(|v| v.as_str().map(str::to_owned)).collect()
}

fn requirements(n: &Node) -> Vec<Requirement> {
    n.as_seq()
        .iter()
        .map(|e| Requirement {
            key: e.get("key").as_str().unwrap_or_default().to_owned(),
            operator: e.get("operator").as_str().unwrap_or_default().to_owned(),
            values: strings_of(e.get("values")),
        })
        .collect()
}

/// One `nodeSelectorTerm`: its expressions and fields are AND-ed.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct NodeSelectorTerm {
    pub match_expressions: Vec<Requirement>,
    pub match_fields: Vec<Requirement>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VolumeKind {
    EmptyDir,
    HostPath,
    PersistentVolumeClaim,
    /// A generic ephemeral volume: its claim is `<pod>-<volume>`.
    Ephemeral,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Volume {
    pub name: String,
    pub kind: VolumeKind,
    /// `persistentVolumeClaim.claimName`.
    pub claim: Option<String>,
}

/// Requests or allocatable capacity. A node's allocatable CPU, memory or ephemeral storage its status does
/// not give is [`UNKNOWN`] (never the reason a pod does not fit).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Resources {
    pub cpu_millis: i64,
    pub memory_bytes: i64,
    pub pods: i64,
    /// `ephemeral-storage`.
    pub ephemeral_bytes: i64,
}

/// An allocatable amount a node's status does not state.
pub const UNKNOWN: i64 = i64::MAX;

/// What a pod needs of a node beyond CPU, memory and storage, and where it may not go next to other pods:
/// rare, so boxed apart from [`PodSpec`] (most pods carry none of it).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PodNeeds {
    /// Extended resources and huge pages requested (`nvidia.com/gpu`, `hugepages-2Mi`), by name, summed as
    /// the scheduler sums requests.
    pub extended: Vec<(String, i64)>,
    /// `hostPort`s of its containers.
    pub host_ports: Vec<HostPort>,
    /// `podAffinity.requiredDuringSchedulingIgnoredDuringExecution`.
    pub affinity: Vec<PodAffinityTerm>,
    /// `podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution`.
    pub anti_affinity: Vec<PodAffinityTerm>,
    /// `topologySpreadConstraints` with `whenUnsatisfiable: DoNotSchedule` (the others only score).
    pub spread: Vec<SpreadConstraint>,
}

/// A host port a container binds (`ports[].hostPort`), with its protocol (TCP when absent) and host IP
/// (`0.0.0.0`, every address, when absent).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostPort {
    pub port: i64,
    pub protocol: String,
    pub ip: String,
}

/// A required pod (anti-)affinity term.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PodAffinityTerm {
    pub selector: LabelSelector,
    /// `namespaces`; with neither these nor a namespace selector, the pod's own namespace.
    pub namespaces: Vec<String>,
    /// `namespaceSelector` (`{}`: every namespace).
    pub namespace_selector: Option<LabelSelector>,
    pub topology_key: String,
}

/// A `DoNotSchedule` topology spread constraint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpreadConstraint {
    pub max_skew: i64,
    pub topology_key: String,
    pub selector: LabelSelector,
    /// The pod's own labels under these keys join the selector (`matchLabelKeys`).
    pub match_label_keys: Vec<String>,
    pub min_domains: Option<i64>,
    /// `nodeAffinityPolicy: Ignore` (the default, Honor, counts only nodes the pod's node affinity fits).
    pub ignore_node_affinity: bool,
    /// `nodeTaintsPolicy: Honor` (the default, Ignore, counts nodes whatever their taints).
    pub honor_taints: bool,
}

/// The fields of a pod spec the checks read (pods and workload templates alike).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PodSpec {
    pub node_name: Option<Str>,
    pub node_selector: StringMap,
    /// `requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms` (OR-ed); `None` when absent.
    pub required_affinity: Option<Vec<NodeSelectorTerm>>,
    /// Shared: pods of one template, and most pods, carry the same list (one copy each, `ingest`).
    pub tolerations: std::sync::Arc<[Toleration]>,
    pub requests: Resources,
    /// The volumes a drain or the downtime depends on (emptyDir, hostPath, persistentVolumeClaim); the
    /// others (configMap, secret, projected...) are not kept.
    pub volumes: Vec<Volume>,
    /// `terminationGracePeriodSeconds` (the API server's default is 30).
    pub termination_grace_seconds: Option<i64>,
    /// `priorityClassName`, when it is one of the two system-critical classes kOps validation reads.
    pub critical: Critical,
    /// Extended resources, host ports, pod (anti-)affinity, topology spread: `None` for most pods.
    pub needs: Option<Box<PodNeeds>>,
}

/// The system-critical priority classes (`priorityClassName`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Critical {
    #[default]
    No,
    /// `system-cluster-critical`.
    Cluster,
    /// `system-node-critical`.
    Node,
}

/// Is a resource name an extended resource or huge pages (what NodeResourcesFit checks by name)?
pub fn extended_resource(name: &str) -> bool {
    !matches!(name, "cpu" | "memory" | "ephemeral-storage" | "pods" | "storage") && !name.starts_with("requests.")
}

/// An extended resource's amount: huge pages in bytes, the others as whole units (the API takes only
/// integers for them).
fn extended_amount(name: &str, raw: &str) -> Option<i64> {
    if name.starts_with("hugepages-") {
        bytes(raw)
    } else {
        crate::quantity::parse_quantity(raw).map(|v| v.ceil().min(i64::MAX as f64) as i64)
    }
}

/// One container's requests: `resources.requests`, and where a request is absent its limit (the API
/// server defaults requests to limits).
fn container_requests(c: &Node) -> (Resources, Amounts) {
    resource_list(c.at(&["resources", "requests"]), Some(c.at(&["resources", "limits"])))
}

/// A resource list read as requests: each amount from `list`, or where it has none from `fallback` (a
/// container's limits; none for a plain list such as `spec.overhead`).
fn resource_list(list: &Node, fallback: Option<&Node>) -> (Resources, Amounts) {
    let get = |k: &str| list.get(k).as_str().or_else(|| fallback.and_then(|f| f.get(k).as_str()));
    let r = Resources {
        cpu_millis: get("cpu").and_then(cpu_millis).unwrap_or(0),
        memory_bytes: get("memory").and_then(bytes).unwrap_or(0),
        pods: 0,
        ephemeral_bytes: get("ephemeral-storage").and_then(bytes).unwrap_or(0),
    };
    let mut ext: Amounts = Vec::new();
    for part in std::iter::once(list).chain(fallback) {
        for (k, v) in part.as_map() {
            if extended_resource(k) && !ext.iter().any(|(n, _)| n == k.as_str()) {
                if let Some(a) = v.as_str().and_then(|raw| extended_amount(k, raw)) {
                    ext.push((k.as_str().to_owned(), a));
                }
            }
        }
    }
    (r, ext)
}

/// Requests as one vector of named amounts, for the arithmetic of [`pod_requests`].
type Amounts = Vec<(String, i64)>;

fn to_amounts(r: Resources, ext: Amounts) -> Amounts {
    let mut v = vec![
        ("cpu".to_owned(), r.cpu_millis),
        ("memory".to_owned(), r.memory_bytes),
        ("ephemeral-storage".to_owned(), r.ephemeral_bytes),
    ];
    v.extend(ext);
    v
}

fn add_amounts(to: &mut Amounts, from: &Amounts) {
    for (k, v) in from {
        match to.iter_mut().find(|(n, _)| n == k) {
            Some(slot) => slot.1 = slot.1.saturating_add(*v),
            None => to.push((k.clone(), *v)),
        }
    }
}

fn max_amounts(to: &mut Amounts, from: &Amounts) {
    for (k, v) in from {
        match to.iter_mut().find(|(n, _)| n == k) {
            Some(slot) => slot.1 = slot.1.max(*v),
            None => to.push((k.clone(), *v)),
        }
    }
}

/// A pod's requests as the scheduler computes them (k8s.io/component-helpers/resource, `PodRequests`):
/// the containers summed; each init container's request plus the native sidecars (init containers with
/// `restartPolicy: Always`) started before it; sidecars also add to the containers' sum; the larger of the
/// two; then `spec.overhead`. Returns CPU, memory and ephemeral storage, and the extended resources.
pub fn pod_requests(spec: &Node) -> (Resources, Amounts) {
    let mut sum: Amounts = to_amounts(Resources::default(), Vec::new());
    for c in spec.get("containers").as_seq() {
        let (r, e) = container_requests(c);
        add_amounts(&mut sum, &to_amounts(r, e));
    }
    let mut sidecars: Amounts = Vec::new();
    let mut init_max: Amounts = Vec::new();
    for c in spec.get("initContainers").as_seq() {
        let (r, e) = container_requests(c);
        let own = to_amounts(r, e);
        let effective = if c.get("restartPolicy").as_str() == Some("Always") {
            add_amounts(&mut sum, &own);
            add_amounts(&mut sidecars, &own);
            sidecars.clone()
        } else {
            let mut v = own;
            add_amounts(&mut v, &sidecars);
            v
        };
        max_amounts(&mut init_max, &effective);
    }
    max_amounts(&mut sum, &init_max);
    let overhead = spec.get("overhead");
    if overhead.is_map() {
        let (r, e) = resource_list(overhead, None);
        add_amounts(&mut sum, &to_amounts(r, e));
    }
    let get = |k: &str| sum.iter().find(|(n, _)| n == k).map_or(0, |(_, v)| *v);
    let r = Resources {
        cpu_millis: get("cpu"),
        memory_bytes: get("memory"),
        pods: 1,
        ephemeral_bytes: get("ephemeral-storage"),
    };
    let ext: Amounts = sum.into_iter().filter(|(k, v)| extended_resource(k) && *v > 0).collect();
    (r, ext)
}

fn affinity_terms(n: &Node, strings: &mut Interner) -> Vec<PodAffinityTerm> {
    n.as_seq()
        .iter()
        .map(|t| PodAffinityTerm {
            selector: LabelSelector::from_node_in(t.get("labelSelector"), strings),
            namespaces: t.get("namespaces").as_seq().iter().filter_map(|v| v.as_string()).collect(),
            namespace_selector: t
                .get("namespaceSelector")
                .is_map()
                .then(|| LabelSelector::from_node_in(t.get("namespaceSelector"), strings)),
            topology_key: t.get("topologyKey").as_str().unwrap_or_default().to_owned(),
        })
        .collect()
}

/// What a pod needs beyond CPU, memory and storage ([`PodNeeds`]); `None` when nothing.
fn pod_needs(spec: &Node, extended: Amounts, strings: &mut Interner) -> Option<Box<PodNeeds>> {
    // The containers' host ports, and the native sidecars' (init containers that keep running).
    let sidecars =
        spec.get("initContainers").as_seq().iter().filter(|c| c.get("restartPolicy").as_str() == Some("Always"));
    let host_ports: Vec<HostPort> = spec
        .get("containers")
        .as_seq()
        .iter()
        .chain(sidecars)
        .flat_map(|c| c.get("ports").as_seq().iter())
        .filter_map(|p| {
            let port = int(p.get("hostPort")).filter(|v| *v > 0)?;
            Some(HostPort {
                port,
                protocol: p.get("protocol").as_str().filter(|s| !s.is_empty()).unwrap_or("TCP").to_owned(),
                ip: p.get("hostIP").as_str().filter(|s| !s.is_empty()).unwrap_or("0.0.0.0").to_owned(),
            })
        })
        .collect();
    let aff = spec.get("affinity");
    let required = ["requiredDuringSchedulingIgnoredDuringExecution"];
    let affinity = affinity_terms(aff.get("podAffinity").at(&required), strings);
    let anti_affinity = affinity_terms(aff.get("podAntiAffinity").at(&required), strings);
    let spread: Vec<SpreadConstraint> = spec
        .get("topologySpreadConstraints")
        .as_seq()
        .iter()
        .filter(|c| c.get("whenUnsatisfiable").as_str() == Some("DoNotSchedule"))
        .map(|c| SpreadConstraint {
            max_skew: int(c.get("maxSkew")).unwrap_or(1),
            topology_key: c.get("topologyKey").as_str().unwrap_or_default().to_owned(),
            selector: LabelSelector::from_node_in(c.get("labelSelector"), strings),
            match_label_keys: c.get("matchLabelKeys").as_seq().iter().filter_map(|v| v.as_string()).collect(),
            min_domains: int(c.get("minDomains")),
            ignore_node_affinity: c.get("nodeAffinityPolicy").as_str() == Some("Ignore"),
            honor_taints: c.get("nodeTaintsPolicy").as_str() == Some("Honor"),
        })
        .collect();
    let needs = PodNeeds { extended, host_ports, affinity, anti_affinity, spread };
    (needs != PodNeeds::default()).then(|| Box::new(needs))
}

impl PodSpec {
    fn from_node_in(spec: &Node, strings: &mut Interner) -> PodSpec {
        let (requests, extended) = pod_requests(spec);
        let needs = pod_needs(spec, extended, strings);
        let required_affinity =
            node_selector(spec.at(&["affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution"]));
        PodSpec {
            critical: match spec.get("priorityClassName").as_str() {
                Some("system-cluster-critical") => Critical::Cluster,
                Some("system-node-critical") => Critical::Node,
                _ => Critical::No,
            },
            termination_grace_seconds: int(spec.get("terminationGracePeriodSeconds")),
            node_name: spec.get("nodeName").as_str().map(|n| strings.get(n)),
            node_selector: spec.get("nodeSelector").string_map_in(strings),
            required_affinity,
            tolerations: spec
                .get("tolerations")
                .as_seq()
                .iter()
                .map(|t| Toleration {
                    key: t.get("key").as_str().unwrap_or_default().to_owned(),
                    operator: t.get("operator").as_str().unwrap_or("Equal").to_owned(),
                    value: t.get("value").as_str().unwrap_or_default().to_owned(),
                    effect: t.get("effect").as_str().unwrap_or_default().to_owned(),
                    toleration_seconds: int(t.get("tolerationSeconds")),
                })
                .collect(),
            requests,
            needs,
            volumes: spec
                .get("volumes")
                .as_seq()
                .iter()
                .filter_map(|v| {
                    let kind = if !v.get("emptyDir").is_null() {
                        VolumeKind::EmptyDir
                    } else if !v.get("hostPath").is_null() {
                        VolumeKind::HostPath
                    } else if !v.get("persistentVolumeClaim").is_null() {
                        VolumeKind::PersistentVolumeClaim
                    } else if !v.get("ephemeral").is_null() {
                        VolumeKind::Ephemeral
                    } else {
                        return None;
                    };
                    Some(Volume {
                        name: v.get("name").as_str().unwrap_or_default().to_owned(),
                        kind,
                        claim: v.at(&["persistentVolumeClaim", "claimName"]).as_string(),
                    })
                })
                .collect(),
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NodeInfo {
    pub taints: Vec<Taint>,
    pub unschedulable: bool,
    /// `status.conditions[type=Ready].status == "True"`; `None` when the snapshot has no Ready condition.
    pub ready: Option<bool>,
    /// The Ready condition is `Unknown`: the node controller stopped hearing from the kubelet (the
    /// snapshot's best sign of a host that cannot be reached).
    pub unreachable: bool,
    /// The `NetworkUnavailable` condition is `True`.
    pub network_unavailable: bool,
    /// The `DiskPressure` condition is `True`.
    pub disk_pressure: bool,
    pub kubelet_version: Option<String>,
    pub kube_proxy_version: Option<String>,
    pub allocatable: Resources,
    /// Allocatable extended resources and huge pages (`nvidia.com/gpu`, `hugepages-2Mi`), by name.
    pub allocatable_extended: Vec<(String, i64)>,
    pub creation_timestamp: Option<String>,
    /// `spec.providerID` (`aws:///eu-west-1a/i-0abc...`): tells the cloud, which some defaults depend on.
    pub provider_id: Option<String>,
    /// `status.nodeInfo.containerRuntimeVersion` (`containerd://1.7.13`, `docker://20.10.24`).
    pub container_runtime: Option<String>,
    /// `status.nodeInfo.osImage` and `kernelVersion`.
    pub os_image: Option<String>,
    pub kernel_version: Option<String>,
    /// The latest `lastHeartbeatTime` of its conditions (RFC 3339, as written): when the kubelet last
    /// reported, the snapshot's best sign of when it was taken.
    pub heartbeat: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PodInfo {
    pub spec: PodSpec,
    pub phase: Option<Str>,
    pub ready: Option<bool>,
    /// `metadata.deletionTimestamp` is set: the pod is being deleted (terminating).
    pub terminating: bool,
    /// A kube-apiserver static pod's (`component: kube-apiserver` in `kube-system`) image tag: the
    /// version the API server runs.
    pub apiserver_version: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WorkloadInfo {
    pub replicas: Option<i64>,
    pub selector: LabelSelector,
    pub template_labels: StringMap,
    pub template: PodSpec,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PdbStatus {
    pub current_healthy: Option<i64>,
    pub desired_healthy: Option<i64>,
    pub expected_pods: Option<i64>,
    pub disruptions_allowed: Option<i64>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PdbInfo {
    pub selector: LabelSelector,
    pub min_available: Option<IntOrPercent>,
    pub max_unavailable: Option<IntOrPercent>,
    pub unhealthy_pod_eviction_policy: Option<String>,
    pub status: Option<PdbStatus>,
}

/// A PersistentVolume: is it bound to one node, and to which claim?
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PvInfo {
    /// `spec.local` or `spec.hostPath`: the data lives on one node.
    pub node_bound: bool,
    /// `spec.nodeAffinity.required.nodeSelectorTerms`: the nodes that can reach the volume (a local
    /// volume's node, a zonal disk's zone).
    pub affinity: Option<Vec<NodeSelectorTerm>>,
    /// `spec.claimRef` namespace and name.
    pub claim: Option<(String, String)>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
///
/// Each variant is boxed: an [`Object`] stays small whatever its kind (the model is a `Vec` of them, and
/// a workload's fields are twice a pod's).
pub enum Body {
    Node(Box<NodeInfo>),
    Pod(Box<PodInfo>),
    Workload(Box<WorkloadInfo>),
    Pdb(Box<PdbInfo>),
    Pv(Box<PvInfo>),
    KopsGroup(Box<distro::KopsGroup>),
    KopsCluster(Box<distro::KopsCluster>),
    Mcp(Box<distro::Mcp>),
    GkePool(Box<distro::GkePool>),
    ClusterVersion(Box<distro::ClusterVersion>),
    ClusterOperator(Box<distro::ClusterOperator>),
    Csv(Box<distro::Csv>),
    GkeCluster(Box<distro::GkeCluster>),
    GkePreflight(Box<distro::GkePreflight>),
    /// A ConfigMap whose data a check reads (OpenShift's admin gates and acks, kubeadm's
    /// `kubeadm-config`): its `data`. Other ConfigMaps keep none.
    ConfigData(Box<StringMap>),
    Webhooks(Box<admission::WebhookConfig>),
    EndpointSlice(Box<admission::EndpointSliceInfo>),
    Service(Box<admission::ServiceInfo>),
    ApiService(Box<admission::ApiServiceInfo>),
    Crd(Box<admission::CrdInfo>),
    AdmissionPolicy(Box<admission::AdmissionPolicy>),
    PolicyBinding(Box<admission::PolicyBinding>),
    /// OpenShift's `Infrastructure` (config.openshift.io): its `status.controlPlaneTopology`
    /// (`HighlyAvailable`, `HighlyAvailableArbiter`, `SingleReplica`, `External`, ...), empty when unset.
    Infrastructure(Box<String>),
    /// An Event about a Node's cordon (`NodeNotSchedulable`) or uncordon (`NodeSchedulable`), as the
    /// kubelet records them: when each node's upgrade began and ended. Other Events keep nothing.
    NodeEvent(Box<NodeEvent>),
    /// An object of another API group (a custom resource, most often) with whole numbers in its `spec`:
    /// what a CustomResourceDefinition's scale subresource may point at (`specReplicasPath`).
    Custom(Box<CustomInfo>),
    Other,
}

/// An Event about a Node's schedulability (core/v1 or events.k8s.io/v1).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NodeEvent {
    /// The node it is about (`involvedObject` / `regarding`).
    pub node: String,
    /// `NodeNotSchedulable` or `NodeSchedulable`.
    pub reason: String,
    /// When it first and last happened (RFC 3339, as written): one Event object counts repeats.
    pub first: Option<String>,
    pub last: Option<String>,
}

/// The kubelet's events on a node's schedulability (pkg/kubelet/events, recordNodeSchedulableEvent).
pub const NODE_SCHEDULABILITY_EVENTS: [&str; 2] = ["NodeNotSchedulable", "NodeSchedulable"];

/// A node's schedulability event, when the object is one.
fn node_event(n: &Node, api_version: &str) -> Option<NodeEvent> {
    let reason = n.get("reason").as_str().filter(|r| NODE_SCHEDULABILITY_EVENTS.contains(r))?;
    let (about, first, last) = if api_version.starts_with("events.k8s.io/") {
        let series = n.at(&["series", "lastObservedTime"]).as_str();
        let event_time = n.get("eventTime").as_str();
        (
            n.get("regarding"),
            n.get("deprecatedFirstTimestamp").as_str().or(event_time),
            series.or(n.get("deprecatedLastTimestamp").as_str()).or(event_time),
        )
    } else {
        let event_time = n.get("eventTime").as_str();
        (
            n.get("involvedObject"),
            n.get("firstTimestamp").as_str().or(event_time),
            n.get("lastTimestamp").as_str().or(event_time),
        )
    };
    if about.get("kind").as_str() != Some("Node") {
        return None;
    }
    Some(NodeEvent {
        node: about.get("name").as_str()?.to_owned(),
        reason: reason.to_owned(),
        first: first.map(str::to_owned),
        last: last.map(str::to_owned),
    })
}

/// The whole numbers in an object's `spec`, by path as a scale subresource writes it (`.spec.replicas`),
/// in maps only (a path through a list is no `specReplicasPath`), at most [`CUSTOM_INT_DEPTH`] deep.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CustomInfo {
    pub spec_ints: Vec<(String, i64)>,
}

/// How deep below `spec` [`CustomInfo`] looks.
const CUSTOM_INT_DEPTH: usize = 4;

impl CustomInfo {
    /// The whole numbers under `spec`, or `None` when it has none.
    fn from_spec(spec: &Node) -> Option<CustomInfo> {
        let mut spec_ints = Vec::new();
        let mut stack: Vec<(String, &Node, usize)> = vec![(".spec".to_owned(), spec, 1)];
        while let Some((path, n, depth)) = stack.pop() {
            for (k, v) in n.as_map() {
                if v.is_map() && depth < CUSTOM_INT_DEPTH {
                    stack.push((format!("{path}.{k}"), v, depth + 1));
                } else if let crate::parse::Value::Scalar(_, crate::parse::ScalarKind::Plain) = &v.value {
                    if let Some(i) = int(v) {
                        spec_ints.push((format!("{path}.{k}"), i));
                    }
                }
            }
        }
        (!spec_ints.is_empty()).then_some(CustomInfo { spec_ints })
    }

    /// The whole number at a scale subresource's `specReplicasPath` (`.spec.replicas`); of a key given
    /// twice, the last (as the API server decodes it).
    pub fn at(&self, path: &str) -> Option<i64> {
        self.spec_ints.iter().rev().find(|(p, _)| p == path).map(|(_, v)| *v)
    }
}

/// One Kubernetes object as read, with where it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Object {
    pub r: ObjectRef,
    pub source: Source,
    pub labels: StringMap,
    pub annotations: StringMap,
    pub owners: Vec<OwnerRef>,
    /// `metadata.managedFields[].apiVersion`, deduplicated, in order of first appearance.
    pub managed_api_versions: Vec<Str>,
    pub body: Body,
    /// Values the checks read that could not be understood (`field: "value" is not ...`).
    pub problems: Vec<String>,
    /// `metadata.uid`: set on objects read from a live cluster.
    pub uid: Option<Uid>,
    /// Other copies of this same object among the inputs (same kind, namespace and name, or uid), left
    /// out of the checks but kept here: where they were read and what they said.
    pub copies: Vec<CopyOf>,
}

/// A `metadata.uid`: the 16 bytes of a UUID as the API server writes it (lowercase, hyphenated), in
/// 16 bytes rather than a 36-character string; any other text as it is.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Uid {
    Uuid([u8; 16]),
    Text(Str),
}

impl Uid {
    pub fn new(text: &str) -> Uid {
        Uid::uuid(text).map_or_else(|| Uid::Text(Str::from(text)), Uid::Uuid)
    }

    /// The bytes of a lowercase `8-4-4-4-12` UUID; `None` for any other text (kept as text, so that
    /// `to_string` gives back exactly what was read).
    fn uuid(text: &str) -> Option<[u8; 16]> {
        let b = text.as_bytes();
        if b.len() != 36 || [8, 13, 18, 23].iter().any(|&i| b.get(i) != Some(&b'-')) {
            return None;
        }
        let mut out = [0u8; 16];
        let mut digits = b.iter().filter(|c| **c != b'-').map(|c| match c {
            b'0'..=b'9' => Some(c - b'0'),
            b'a'..=b'f' => Some(c - b'a' + 10),
            _ => None,
        });
        for byte in &mut out {
            *byte = (digits.next()?? << 4) | digits.next()??;
        }
        Some(out)
    }
}

impl std::fmt::Display for Uid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Uid::Text(t) => f.write_str(t),
            Uid::Uuid(b) => {
                for (i, byte) in b.iter().enumerate() {
                    if matches!(i, 4 | 6 | 8 | 10) {
                        f.write_str("-")?;
                    }
                    write!(f, "{byte:02x}")?;
                }
                Ok(())
            }
        }
    }
}

/// Another copy of an object, read from another place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CopyOf {
    pub source: Source,
    pub api_version: Str,
    /// Does it differ from the copy the checks use (anything but where it was read)?
    pub differs: bool,
}

/// The ConfigMaps whose `data` is kept (namespace, name): OpenShift's admin gates and the
/// administrator's acks of them (cluster-version-operator `pkg/cvo/upgradeable.go`), kubeadm's
/// ClusterConfiguration.
pub const CONFIG_DATA: &[(&str, &str)] = &[
    ("openshift-config-managed", "admin-gates"),
    ("openshift-config", "admin-acks"),
    ("kube-system", "kubeadm-config"),
];

/// Workload kinds whose `spec.template` is a pod template.
pub const WORKLOAD_KINDS: &[&str] =
    &["Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "ReplicationController", "Job", "CronJob"];

/// The status (`True`, `False`, `Unknown`) of a condition of this type.
fn condition<'n>(status: &'n Node, kind: &str) -> Option<&'n str> {
    status
        .get("conditions")
        .as_seq()
        .iter()
        .find(|c| c.get("type").as_str() == Some(kind))
        .and_then(|c| c.get("status").as_str())
}

/// The tag of a kube-apiserver static pod's image (`registry.k8s.io/kube-apiserver:v1.28.9`, a digest
/// after it left out): kubeadm writes the API server's version there, and `kubeadm upgrade apply`
/// rewrites it first.
fn apiserver_image_tag(meta: &Node, spec: &Node) -> Option<String> {
    if meta.get("namespace").as_str() != Some("kube-system")
        || meta.at(&["labels", "component"]).as_str() != Some("kube-apiserver")
    {
        return None;
    }
    let image = spec
        .get("containers")
        .as_seq()
        .iter()
        .find(|c| c.get("name").as_str() == Some("kube-apiserver"))?
        .get("image")
        .as_str()?;
    let image = image.split('@').next().unwrap_or_default();
    let (repo, tag) = image.rsplit_once(':')?;
    (repo.ends_with("kube-apiserver") && !tag.contains('/')).then(|| tag.to_owned())
}

fn ready_condition(status: &Node) -> Option<bool> {
    condition(status, "Ready").map(|s| s == "True")
}

impl Object {
    /// Read an object from a document that has `kind` (the caller checked it).
    pub fn from_node(n: &Node, source: Source) -> Object {
        Object::from_node_in(n, source, &mut Interner::new())
    }

    /// [`Object::from_node`], the strings that repeat across objects (kind, apiVersion, namespace, label
    /// keys and values, owners, a pod's node and phase) taken from `strings`, one copy of each value for
    /// every object read through it. A pod's own name is not: it never repeats.
    pub fn from_node_in(n: &Node, source: Source, strings: &mut Interner) -> Object {
        let meta = n.get("metadata");
        let kind = strings.get(n.get("kind").as_str().unwrap_or_default());
        let problems = problems(n, &kind);
        let api_version = strings.get(n.get("apiVersion").as_str().unwrap_or_default());
        let spec = n.get("spec");
        let status = n.get("status");
        let body = match (kind.as_str(), api_version.as_str()) {
            ("Node", "v1" | "") => Body::Node(Box::new(NodeInfo {
                taints: spec
                    .get("taints")
                    .as_seq()
                    .iter()
                    .map(|t| Taint {
                        key: t.get("key").as_str().unwrap_or_default().to_owned(),
                        value: t.get("value").as_str().unwrap_or_default().to_owned(),
                        effect: t.get("effect").as_str().unwrap_or_default().to_owned(),
                    })
                    .collect(),
                // kubectl reads manifests as YAML 1.1: `unschedulable: yes` is true.
                unschedulable: spec.get("unschedulable").as_bool_yaml11().unwrap_or(false),
                ready: ready_condition(status),
                unreachable: condition(status, "Ready") == Some("Unknown"),
                network_unavailable: condition(status, "NetworkUnavailable") == Some("True"),
                disk_pressure: condition(status, "DiskPressure") == Some("True"),
                kubelet_version: status.at(&["nodeInfo", "kubeletVersion"]).as_string(),
                kube_proxy_version: status.at(&["nodeInfo", "kubeProxyVersion"]).as_string(),
                allocatable: {
                    let a = status.get("allocatable");
                    Resources {
                        cpu_millis: a.get("cpu").as_str().and_then(cpu_millis).unwrap_or(UNKNOWN),
                        memory_bytes: a.get("memory").as_str().and_then(bytes).unwrap_or(UNKNOWN),
                        pods: int(a.get("pods")).unwrap_or(110),
                        ephemeral_bytes: a.get("ephemeral-storage").as_str().and_then(bytes).unwrap_or(UNKNOWN),
                    }
                },
                allocatable_extended: status
                    .get("allocatable")
                    .as_map()
                    .iter()
                    .map(|(k, v)| (k.as_str(), v))
                    .filter(|(k, _)| extended_resource(k))
                    .filter_map(|(k, v)| Some((k.to_owned(), extended_amount(k, v.as_str()?)?)))
                    .collect(),
                creation_timestamp: meta.get("creationTimestamp").as_string(),
                provider_id: spec.get("providerID").as_string(),
                container_runtime: status.at(&["nodeInfo", "containerRuntimeVersion"]).as_string(),
                os_image: status.at(&["nodeInfo", "osImage"]).as_string(),
                kernel_version: status.at(&["nodeInfo", "kernelVersion"]).as_string(),
                heartbeat: status
                    .get("conditions")
                    .as_seq()
                    .iter()
                    .filter_map(|c| c.get("lastHeartbeatTime").as_str())
                    .filter_map(|t| Some((crate::units::timestamp(t)?, t)))
                    .max_by_key(|(secs, _)| *secs)
                    .map(|(_, t)| t.to_owned()),
            })),
            ("Pod", "v1" | "") => Body::Pod(Box::new(PodInfo {
                spec: PodSpec::from_node_in(spec, strings),
                phase: status.get("phase").as_str().map(|p| strings.get(p)),
                ready: ready_condition(status),
                terminating: !meta.get("deletionTimestamp").is_null(),
                apiserver_version: apiserver_image_tag(meta, spec),
            })),
            ("InstanceGroup", v) if v.starts_with("kops.k8s.io/") => {
                Body::KopsGroup(Box::new(distro::KopsGroup::from_node(n)))
            }
            ("Cluster", v) if v.starts_with("kops.k8s.io/") => {
                Body::KopsCluster(Box::new(distro::KopsCluster::from_node(n)))
            }
            ("MachineConfigPool", v) if v.starts_with("machineconfiguration.openshift.io/") => {
                Body::Mcp(Box::new(distro::Mcp::from_node(n)))
            }
            ("NodePool", v) if v.starts_with("baremetal.cluster.gke.io/") => {
                Body::GkePool(Box::new(distro::GkePool::from_node(n)))
            }
            ("ClusterVersion", v) if v.starts_with("config.openshift.io/") => {
                Body::ClusterVersion(Box::new(distro::ClusterVersion::from_node(n)))
            }
            ("Infrastructure", v) if v.starts_with("config.openshift.io/") => Body::Infrastructure(Box::new(
                status.get("controlPlaneTopology").as_str().unwrap_or_default().to_owned(),
            )),
            ("ClusterOperator", v) if v.starts_with("config.openshift.io/") => {
                Body::ClusterOperator(Box::new(distro::ClusterOperator::from_node(n)))
            }
            ("ClusterServiceVersion", v) if v.starts_with("operators.coreos.com/") => {
                Body::Csv(Box::new(distro::Csv::from_node(n)))
            }
            ("Cluster", v) if v.starts_with("baremetal.cluster.gke.io/") => {
                Body::GkeCluster(Box::new(distro::GkeCluster::from_node(n)))
            }
            ("PreflightCheck", v) if v.starts_with("baremetal.cluster.gke.io/") => {
                Body::GkePreflight(Box::new(distro::GkePreflight::from_node(n)))
            }
            ("ConfigMap", "v1" | "")
                if CONFIG_DATA.contains(&(
                    meta.get("namespace").as_str().unwrap_or_default(),
                    meta.get("name").as_str().unwrap_or_default(),
                )) =>
            {
                Body::ConfigData(Box::new(n.get("data").string_map_in(strings)))
            }
            ("ValidatingWebhookConfiguration" | "MutatingWebhookConfiguration", v)
                if v.starts_with("admissionregistration.k8s.io/") =>
            {
                Body::Webhooks(Box::new(admission::WebhookConfig::from_node(n, v)))
            }
            ("ValidatingAdmissionPolicy", v) if v.starts_with("admissionregistration.k8s.io/") => {
                Body::AdmissionPolicy(Box::new(admission::AdmissionPolicy::from_node(n)))
            }
            ("ValidatingAdmissionPolicyBinding", v) if v.starts_with("admissionregistration.k8s.io/") => {
                Body::PolicyBinding(Box::new(admission::PolicyBinding::from_node(n)))
            }
            ("EndpointSlice", v) if v.starts_with("discovery.k8s.io/") => Body::EndpointSlice(Box::new(
                admission::EndpointSliceInfo::from_node(n, meta.get("namespace").as_str().unwrap_or("default")),
            )),
            ("Service", "v1" | "") => Body::Service(Box::new(admission::ServiceInfo {
                selector: spec.get("selector").is_map().then(|| LabelSelector {
                    match_labels: spec.get("selector").string_map_in(strings),
                    match_expressions: Vec::new(),
                    present: true,
                }),
            })),
            ("APIService", v) if v.starts_with("apiregistration.k8s.io/") => {
                Body::ApiService(Box::new(admission::ApiServiceInfo::from_node(n)))
            }
            ("CustomResourceDefinition", v) if v.starts_with("apiextensions.k8s.io/") => {
                Body::Crd(Box::new(admission::CrdInfo::from_node(n)))
            }
            ("PersistentVolume", "v1" | "") => Body::Pv(Box::new(PvInfo {
                node_bound: !spec.get("local").is_null() || !spec.get("hostPath").is_null(),
                affinity: node_selector(spec.at(&["nodeAffinity", "required"])),
                claim: spec
                    .get("claimRef")
                    .get("name")
                    .as_string()
                    .map(|n| (spec.at(&["claimRef", "namespace"]).as_str().unwrap_or_default().to_owned(), n)),
            })),
            (k, _) if WORKLOAD_KINDS.contains(&k) => {
                let template =
                    if k == "CronJob" { spec.at(&["jobTemplate", "spec", "template"]) } else { spec.get("template") };
                Body::Workload(Box::new(WorkloadInfo {
                    replicas: int(spec.get("replicas")),
                    selector: LabelSelector::from_node_in(spec.get("selector"), strings),
                    template_labels: template.at(&["metadata", "labels"]).string_map_in(strings),
                    template: PodSpec::from_node_in(template.get("spec"), strings),
                }))
            }
            ("PodDisruptionBudget", _) => Body::Pdb(Box::new(PdbInfo {
                selector: LabelSelector::from_node_in(spec.get("selector"), strings),
                min_available: int_or_percent(spec.get("minAvailable")),
                max_unavailable: int_or_percent(spec.get("maxUnavailable")),
                unhealthy_pod_eviction_policy: spec.get("unhealthyPodEvictionPolicy").as_string(),
                status: status.is_map().then(|| PdbStatus {
                    current_healthy: int(status.get("currentHealthy")),
                    desired_healthy: int(status.get("desiredHealthy")),
                    expected_pods: int(status.get("expectedPods")),
                    disruptions_allowed: int(status.get("disruptionsAllowed")),
                }),
            })),
            ("Event", v) if v == "v1" || v.is_empty() || v.starts_with("events.k8s.io/") => {
                node_event(n, v).map_or(Body::Other, |e| Body::NodeEvent(Box::new(e)))
            }
            (_, v) if v.contains('/') => CustomInfo::from_spec(spec).map_or(Body::Other, |c| Body::Custom(Box::new(c))),
            _ => Body::Other,
        };
        let mut managed_api_versions: Vec<Str> = Vec::new();
        for f in meta.get("managedFields").as_seq() {
            if let Some(v) = f.get("apiVersion").as_str() {
                if !managed_api_versions.iter().any(|m| m == v) {
                    managed_api_versions.push(strings.get(v));
                }
            }
        }
        let name = match meta.get("name").as_str() {
            // A ReplicaSet's name is its pods' owner's name.
            Some(name) if kind != "Pod" => strings.get(name),
            Some(name) => Str::from(name),
            None => {
                Str::from(meta.get("generateName").as_str().map_or_else(|| "<unnamed>".to_owned(), |g| format!("{g}*")))
            }
        };
        Object {
            r: ObjectRef {
                api_version,
                kind,
                namespace: meta.get("namespace").as_str().map(|ns| strings.get(ns)),
                name,
            },
            source,
            labels: meta.get("labels").string_map_in(strings),
            annotations: meta.get("annotations").string_map_in(strings),
            owners: meta
                .get("ownerReferences")
                .as_seq()
                .iter()
                .map(|o| OwnerRef {
                    kind: strings.get(o.get("kind").as_str().unwrap_or_default()),
                    name: strings.get(o.get("name").as_str().unwrap_or_default()),
                    controller: o.get("controller").as_bool_yaml11().unwrap_or(false),
                    api_version: strings.get(o.get("apiVersion").as_str().unwrap_or_default()),
                })
                .collect(),
            managed_api_versions,
            problems,
            body,
            uid: meta.get("uid").as_str().filter(|u| !u.is_empty()).map(Uid::new),
            copies: Vec::new(),
        }
    }

    /// Is `other` the same object as this one, read elsewhere: the same non-empty uid, or the same kind,
    /// namespace and name?
    pub fn same_object(&self, other: &Object) -> bool {
        match (&self.uid, &other.uid) {
            (Some(a), Some(b)) if a == b => true,
            _ => self.r.kind == other.r.kind && self.r.namespace == other.r.namespace && self.r.name == other.r.name,
        }
    }

    /// Does `other` say anything different from this one (where each was read aside)?
    pub fn differs_from(&self, other: &Object) -> bool {
        let mut a = self.clone();
        let mut b = other.clone();
        a.source = Source::default();
        b.source = Source::default();
        a.copies.clear();
        b.copies.clear();
        a != b
    }

    pub fn node(&self) -> Option<&NodeInfo> {
        match &self.body {
            Body::Node(n) => Some(n),
            _ => None,
        }
    }

    pub fn pod(&self) -> Option<&PodInfo> {
        match &self.body {
            Body::Pod(p) => Some(p),
            _ => None,
        }
    }

    /// Roles from `node-role.kubernetes.io/*` labels (kubeadm `control-plane`/`master`, RKE
    /// `controlplane`/`etcd`/`worker`).
    pub fn node_roles(&self) -> NodeRoles {
        let has = |label: &str| self.labels.get(label).is_some_and(|v| v.is_empty() || v == "true");
        NodeRoles {
            control_plane: has("node-role.kubernetes.io/control-plane")
                || has("node-role.kubernetes.io/master")
                || has("node-role.kubernetes.io/controlplane"),
            etcd: has("node-role.kubernetes.io/etcd"),
            worker: has("node-role.kubernetes.io/worker"),
        }
    }
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct NodeRoles {
    pub control_plane: bool,
    pub etcd: bool,
    pub worker: bool,
}

fn check_quantity(out: &mut Vec<String>, field: &str, n: &Node) {
    if let Some(what) = not_a_scalar(n) {
        out.push(format!("{field}: {what} where a quantity goes"));
    } else if let Some(v) = n.as_str() {
        if crate::quantity::parse_quantity(v).is_none() {
            out.push(format!("{field}: {v:?} is not a quantity"));
        }
    }
}

/// A sequence or a mapping, named, where a scalar goes (`None` for a scalar or null).
fn not_a_scalar(n: &Node) -> Option<&'static str> {
    match n.value {
        crate::parse::Value::Seq(_) => Some("a sequence"),
        crate::parse::Value::Map(_) => Some("a mapping"),
        _ => None,
    }
}

/// An integer field (`int32` or `int64` in the API's Go types) as the API server decodes it: a number,
/// whole and in range. A quoted string, a sequence, a mapping, a fraction or a number out of range is
/// refused there (`cannot unmarshal ... into Go value of type int32`), so the object as written never
/// reaches the cluster.
fn check_int(out: &mut Vec<String>, field: &str, n: &Node, bits: u32) {
    if let Some(p) = int_problem(n, bits) {
        out.push(format!("{field}: {p}"));
    }
}

fn int_problem(n: &Node, bits: u32) -> Option<String> {
    use crate::parse::{ScalarKind, Value};
    let (min, max) = if bits == 32 { (i64::from(i32::MIN), i64::from(i32::MAX)) } else { (i64::MIN, i64::MAX) };
    match &n.value {
        Value::Null => None,
        Value::Seq(_) | Value::Map(_) => not_a_scalar(n).map(|w| format!("{w} where a number goes")),
        Value::Scalar(raw, ScalarKind::Str) => Some(format!("{raw:?} is a quoted string where a number goes")),
        Value::Scalar(raw, ScalarKind::Plain) => {
            // Plain decimal first (every pod has a few of these: no allocation); then YAML 1.1's forms;
            // then `3.0`, a whole number too (`Node::as_i64`).
            let whole = raw.parse::<i64>().ok().or_else(|| yaml11_int(raw)).or_else(|| n.as_i64());
            let digits = raw.strip_prefix('-').unwrap_or(raw);
            match whole {
                Some(v) if (min..=max).contains(&v) => None,
                Some(_) => Some(format!("{raw} is out of range for an int{bits}")),
                None if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) => {
                    Some(format!("{raw} is out of range for an int{bits}"))
                }
                None => Some(format!("{raw:?} is not a whole number")),
            }
        }
    }
}

fn check_limit(out: &mut Vec<String>, field: &str, n: &Node) {
    if let Some(what) = not_a_scalar(n) {
        out.push(format!("{field}: {what} where a count or a percentage goes"));
        return;
    }
    // A string is read as a percentage only (intstr.GetScaledValueFromIntOrPercent; the API server's
    // validation says "a valid percent string must be a numeric string followed by an ending '%'").
    if let crate::parse::Value::Scalar(raw, crate::parse::ScalarKind::Str) = &n.value {
        if !raw.trim_end().ends_with('%') {
            out.push(format!(
                "{field}: {raw:?} is a quoted string without %: read only as a percentage (write a count unquoted)"
            ));
            return;
        }
    }
    // An IntOrString holds an int32: a larger number is refused when the object is decoded.
    if let crate::parse::Value::Scalar(raw, crate::parse::ScalarKind::Plain) = &n.value {
        if !raw.ends_with('%') && raw.trim_start_matches('-').bytes().all(|b| b.is_ascii_digit()) {
            let fits = yaml11_int(raw).is_some_and(|v| i32::try_from(v).is_ok());
            if !fits && !raw.is_empty() {
                out.push(format!("{field}: {raw} is out of range for an IntOrString (an int32)"));
                return;
            }
        }
    }
    if let Some(v) = n.as_str() {
        match IntOrPercent::parse(v) {
            Some(IntOrPercent::Int(i)) if i < 0 => out.push(format!("{field}: {v:?} is negative")),
            Some(IntOrPercent::Percent(p)) if !(0..=100).contains(&p) => {
                out.push(format!("{field}: {v:?} is outside 0% to 100%"))
            }
            Some(_) => {}
            None => out.push(format!("{field}: {v:?} is neither a count nor a percentage")),
        }
    }
}

fn check_containers(out: &mut Vec<String>, prefix: &str, spec: &Node) {
    for list in ["containers", "initContainers"] {
        for (i, c) in spec.get(list).as_seq().iter().enumerate() {
            let r = c.at(&["resources", "requests"]);
            check_quantity(out, &format!("{prefix}.{list}[{i}].resources.requests.cpu"), r.get("cpu"));
            check_quantity(out, &format!("{prefix}.{list}[{i}].resources.requests.memory"), r.get("memory"));
        }
    }
}

/// Values the checks depend on that do not parse: each is reported (`input/unreadable-value`) rather than
/// silently read as zero.
fn problems(n: &Node, kind: &str) -> Vec<String> {
    let mut out = Vec::new();
    let spec = n.get("spec");
    match kind {
        "Node" => {
            let v = n.at(&["status", "nodeInfo", "kubeletVersion"]);
            if let Some(raw) = v.as_str() {
                if let Err(e) = crate::version::Version::parse(raw) {
                    out.push(format!("status.nodeInfo.kubeletVersion: {e}"));
                }
            }
            let a = n.at(&["status", "allocatable"]);
            check_quantity(&mut out, "status.allocatable.cpu", a.get("cpu"));
            check_quantity(&mut out, "status.allocatable.memory", a.get("memory"));
            check_quantity(&mut out, "status.allocatable.pods", a.get("pods"));
        }
        "Pod" => {
            check_containers(&mut out, "spec", spec);
            check_pod_ints(&mut out, "spec", spec);
        }
        "PodDisruptionBudget" => {
            check_limit(&mut out, "spec.minAvailable", spec.get("minAvailable"));
            check_limit(&mut out, "spec.maxUnavailable", spec.get("maxUnavailable"));
            let status = n.get("status");
            for f in ["currentHealthy", "desiredHealthy", "expectedPods", "disruptionsAllowed"] {
                check_int(&mut out, &format!("status.{f}"), status.get(f), 32);
            }
        }
        "ClusterVersion" => {
            // The CVO's own record: a release it names that no reader here understands is said, never
            // passed over for a lower source of the current version.
            check_version(&mut out, "status.desired.version", n.at(&["status", "desired", "version"]), Version::parse);
            check_version(&mut out, "spec.desiredUpdate.version", spec.at(&["desiredUpdate", "version"]), Version::parse);
        }
        "Cluster" if api_group(n) == "baremetal.cluster.gke.io" => {
            for (field, v) in [
                ("status.anthosBareMetalVersion", n.at(&["status", "anthosBareMetalVersion"])),
                ("spec.anthosBareMetalVersion", spec.get("anthosBareMetalVersion")),
            ] {
                check_version(&mut out, field, v, Version::parse_gke_baremetal);
            }
        }
        "InstanceGroup" | "Cluster" => {
            if kind == "Cluster" && api_group(n) == "kops.k8s.io" {
                check_version(&mut out, "spec.kubernetesVersion", spec.get("kubernetesVersion"), Version::parse_kops);
            }
            let r = spec.get("rollingUpdate");
            check_limit(&mut out, "spec.rollingUpdate.maxUnavailable", r.get("maxUnavailable"));
            check_limit(&mut out, "spec.rollingUpdate.maxSurge", r.get("maxSurge"));
            if kind == "InstanceGroup" {
                check_int(&mut out, "spec.minSize", spec.get("minSize"), 32);
                check_int(&mut out, "spec.maxSize", spec.get("maxSize"), 32);
            }
        }
        "NodePool" => {
            let p = spec.at(&["upgradeStrategy", "parallelUpgrade"]);
            for f in ["concurrentNodes", "minimumAvailableNodes"] {
                check_int(&mut out, &format!("spec.upgradeStrategy.parallelUpgrade.{f}"), p.get(f), 64);
            }
        }
        "MachineConfigPool" => {
            match distro::Mcp::from_node(n).max_unavailable_refused {
                Some(raw) => out.push(format!(
                    "spec.maxUnavailable: {raw:?} is refused by the Machine Config Operator (a number, or digits followed by %), which then never updates the pool"
                )),
                None => check_limit(&mut out, "spec.maxUnavailable", spec.get("maxUnavailable")),
            }
        }
        k if WORKLOAD_KINDS.contains(&k) => {
            let (path, template) = if k == "CronJob" {
                ("spec.jobTemplate.spec.template.spec", spec.at(&["jobTemplate", "spec", "template", "spec"]))
            } else {
                ("spec.template.spec", spec.at(&["template", "spec"]))
            };
            check_containers(&mut out, path, template);
            check_pod_ints(&mut out, path, template);
            if k != "DaemonSet" {
                check_int(&mut out, "spec.replicas", spec.get("replicas"), 32);
            }
        }
        _ => {}
    }
    out
}

/// The API group of an object's `apiVersion` (`kops.k8s.io` for `kops.k8s.io/v1alpha2`; empty for `v1`).
fn api_group(n: &Node) -> &str {
    n.get("apiVersion").as_str().and_then(|a| a.rsplit_once('/')).map_or("", |(g, _)| g)
}

/// A version field its reader cannot read, said as the field and why.
fn check_version(out: &mut Vec<String>, field: &str, v: &Node, read: fn(&str) -> Result<Version, String>) {
    if let Some(raw) = v.as_str() {
        if let Err(e) = read(raw) {
            out.push(format!("{field}: {e}"));
        }
    }
}

/// A pod spec's integers the checks read: its grace period and its tolerations' seconds (int64).
fn check_pod_ints(out: &mut Vec<String>, prefix: &str, spec: &Node) {
    if let Some(p) = int_problem(spec.get("terminationGracePeriodSeconds"), 64) {
        out.push(format!("{prefix}.terminationGracePeriodSeconds: {p}"));
    }
    for (i, t) in spec.get("tolerations").as_seq().iter().enumerate() {
        if let Some(p) = int_problem(t.get("tolerationSeconds"), 64) {
            out.push(format!("{prefix}.tolerations[{i}].tolerationSeconds: {p}"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_yaml_documents;

    fn obj(yaml: &str) -> Object {
        let docs = parse_yaml_documents("t.yaml", yaml).unwrap();
        Object::from_node(&docs[0], Source { file: "t.yaml".into(), line: Some(1), via: None })
    }

    /// A custom resource keeps the whole numbers of its `spec` by path, where a CRD's scale subresource may
    /// point: nested maps, not lists or quoted strings; a key given twice reads as its last.
    #[test]
    fn custom_resources_keep_their_spec_numbers_by_path() {
        let o = obj("apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec:\n  replicas: 3\n  \
                     size: {count: 0x10, label: '7'}\n  ports: [{port: 80}]\n  replicas: 5\n");
        let Body::Custom(c) = &o.body else { panic!("{:?}", o.body) };
        assert_eq!(c.at(".spec.replicas"), Some(5));
        assert_eq!(c.at(".spec.size.count"), Some(16));
        assert_eq!(c.at(".spec.size.label"), None);
        assert_eq!(c.at(".spec.ports"), None);
        // Built-in kinds of the core group, and objects without a number in `spec`, keep nothing.
        assert!(matches!(obj("apiVersion: v1\nkind: Secret\nmetadata: {name: s}\n").body, Body::Other));
        assert!(matches!(
            obj("apiVersion: example.com/v1\nkind: W\nmetadata: {name: w}\nspec: {a: b}\n").body,
            Body::Other
        ));
    }

    #[test]
    fn yaml_1_1_integers_as_kubectl_reads_them() {
        for (raw, want) in
            [("10", 10), ("010", 8), ("0x1f", 31), ("0b101", 5), ("1_000", 1000), ("-012", -10), ("0", 0)]
        {
            assert_eq!(yaml11_int(raw), Some(want), "{raw}");
        }
        for raw in ["25%", "ten", "", "0x", "1.5"] {
            assert_eq!(yaml11_int(raw), None, "{raw}");
        }
    }

    /// The fields read as numbers read YAML 1.1's forms as kubectl does: a grace period of `0x258` is 600
    /// seconds (it was read as absent, so the API server's 30), `0600` octal; JSON and quoted values as before.
    #[test]
    fn number_fields_read_yaml_1_1_integers() {
        let grace = |v: &str| {
            let o = obj(&format!("apiVersion: v1\nkind: Pod\nmetadata: {{name: p}}\nspec:\n  terminationGracePeriodSeconds: {v}\n  containers: [{{name: c, image: i}}]\n"));
            o.pod().and_then(|p| p.spec.termination_grace_seconds)
        };
        assert_eq!(grace("0x258"), Some(600));
        assert_eq!(grace("0600"), Some(384));
        assert_eq!(grace("1_200"), Some(1200));
        assert_eq!(grace("600"), Some(600));
        assert_eq!(grace("0"), Some(0));
        assert_eq!(grace("\"600\""), Some(600));
        let o = obj("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec:\n  replicas: 0x3\n  selector: {matchLabels: {a: b}}\n  template: {metadata: {labels: {a: b}}, spec: {containers: [{name: c, image: i}]}}\n");
        assert!(matches!(&o.body, Body::Workload(w) if w.replicas == Some(3)));
    }

    #[test]
    fn reads_a_node() {
        let o = obj("apiVersion: v1\nkind: Node\nmetadata:\n  name: cp-1\n  labels:\n    node-role.kubernetes.io/control-plane: \"\"\nspec:\n  taints:\n  - {key: node-role.kubernetes.io/control-plane, effect: NoSchedule}\nstatus:\n  conditions:\n  - {type: Ready, status: \"True\"}\n  nodeInfo: {kubeletVersion: v1.28.4}\n  allocatable: {cpu: \"4\", memory: 16Gi, pods: \"110\"}\n");
        let n = o.node().unwrap();
        assert!(o.node_roles().control_plane);
        assert_eq!(n.ready, Some(true));
        assert_eq!(n.kubelet_version.as_deref(), Some("v1.28.4"));
        assert_eq!(
            n.allocatable,
            Resources { cpu_millis: 4000, memory_bytes: 16 << 30, pods: 110, ephemeral_bytes: UNKNOWN }
        );
        assert_eq!(n.taints[0].effect, "NoSchedule");
    }

    #[test]
    fn reads_a_deployment_template_and_pdb() {
        let o = obj("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: shop}\nspec:\n  replicas: 3\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec:\n      nodeSelector: {disk: ssd}\n      containers:\n      - resources: {requests: {cpu: 250m, memory: 64Mi}}\n      - resources: {requests: {cpu: 250m}}\n");
        let Body::Workload(w) = &o.body else { panic!() };
        assert_eq!(w.replicas, Some(3));
        assert!(w.selector.matches(&w.template_labels));
        assert_eq!(w.template.requests.cpu_millis, 500);
        assert_eq!(w.template.node_selector.get("disk").map(Str::as_str), Some("ssd"));
        let p = obj("apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: web}\nspec:\n  maxUnavailable: 25%\n  selector: {matchLabels: {app: web}}\n");
        let Body::Pdb(p) = &p.body else { panic!() };
        assert_eq!(p.max_unavailable, Some(IntOrPercent::Percent(25)));
    }

    #[test]
    fn a_uid_is_kept_in_16_bytes_and_given_back_as_read() {
        let uuid = "0f3c9a2e-1b4d-4e8f-9a6b-7c5d3e2f1a0b";
        assert!(matches!(Uid::new(uuid), Uid::Uuid(_)));
        for text in [uuid, "0F3C9A2E-1B4D-4E8F-9A6B-7C5D3E2F1A0B", "u-1", "0f3c9a2e-1b4d-4e8f-9a6b-7c5d3e2f1a0", ""] {
            assert_eq!(Uid::new(text).to_string(), text);
        }
        assert!(matches!(Uid::new("0f3c9a2e+1b4d-4e8f-9a6b-7c5d3e2f1a0b"), Uid::Text(_)));
        assert!(matches!(Uid::new("0f3c9a2e-1b4d-4e8f-9a6b-7c5d3e2f1a0g"), Uid::Text(_)));
        assert_ne!(Uid::new(uuid), Uid::new("0f3c9a2e-1b4d-4e8f-9a6b-7c5d3e2f1a0c"));
    }

    #[test]
    fn tolerations_follow_kubernetes_semantics() {
        let t = |key: &str, op: &str, value: &str, effect: &str| Toleration {
            key: key.into(),
            operator: op.into(),
            value: value.into(),
            effect: effect.into(),
            toleration_seconds: None,
        };
        let taint = Taint { key: "k".into(), value: "v".into(), effect: "NoSchedule".into() };
        assert!(t("k", "Equal", "v", "NoSchedule").tolerates(&taint));
        assert!(t("k", "Exists", "", "").tolerates(&taint));
        assert!(t("", "Exists", "", "").tolerates(&taint));
        assert!(!t("k", "Equal", "w", "NoSchedule").tolerates(&taint));
        assert!(!t("k", "Exists", "", "NoExecute").tolerates(&taint));
    }
}
