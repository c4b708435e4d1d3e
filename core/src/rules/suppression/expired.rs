//! `suppression/expired`: an exemption past its `expires` date; it no longer suppresses anything.

use crate::report::{Finding, Severity};
use crate::rules::{Context, RuleInfo};

use super::expired as is_expired;

pub const INFO: RuleInfo = RuleInfo {
    code: "suppression/expired",
    severity: Severity::Warning,
    title: "An exemption has expired",
    needs_from: false,
};

/// What the rule checks, why it matters for an upgrade, an example, how to fix, references (Markdown):
/// apart from [`INFO`], so that what lists the rules links no docs.
pub const DOCS: &str = r#"## What it checks
Each entry of the options' `exemptions` with an `expires` date (`YYYY-MM-DD`, the last day it holds)
that is before today. The CLI and the JS API take today's date in UTC unless the options give `today`.
An expired exemption suppresses nothing: the findings it covered count again, and this warning says why
they came back.

## Why it matters for an upgrade
An exemption with a date is a promise: "we accept this until the migration is done". Once the date has
passed, the risk it hid is back in the verdict, and the team should know that it is back because the
promise ran out, not because the cluster changed.

## Example
```yaml
exemptions:
  - rule: api/deprecated
    namespace: payments
    reason: migrating to autoscaling/v2 in sprint 48
    expires: 2026-10-31
```
checked on 2026-11-24: warning, `exemptions[0]` expired on 2026-10-31, and the payments findings count.

## How to fix
Fix what the exemption covered, or, if the risk is still accepted, set a new `expires` date with a
reason a reviewer will accept.

## References
- Polaris, exemptions: https://polaris.docs.fairwinds.com/customization/exemptions/
- SARIF 2.1.0, `suppression` objects (section 3.35): https://docs.oasis-open.org/sarif/sarif/v2.1.0/sarif-v2.1.0.html
"#;

pub fn check(ctx: &Context<'_>, out: &mut Vec<Finding>) {
    let today = ctx.options.today;
    for (i, e) in ctx.options.exemptions.iter().enumerate().filter(|(_, e)| is_expired(e, today)) {
        // An expired exemption has both dates.
        let (Some(last), Some(today)) = (e.expires, today) else { continue };
        out.push(
            Finding::new(
                &INFO,
                format!(
                    "exemptions[{i}] for {} expired on {last} (today is {today}){}: the findings it covered count again",
                    e.rule,
                    e.reason.as_ref().map(|r| format!(", reason given: {r}")).unwrap_or_default()
                ),
                "Fix what it covered, or give it a new expiry date if the risk is still accepted.",
            )
            .data("exemption", i)
            .data("rule", e.rule.clone())
            .data("expires", last.to_string())
            .data("today", today.to_string()),
        );
    }
}
