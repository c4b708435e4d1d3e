//! `helm/kube-version-refused`: a deployed Helm release's chart declares a `kubeVersion` a hop's version
//! does not satisfy.

use crate::helm::kube_version_allows;
use crate::report::{Finding, Severity};
use crate::rules::{Context, RuleInfo};

pub const INFO: RuleInfo = RuleInfo {
    code: "helm/kube-version-refused",
    severity: Severity::Warning,
    title: "A Helm release's chart declares a kubeVersion the target does not satisfy: Helm refuses its next upgrade",
    needs_from: false,
};

/// What the rule checks, why it matters for an upgrade, an example, how to fix, references (Markdown):
/// apart from [`INFO`], so that what lists the rules links no docs.
pub const DOCS: &str = r#"## What it checks
Every deployed Helm 3 release read from its record (`sh.helm.release.v1.*` Secrets or ConfigMaps) whose
chart declares `kubeVersion` (`chart.metadata.kubeVersion`), against each hop's version, as Helm checks it
before it installs or upgrades a chart (`chartutil.IsCompatibleRange`, Masterminds/semver v3 constraints:
`||` alternatives, comparisons apart by spaces or commas, `~`, `^`, `x` wildcards, hyphen ranges, and a
version with a prerelease tag ranking below its release, which is why charts write `>=1.21.0-0`). A hop
given as a minor alone (`1.28`) is judged at its lowest and highest patch; a constraint that one allows and
the other refuses is not a finding. A `kubeVersion` Helm cannot read is refused by Helm at every version.

## Why it matters for an upgrade
The release keeps running, but from that hop on `helm upgrade` (and `helm install`) of that chart version
fails with "chart requires kubeVersion: ... which is incompatible with Kubernetes ...": the fixes and the API
migrations that come as chart upgrades cannot be applied until the chart is moved to a version that allows
the new Kubernetes version.

## Example
Release `monitoring/prom` of chart `kube-prometheus-stack-45.0.0` with `kubeVersion: ">=1.21.0-0 <1.29.0-0"`,
upgraded to 1.29.2: warning at hop 1.29.2.

## How to fix
Upgrade the release to a chart version whose `kubeVersion` includes the target, before the cluster upgrade.

## References
- Helm, the Chart.yaml file, `kubeVersion`: <https://helm.sh/docs/topics/charts/#the-kubeversion-field>
- helm `pkg/chartutil/capabilities.go`, `IsCompatibleRange`; `pkg/action/install.go`
- Masterminds/semver `constraints.go` and `constraints_test.go`
"#;

/// Does the constraint refuse Kubernetes 1.minor at every patch it may be at (`Ok(None)`: it depends)?
fn refuses(constraint: &str, minor: u32, patch: Option<u32>) -> Result<Option<bool>, String> {
    match patch {
        Some(p) => Ok(Some(!kube_version_allows(constraint, minor, p)?)),
        None => {
            let low = kube_version_allows(constraint, minor, 0)?;
            let high = kube_version_allows(constraint, minor, 999)?;
            Ok((low == high).then_some(!low))
        }
    }
}

pub fn check(ctx: &Context<'_>, out: &mut Vec<Finding>) {
    for rel in &ctx.helm_releases {
        let Some(kv) = rel.kube_version.as_deref() else { continue };
        let record = ctx
            .lookup("Secret", &rel.namespace, &rel.record)
            .or_else(|| ctx.lookup("ConfigMap", &rel.namespace, &rel.record));
        let finding = |message: String, hop: Option<String>| {
            let mut f = Finding::new(
                &INFO,
                message,
                "Upgrade the release to a chart version whose kubeVersion includes the target, before the cluster upgrade.",
            )
            .data("release", format!("{}/{}", rel.namespace, rel.name))
            .data("chart", rel.chart.clone())
            .data("kubeVersion", kv.to_owned());
            if let Some(o) = record {
                f = f.object(o);
            }
            if let Some(h) = hop {
                f = f.hop(h);
            }
            f
        };
        let mut first = None;
        for hop in &ctx.path {
            // A distribution's own version (OpenShift 4.16.3) names a Kubernetes minor, not its patch.
            let patch = if hop.product.is_some() { None } else { hop.patch };
            match refuses(kv, hop.minor, patch) {
                Err(e) => {
                    out.push(finding(
                        format!(
                            "Helm release {}/{} (chart {}) declares kubeVersion {kv:?}, which Helm cannot read ({e}): it refuses to install or upgrade that chart on any version",
                            rel.namespace, rel.name, rel.chart
                        ),
                        None,
                    ));
                    first = None;
                    break;
                }
                Ok(Some(true)) => {
                    first = Some(hop);
                    break;
                }
                Ok(_) => {}
            }
        }
        let Some(hop) = first else { continue };
        let now = ctx
            .from
            .as_ref()
            .and_then(|f| refuses(kv, f.minor, if f.product.is_some() { None } else { f.patch }).ok().flatten())
            == Some(true);
        out.push(finding(
            format!(
                "Helm release {}/{} (chart {}) declares kubeVersion {kv:?}, which Kubernetes {hop} does not satisfy: from that hop on, helm upgrade of this chart version is refused{}",
                rel.namespace,
                rel.name,
                rel.chart,
                if now { " (it is already refused at the current version)" } else { "" }
            ),
            Some(hop.to_string()),
        ));
    }
}
