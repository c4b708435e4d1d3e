//! The API machinery a drain goes through: which fail-closed admission webhooks cover the pods a drain
//! makes the controllers re-create, and which pods serve them (their Service's EndpointSlices, or its
//! selector).
//!
//! The API server's matching (`k8s.io/apiserver/pkg/admission/plugin/webhook/predicates`): a rule covers
//! a pod's creation when its operations hold `CREATE` or `*`, its API groups `""` or `*`, its versions
//! `v1` or `*`, its resources `pods`, `pods/*`, `*` or `*/*` (a resource and subresource each `*` or
//! equal; a pod itself has no subresource), its scope `*` or `Namespaced`; then the namespace selector
//! against the namespace's labels (every namespace carries `kubernetes.io/metadata.name`), the object
//! selector against the pod's labels; `matchConditions` (CEL) cannot be judged offline: "may". A webhook
//! with `failurePolicy: Fail` whose call fails (no ready endpoint behind its Service: "no endpoints
//! available for service") refuses the request. A URL webhook (outside the cluster) is not judged.

use std::cell::OnceCell;

use crate::model::admission::{
    AdmissionPolicy, AdmissionRule, EndpointSliceInfo, MatchResources, PolicyBinding, ServiceRef, Webhook,
};
use crate::model::{Body, LabelSelector, Object};
use crate::parse::StringMap;

use super::Cluster;

/// Does a webhook cover a request?
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Covers {
    No,
    /// Its rules and selectors do; its `matchConditions` (or a namespace selector on labels of a
    /// Namespace that was not read) may exclude it.
    May,
    Yes,
}

/// Where a webhook's ready backends are now.
#[derive(Debug, Clone, Default)]
pub struct Backends<'a> {
    /// Ready pods behind the Service, as read.
    pub pods: Vec<&'a Object>,
    /// Ready endpoints whose pod was not read: the nodes they run on.
    pub nodes: Vec<String>,
    /// Ready endpoints with neither a pod read nor a node: somewhere the plan does not touch.
    pub elsewhere: usize,
}

impl Backends<'_> {
    pub fn is_empty(&self) -> bool {
        self.pods.is_empty() && self.nodes.is_empty() && self.elsewhere == 0
    }
}

/// A fail-closed webhook, backed by a Service in the cluster, whose rules cover the creation of pods.
#[derive(Debug, Clone)]
pub struct PodWebhook<'a> {
    /// Its `ValidatingWebhookConfiguration` or `MutatingWebhookConfiguration`.
    pub config: &'a Object,
    pub webhook: &'a Webhook,
    pub service: &'a ServiceRef,
    pub backends: Backends<'a>,
}

/// The webhooks [`Cluster::pod_webhooks`] finds and the EndpointSlices read, each made once.
#[derive(Default)]
pub struct Admission<'a> {
    pod_webhooks: OnceCell<Vec<PodWebhook<'a>>>,
    pod_policies: OnceCell<Vec<PodPolicy<'a>>>,
    eviction_webhooks: OnceCell<Vec<PodWebhook<'a>>>,
    slices: OnceCell<Vec<(&'a Object, &'a EndpointSliceInfo)>>,
}

/// The rule that reports a webhook with no ready endpoint in the snapshot.
pub const WEBHOOK_UNAVAILABLE: &str = "admission/webhook-unavailable";
/// The rule that reports a webhook whose backends are all out in a window of the plan.
pub const WEBHOOK_DOWN_IN_WINDOW: &str = "admission/webhook-down-in-window";

impl PodWebhook<'_> {
    /// The rule that reports its refusals: no ready endpoint now, or none in a window of the plan.
    pub fn code(&self) -> &'static str {
        if self.backends.is_empty() {
            WEBHOOK_UNAVAILABLE
        } else {
            WEBHOOK_DOWN_IN_WINDOW
        }
    }
}

/// The rule that reports a policy binding that refuses every pod creation it matches.
pub const POLICY_MISCONFIGURED: &str = "admission/policy-misconfigured";

