//! `suppression/unused`: an exemption in the options that matched no finding.

use crate::options::Exemption;
use crate::report::{Finding, Severity};
use crate::rules::RuleInfo;

pub const INFO: RuleInfo = RuleInfo {
    code: "suppression/unused",
    severity: Severity::Info,
    title: "An exemption matches no finding",
    needs_from: false,
};

/// What the rule checks, why it matters for an upgrade, an example, how to fix, references (Markdown):
/// apart from [`INFO`], so that what lists the rules links no docs.
pub const DOCS: &str = r#"## What it checks
Each entry of the options' `exemptions` (in a `--config` file, or the JS API's options) that is in force
(not past its `expires` date) and matched no finding of this run. Reported after every rule has run and
every suppression is applied.

## Why it matters for an upgrade
An exemption outlives its reason: the workload was fixed, renamed or moved, and the entry now waits to
hide the next, unrelated finding that happens to match it. A list of exemptions kept short and current
is one a reviewer can still read before an upgrade.

## Example
```yaml
exemptions:
  - rule: disruption/single-replica
    namespace: legacy-*
    reason: batch jobs, re-run by hand
```
with no namespace matching `legacy-*` left: info, `exemptions[0]` matched nothing.

## How to fix
Remove the entry, or correct its `rule`, `kind`, `namespace` or `name` so that it names what it was
meant to.

## References
- ESLint, `--report-unused-disable-directives`: https://eslint.org/docs/latest/use/command-line-interface#--report-unused-disable-directives
- Polaris, exemptions: https://polaris.docs.fairwinds.com/customization/exemptions/
"#;

/// The finding for exemption `i`.
pub fn finding(i: usize, e: &Exemption) -> Finding {
    let mut scope = Vec::new();
    for (k, v) in [("kind", &e.kind), ("namespace", &e.namespace), ("name", &e.name)] {
        if let Some(v) = v {
            scope.push(format!("{k} {v}"));
        }
    }
    let scope = if scope.is_empty() { String::new() } else { format!(" ({})", scope.join(", ")) };
    Finding::new(
        &INFO,
        format!("exemptions[{i}] for {}{scope} matched no finding", e.rule),
        "Remove the exemption, or correct what it names.",
    )
    .data("exemption", i)
    .data("rule", e.rule.clone())
}
