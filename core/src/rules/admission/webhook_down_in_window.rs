//! `admission/webhook-down-in-window`: in a window of the plan, every ready backend of a fail-closed webhook
//! is out, and the pods re-created then are refused.

use super::describe;
use crate::report::{Finding, Severity};
use crate::rules::context::name_list;
use crate::rules::{Context, RuleInfo};
use crate::units::duration;

pub const INFO: RuleInfo = RuleInfo {
    code: crate::cluster::admission::WEBHOOK_DOWN_IN_WINDOW,
    severity: Severity::Blocker,
    title: "A fail-closed admission webhook loses every backend in a window of the plan and refuses the pods re-created then",
    needs_from: false,
};

/// What the rule checks, why it matters for an upgrade, an example, how to fix, references (Markdown):
/// apart from [`INFO`], so that what lists the rules links no docs.
pub const DOCS: &str = r#"## What it checks
The webhooks of `admission/webhook-unavailable` (fail-closed, calling a Service in the cluster, covering
pod creation) that have ready backends now. The plan's windows are replayed (the same replay that places
every evicted pod): when a drain evicts a webhook's last running backend, the webhook has no endpoint until
a backend is placed again, and every pod re-created meanwhile in its scope is refused, its own backends
included. A refusal that ends at once (the backend evicted with the pod is placed again in the same moment,
and the controller's retry creates the pod) is no finding. The finding names the webhook, the window (hop,
phase, the drained node, when) and each pod refused, with how long or "never".

The self-deadlock: a webhook whose every backend stands on one node (or on nodes drained together) and whose
scope covers its own pods. Its backends are evicted, their replacements are refused because the webhook has
no endpoint, so it never comes back, and from then on it refuses every pod in its scope. The replay finds it
from the plan (which nodes are out when), not from a name.

A blocker when a pod is refused for good or while the plan goes on; the pods the webhook only may cover
(its `matchConditions`, a namespace selector on labels of a Namespace that was not read) give a warning.

## Why it matters for an upgrade
Replacements that cannot be created leave Deployments and StatefulSets short while the drains go on, the
budgets over them then allow no eviction, and the next drains stall; a deadlocked webhook needs a manual
fix (deleting its configuration) mid-upgrade, often in `kube-system` where the CNI and DNS pods are refused
too.

## Example
`gatekeeper-validating-webhook-configuration` with `failurePolicy: Fail` and one `gatekeeper-controller`
replica on `w-02`, its scope every namespace: draining `w-02` evicts it, its replacement is refused:
blocker, "refused for good", with the pods re-created after it.

## How to fix
Run at least two replicas of the webhook's backend on different nodes (a `podAntiAffinity` or a topology
spread constraint) with a PodDisruptionBudget, exclude its own namespace and `kube-system` from its scope
(`namespaceSelector`), or set `failurePolicy: Ignore` for the upgrade.

## References
- Dynamic admission control, avoiding deadlocks in self-hosted webhooks: <https://kubernetes.io/docs/reference/access-authn-authz/extensible-admission-controllers/#avoiding-deadlocks-in-self-hosted-webhooks>
- kubernetes `staging/src/k8s.io/apiserver/pkg/admission/plugin/webhook/predicates/rules/rules_test.go`
- Gatekeeper, failure policy: <https://open-policy-agent.github.io/gatekeeper/website/docs/failing-closed/>
"#;

pub fn check(ctx: &Context<'_>, out: &mut Vec<Finding>) {
    let hooks = ctx.pod_webhooks();
    // By webhook, then by the window of its first refusal.
    let mut mine: Vec<&crate::plan::placement::Refusal> =
        ctx.refused().iter().filter(|r| hooks.get(r.webhook).is_some_and(|h| h.code() == INFO.code)).collect();
    // Stably: each webhook's refusals in the order they came.
    crate::sort::sort_by_key(&mut mine, |r| r.webhook);
    for all in mine.chunk_by(|a, b| a.webhook == b.webhook) {
        let Some(k) = all.first().map(|r| r.webhook) else { continue };
        // A pod refused again after a later eviction is listed once: when first refused, and how it ended
        // the last time.
        let mut refusals: Vec<crate::plan::placement::Refusal> = Vec::new();
        for &r in all {
            match refusals.iter_mut().find(|x| x.pod == r.pod) {
                Some(x) => x.until = r.until,
                None => refusals.push(r.clone()),
            }
        }
        let (Some(h), Some(first)) = (hooks.get(k), refusals.first()) else { continue };
        let Some(w) = ctx.windows().get(first.window) else { continue };
        let Some(node) = ctx.nodes.get(w.node) else { continue };
        let sure: Vec<_> = refusals.iter().filter(|r| !r.may).collect();
        let own = sure.iter().any(|r| r.own && r.until.is_none());
        let shown: Vec<String> = refusals
            .iter()
            .map(|r| {
                let how = match r.until {
                    None => "for good".to_owned(),
                    Some(t) => format!("for {}", duration(t.saturating_sub(r.at))),
                };
                format!("{} ({}{how})", r.pod, if r.may { "maybe " } else { "" })
            })
            .collect();
        let pods: Vec<serde_json::Value> = refusals
            .iter()
            .map(|r| {
                serde_json::json!({
                    "pod": r.pod,
                    "atSeconds": r.at,
                    "untilSeconds": r.until,
                    "own": r.own,
                    "may": r.may,
                })
            })
            .collect();
        let message = format!(
            "{}: hop {}, {}: draining {} at {} leaves it no running backend, and the pods re-created then {}{}: {}",
            describe(h),
            w.hop,
            w.phase,
            node.name(),
            duration(first.at),
            if sure.is_empty() {
                "may be refused (its matchConditions or namespace labels decide)"
            } else {
                "are refused"
            },
            if own { " (its own backends too: it never comes back)" } else { "" },
            name_list(&shown, 5)
        );
        out.push(
            Finding::new(
                &INFO,
                message,
                "Run two or more replicas of its backend on different nodes with a PodDisruptionBudget, exclude its own namespace and kube-system from its scope, or set failurePolicy: Ignore for the upgrade.",
            )
            .severity(if sure.is_empty() { Severity::Warning } else { Severity::Blocker })
            .object(h.config)
            .hop(w.hop.clone())
            .data("webhook", h.webhook.name.clone())
            .data("service", format!("{}/{}", h.service.namespace, h.service.name))
            .data("node", node.name().to_owned())
            .data("phase", w.phase)
            .data("atSeconds", first.at)
            .data("selfDeadlock", own)
            .data("refused", pods),
        );
    }
}
