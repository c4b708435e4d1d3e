//! `admission/webhook-unavailable`: a fail-closed webhook covering pod creation has no ready endpoint now.

use super::describe;
use crate::report::{Finding, Severity};
use crate::rules::context::name_list;
use crate::rules::{Context, RuleInfo};

pub const INFO: RuleInfo = RuleInfo {
    code: crate::cluster::admission::WEBHOOK_UNAVAILABLE,
    severity: Severity::Blocker,
    title: "A fail-closed admission webhook that covers pod creation has no ready endpoint",
    needs_from: false,
};

/// What the rule checks, why it matters for an upgrade, an example, how to fix, references (Markdown):
/// apart from [`INFO`], so that what lists the rules links no docs.
pub const DOCS: &str = r#"## What it checks
Every webhook of a `ValidatingWebhookConfiguration` or `MutatingWebhookConfiguration` with
`failurePolicy: Fail` (the default of `admissionregistration.k8s.io/v1`) that calls a Service in the
cluster and whose rules cover the creation of pods (`CREATE` on `pods`, `pods/*`, `*` or `*/*` in the core
group, version `v1` or `*`, scope `*` or `Namespaced`), when no ready endpoint stands behind that Service
now: its EndpointSlices (`kubernetes.io/service-name`) hold no endpoint whose `conditions.ready` is true or
absent, or, when no EndpointSlice was read at all, no Ready running pod matches the Service's selector.
A webhook whose Service, EndpointSlices and pods were not read is not judged (the report's coverage says
so); a URL webhook (outside the cluster) is not judged.

A webhook whose rules cover the drain's own request, `CREATE` of `pods/eviction` (`pods/eviction`,
`pods/*`, `*/*`; a bare `*` names no subresource), is judged the same way against the namespaces of the pods
a drain evicts (its object selector sees the `Eviction`, which has no labels): with no ready endpoint every
eviction fails, `kubectl drain` stops on the error (only a 429 is retried), and the plan stops on the first
node whose drain asks for one (the Machine Config Operator retries for ever).

A blocker when the plan's drains evict pods whose re-creation it covers (the replay refuses them, and the
downtime counts them as gone); a warning when it covers no pod the plan moves, or covers them only maybe
(its `matchConditions`, or a namespace selector on labels of a Namespace that was not read).

## Why it matters for an upgrade
The API server calls the webhook for every pod a controller creates in its scope. With no endpoint, the call
fails ("no endpoints available for service") and `failurePolicy: Fail` refuses the pod: every replacement a
drain asks for is refused, the workloads shrink node by node, and PodDisruptionBudgets then stall the next
drains. If the webhook's own pods are in its scope, they cannot come back either.

## Example
`ValidatingWebhookConfiguration/policy-guard`, webhook `pods.policy.example.com` (service
`policy/guard`) has an EndpointSlice with one endpoint, `ready: false`: blocker, naming the pods the plan's
drains evict that it would refuse.

## How to fix
Bring the webhook's backend up (`kubectl -n <ns> get endpointslices -l kubernetes.io/service-name=<svc>`),
or set `failurePolicy: Ignore`, or narrow its scope (a `namespaceSelector` that excludes `kube-system` and
its own namespace, an `objectSelector`), or delete a webhook configuration left behind by an uninstalled
tool.

## References
- Dynamic admission control, failure policy and matching requests: <https://kubernetes.io/docs/reference/access-authn-authz/extensible-admission-controllers/>
- kubernetes `staging/src/k8s.io/apiserver/pkg/admission/plugin/webhook/predicates/rules/rules.go` (and its `rules_test.go`), `.../predicates/namespace/matcher.go`
- EndpointSlice conditions: <https://kubernetes.io/docs/concepts/services-networking/endpoint-slices/#conditions>
"#;

pub fn check(ctx: &Context<'_>, out: &mut Vec<Finding>) {
    for (k, h) in ctx.pod_webhooks().iter().enumerate() {
        if h.code() != INFO.code {
            continue;
        }
        let (severity, effect, refused, may) =
            super::refusal_effect(ctx, k, "its matchConditions or namespace labels", "and they never come back");
        out.push(
            Finding::new(
                &INFO,
                format!("{} has no ready endpoint: {effect}", describe(h)),
                "Bring its backend up, set failurePolicy: Ignore, narrow its namespaceSelector or objectSelector, or delete the configuration if its tool is gone.",
            )
            .severity(severity)
            .object(h.config)
            .data("webhook", h.webhook.name.clone())
            .data("service", format!("{}/{}", h.service.namespace, h.service.name))
            .data("refused", refused)
            .data("mayRefuse", may),
        );
    }
    // The webhooks on a drain's own request: the eviction.
    for h in ctx.eviction_webhooks().iter().filter(|h| h.backends.is_empty()) {
        let mut nodes: Vec<String> = Vec::new();
        if ctx.drain_honours_pdbs() {
            for (i, n) in ctx.nodes.iter().enumerate() {
                let covered = ctx.evicted_by_drain(i).iter().any(|(o, _)| {
                    ctx.webhook_covers_eviction(h.webhook, o.r.namespace.as_deref().unwrap_or("default"))
                        == crate::cluster::admission::Covers::Yes
                });
                if covered {
                    nodes.push(n.name().to_owned());
                }
            }
        }
        let (severity, effect) = if nodes.is_empty() {
            (Severity::Warning, "it refuses every eviction in its scope now".to_owned())
        } else {
            let who = ctx.drain_flags().map_or("the drain", |f| f.who);
            (
                Severity::Blocker,
                format!(
                    "{who} asks for evictions it refuses, so the drain of {} fails on its first one (the plan stops there)",
                    name_list(&nodes, 5)
                ),
            )
        };
        out.push(
            Finding::new(
                &INFO,
                format!("{} covers pods/eviction and has no ready endpoint: {effect}", describe(h)),
                "Bring its backend up, set failurePolicy: Ignore, narrow its namespaceSelector, or delete the configuration if its tool is gone.",
            )
            .severity(severity)
            .object(h.config)
            .data("webhook", h.webhook.name.clone())
            .data("service", format!("{}/{}", h.service.namespace, h.service.name))
            .data("eviction", true)
            .data("nodes", nodes),
        );
    }
}
