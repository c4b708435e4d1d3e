//! The API machinery the upgrade goes through: admission webhooks (`ValidatingWebhookConfiguration`,
//! `MutatingWebhookConfiguration`), the Services and EndpointSlices behind them, aggregated `APIService`s
//! and `CustomResourceDefinition`s (their versions and conversion webhook), as the API server reads them.

use super::distro::{conditions, Condition};
use super::{strings_of, LabelSelector};
use crate::parse::Node;

/// A Service a webhook, a conversion or an APIService calls (`clientConfig.service`, `spec.service`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServiceRef {
    pub namespace: String,
    pub name: String,
}

impl ServiceRef {
    fn from_node(n: &Node) -> Option<ServiceRef> {
        Some(ServiceRef {
            namespace: n.get("namespace").as_str().unwrap_or("default").to_owned(),
            name: n.get("name").as_str()?.to_owned(),
        })
    }
}

/// One rule of a webhook (`rules[]`: `RuleWithOperations`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AdmissionRule {
    pub operations: Vec<String>,
    pub api_groups: Vec<String>,
    pub api_versions: Vec<String>,
    pub resources: Vec<String>,
    /// `Cluster`, `Namespaced` or `*` (the default).
    pub scope: String,
}

impl AdmissionRule {
    fn from_node(r: &Node) -> AdmissionRule {
        AdmissionRule {
            operations: strings_of(r.get("operations")),
            api_groups: strings_of(r.get("apiGroups")),
            api_versions: strings_of(r.get("apiVersions")),
            resources: strings_of(r.get("resources")),
            scope: r.get("scope").as_str().unwrap_or("*").to_owned(),
        }
    }
}

/// One webhook of a configuration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Webhook {
    pub name: String,
    /// `failurePolicy: Fail` (the default of `admissionregistration.k8s.io/v1`; `v1beta1` defaulted to
    /// `Ignore`): a call that fails refuses the request.
    pub fails_closed: bool,
    /// The Service it calls; `None` for a URL (outside the cluster: not judged).
    pub service: Option<ServiceRef>,
    pub rules: Vec<AdmissionRule>,
    /// Absent or `{}`: every namespace.
    pub namespace_selector: LabelSelector,
    /// Absent or `{}`: every object.
    pub object_selector: LabelSelector,
    /// `matchConditions` (CEL): how many; they cannot be judged offline.
    pub match_conditions: usize,
}

/// A `ValidatingWebhookConfiguration` or `MutatingWebhookConfiguration`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WebhookConfig {
    pub webhooks: Vec<Webhook>,
}

impl WebhookConfig {
    pub fn from_node(n: &Node, api_version: &str) -> WebhookConfig {
        let default_fail = !api_version.ends_with("/v1beta1");
        let webhooks = n
            .get("webhooks")
            .as_seq()
            .iter()
            .map(|w| {
                let policy = w.get("failurePolicy").as_str();
                Webhook {
                    name: w.get("name").as_str().unwrap_or_default().to_owned(),
                    fails_closed: policy.map_or(default_fail, |p| p == "Fail"),
                    service: ServiceRef::from_node(w.at(&["clientConfig", "service"])),
                    rules: w.get("rules").as_seq().iter().map(AdmissionRule::from_node).collect(),
                    namespace_selector: LabelSelector::from_node(w.get("namespaceSelector")),
                    object_selector: LabelSelector::from_node(w.get("objectSelector")),
                    match_conditions: w.get("matchConditions").as_seq().len(),
                }
            })
            .collect();
        WebhookConfig { webhooks }
    }
}

/// One endpoint of an EndpointSlice.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Endpoint {
    /// `conditions.ready`; absent reads as ready ("consumers should interpret this unknown state as
    /// ready").
    pub ready: bool,
    pub node: Option<String>,
    /// `targetRef` when it names a Pod: its namespace and name.
    pub pod: Option<(String, String)>,
}

/// An `EndpointSlice`: the Service it belongs to (`kubernetes.io/service-name`) and its endpoints.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EndpointSliceInfo {
    pub service: Option<String>,
    pub endpoints: Vec<Endpoint>,
}

