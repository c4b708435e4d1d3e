//! `tolerations/missing-eviction-toleration`: a pod has no not-ready/unreachable `NoExecute` toleration.

use crate::report::{Finding, Severity};
use crate::rules::context::name_list;
use crate::rules::{Context, RuleInfo};

pub const INFO: RuleInfo = RuleInfo {
    code: "tolerations/missing-eviction-toleration",
    severity: Severity::Warning,
    title: "Pods a node blink would evict at once (no not-ready/unreachable toleration)",
    needs_from: false,
};

/// What the rule checks, why it matters for an upgrade, an example, how to fix, references (Markdown):
/// apart from [`INFO`], so that what lists the rules links no docs.
pub const DOCS: &str = r#"## What it checks
Every running pod must tolerate both `node.kubernetes.io/not-ready:NoExecute` and
`node.kubernetes.io/unreachable:NoExecute`, for a reasonable time (the `DefaultTolerationSeconds`
admission plugin gives 300 s). Pods with either toleration missing, or with `tolerationSeconds` under
60, are reported per workload, with the pods and their nodes. The finding is a blocker when the upgrade
path crosses 1.13, where TaintBasedEvictions turns on.

## Why it matters for an upgrade
With taint-based evictions the node controller taints a node that goes NotReady, which a kubelet
restart during an in-place upgrade does, and evicts every pod that does not tolerate the taint at once.
Pods created before the admission plugin was on, or with the plugin disabled, have no tolerations: the
1,000-node upgrade in the seed report lost such pods on every node blink.

## Example
A Deployment's pods carry only `tolerations: [{key: dedicated, operator: Exists}]`: warning, listing the
pods and nodes. From 1.12 to 1.14: blocker.

## How to fix
Touch each old pod (add a label, or roll the workload with `kubectl rollout restart`) so the admission
plugin adds the default 300 s tolerations, or add both tolerations to the pod template explicitly.

## References
- Taint based evictions: <https://kubernetes.io/docs/concepts/scheduling-eviction/taint-and-toleration/#taint-based-evictions>
- DefaultTolerationSeconds admission plugin: <https://kubernetes.io/docs/reference/access-authn-authz/admission-controllers/#defaulttolerationseconds>
"#;

/// Shorter than this is as good as none: the node is NotReady for longer during an upgrade.
pub const MIN_TOLERATION_SECONDS: i64 = 60;

pub fn check(ctx: &Context<'_>, out: &mut Vec<Finding>) {
    let crosses_1_13 = ctx.from.as_ref().is_some_and(|f| f.minor < 13) && ctx.to.minor >= 13;
    let mut lacking = Vec::new();
    for (o, p, node) in ctx.running_pods() {
        if crate::cluster::is_mirror(o) {
            continue;
        }
        let missing: Vec<&str> = ["node.kubernetes.io/not-ready", "node.kubernetes.io/unreachable"]
            .into_iter()
            .filter(|key| {
                !p.spec.tolerations.iter().any(|t| {
                    t.tolerates_parts(key, "", "NoExecute")
                        && t.toleration_seconds.is_none_or(|s| s >= MIN_TOLERATION_SECONDS)
                })
            })
            .collect();
        if !missing.is_empty() {
            lacking.push((o, (node, missing)));
        }
    }
    for (key, pods) in ctx.group_by_controller(lacking) {
        let Some((first, (_, missing))) = pods.first() else {
            continue;
        };
        let names: Vec<String> = pods.iter().map(|(o, (node, _))| format!("{} on {node}", o.r.name)).collect();
        let subject =
            key.as_ref().map_or_else(|| format!("Pod {}", crate::model::display_ref(&first.r)), |k| k.display());
        let object = key.as_ref().and_then(|k| ctx.workload_object(k)).unwrap_or(first);
        let f = Finding::new(
            &INFO,
            format!(
                "{subject}: {} pod(s) do not tolerate {} NoExecute for at least {MIN_TOLERATION_SECONDS}s ({}): a node going NotReady during the upgrade evicts them at once",
                pods.len(),
                missing.join(" / "),
                name_list(&names, 5)
            ),
            "Restart the workload (`kubectl rollout restart`) so the DefaultTolerationSeconds admission plugin adds the 300 s tolerations, or add them to the pod template.",
        )
        .object(object)
        .data("pods", pods.len())
        .data("missing", missing.clone());
        out.push(if crosses_1_13 { f.severity(Severity::Blocker) } else { f });
    }
}
