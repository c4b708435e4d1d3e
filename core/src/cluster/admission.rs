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

use crate::model::admission::{AdmissionRule, EndpointSliceInfo, ServiceRef, Webhook};
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

/// The resource key of a rule: `pods`, `pods/*`, `*` or `*/*` cover a pod's creation.
fn covers_pods(resource: &str) -> bool {
    let (res, sub) = resource.split_once('/').unwrap_or((resource, ""));
    (res == "*" || res == "pods") && (sub == "*" || sub.is_empty())
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
        if !w.rules.iter().any(rule_covers_pod_create) || !selects(&w.object_selector, labels) {
            return Covers::No;
        }
        let mut sure = w.match_conditions == 0;
        if !w.namespace_selector.is_empty() {
            let mut ns_labels = match self.lookup("Namespace", "", ns) {
                Some(o) => o.labels.clone(),
                None => {
                    // Only the name label is known: sure when the selector reads no other key.
                    let sel = &w.namespace_selector;
                    let other = sel.match_labels.iter().any(|(k, _)| k.as_str() != NAMESPACE_NAME_LABEL)
                        || sel.match_expressions.iter().any(|r| r.key != NAMESPACE_NAME_LABEL);
                    sure &= !other;
                    StringMap::default()
                }
            };
            ns_labels.insert(NAMESPACE_NAME_LABEL, crate::parse::Str::from(ns));
            if !w.namespace_selector.matches(&ns_labels) {
                return if sure { Covers::No } else { Covers::May };
            }
        }
        if sure {
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

    /// Every fail-closed webhook backed by a Service whose rules cover pod creation, with its ready
    /// backends now (a webhook whose backends cannot be known from what was read is left out), in the
    /// order read.
    pub fn pod_webhooks(&self) -> &[PodWebhook<'a>] {
        self.admission.pod_webhooks.get_or_init(|| {
            let mut out = Vec::new();
            for config in self.live_objects() {
                let Body::Webhooks(c) = &config.body else { continue };
                for w in &c.webhooks {
                    let Some(service) = w.service.as_ref() else { continue };
                    if !w.fails_closed || !w.rules.iter().any(rule_covers_pod_create) {
                        continue;
                    }
                    let Some(backends) = self.service_backends(service) else { continue };
                    out.push(PodWebhook { config, webhook: w, service, backends });
                }
            }
            out
        })
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
}
