//! `platform/version-refused`: gKE on Bare Metal: bmctl refuses this version change.

use crate::report::Finding;
use crate::report::Severity;
use crate::rules::{Context, RuleInfo};

pub const INFO: RuleInfo = RuleInfo {
    code: crate::cluster::platform::VERSION_REFUSED,
    severity: Severity::Blocker,
    title: "GKE on Bare Metal: bmctl refuses this version change",
    needs_from: false,
};

/// What the rule checks, why it matters for an upgrade, an example, how to fix, references (Markdown):
/// apart from [`INFO`], so that what lists the rules links no docs.
pub const DOCS: &str = r#"## What it checks
Under `--profile gke-baremetal`, with `--to`/`--from` read as GKE on Bare Metal product versions (`1.16.0`,
`1.30.100-gke.96`; 1.10 to 1.16 ship Kubernetes 1.21 to 1.27, from 1.28 the minors are Kubernetes'):
- any downgrade, a patch included;
- more than one minor at once (1.16 to 1.28 is one; two only to 1.33 or later, with the annotation
  `preview.baremetal.cluster.gke.io/skip-minor-version-cluster-upgrade: enable` on the Cluster);
- an admin or hybrid cluster upgraded more than one minor (two from 1.30) ahead of a user cluster it
  manages (the user clusters' `Cluster` objects live in the admin cluster);
- a worker `NodePool` (its `status.anthosBareMetalVersion`) more than two minors behind the target (one up to
  1.28), or newer than it.

## Why it matters for an upgrade
`bmctl upgrade cluster` refuses these before touching anything.

## Example
Current 1.14.2, `--to 1.16.0`: two minors; admin cluster at 1.29 with a user cluster at 1.28, `--to 1.30.0`
is fine (n-2 from 1.30), `--to 1.29` for a user cluster newer than its admin is not.

## How to fix
Upgrade one minor at a time (`upgrade.path`), user clusters before their admin cluster moves on.

## References
- Google Distributed Cloud for bare metal: "Lifecycle and stages of cluster upgrades" (version rules, version skew)
- Google Distributed Cloud for bare metal: "Upgrade clusters"; "Versioning" (version history)
"#;

pub fn check(ctx: &Context<'_>, out: &mut Vec<Finding>) {
    super::report(ctx, &INFO, out);
}