/// Why a `ValidatingAdmissionPolicy`'s binding fails on every request it matches (the API server's
/// `CollectParams`), so that its `failurePolicy: Fail` refuses them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PolicyFault {
    /// Its `paramKind` names a kind nothing serves (no CRD read defines it): "paramKind kind ... not known".
    KindNotServed,
    /// `paramRef.namespace` set for a cluster-scoped `paramKind`.
    NamespaceOnClusterScoped,
    /// `parameterNotFoundAction: Deny` and no parameter of the kind matches `paramRef` (in the pod's own
    /// namespace when the kind is namespaced and `paramRef.namespace` is empty): "no params found for
    /// policy binding with `Deny` parameterNotFoundAction".
    ParamNotFound,
}

/// A fail-closed `ValidatingAdmissionPolicy` and one of its `Deny` bindings whose configuration fails, and
/// whose match covers the creation of pods.
#[derive(Debug, Clone)]
pub struct PodPolicy<'a> {
    pub policy: &'a Object,
    pub binding: &'a Object,
    pub spec: &'a AdmissionPolicy,
    pub bind: &'a PolicyBinding,
    pub fault: PolicyFault,
    /// `(apiVersion, kind)` of its parameters.
    pub param_kind: (&'a str, &'a str),
    /// The parameter kind is cluster-scoped.
    pub cluster_scoped: bool,
}

impl PodPolicy<'_> {
    /// What goes wrong, as a sentence.
    pub fn fault_text(&self) -> String {
        let (api, kind) = self.param_kind;
        match self.fault {
            PolicyFault::KindNotServed => {
                format!(
                    "its paramKind {kind} ({api}) is served by nothing read (no CustomResourceDefinition defines it)"
                )
            }
            PolicyFault::NamespaceOnClusterScoped => {
                format!("the binding's paramRef sets a namespace for the cluster-scoped paramKind {kind}")
            }
            PolicyFault::ParamNotFound => {
                let Some(p) = self.bind.param_ref.as_ref() else { return String::new() };
                let which = match &p.name {
                    Some(n) => format!("{kind} {n}"),
                    None => format!("no {kind} matching the binding's selector"),
                };
                let wher = match (&p.namespace, self.cluster_scoped) {
                    (_, true) => String::new(),
                    (Some(ns), false) => format!(" in namespace {ns}"),
                    (None, false) => " in the pod's own namespace".to_owned(),
                };
                format!("its parameter {which}{wher} does not exist and parameterNotFoundAction is Deny")
            }
        }
    }
}

/// Who refuses a pod's creation in the plan's replay: a webhook ([`Cluster::pod_webhooks`]) or a
/// policy binding ([`Cluster::pod_policies`]), numbered in that order.
#[derive(Debug, Clone, Copy)]
pub enum PodGate<'x, 'a> {
    Webhook(&'x PodWebhook<'a>),
    Policy(&'x PodPolicy<'a>),
}

impl PodGate<'_, '_> {
    /// The rule that reports its refusals.
    pub fn code(&self) -> &'static str {
        match self {
            PodGate::Webhook(h) => h.code(),
            PodGate::Policy(_) => POLICY_MISCONFIGURED,
        }
    }

    /// `the webhook w.example.com`, `the ValidatingAdmissionPolicy p (binding b)`.
    pub fn name(&self) -> String {
        match self {
            PodGate::Webhook(h) => format!("the webhook {}", h.webhook.name),
            PodGate::Policy(p) => {
                format!("the ValidatingAdmissionPolicy {} (binding {})", p.policy.r.name, p.binding.r.name)
            }
        }
    }
}

/// The resource key of a rule: `pods`, `pods/*`, `*` or `*/*` cover a pod's creation.
fn covers_pods(resource: &str) -> bool {
    let (res, sub) = resource.split_once('/').unwrap_or((resource, ""));
    (res == "*" || res == "pods") && (sub == "*" || sub.is_empty())
}

/// Does a rule cover `CREATE` of a core `v1` pod's `eviction` subresource (what a drain asks for)? Its
/// resources `pods/eviction`, `pods/*` or `*/*` (a bare `*` or `pods` names no subresource).
pub fn rule_covers_pod_eviction(r: &AdmissionRule) -> bool {
    let any = |v: &[String], x: &str| v.iter().any(|s| s == "*" || s == x);
    let eviction = |resource: &String| {
        resource
            .split_once('/')
            .is_some_and(|(res, sub)| (res == "*" || res == "pods") && (sub == "*" || sub == "eviction"))
    };
    any(&r.operations, "CREATE")
        && any(&r.api_groups, "")
        && any(&r.api_versions, "v1")
        && r.resources.iter().any(eviction)
        && matches!(r.scope.as_str(), "*" | "Namespaced")
}

