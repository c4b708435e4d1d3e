//! `disruption/overlapping-pdbs`: a pod covered by more than one PodDisruptionBudget cannot be evicted.

use std::collections::BTreeMap;

use crate::cluster::eviction::Eviction;
use crate::model::{display_ref, Object};
use crate::report::{Finding, Severity};
use crate::rules::{Context, RuleInfo};

pub const INFO: RuleInfo = RuleInfo {
    code: "disruption/overlapping-pdbs",
    severity: Severity::Blocker,
    title: "Pods under more than one PodDisruptionBudget cannot be evicted: every drain of their node fails",
    needs_from: false,
    docs: r#"## What it checks
Running pods whose labels match the selectors of two or more PodDisruptionBudgets of their namespace
(budgets with an empty selector match nothing, as the eviction API reads them). Pending and finished
pods are left out: the eviction API deletes them without looking at budgets. Blocker when the profile
drains through the Eviction API (kubeadm's `kubectl drain`, kOps, OpenShift, RKE with `drain: true`);
warning where it does not wait on budgets or does not drain.

## Why it matters for an upgrade
The eviction subresource refuses such a pod with HTTP 500: "This pod has more than one
PodDisruptionBudget, which the eviction subresource does not support." `kubectl drain` (and every
distribution built on its drain helper) treats that as an error, not as a budget to wait on: the
drain of that node fails at once, whatever the budgets allow. kOps fails the rolling update, RKE fails
the host, the Machine Config Operator retries for ever.

## Example
`PodDisruptionBudget shop/web` selects `app: web` and `PodDisruptionBudget shop/all` selects
`tier: frontend`; the pods of `Deployment shop/web` carry both labels: blocker, even though each budget
allows a disruption.

## How to fix
Make the budgets' selectors disjoint: one budget per set of pods (delete the broader one, or narrow its
selector).

## References
- kubernetes `pkg/registry/core/pod/storage/eviction.go` (the 500 for more than one budget)
- kubectl `staging/src/k8s.io/kubectl/pkg/drain/drain.go` (an eviction error other than 429 fails the drain)
- Pod disruption budgets: <https://kubernetes.io/docs/concepts/workloads/pods/disruptions/#pod-disruption-budgets>
"#,
};

/// The pods of one controller under the same budgets: their names, their nodes, the first pod.
struct Group<'a> {
    pods: Vec<String>,
    nodes: Vec<String>,
    first: &'a Object,
}

pub fn check(ctx: &Context<'_>, out: &mut Vec<Finding>) {
    // One finding per set of budgets and controller: (budgets, controller or pod) -> its pods.
    let mut groups: BTreeMap<(Vec<String>, String), Group<'_>> = BTreeMap::new();
    for (p, info, node) in ctx.running_pods() {
        let Eviction::MoreThanOneBudget(pdbs) = ctx.eviction(p, info) else { continue };
        let mut names: Vec<String> = pdbs.iter().map(|o| display_ref(&o.r)).collect();
        names.sort();
        let subject = ctx.controller_of(p).map_or_else(|| format!("Pod {}", display_ref(&p.r)), |k| k.display());
        let g = groups.entry((names, subject)).or_insert(Group { pods: Vec::new(), nodes: Vec::new(), first: p });
        g.pods.push(p.r.name.to_string());
        if !g.nodes.iter().any(|n| n == node) {
            g.nodes.push(node.to_owned());
        }
    }
    let honours = ctx.drain_honours_pdbs();
    for ((pdbs, subject), Group { pods, nodes, first }) in groups {
        let f = Finding::new(
            &INFO,
            format!(
                "{subject}: {} pod(s) are covered by {}: the eviction API refuses them (HTTP 500), so the drain of {} fails",
                pods.len(),
                pdbs.join(" and "),
                nodes.join(", ")
            ),
            "Make the budgets' selectors disjoint, so that each pod is under one PodDisruptionBudget at most.",
        )
        .object(first)
        .data("budgets", pdbs)
        .data("pods", pods)
        .data("nodes", nodes);
        out.push(if honours { f } else { f.severity(Severity::Warning) });
    }
}
