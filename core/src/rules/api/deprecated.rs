//! `api/deprecated`: an object uses a group/version deprecated at the target and removed later.

use crate::apis::Status;
use crate::report::{Finding, Severity};
use crate::rules::{Context, RuleInfo};

pub const INFO: RuleInfo = RuleInfo {
    code: "api/deprecated",
    severity: Severity::Warning,
    title: "An object uses an API version that is deprecated at the target",
    needs_from: false,
};

/// What the rule checks, why it matters for an upgrade, an example, how to fix, references (Markdown):
/// apart from [`INFO`], so that what lists the rules links no docs.
pub const DOCS: &str = r#"## What it checks
Like `api/removed`, against the same table and the same places an apiVersion hides (manifest,
last-applied configuration, managed fields, Helm releases), but for versions the target still serves
while they are deprecated (`deprecatedIn <= target < removedIn`). APIs deprecated by their provider with
no Kubernetes version attached (the external snapshotter's `v1beta1`) are reported too.

## Why it matters for an upgrade
A deprecated version works today and breaks at a known later minor. The API server already answers with
a warning header; fixing the manifests now keeps the next upgrade from becoming a blocker.

## Example
`flowcontrol.apiserver.k8s.io/v1beta3` FlowSchema at `--to 1.29.2`: warning, deprecated 1.29, removed 1.32.

## How to fix
Move the manifest to the replacement version at your next change; `data.removedIn` says by when.

## References
- Kubernetes deprecation policy: <https://kubernetes.io/docs/reference/using-api/deprecation-policy/>
- Deprecated API migration guide: <https://kubernetes.io/docs/reference/using-api/deprecation-guide/>
"#;

pub fn check(ctx: &Context<'_>, out: &mut Vec<Finding>) {
    super::report(ctx, out, Status::Deprecated, &INFO);
}