/// Does a rule cover `CREATE` of a core `v1` pod?
pub fn rule_covers_pod_create(r: &AdmissionRule) -> bool {
    let any = |v: &[String], x: &str| v.iter().any(|s| s == "*" || s == x);
    any(&r.operations, "CREATE")
        && any(&r.api_groups, "")
        && any(&r.api_versions, "v1")
        && r.resources.iter().any(|s| covers_pods(s))
        && matches!(r.scope.as_str(), "*" | "Namespaced")
}

/// An absent or empty selector matches everything (the API server defaults both selectors to `{}`).
fn selects(sel: &LabelSelector, labels: &StringMap) -> bool {
    sel.is_empty() || sel.matches(labels)
}

/// The label every namespace carries (`NamespaceDefaultLabelName`, since 1.21).
const NAMESPACE_NAME_LABEL: &str = "kubernetes.io/metadata.name";

impl<'a> Cluster<'a> {
    /// Does a webhook cover the creation of a pod with these labels in namespace `ns`?
    pub fn webhook_covers_pod(&self, w: &Webhook, ns: &str, labels: &StringMap) -> Covers {
        let rules = if w.rules.iter().any(rule_covers_pod_create) { Covers::Yes } else { Covers::No };
        self.selectors_cover(rules, &w.namespace_selector, &w.object_selector, w.match_conditions, ns, labels)
    }

    /// `rules` (how the request's rules cover it) narrowed by a namespace selector, an object selector
    /// and `matchConditions`, as the API server applies them to webhooks and policies alike.
    fn selectors_cover(
        &self,
        rules: Covers,
        namespace_selector: &LabelSelector,
        object_selector: &LabelSelector,
        match_conditions: usize,
        ns: &str,
        labels: &StringMap,
    ) -> Covers {
        if rules == Covers::No || !selects(object_selector, labels) {
            return Covers::No;
        }
        // Is the namespace's side known (its labels read, or a selector on its name alone)?
        let mut known = true;
        if !namespace_selector.is_empty() {
            let mut ns_labels = match self.lookup("Namespace", "", ns) {
                Some(o) => o.labels.clone(),
                None => {
                    let sel = namespace_selector;
                    known = !(sel.match_labels.iter().any(|(k, _)| k.as_str() != NAMESPACE_NAME_LABEL)
                        || sel.match_expressions.iter().any(|r| r.key != NAMESPACE_NAME_LABEL));
                    StringMap::default()
                }
            };
            ns_labels.insert(NAMESPACE_NAME_LABEL, crate::parse::Str::from(ns));
            if !namespace_selector.matches(&ns_labels) {
                return if known { Covers::No } else { Covers::May };
            }
        }
        // The selectors match; `matchConditions` are evaluated after them, and cannot be offline.
        if known && rules == Covers::Yes && match_conditions == 0 {
            Covers::Yes
        } else {
            Covers::May
        }
    }

    /// Every EndpointSlice read (live), once.
    fn endpoint_slices(&self) -> &[(&'a Object, &'a EndpointSliceInfo)] {
        self.admission.slices.get_or_init(|| {
            self.live_objects()
                .filter_map(|o| match &o.body {
                    Body::EndpointSlice(s) => Some((o, &**s)),
                    _ => None,
                })
                .collect()
        })
    }