impl EndpointSliceInfo {
    pub fn from_node(n: &Node, namespace: &str) -> EndpointSliceInfo {
        EndpointSliceInfo {
            service: n.at(&["metadata", "labels", "kubernetes.io/service-name"]).as_string(),
            endpoints: n
                .get("endpoints")
                .as_seq()
                .iter()
                .map(|e| {
                    let t = e.get("targetRef");
                    Endpoint {
                        ready: e.at(&["conditions", "ready"]).as_bool_yaml11().unwrap_or(true),
                        node: e.get("nodeName").as_string(),
                        pod: (t.get("kind").as_str() == Some("Pod"))
                            .then(|| t.get("name").as_string())
                            .flatten()
                            .map(|name| (t.get("namespace").as_str().unwrap_or(namespace).to_owned(), name)),
                    }
                })
                .collect(),
        }
    }
}

/// A `Service`: its pod selector (`spec.selector`, labels only; `None` for a Service without one, whose
/// endpoints are managed by hand).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServiceInfo {
    pub selector: Option<LabelSelector>,
}

/// An `APIService`: the Service it proxies to (`None`: served by the API server itself) and its
/// `Available` condition.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiServiceInfo {
    pub service: Option<ServiceRef>,
    pub available: Option<Condition>,
}

impl ApiServiceInfo {
    pub fn from_node(n: &Node) -> ApiServiceInfo {
        let conds = conditions(n.get("status"));
        ApiServiceInfo {
            service: ServiceRef::from_node(n.at(&["spec", "service"])),
            available: conds.into_iter().find(|c| c.kind == "Available"),
        }
    }
}

/// One version of a CRD.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CrdVersion {
    pub name: String,
    pub served: bool,
    pub storage: bool,
    /// The scale subresource's `specReplicasPath` (`.spec.replicas`); `None` without a scale subresource.
    pub scale_replicas_path: Option<String>,
}

/// A `CustomResourceDefinition`: its versions, the versions its objects were stored at, its conversion
/// webhook.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CrdInfo {
    pub group: String,
    pub plural: String,
    /// `spec.names.kind`.
    pub kind: String,
    /// `spec.scope: Cluster`.
    pub cluster_scoped: bool,
    pub versions: Vec<CrdVersion>,
    /// `status.storedVersions`; `None` when the object has no status (a manifest).
    pub stored_versions: Option<Vec<String>>,
    /// `spec.conversion.strategy: Webhook`: the Service it calls (`None` for none, or a URL).
    pub conversion_service: Option<ServiceRef>,
    pub conversion_webhook: bool,
}

impl CrdInfo {
    pub fn from_node(n: &Node) -> CrdInfo {
        let spec = n.get("spec");
        let conversion = spec.get("conversion");
        let webhook = conversion.get("strategy").as_str() == Some("Webhook");
        // v1 puts the client config under `webhook`, v1beta1 under `conversion` itself.
        let client = if conversion.get("webhook").is_null() {
            conversion.get("webhookClientConfig")
        } else {
            conversion.at(&["webhook", "clientConfig"])
        };
        // v1 gives each version its subresources; v1beta1 may give them once for all, under `spec`.
        let scale_path = |subresources: &Node| subresources.at(&["scale", "specReplicasPath"]).as_string();
        let shared_scale = scale_path(spec.get("subresources"));
        let mut versions: Vec<CrdVersion> = spec
            .get("versions")
            .as_seq()
            .iter()
            .map(|v| CrdVersion {
                name: v.get("name").as_str().unwrap_or_default().to_owned(),
                served: v.get("served").as_bool_yaml11().unwrap_or(true),
                storage: v.get("storage").as_bool_yaml11().unwrap_or(false),
                scale_replicas_path: if v.get("subresources").is_null() {
                    shared_scale.clone()
                } else {
                    scale_path(v.get("subresources"))
                },
            })
            .collect();
        // v1beta1's single `spec.version`.
        if versions.is_empty() {
            if let Some(v) = spec.get("version").as_str() {
                versions.push(CrdVersion {
                    name: v.to_owned(),
                    served: true,
                    storage: true,
                    scale_replicas_path: shared_scale,
                });
            }
        }
        let status = n.get("status");
        CrdInfo {
            group: spec.get("group").as_str().unwrap_or_default().to_owned(),
            plural: spec.at(&["names", "plural"]).as_str().unwrap_or_default().to_owned(),
            kind: spec.at(&["names", "kind"]).as_str().unwrap_or_default().to_owned(),
            cluster_scoped: spec.get("scope").as_str() == Some("Cluster"),
            versions,
            stored_versions: (!status.get("storedVersions").is_null())
                .then(|| strings_of(status.get("storedVersions"))),
            conversion_service: webhook.then(|| ServiceRef::from_node(client.get("service"))).flatten(),
            conversion_webhook: webhook,
        }
    }
}

