//! `api/removed`: an object uses a group/version the target no longer serves.

use crate::apis::Status;
use crate::report::{Finding, Severity};
use crate::rules::{Context, RuleInfo};

pub const INFO: RuleInfo = RuleInfo {
    code: "api/removed",
    severity: Severity::Blocker,
    title: "An object uses an API version the target no longer serves",
    needs_from: false,
};

/// What the rule checks, why it matters for an upgrade, an example, how to fix, references (Markdown):
/// apart from [`INFO`], so that what lists the rules links no docs.
pub const DOCS: &str = r#"## What it checks
Looks up every object's apiVersion and kind in the removal table (111 rows from 1.16 to 1.39, compiled in)
and reports those removed at or before the target. The original apiVersion is read from the manifest,
from the `kubectl.kubernetes.io/last-applied-configuration` annotation (when its kind matches), from
`metadata.managedFields[].apiVersion`, and from Helm 3 release records (`sh.helm.release.v1.*` Secrets,
deployed releases only). With several hops the finding names the hop where it first breaks. An
annotation or managed field naming an API that the *current* version already does not serve is reported
as a warning: the manifest behind it is stale, but this upgrade does not change that.

## Why it matters for an upgrade
Once the API server stops serving a group/version, every `kubectl apply`, Helm upgrade or GitOps sync that
still sends it fails, and Helm cannot even read a release that contains it. A snapshot read back from the
API server shows the new version, so the old one hides in annotations, managed fields and release records:
exactly where peers miss it.

## Example
`extensions/v1beta1` Ingress in a chart, `--to 1.22.0`: blocker, replacement `networking.k8s.io/v1`,
`removedIn: 1.22`. `flowcontrol.apiserver.k8s.io/v1beta2` FlowSchema at `--to 1.29.2`: blocker at hop 1.29.

## How to fix
Move the manifest to the replacement version (mind schema changes: Ingress backends, CronJob fields,
PDB selectors), use `kubectl convert` where it helps, upgrade charts, and rewrite stored Helm releases
with helm-mapkubeapis before the upgrade.

## References
- Kubernetes deprecated API migration guide: <https://kubernetes.io/docs/reference/using-api/deprecation-guide/>
- helm-mapkubeapis: <https://github.com/helm/helm-mapkubeapis>
"#;

pub fn check(ctx: &Context<'_>, out: &mut Vec<Finding>) {
    super::report(ctx, out, Status::Removed, &INFO);
}