    /// The ready backends of a Service now: from its EndpointSlices when the snapshot has EndpointSlices,
    /// else the Ready running pods its selector picks; `None` when neither was read.
    pub fn service_backends(&self, svc: &ServiceRef) -> Option<Backends<'a>> {
        let mut b = Backends::default();
        // A snapshot with EndpointSlices: a Service with none has no endpoints.
        let slices = self.endpoint_slices();
        if !slices.is_empty() {
            for (o, s) in slices {
                if o.r.namespace.as_deref().unwrap_or("default") != svc.namespace
                    || s.service.as_deref() != Some(svc.name.as_str())
                {
                    continue;
                }
                for e in s.endpoints.iter().filter(|e| e.ready) {
                    let pod = e.pod.as_ref().and_then(|(ns, name)| self.lookup("Pod", ns, name));
                    match (pod, &e.node) {
                        (Some(p), _) if !b.pods.iter().any(|q| std::ptr::eq(*q, p)) => b.pods.push(p),
                        (Some(_), _) => {}
                        (None, Some(n)) => b.nodes.push(n.clone()),
                        (None, None) => b.elsewhere += 1,
                    }
                }
            }
            return Some(b);
        }
        let service = self.lookup("Service", &svc.namespace, &svc.name)?;
        let Body::Service(info) = &service.body else { return None };
        let selector = info.selector.as_ref()?;
        for (o, p, _) in self.running_pods() {
            if o.r.namespace.as_deref().unwrap_or("default") == svc.namespace
                && p.ready == Some(true)
                && !p.terminating
                && selector.matches(&o.labels)
            {
                b.pods.push(o);
            }
        }
        Some(b)
    }

    /// Does a webhook cover the eviction of a pod in namespace `ns`? The object the API server matches
    /// the object selector against is the `Eviction`, which carries no labels.
    pub fn webhook_covers_eviction(&self, w: &Webhook, ns: &str) -> Covers {
        let rules = if w.rules.iter().any(rule_covers_pod_eviction) { Covers::Yes } else { Covers::No };
        self.selectors_cover(
            rules,
            &w.namespace_selector,
            &w.object_selector,
            w.match_conditions,
            ns,
            &StringMap::default(),
        )
    }

    /// Every fail-closed webhook backed by a Service whose rules cover the eviction of pods, with its
    /// ready backends now (as [`Cluster::pod_webhooks`]).
    pub fn eviction_webhooks(&self) -> &[PodWebhook<'a>] {
        self.admission.eviction_webhooks.get_or_init(|| self.webhooks_where(rule_covers_pod_eviction))
    }

    /// Every fail-closed webhook backed by a Service whose rules cover pod creation, with its ready
    /// backends now (a webhook whose backends cannot be known from what was read is left out), in the
    /// order read.
    pub fn pod_webhooks(&self) -> &[PodWebhook<'a>] {
        self.admission.pod_webhooks.get_or_init(|| self.webhooks_where(rule_covers_pod_create))
    }

    /// The fail-closed, Service-backed webhooks one of whose rules passes `covers`, with their backends
    /// (those whose backends cannot be known from what was read left out), in the order read.
    fn webhooks_where(&self, covers: fn(&AdmissionRule) -> bool) -> Vec<PodWebhook<'a>> {
        let mut out = Vec::new();
        for config in self.live_objects() {
            let Body::Webhooks(c) = &config.body else { continue };
            for w in &c.webhooks {
                let Some(service) = w.service.as_ref() else { continue };
                if !w.fails_closed || !w.rules.iter().any(covers) {
                    continue;
                }
                let Some(backends) = self.service_backends(service) else { continue };
                out.push(PodWebhook { config, webhook: w, service, backends });
            }
        }
        out
    }
}

/// API groups the API server serves itself: a `paramKind` in one of them is known without a CRD.
fn builtin_group(group: &str) -> bool {
    !group.contains('.') || group.ends_with(".k8s.io")
}

/// How a policy's or binding's match covers a pod's creation: a `resourceRules` entry covers it
/// (one that names `resourceNames`: "may", a controller's pod names are not known in advance), and no
/// `excludeResourceRules` entry does. A binding's `matchResources` without `resourceRules` does not
/// narrow its policy's (`binding`).
fn match_rules_cover(m: &MatchResources, binding: bool) -> Covers {
    let mut best = if binding && m.rules.is_empty() { Covers::Yes } else { Covers::No };
    for (r, names) in &m.rules {
        if rule_covers_pod_create(r) {
            best = best.max(if names.is_empty() { Covers::Yes } else { Covers::May });
        }
    }
    for (r, names) in &m.exclude {
        if rule_covers_pod_create(r) {
            if names.is_empty() {
                return Covers::No;
            }
            best = best.min(Covers::May);
        }
    }
    best
}