/// What a `ValidatingAdmissionPolicy` or its binding matches (`matchConstraints`, `matchResources`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MatchResources {
    /// `resourceRules`, each with its `resourceNames` (empty: any name).
    pub rules: Vec<(AdmissionRule, Vec<String>)>,
    /// `excludeResourceRules`: a request one of them covers is not matched.
    pub exclude: Vec<(AdmissionRule, Vec<String>)>,
    pub namespace_selector: LabelSelector,
    pub object_selector: LabelSelector,
}

impl MatchResources {
    fn from_node(n: &Node) -> MatchResources {
        let rules = |key: &str| {
            n.get(key)
                .as_seq()
                .iter()
                .map(|r| (AdmissionRule::from_node(r), strings_of(r.get("resourceNames"))))
                .collect()
        };
        MatchResources {
            rules: rules("resourceRules"),
            exclude: rules("excludeResourceRules"),
            namespace_selector: LabelSelector::from_node(n.get("namespaceSelector")),
            object_selector: LabelSelector::from_node(n.get("objectSelector")),
        }
    }
}

/// A `ValidatingAdmissionPolicy`: CEL run in the API server itself, so nothing is called; what can fail
/// offline is its configuration (a `paramKind` nothing serves, a binding without its parameter).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AdmissionPolicy {
    /// `failurePolicy: Fail`, the default: a policy or binding that is misconfigured refuses the request.
    pub fails_closed: bool,
    /// `paramKind`: `(apiVersion, kind)`.
    pub param_kind: Option<(String, String)>,
    pub match_constraints: MatchResources,
    /// `matchConditions` (CEL): how many; they cannot be judged offline.
    pub match_conditions: usize,
}

impl AdmissionPolicy {
    pub fn from_node(n: &Node) -> AdmissionPolicy {
        let spec = n.get("spec");
        let pk = spec.get("paramKind");
        AdmissionPolicy {
            fails_closed: spec.get("failurePolicy").as_str().is_none_or(|p| p == "Fail"),
            param_kind: pk
                .get("kind")
                .as_str()
                .map(|k| (pk.get("apiVersion").as_str().unwrap_or_default().to_owned(), k.to_owned())),
            match_constraints: MatchResources::from_node(spec.get("matchConstraints")),
            match_conditions: spec.get("matchConditions").as_seq().len(),
        }
    }
}

/// A binding's `paramRef`: where its parameter is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParamRef {
    pub name: Option<String>,
    pub namespace: Option<String>,
    /// `selector`; not present when `name` is given.
    pub selector: LabelSelector,
    /// `parameterNotFoundAction: Deny`: no parameter found is subject to the policy's `failurePolicy`
    /// (absent or `Allow`: the binding is skipped, as the API server's `CollectParams` does).
    pub not_found_denies: bool,
}

/// A `ValidatingAdmissionPolicyBinding`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PolicyBinding {
    pub policy: String,
    pub param_ref: Option<ParamRef>,
    /// `matchResources`; `None`: the policy's `matchConstraints` alone.
    pub match_resources: Option<MatchResources>,
    /// `validationActions` holds `Deny` (absent, as in `v1alpha1` before the field: `Deny`).
    pub denies: bool,
}

impl PolicyBinding {
    pub fn from_node(n: &Node) -> PolicyBinding {
        let spec = n.get("spec");
        let p = spec.get("paramRef");
        let actions = strings_of(spec.get("validationActions"));
        PolicyBinding {
            policy: spec.get("policyName").as_str().unwrap_or_default().to_owned(),
            param_ref: p.is_map().then(|| ParamRef {
                name: p.get("name").as_str().filter(|s| !s.is_empty()).map(str::to_owned),
                namespace: p.get("namespace").as_str().filter(|s| !s.is_empty()).map(str::to_owned),
                selector: LabelSelector::from_node(p.get("selector")),
                not_found_denies: p.get("parameterNotFoundAction").as_str() == Some("Deny"),
            }),
            match_resources: spec
                .get("matchResources")
                .is_map()
                .then(|| MatchResources::from_node(spec.get("matchResources"))),
            denies: spec.get("validationActions").is_null() || actions.iter().any(|a| a == "Deny"),
        }
    }
}
