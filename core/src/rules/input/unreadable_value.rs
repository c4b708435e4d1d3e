//! `input/unreadable-value`: a value a check depends on does not parse.

use crate::report::{Finding, Severity};
use crate::rules::context::display_ref;
use crate::rules::{Context, RuleInfo};

pub const INFO: RuleInfo = RuleInfo {
    code: "input/unreadable-value",
    severity: Severity::Warning,
    title: "A value the checks depend on could not be read",
    needs_from: false,
};

/// What the rule checks, why it matters for an upgrade, an example, how to fix, references (Markdown):
/// apart from [`INFO`], so that what lists the rules links no docs.
pub const DOCS: &str = r#"## What it checks
Fields the checks read that are present but do not parse: a node's `kubeletVersion` (`v1.x`), its
allocatable CPU or memory, a container's CPU or memory request (`lots`), a PodDisruptionBudget's
`minAvailable`/`maxUnavailable`, an instance group's or machine config pool's limits (`150%`, `ten`).
The object is still counted and checked with what could be read; this says what could not.

## Why it matters for an upgrade
Under `rke` and `rke-legacy`, a `cluster.yml` value RKE's reader refuses (`drain: "true"` quoted, a
string where a boolean goes; `timeout: "60"`) is a blocker: RKE does not read the file at all, and
`rke up` stops before the upgrade starts.

A value that cannot be read is a check that cannot run for that object: a node with an unreadable kubelet
version is left out of the skew checks, unreadable requests count as zero in the capacity check, an
unreadable budget allows nothing. Silence would read as "ready". Under `openshift`, a MachineConfigPool
`maxUnavailable` the Machine Config Operator refuses (`"60"` without `%`, `"40 %"`, `"50 percent"`: it takes
a number, or digits followed by `%`) is a blocker: the MCO never updates that pool, and the plan stops
there.

## Example
`status.nodeInfo.kubeletVersion: v1.x` on node `edge-3`: warning, the skew checks skipped `edge-3`.

## How to fix
Fix the value at its source (a hand-edited snapshot, a templating bug in the chart, a typo in the manifest)
and check again.

## References
- Resource quantities: <https://kubernetes.io/docs/reference/kubernetes-api/common-definitions/quantity/>
- Version skew policy: <https://kubernetes.io/releases/version-skew-policy/>
"#;

pub fn check(ctx: &Context<'_>, out: &mut Vec<Finding>) {
    for o in ctx.objects.iter().filter(|o| !o.problems.is_empty()) {
        // A machine config pool whose maxUnavailable the MCO refuses is never updated: the upgrade of its
        // nodes does not complete (and the plan stops there).
        let stops = ctx.profile() == crate::options::Profile::Openshift
            && matches!(&o.body, crate::model::Body::Mcp(m) if m.max_unavailable_refused.is_some());
        let f = Finding::new(
                &INFO,
                format!("{}: {}", display_ref(&o.r), o.problems.join("; ")),
                "Fix the value at its source (snapshot, chart template, manifest) and check again: the checks that need it skipped or under-counted this object.",
            )
        .object(o)
        .data("fields", o.problems.clone());
        out.push(if stops { f.severity(Severity::Blocker) } else { f });
    }
}

/// An RKE `cluster.yml` holding values RKE refuses when it reads the file: `rke up` stops before it
/// touches a node ("Failed to parse the cluster file"), so the upgrade never starts. A blocker, at the
/// file's first such value.
pub fn rke_config(
    rke: &crate::model::distro::RkeConfig,
    file: Option<&crate::report::DistributionConfig>,
) -> Option<Finding> {
    let (line, _, _) = rke.problems.first()?;
    let fields: Vec<String> = rke.problems.iter().map(|(l, field, why)| format!("{field} (line {l}): {why}")).collect();
    let mut f = Finding::new(
        &INFO,
        format!("RKE refuses this cluster.yml, so `rke up` stops before the upgrade starts: {}", fields.join("; ")),
        "Write the value as RKE's YAML reader types it (booleans unquoted: `drain: true`; numbers unquoted) and check again.",
    )
    .severity(Severity::Blocker)
    .data("fields", fields);
    if let Some(c) = file {
        f.source = Some(crate::model::Source { file: c.file.as_str().into(), line: Some(*line), via: None });
    }
    Some(f)
}
