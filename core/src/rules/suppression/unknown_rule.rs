//! `suppression/unknown-rule`: a `kube-preflight.io/ignore` annotation names a rule that does not exist.

use crate::model::display_ref;
use crate::report::{Finding, Severity};
use crate::rules::{Context, RuleInfo};

use super::{annotation_codes, known_pattern, IGNORE};

pub const INFO: RuleInfo = RuleInfo {
    code: "suppression/unknown-rule",
    severity: Severity::Warning,
    title: "An ignore annotation names no rule",
    needs_from: false,
};

/// What the rule checks, why it matters for an upgrade, an example, how to fix, references (Markdown):
/// apart from [`INFO`], so that what lists the rules links no docs.
pub const DOCS: &str = r#"## What it checks
The annotation `kube-preflight.io/ignore` on every object read: a comma-separated list of rule codes
(`api/removed`), categories (`disruption/*`) or `*`. An entry that names no rule is reported. The
annotation suppresses the listed rules' findings on the object itself and, on a workload (Deployment,
StatefulSet, DaemonSet, Job, CronJob), on its pods; `kube-preflight.io/ignore-reason` says why.

## Why it matters for an upgrade
A misspelt code (`disruption/single-replicas`) suppresses nothing: the team believes a finding is
accepted, and the gate keeps failing on it, or worse, they stop reading the gate.

## Example
```yaml
metadata:
  annotations:
    kube-preflight.io/ignore: disruption/single-replicas
```
warning: `disruption/single-replicas` names no rule (`disruption/single-replica` does).

## How to fix
Write the code as `kube-preflight rules` lists it, or a category with `/*`.

## References
- Polaris, exemptions by annotation: https://polaris.docs.fairwinds.com/customization/exemptions/
"#;

pub fn check(ctx: &Context<'_>, out: &mut Vec<Finding>) {
    for o in ctx.objects.iter() {
        let Some(value) = o.annotations.get(IGNORE) else { continue };
        let unknown: Vec<&str> = annotation_codes(value).filter(|c| !known_pattern(c)).collect();
        if unknown.is_empty() {
            continue;
        }
        out.push(
            Finding::new(
                &INFO,
                format!(
                    "{} has {IGNORE}: {} names no rule, so it suppresses nothing",
                    display_ref(&o.r),
                    unknown.iter().map(|c| format!("{c:?}")).collect::<Vec<_>>().join(", ")
                ),
                "Write the codes as `kube-preflight rules` lists them (or `category/*`).",
            )
            .object(o)
            .data("unknown", unknown.iter().map(|c| (*c).to_owned()).collect::<Vec<_>>()),
        );
    }
}
