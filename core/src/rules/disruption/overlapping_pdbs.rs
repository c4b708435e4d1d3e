//! `disruption/overlapping-pdbs`: a pod covered by more than one PodDisruptionBudget cannot be evicted.

use std::collections::BTreeMap;

use crate::parse::FastMap;

use crate::cluster::declared;
use crate::cluster::eviction::Eviction;
use crate::model::{display_ref, Object};
use crate::report::{Finding, Severity};
use crate::rules::{Context, RuleInfo};

pub const INFO: RuleInfo = RuleInfo {
    code: "disruption/overlapping-pdbs",
    severity: Severity::Blocker,
    title: "Pods under more than one PodDisruptionBudget cannot be evicted: every drain of their node fails",
    needs_from: false,
};

/// What the rule checks, why it matters for an upgrade, an example, how to fix, references (Markdown):
/// apart from [`INFO`], so that what lists the rules links no docs.
pub const DOCS: &str = r#"## What it checks
Running pods whose labels match the selectors of two or more PodDisruptionBudgets of their namespace
(budgets with an empty selector match nothing, as the eviction API reads them). Pending and finished
pods are left out: the eviction API deletes them without looking at budgets. Blocker when the profile
drains through the Eviction API (kubeadm's `kubectl drain`, kOps, OpenShift, RKE with `drain: true`);
warning where it does not wait on budgets or does not drain. One finding per controller (or pod with no
controller) and set of budgets; it names at most 10 budgets, pods and nodes, and gives the whole counts
(`budgetCount`, `podCount`, `nodeCount`) when there are more. With no pod among the inputs (a run of
manifests), the same is judged on the pod templates of the Deployments, StatefulSets, ReplicaSets and
ReplicationControllers: two budgets of their namespace that select one template's labels will hold every
pod of it (`data.fromManifests`).

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
"#;

/// How many budgets, pods and nodes a finding names (each count is given whole): a pod under 1,500
/// budgets is one finding of a few hundred bytes, not one that lists them all.
pub const LISTED: usize = 10;

/// The pods of one controller under the same budgets: their names, their nodes, the first pod.
struct Group<'a> {
    pods: Vec<&'a str>,
    pod_count: usize,
    nodes: Vec<&'a str>,
    first: &'a Object,
}

/// The first `LISTED` of `names` joined with ", ", and how many more there are, in words.
fn some_of(names: &[String], total: usize) -> String {
    let shown = names.iter().take(LISTED).cloned().collect::<Vec<_>>().join(", ");
    if total > LISTED {
        format!("{shown} and {} more", total - LISTED)
    } else {
        shown
    }
}