impl<'a> Cluster<'a> {
    /// Every `Deny` binding of a fail-closed `ValidatingAdmissionPolicy` whose match covers pod creation
    /// and whose parameters fail ([`PolicyFault`]) for some namespace, as far as what was read can tell
    /// (a CRD group when no CRD was read is not judged; a missing parameter only where its kind was
    /// listed: [`Cluster::param_found`]). In the order read.
    pub fn pod_policies(&self) -> &[PodPolicy<'a>] {
        self.admission.pod_policies.get_or_init(|| {
            let crds = self.crds();
            let mut out = Vec::new();
            for binding in self.live_objects() {
                let Body::PolicyBinding(bind) = &binding.body else { continue };
                let Some(policy) = self.lookup("ValidatingAdmissionPolicy", "", &bind.policy) else { continue };
                let Body::AdmissionPolicy(spec) = &policy.body else { continue };
                let (Some((api, kind)), Some(pref)) = (spec.param_kind.as_ref(), bind.param_ref.as_ref()) else {
                    continue;
                };
                if !bind.denies || !spec.fails_closed || match_rules_cover(&spec.match_constraints, false) == Covers::No
                {
                    continue;
                }
                if bind.match_resources.as_ref().is_some_and(|m| match_rules_cover(m, true) == Covers::No) {
                    continue;
                }
                let group = api.rsplit_once('/').map_or("", |(g, _)| g);
                let crd = crds.iter().find(|c| c.group == group && c.kind == *kind);
                let cluster_scoped =
                    crd.map_or(crate::model::CLUSTER_SCOPED.contains(&kind.as_str()), |c| c.cluster_scoped);
                let fault = if !builtin_group(group) && crd.is_none() {
                    if crds.is_empty() {
                        continue;
                    }
                    PolicyFault::KindNotServed
                } else if cluster_scoped && pref.namespace.is_some() {
                    PolicyFault::NamespaceOnClusterScoped
                } else if pref.not_found_denies {
                    PolicyFault::ParamNotFound
                } else {
                    continue;
                };
                out.push(PodPolicy {
                    policy,
                    binding,
                    spec,
                    bind,
                    fault,
                    param_kind: (api.as_str(), kind.as_str()),
                    cluster_scoped,
                });
            }
            out
        })
    }

    /// Is a parameter of the policy's kind found for a request in namespace `ns`? `None` when what was
    /// read cannot tell: no object of the kind was read in that namespace other than the ones read by
    /// name (the ConfigMaps a check reads, Helm's release records), so the kind was not listed there.
    pub fn param_found(&self, p: &PodPolicy<'_>, ns: &str) -> Option<bool> {
        let pref = p.bind.param_ref.as_ref()?;
        let kind = p.param_kind.1;
        let in_ns = if p.cluster_scoped { "" } else { pref.namespace.as_deref().unwrap_or(ns) };
        let listed = |o: &&Object| {
            o.r.kind == kind
                && o.r.namespace.as_deref().unwrap_or("") == in_ns
                && !matches!(o.body, Body::ConfigData(_))
                && o.labels.get("owner").map(|v| v.as_str()) != Some("helm")
        };
        let found = match &pref.name {
            Some(name) => self.lookup(kind, in_ns, name).is_some(),
            None => {
                self.live_objects().filter(listed).any(|o| pref.selector.is_empty() || pref.selector.matches(&o.labels))
            }
        };
        if found {
            Some(true)
        } else {
            self.live_objects().any(|o| listed(&o)).then_some(false)
        }
    }

    /// Does a failing policy binding refuse the creation of a pod with these labels in namespace `ns`?
    pub fn policy_covers_pod(&self, p: &PodPolicy<'_>, ns: &str, labels: &StringMap) -> Covers {
        if p.fault == PolicyFault::ParamNotFound && self.param_found(p, ns) != Some(false) {
            return Covers::No;
        }
        let c = &p.spec.match_constraints;
        let policy = self.selectors_cover(
            match_rules_cover(c, false),
            &c.namespace_selector,
            &c.object_selector,
            p.spec.match_conditions,
            ns,
            labels,
        );
        let binding = match &p.bind.match_resources {
            Some(m) => self.selectors_cover(
                match_rules_cover(m, true),
                &m.namespace_selector,
                &m.object_selector,
                0,
                ns,
                labels,
            ),
            None => Covers::Yes,
        };
        policy.min(binding)
    }

