//! `input/duplicate-object`: the same object was read from more than one place, and the copies differ.

use crate::model::display_ref;
use crate::report::{Finding, Severity};
use crate::rules::{Context, RuleInfo};

pub const INFO: RuleInfo = RuleInfo {
    code: "input/duplicate-object",
    severity: Severity::Warning,
    title: "The same object is read from several inputs that say different things",
    needs_from: false,
};

/// What the rule checks, why it matters for an upgrade, an example, how to fix, references (Markdown):
/// apart from [`INFO`], so that what lists the rules links no docs.
pub const DOCS: &str = r#"## What it checks
Objects read more than once (the same kind, namespace and name, or the same `metadata.uid`), for
example a snapshot given twice, or a manifest from Git beside the live object. Every object is counted
and checked once: the live copy (the one with a `uid`) when there is one, else the first by file name
and line, whatever order the inputs come in. Every copy is listed in `inventory.duplicates`; this rule reports the objects whose copies differ. The
apiVersion each differing copy was written in is still checked by `api/removed` and `api/deprecated`.

## Why it matters for an upgrade
Counted twice, the same pods would double a budget's healthy count, a node's load and a workload's
replicas, and the verdict would be wrong. Copies that differ also mean the source and the cluster have
drifted: what will be applied next is not what runs now.

## Example
`Deployment shop/web` in `live.yaml` (3 replicas) and in `manifests/web.yaml` (2 replicas): warning,
the checks use the live copy.

## How to fix
Give each object once, or bring the manifest in line with the cluster (or the cluster with the manifest)
before the upgrade.

## References
- kube-no-trouble's and pluto's input handling: one object, several sources
"#;

pub fn check(ctx: &Context<'_>, out: &mut Vec<Finding>) {
    for o in ctx.live_objects() {
        if !o.copies.iter().any(|c| c.differs) {
            continue;
        }
        let others: Vec<String> = o.copies.iter().map(|c| c.source.location()).collect();
        out.push(
            Finding::new(
                &INFO,
                format!(
                    "{} is read from {} places that differ ({} and {}): the checks use the copy from {}{}",
                    display_ref(&o.r),
                    o.copies.len() + 1,
                    o.source.location(),
                    others.join(", "),
                    o.source.location(),
                    if o.uid.is_some() { " (the live object)" } else { " (the first by file and line)" }
                ),
                "Give each object once, or bring the manifest and the cluster in line before the upgrade.",
            )
            .object(o)
            .data("copies", others),
        );
    }
}