pub fn check(ctx: &Context<'_>, out: &mut Vec<Finding>) {
    // One finding per set of budgets and controller: (controller or pod, budgets' names) -> its pods. The
    // budgets are of the pod's namespace, so their names say which they are.
    // A set of budgets is numbered where it is first met (the budgets' addresses only find it again; pods
    // come in a fixed order), and its names are sorted once: a pod under 100,000 budgets is not a key of
    // 100,000 names compared at every insertion.
    // The pods of one labelling share their list of budgets: each list is looked at once (`by_list`, by its
    // address), not once per pod.
    let mut sets: FastMap<Vec<usize>, usize> = FastMap::default();
    // Each list kept with its set (alive while its address is a key: a list found anew for a pod is no one
    // else's), as `Cluster::budget_pods` keeps its lists.
    let mut by_list: FastMap<*const usize, (std::rc::Rc<[usize]>, usize)> = FastMap::default();
    let mut set_names: Vec<Vec<&str>> = Vec::new();
    let mut groups: BTreeMap<(String, usize), Group<'_>> = BTreeMap::new();
    let budgets = ctx.budgets();
    for (p, info, node) in ctx.running_pods() {
        let Eviction::MoreThanOneBudget(pdbs) = ctx.eviction(p, info) else { continue };
        let (_, set) = *by_list.entry(pdbs.as_ptr()).or_insert_with(|| {
            let set = *sets.entry(pdbs.to_vec()).or_insert_with(|| {
                let mut names: Vec<&str> =
                    pdbs.iter().filter_map(|&i| budgets.get(i)).map(|(o, _)| o.r.name.as_str()).collect();
                crate::sort::sort(&mut names);
                set_names.push(names);
                set_names.len() - 1
            });
            (std::rc::Rc::clone(&pdbs), set)
        });
        let subject = ctx.controller_of(p).map_or_else(|| display_ref(&p.r), |k| k.display());
        let g = groups.entry((subject, set)).or_insert(Group {
            pods: Vec::new(),
            pod_count: 0,
            nodes: Vec::new(),
            first: p,
        });
        g.pod_count += 1;
        if g.pods.len() < LISTED {
            g.pods.push(p.r.name.as_str());
        }
        if !g.nodes.contains(&node) {
            g.nodes.push(node);
        }
    }
    let honours = ctx.drain_honours_pdbs();
    for ((subject, set), Group { pods, pod_count, nodes, first }) in groups {
        let Some(names) = set_names.get(set) else { continue };
        let namespace = first.r.namespace.as_deref().unwrap_or_default();
        let pdbs: Vec<String> =
            names.iter().take(LISTED).map(|n| format!("PodDisruptionBudget {namespace}/{n}")).collect();
        let budgets = if names.len() <= 2 { pdbs.join(" and ") } else { some_of(&pdbs, names.len()) };
        let node_names: Vec<String> = nodes.iter().map(|n| (*n).to_owned()).collect();
        let mut f = Finding::new(
            &INFO,
            format!(
                "{subject}: {pod_count} pod(s) are covered by {budgets}: the eviction API refuses them (HTTP 500), so the drain of {} fails",
                some_of(&node_names, node_names.len())
            ),
            "Make the budgets' selectors disjoint, so that each pod is under one PodDisruptionBudget at most.",
        )
        .object(first)
        .data("budgets", pdbs)
        .data("pods", pods.iter().map(|p| (*p).to_owned()).collect::<Vec<_>>())
        .data("nodes", node_names.iter().take(LISTED).cloned().collect::<Vec<_>>());
        // The whole counts, when a list above is cut short.
        if names.len() > LISTED {
            f = f.data("budgetCount", names.len());
        }
        if pod_count > LISTED {
            f = f.data("podCount", pod_count);
        }
        if node_names.len() > LISTED {
            f = f.data("nodeCount", node_names.len());
        }
        out.push(if honours { f } else { f.severity(Severity::Warning) });
    }
    // Manifests alone: the pods each workload's template will make, under the budgets that select it.
    if !declared::no_pods(ctx) {
        return;
    }
    // Each workload with the budgets that select its pod template (the findings are sorted afterwards).
    let mut over: Vec<(&Object, Vec<&Object>)> = Vec::new();
    let mut at: FastMap<*const Object, usize> = FastMap::default();
    for (budget, _, workloads) in declared::selections(ctx) {
        for d in workloads {
            let i = *at.entry(core::ptr::from_ref(d.obj)).or_insert_with(|| {
                over.push((d.obj, Vec::new()));
                over.len() - 1
            });
            if let Some((_, budgets)) = over.get_mut(i) {
                budgets.push(budget);
            }
        }
    }
    for (w, budgets) in over.into_iter().filter(|(_, b)| b.len() >= 2) {
        let namespace = w.r.namespace.as_deref().unwrap_or("default");
        let mut names: Vec<&str> = budgets.iter().map(|b| b.r.name.as_str()).collect();
        crate::sort::sort(&mut names);
        let pdbs: Vec<String> =
            names.iter().take(LISTED).map(|n| format!("PodDisruptionBudget {namespace}/{n}")).collect();
        let listed = if names.len() <= 2 { pdbs.join(" and ") } else { some_of(&pdbs, names.len()) };
        let mut f = Finding::new(
            &INFO,
            format!(
                "{}: its pod template is selected by {listed}: once its pods run, the eviction API refuses them (HTTP 500), so the drain of every node running one fails",
                display_ref(&w.r)
            ),
            "Make the budgets' selectors disjoint, so that each pod is under one PodDisruptionBudget at most.",
        )
        .object(w)
        .data("budgets", pdbs)
        .data("fromManifests", true);
        if names.len() > LISTED {
            f = f.data("budgetCount", names.len());
        }
        out.push(if honours { f } else { f.severity(Severity::Warning) });
    }
}