    /// Gate `k` of the replay: the webhooks first, then the policy bindings.
    pub fn pod_gate(&self, k: usize) -> Option<PodGate<'_, 'a>> {
        let hooks = self.pod_webhooks();
        match hooks.get(k) {
            Some(h) => Some(PodGate::Webhook(h)),
            None => self.pod_policies().get(k - hooks.len()).map(PodGate::Policy),
        }
    }

    /// Does gate `k` cover the creation of a pod with these labels in namespace `ns`?
    pub fn gate_covers_pod(&self, k: usize, ns: &str, labels: &StringMap) -> Covers {
        match self.pod_gate(k) {
            Some(PodGate::Webhook(h)) => self.webhook_covers_pod(h.webhook, ns, labels),
            Some(PodGate::Policy(p)) => self.policy_covers_pod(p, ns, labels),
            None => Covers::No,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(ops: &[&str], groups: &[&str], versions: &[&str], resources: &[&str], scope: &str) -> AdmissionRule {
        let v = |x: &[&str]| x.iter().map(|s| (*s).to_owned()).collect();
        AdmissionRule {
            operations: v(ops),
            api_groups: v(groups),
            api_versions: v(versions),
            resources: v(resources),
            scope: scope.to_owned(),
        }
    }

    /// The cases of apiserver's `predicates/rules/rules_test.go` that concern a pod's creation.
    #[test]
    fn rules_match_as_the_api_server_matches_them() {
        assert!(rule_covers_pod_create(&rule(&["CREATE"], &[""], &["v1"], &["pods"], "*")));
        assert!(rule_covers_pod_create(&rule(&["*"], &["*"], &["*"], &["*/*"], "*")));
        assert!(rule_covers_pod_create(&rule(&["*"], &["*"], &["*"], &["*"], "Namespaced")));
        assert!(rule_covers_pod_create(&rule(&["CREATE"], &[""], &["v1"], &["pods/*"], "*")));
        // A subresource alone, another operation, group, version or scope: not the pod's creation.
        assert!(!rule_covers_pod_create(&rule(&["CREATE"], &[""], &["v1"], &["pods/eviction"], "*")));
        assert!(!rule_covers_pod_create(&rule(&["*"], &[""], &["v1"], &["*/status"], "*")));
        assert!(!rule_covers_pod_create(&rule(&["UPDATE", "DELETE"], &[""], &["v1"], &["pods"], "*")));
        assert!(!rule_covers_pod_create(&rule(&["CREATE"], &["apps"], &["v1"], &["pods"], "*")));
        assert!(!rule_covers_pod_create(&rule(&["CREATE"], &[""], &["v1beta1"], &["pods"], "*")));
        assert!(!rule_covers_pod_create(&rule(&["CREATE"], &[""], &["v1"], &["pods"], "Cluster")));
        assert!(!rule_covers_pod_create(&rule(&["CREATE"], &[""], &["v1"], &["deployments"], "*")));
    }

    /// The same matcher for a drain's request, `CREATE` of `pods/eviction`: a subresource must be named
    /// (`rules_test.go`: `*` and `pods` match no subresource, `*/*` and `pods/*` every one).
    #[test]
    fn eviction_rules_name_the_subresource() {
        assert!(rule_covers_pod_eviction(&rule(&["CREATE"], &[""], &["v1"], &["pods/eviction"], "*")));
        assert!(rule_covers_pod_eviction(&rule(&["*"], &["*"], &["*"], &["*/*"], "*")));
        assert!(rule_covers_pod_eviction(&rule(&["CREATE"], &[""], &["v1"], &["pods/*"], "Namespaced")));
        assert!(rule_covers_pod_eviction(&rule(&["CREATE"], &[""], &["v1"], &["*/eviction"], "*")));
        assert!(!rule_covers_pod_eviction(&rule(&["*"], &["*"], &["*"], &["*"], "*")));
        assert!(!rule_covers_pod_eviction(&rule(&["CREATE"], &[""], &["v1"], &["pods"], "*")));
        assert!(!rule_covers_pod_eviction(&rule(&["CREATE"], &[""], &["v1"], &["pods/status"], "*")));
        assert!(!rule_covers_pod_eviction(&rule(&["UPDATE"], &[""], &["v1"], &["pods/eviction"], "*")));
        assert!(!rule_covers_pod_eviction(&rule(&["CREATE"], &["policy"], &["v1"], &["pods/eviction"], "*")));
    }
}
